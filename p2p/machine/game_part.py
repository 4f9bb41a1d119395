"""A game's table part: the object through which a game's own committed secrets (commitments made with an event,
openings shown with a card or revealed at the end, proofs about them, the evidence a lie about them becomes) enter
the fold, and `Fold`, what such a part sees of the fold that calls it.

The fold (`Machine`, p2p/machine/machine.py) owns the log's state; the game supplies one `TablePart` per fold
(`Game.table_part()`), which keeps its own records (Access Denied's commitments and answers, Hacker's seals) and
nothing else. The fold calls the part's hooks with explicit arguments: the fold's public state (`fold`, read
through `Fold` only), what arrived (a seat, an entry body, an event, the faces a round showed) and the state
before; a hook returns what it decided (the event to apply, a state that knows more, the evidence to post, a
verdict, the fields of a body) or raises `ProtocolError` naming the seat at fault. A hook never sets the fold's
attributes. `TablePart` itself is the part of a game without committed secrets: each hook's default.

A part is tested alone against a fake fold of plain values (tests/games/<game>/): any object with the members of
`Fold`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from adp2p.crypto.deck import DeckKey, Share
from adp2p.crypto.group import CardTable
from adp2p.crypto.identity import PublicIdentity
from adp2p.p2p.game import Game
from adp2p.p2p.machine.common import Duty, Event, Round, Verdict, _check_event_shape
from adp2p.p2p.piles import HandleMap
from adp2p.p2p.protocol import ProtocolError, need
from adp2p.p2p.seat_secrets import SeatSecrets


class Fold(Protocol):
    """What a table part may read of the fold that calls it (its public state), and the checks it may ask of it."""

    game: Game
    n: int
    seat: int | None  # this peer's seat (None: an observer's or the audit's fold)
    me: SeatSecrets | None  # this seat's secrets (a part keeps its openings in `me.openings`)
    game_id: bytes
    ids: list[PublicIdentity]
    version: int  # the log's protocol version
    table: CardTable
    state: Any  # the game's state now
    entries: int  # the seq of the entry being applied (when authoring: of the entry being made)
    keys: list[tuple[bytes, bytes] | None]  # per seat: (deck key, its proof)
    hmap: HandleMap  # handle -> ciphertext
    shares: dict[int, dict[int, Share]]  # handle -> seat -> verified share (what this peer holds)
    deck_key: DeckKey | None
    round: Round | None
    openings_shown: dict[int, tuple[int, bytes]]  # handle -> the opening shown with its card
    sources: list[tuple[int, int | None]]  # per engine event: (entry seq, author)
    revealed: dict[int, dict[str, Any]]  # seat -> its end-of-game secrets
    proof_seed: bytes | None  # fixed only by seeded test tables (reproducible proofs)

    @property
    def finished(self) -> bool: ...

    def duty(self) -> Duty | None: ...

    def cert(self, h: int) -> list[Any] | None:
        """A transferable certificate of handle h's face (None if this peer does not hold every share)."""

    def box_viewer(self) -> int | None:
        """The seat whose sealed boxes this fold opens (None: none)."""

    def open_box(self, sender: int, viewer: int, ctx: bytes, box: bytes) -> bytes:
        """Open a box `sender` sealed to `viewer` (CryptoError if it does not open)."""

    def check_shares(self, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
        """Each (deck key, share) of handle h supplied by `seat` carries a valid proof (else ProtocolError(seat))."""

    def proof_check(self, fn: Callable[..., None], *args: Any) -> None:
        """A costly, pure proof check (`fn(*args)` raises CryptoError if it fails): in line, or in the audit's pool."""

    def draw_secret(self, what: str, index: int) -> bytes | None:
        """A secret of this seat's the game draws (None: fresh from the OS; a seeded test table fixes it)."""


@dataclass(frozen=True)
class Shown:
    """What a part decided about the openings shown with a round's cards: a verdict that stops the game at once (a
    lie every peer saw), and/or evidence this peer should post (a lie only the learners saw)."""

    verdict: Verdict | None = None
    evidence: dict[str, Any] | None = None


class TablePart:
    """The hooks, with what a game without committed secrets does (one object per fold; copied with it)."""

    face_evidence: frozenset[str] = frozenset()  # evidence kinds (certificates of faces) the part judges

    # ------------------------------------------------------------------ an event entry, arriving

    def check_event(self, fold: Fold, seat: int, body: dict[str, Any]) -> Event:
        """An event entry's body before the rules: the engine event to apply (ProtocolError/BodyError if the body
        is not one `seat` may send)."""
        ev = need(body, "ev", dict)
        _check_event_shape(ev, fold.game.bool_fields)
        if fold.game.is_chance_event(ev):
            raise ProtocolError(seat, "chance events are derived, never authored")
        return ev

    def after_event(self, fold: Fold, seat: int, body: dict[str, Any], ev: Event, before: Any) -> Any:
        """After the rules applied `ev` (`before`: the state it applied to; `fold.state` the new one): the checks
        and records that follow. Returns a state that knows more (a secret of this seat's) or None."""
        return None

    def note(self, fold: Fold, before: Any, ev: Event) -> Any:
        """Any event just applied (derived ones too): remember what the immediate checks need. Returns a state that
        knows more, or None."""
        return None

    # ------------------------------------------------------------------ authoring (this seat)

    def event_body(self, fold: Fold, ev: Event) -> dict[str, Any]:
        """The fields this seat's event entry carries beside `ev` (commitments, proofs; an `ev` to send instead)."""
        return {}

    def prepare_ahead(self, fold: Fold) -> bool:
        """Work of this seat's that may be done ahead while another seat is on duty (a proof it will owe); the peer
        calls it when it waits. True if it did some (then it is called again)."""
        return False

    # ------------------------------------------------------------------ the immediate checks and evidence

    def immediate_checks(self, fold: Fold, new: set[int]) -> dict[str, Any] | None:
        """The evidence this peer can post from the faces it knows (`new`: the handles it was just shown)."""
        return None

    def verify_evidence(
        self, fold: Fold, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        """A verdict from evidence of kind `what` in `face_evidence` (ProtocolError(accuser) if false)."""
        raise ProtocolError(accuser, f"unknown evidence {what!r}")

    # ------------------------------------------------------------------ openings shown with a card

    def opening_due(self, seat: int, h: int) -> bool:
        """Whether `seat`, showing handle h, must open a commitment with it (`[value, salt]` in its share item)."""
        return False

    def check_opening(self, fold: Fold, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        """The opening `seat` sent with handle h (None: none) against its commitment (ProtocolError(seat))."""
        if opening is not None:
            raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")

    def opening_record(self, fold: Fold, seat: int, h: int) -> Any:
        """What `check_opening` checks an opening `seat` sends with handle h against, as it stands now (None: no
        opening is due). Kept with each sealed box, so that a `protest` judges the box's openings as its recipient did
        on arrival (p2p/machine/protest.py), whatever the fold holds by then."""
        return None

    def check_recorded_opening(
        self, fold: Fold, seat: int, h: int, record: Any, opening: tuple[int, bytes] | None
    ) -> None:
        """`check_opening` against `record` (`opening_record` when the box was sealed) (ProtocolError(seat))."""
        if opening is not None:
            raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")

    def check_shown(self, fold: Fold, rnd: Round, faces: dict[int, int]) -> Shown:
        """The faces of a finished round against the openings shown with them."""
        return Shown()

    # ------------------------------------------------------------------ the end: secrets and the audit

    def secret_fields(self, fold: Fold, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """The game's fields of a secrets entry, checked (kept in the fold's `revealed[seat]`)."""
        return {}

    def author_secret_fields(self, fold: Fold) -> dict[str, Any]:
        """The game's fields of this seat's secrets entry."""
        return {}

    def secrets_game_bytes(self) -> int:
        """The most the game's fields of an honest seat's secrets body take (p2p/secrets_size.py)."""
        return 0

    def audit_secrets(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """The audit's check of the game's commitments against every face (`full`, every seat's secrets revealed in
        `fold.revealed`): the violations it finds."""
        return []
