"""Resolving CHANCE from a caller's uniform randomness (a seeded RNG in simulations, the joint beacon at a table):
dice, the start player, the Boss's place card, the place cards of INFORMATION EXCHANGE and PARTNER, shuffles, and
the hack pad controller's private roll (its value for that seat only: `secret`, to be sealed by the caller)."""

from __future__ import annotations

from typing import Any, Protocol

from adp2p.engine.hacker.api import Decision
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import deck_faces


class Randomness(Protocol):
    def randrange(self, n: int) -> int: ...

    def shuffle(self, x: list[Any]) -> None: ...

    def choice(self, xs: list[Any]) -> Any: ...


def chance_event(st: HState, d: Decision, rng: Randomness) -> dict[str, Any]:
    what = d.kind.split(":", 1)[1]
    if what == "shuffle":
        return {"t": "shuffle"}
    if what == "roll":
        return {"t": "roll", "dice": [1 + rng.randrange(6) for _ in range(d.info["k"])]}
    if what == "private_roll":
        return {"t": "private_roll", "p": d.info["p"], "c": "", "secret": [1 + rng.randrange(6) for _ in range(2)]}
    if what == "start":
        return {"t": "start", "p": rng.randrange(st.n)}
    if what == "boss":
        return {"t": "boss", "at": rng.choice(d.info["at"])}
    if what in ("deal", "pairs"):
        perm = list(range(st.n if what == "deal" else 6))
        rng.shuffle(perm)
        return {"t": what, "perm": perm}
    raise AssertionError(d.kind)


__all__ = ["chance_event", "deck_faces"]
