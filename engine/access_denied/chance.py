"""Resolving CHANCE nodes from a source of uniform randomness the caller supplies.

The engine holds no randomness. Simulations pass a seeded `random.Random`; the network layer passes
values derived from the players' joint beacon. `chance_event` shapes the event; `deck_faces` says which
faces the new handles of a shuffle hold (as a multiset) so an omniscient caller can assign them.
"""

from __future__ import annotations

from typing import Any, Protocol

from adp2p.engine.access_denied.api import Decision
from adp2p.engine.access_denied.state import GameState


class Randomness(Protocol):
    def randrange(self, n: int) -> int: ...

    def sample(self, population: list[Any], k: int) -> list[Any]: ...

    def shuffle(self, x: list[Any]) -> None: ...


def chance_event(st: GameState, d: Decision, rng: Randomness) -> dict[str, Any]:
    what = d.kind.split(":", 1)[1]
    if what == "sectors":
        perm = list(range(6))
        rng.shuffle(perm)
        return {"t": "sectors", "perm": perm}
    if what == "shuffle":
        return {"t": "shuffle"}
    if what == "first":
        return {"t": "first", "p": rng.randrange(st.n)}
    if what == "pick":
        return {"t": "random", "picks": rng.sample(list(d.info["from"]), d.info["k"])}
    raise AssertionError(d.kind)


def deck_faces(st: GameState) -> list[int]:
    """The faces a pending shuffle will hold: all 63 cards first, later the discard pile's faces."""
    if st.next_handle == 0:
        return list(range(63))
    return [st.faces[h] for h in st.discard]
