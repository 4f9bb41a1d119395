"""Game steps: one event through the game's rules (`_engine`, judged by the fold's referee: p2p/machine/referee.py), the
records every event leaves (events, sources, claimed faces), and the reveal round its reveals open.

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from adp2p.p2p.machine.common import Event
from adp2p.p2p.machine.referee import Referee
from adp2p.p2p.protocol import ProtocolError


class StepsPart:
    """Game steps."""

    referee: Referee = Referee()  # runs each event through the rules (a test's cheater: its own)

    def _engine(self, seat: int | None, ev: Event) -> None:
        self.referee.judge(self, seat, ev, self._step)

    def _step(self, seat: int | None, ev: Event) -> None:
        before = self.state
        try:
            new = self.game.apply(self.state, ev)
        except self.game.illegal as exc:
            raise ProtocolError(seat, f"illegal move: {exc}") from None
        self.state = new
        self.events.append(ev)
        self.sources.append((self.entries, seat))
        learned = self.part.note(self, before, ev)
        if learned is not None:
            self.state = learned
        for h, face, claimant in self.game.claims(ev):
            self.claims[h] = (face, claimant)
        self._start_round(new.reveals)
