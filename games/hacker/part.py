"""Hacker's table part (`Game.table_part()`, p2p/machine/game_part.py): its sealed values and private dice
(`Seals`, seals.py: seals as real commitments, each opening checked by every peer on arrival, private rolls) and the
openings of the seals left unopened at the end (`EndOpenings`, end_openings.py: revealed in `secrets`, checked on
arrival, a pad left sealed mid-attempt judged by the audit). The fold calls the hooks with explicit arguments
(`Fold`: its public state) and takes what they return; a zoo cheater replaces a piece
(`HackerPart(seals=...)`, tests/adversaries/_zoo_hacker.py)."""

from __future__ import annotations

from typing import Any

from adp2p.games.hacker.end_openings import EndOpenings
from adp2p.games.hacker.seals import Seals
from adp2p.p2p.machine.common import Event, Verdict
from adp2p.p2p.machine.game_part import Fold, TablePart


class HackerPart(TablePart):
    """Hacker's committed secrets at the table (see the module docstring)."""

    def __init__(self, *, seals: type[Seals] = Seals, ends: type[EndOpenings] = EndOpenings) -> None:
        self.seals = seals()
        self.ends = ends(self.seals)

    def check_event(self, fold: Fold, seat: int, body: dict[str, Any]) -> Event:
        return self.seals.check_event(fold, seat, body)

    def after_event(self, fold: Fold, seat: int, body: dict[str, Any], ev: Event, before: Any) -> Any:
        return self.seals.after_event(fold, seat, body, ev, before)

    def note(self, fold: Fold, before: Any, ev: Event) -> Any:
        return self.seals.note(fold, before, ev)

    def event_body(self, fold: Fold, ev: Event) -> dict[str, Any]:
        return self.seals.event_body(fold, ev)

    def secret_fields(self, fold: Fold, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        return self.ends.secret_fields(fold, seat, body)

    def author_secret_fields(self, fold: Fold) -> dict[str, Any]:
        return self.ends.author_secret_fields(fold)

    def secrets_game_bytes(self) -> int:
        return self.ends.secrets_game_bytes()

    def audit_secrets(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        return self.ends.audit_secrets(fold, full)
