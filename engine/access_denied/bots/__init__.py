"""Bots: strategies that choose only among the engine's legal events.

A bot is a callable `bot(view, seat, legal_events) -> event` for one seat of one game (it may keep
state across calls); `make_bot(name, seed)` builds one by strategy name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.access_denied.bots.deduction import DeductionBot
from adp2p.engine.access_denied.bots.random_bot import RandomBot

STRATEGIES: dict[str, Callable[..., Any]] = {"random": RandomBot, "deduction": DeductionBot}


def make_bot(name: str, seed: int | None = None) -> Any:
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown bot strategy {name!r}; choose one of {', '.join(STRATEGIES)}") from None
    return cls(seed)


__all__ = ["STRATEGIES", "DeductionBot", "RandomBot", "make_bot"]
