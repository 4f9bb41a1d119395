"""The random bot: uniform over the legal events it is given (a seeded `random.Random`)."""

from __future__ import annotations

import random
from typing import Any

from adp2p.engine.access_denied.state import GameState


class RandomBot:
    """Callable bot for one seat: `bot(view, seat, legal_events) -> one of legal_events`."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, st: GameState, seat: int, options: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(options)
        if not n:
            raise ValueError(f"seat {seat} was asked to decide with no legal events")
        return options[self.rng.randrange(n)]
