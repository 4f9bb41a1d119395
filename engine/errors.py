"""The engines' one error, shared by every game's rules: an event that breaks a rule. It names the rule and leaves the
state unchanged."""

from __future__ import annotations


class IllegalEvent(ValueError):
    """An event the rules do not allow now. `rule` is a short stable id (see docs/rules.md, docs/rules-hacker.md)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.message = message
