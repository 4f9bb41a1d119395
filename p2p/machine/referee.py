"""The referee: how the fold runs one event through the game's rules (`Machine.step`, the rules and the records every
event leaves). The honest one runs the step as it is.

An object the fold holds (`Machine.referee`), called with the fold, the seat, the event and the step to run: the seam
where a test's cheater judges its own moves as the other peers can (on public faces only), so that a lie the others
cannot see at once does not stop its own fold (tests/adversaries/_zoo.py, `Blind`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.p2p.machine.common import Event

Step = Callable[[int | None, Event], None]


class Referee:
    """Runs every event through the rules as it is (`fold`: the `Machine` it judges for, whose state a cheater's
    referee changes around the step)."""

    def judge(self, fold: Any, seat: int | None, ev: Event, step: Step) -> None:
        step(seat, ev)
