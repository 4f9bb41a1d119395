"""Resolving CHANCE from a caller's uniform randomness (a seeded RNG in simulations, the joint beacon at a table):
the first player and the random card shown after a failed Assassination Attempt. The shuffle's faces
(`deck_faces`) are dealt by the caller."""

from __future__ import annotations

from typing import Any, Protocol

from adp2p.engine.classified.api import Decision
from adp2p.engine.classified.catalog import deck
from adp2p.engine.classified.state import CState


class Randomness(Protocol):
    def randrange(self, n: int) -> int: ...


def chance_event(st: CState, d: Decision, rng: Randomness) -> dict[str, Any]:
    what = d.kind.split(":", 1)[1]
    if what == "shuffle":
        return {"t": "shuffle"}
    if what == "start":
        return {"t": "start", "p": rng.randrange(2)}
    if what == "show":
        return {"t": "show", "i": rng.randrange(d.info["n"])}
    raise AssertionError(d.kind)


def deck_faces(st: CState) -> list[int]:
    """The faces (a multiset of Card Numbers) the shuffle's handles 0..17 will hold."""
    return deck()


__all__ = ["chance_event", "deck_faces"]
