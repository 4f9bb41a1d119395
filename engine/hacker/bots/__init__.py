"""Hacker bots: strategies that choose only among the engine's legal events. `make_bot(name, seed)`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.hacker.bots.planner import PlannerBot
from adp2p.engine.hacker.bots.random_bot import RandomBot

STRATEGIES: dict[str, Callable[..., Any]] = {"random": RandomBot, "planner": PlannerBot}


def make_bot(name: str, seed: int | None = None) -> Any:
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown Hacker bot {name!r}; choose one of {', '.join(STRATEGIES)}") from None
    return cls(seed)


__all__ = ["STRATEGIES", "PlannerBot", "RandomBot", "make_bot"]
