"""Game steps: one event through the game's rules (judged by the fold's referee: p2p/machine/referee.py), the records
every event leaves (events, sources, claimed faces), and the reveal round its reveals open.

An object the fold (`Machine`, p2p/machine/machine.py) holds, stateless: called with the fold, whose log state it
extends."""

from __future__ import annotations

from functools import partial
from typing import Any

from adp2p.p2p.machine.common import Event
from adp2p.p2p.machine.reveals import Reveals
from adp2p.p2p.protocol import ProtocolError

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Steps:
    """Game steps (the reveal round an event's reveals open: `reveals`, p2p/machine/reveals.py)."""

    def __init__(self, reveals: Reveals) -> None:
        self.reveals = reveals

    def event_entry(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        """An event entry: the part checks its body and says the event, the rules apply it, the part checks and
        records what follows (and may say what this seat now knows)."""
        ev = fold.part.check_event(fold, seat, body)
        before = fold.state
        self.engine(fold, seat, ev)
        learned = fold.part.after_event(fold, seat, body, ev, before)
        if learned is not None:
            fold.state = learned

    def engine(self, fold: Fold, seat: int | None, ev: Event) -> None:
        """`ev` by `seat` (None: derived) through the rules, as the fold's referee judges it."""
        fold.referee.judge(fold, seat, ev, partial(self.step, fold))

    def step(self, fold: Fold, seat: int | None, ev: Event) -> None:
        before = fold.state
        try:
            new = fold.game.apply(fold.state, ev)
        except fold.game.illegal as exc:
            raise ProtocolError(seat, f"illegal move: {exc}") from None
        fold.state = new
        fold.events.append(ev)
        fold.sources.append((fold.entries, seat))
        learned = fold.part.note(fold, before, ev)
        if learned is not None:
            fold.state = learned
        for h, face, claimant in fold.game.claims(ev):
            fold.claims[h] = (face, claimant)
        self.reveals.start_round(fold, new.reveals)
