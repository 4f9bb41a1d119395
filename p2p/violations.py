"""What each rule a verdict or the audit names means, in the player's words (English and German): the data is
p2p/data/violations.toml, one entry per rule name of the engine's checks, the machine's verdicts and the audit.

The peer tells a German player the rule in German instead of the machine's English evidence text (which stays in
the log, the audit and the English account); `words(rule, lang)` falls back to the rule's name only for a rule
this table does not know (tests/p2p/test_violations.py finds every rule named in the code, so none should be)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources


@cache
def table() -> dict[str, dict[str, str]]:
    return tomllib.loads(resources.files("adp2p.p2p").joinpath("data/violations.toml").read_text("utf-8"))


def words(rule: str, lang: str) -> str:
    """The rule `rule` in words in `lang` ("en" or "de")."""
    t = table().get(rule)
    return rule if t is None else t.get(lang) or t["en"]  # (as engine/words.py `pick`: the core imports no engine)
