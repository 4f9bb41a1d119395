"""The random bot: a uniformly random legal event."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from adp2p.engine.classified.state import CState


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: CState, seat: int, legal: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return legal[self.rng.randrange(len(legal))]
