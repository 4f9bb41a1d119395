"""What a game adds to the machine, and what it does when the game adds nothing: the hooks through which a game's own
committed secrets (commitments made with an event, openings shown with a card or revealed at the end, proofs about
them, the evidence a lie about them becomes) enter the fold. A game lists its parts in `Game.machine_parts`; the
machine of that game is `Machine` with those parts after the core's and `GamePart` last (p2p/machine/machine.py), so
a game's part overrides these defaults and a test's subclass of `Machine` overrides both.

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from typing import Any

from adp2p.p2p.machine.common import AuditReport, Event, Round, _check_event_shape
from adp2p.p2p.protocol import ProtocolError, need


class GamePart:
    """The hooks, with what a game without committed secrets does."""

    face_evidence: frozenset[str] = frozenset()  # evidence kinds (certificates of faces) the game's part judges

    def _init_part(self) -> None:
        """Set up the part's own records (called at the end of `Machine.__init__`)."""

    def _event(self, seat: int, body: dict[str, Any]) -> None:
        """An event entry: `{"ev": event}` through the rules."""
        ev = need(body, "ev", dict)
        _check_event_shape(ev, self.game.bool_fields)
        if self.game.is_chance_event(ev):
            raise ProtocolError(seat, "chance events are derived, never authored")
        self._engine(seat, ev)

    def prepare_ahead(self) -> bool:
        """Work of this seat's that may be done ahead while another seat is on duty (a proof it will owe); the peer
        calls it when it waits. True if it did some (then it is called again)."""
        return False

    def _event_body(self, ev: Event) -> dict[str, Any]:
        """The fields this seat's event entry carries beside `ev` (commitments, proofs)."""
        return {}

    def _note(self, before: Any, ev: Event) -> None:
        """Remember what the immediate checks need from an event just applied (`before`: the state it applied to)."""

    def _game_checks(self, new: set[int]) -> None:
        """The game's immediate checks against the faces this peer knows (set `self._evidence` to post)."""

    def _verify_game_evidence(
        self, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Any:
        """A verdict from evidence of kind `what` in `face_evidence` (ProtocolError(accuser) if false)."""
        raise ProtocolError(accuser, f"unknown evidence {what!r}")

    def _opening_due(self, seat: int, h: int) -> bool:
        """Whether `seat`, showing handle h, must open a commitment with it (`[value, salt]` in its share item)."""
        return False

    def _check_opening(self, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        if opening is not None:
            raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")

    def _check_shown(self, rnd: Round, faces: dict[int, int]) -> bool:
        """The faces of a finished round against the openings shown with them; True: a verdict stops the game."""
        return False

    def _secret_fields(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """The game's fields of a secrets entry, checked in shape (kept in `self.revealed[seat]`)."""
        return {}

    def _author_secret_fields(self) -> dict[str, Any]:
        return {}

    def _secrets_game_bytes(self) -> int:
        """The most the game's fields of an honest seat's secrets body take (p2p/secrets_size.py)."""
        return 0

    def _audit_secrets(self, rep: AuditReport, full: dict[int, int]) -> None:
        """The audit's check of the game's commitments against every face (`full`)."""
