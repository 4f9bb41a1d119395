"""What every part of the game machine shares: its records (`Duty`, `Round`, `Verdict`, `AuditReport`), the
limits of entry bodies, and the small helpers its parts use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adp2p.crypto.entries import Entry, decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.crypto.identity import PublicIdentity
from adp2p.p2p.game import Chooser, Event
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, need

__all__ = ["Chooser", "Event"]


@dataclass(frozen=True)
class Duty:
    seat: int
    kind: Kind
    what: str = ""


@dataclass
class Round:
    """A reveal round: the shares due after one engine step, supplier by supplier (in seat order)."""

    duties: dict[int, list[tuple[int, int, str]]]  # supplier -> [(handle, learners mask, "own"|"cert")]
    public: set[int]  # handles revealed to everyone: their shares travel in clear
    learners: dict[int, int]  # handle -> learners mask
    order: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = sorted(self.duties)


@dataclass
class Verdict:
    seat: int | None
    rule: str
    msg: str
    seq: int | None = None  # the entry that shows it (None: no single entry)


BODY_FIELDS: dict[int, set[str]] = {  # the core's fields of an entry body of each kind (docs/protocol.md); a game
    Kind.JOIN: {"deck_key", "deck_proof", "beacon_head"},  # adds its own (`Game.event_fields` and the like)
    Kind.LINK: {"k", "link"},
    Kind.SHUFFLE: {"deck", "proof"},
    Kind.SHARES: {"pub", "sealed"},
    Kind.EVENT: {"ev", "passes"},
    Kind.SECRETS: {"deck_secret", "box_secret", "witnesses"},
    Kind.ABANDON: {"silent", "seq", "passes", "left"},
    Kind.EVIDENCE: {"what", "raw", "reason", "certs", "box_secret", "a", "b", "token"},
}


def carried_entry(body: dict[str, Any], ids: Sequence[PublicIdentity], poster: int) -> Entry:
    """The signed entry an evidence body carries in `raw` (`refused`, `also`, `protest`), decoded and verified against
    its author's key; anything else is the poster's false evidence."""
    raw = need(body, "raw", bytes)
    try:
        e = decode_entry(raw)
        verify_entry(e, ids[e.author])
    except (CryptoError, IndexError, MalformedEncoding) as exc:
        raise ProtocolError(poster, f"false evidence: the entry does not verify: {exc}") from None
    return e


def _check_event_shape(ev: dict[str, Any], bool_fields: Mapping[str, bool]) -> None:
    """An engine event's shape, before the engine sees it: string keys, values that are ints (never bools, except
    the game's bool fields), short strings, or flat lists of ints; a bool field holds bools only."""
    if len(ev) > 16:
        raise BodyError("an event has at most 16 fields")
    for k, v in ev.items():
        if not isinstance(k, str) or len(k) > 32:
            raise BodyError("event field names are short strings")
        if k in bool_fields:
            vals = v if bool_fields[k] and isinstance(v, list) else [v]
            if bool_fields[k] != isinstance(v, list) or len(vals) > 8 or any(type(x) is not bool for x in vals):
                raise BodyError(f"event field {k!r} has the wrong type")
        elif isinstance(v, list):
            if len(v) > 64 or any(type(x) is not int for x in v):
                raise BodyError(f"event field {k!r} is a list of ints")
        elif not (type(v) is int or v is None or (isinstance(v, str) and len(v) <= 32)):
            raise BodyError(f"event field {k!r} has the wrong type")


def _kind_name(kind: int) -> str:
    return Kind(kind).name.lower() if kind in Kind._value2member_map_ else f"kind-{kind}"


MAX_PASSES = 48  # pass tokens one entry may carry (a turn's windows hold far fewer decisions)
MAX_WITNESS_BYTES = 64 * 1024  # a shuffle witness of 63 cards is ~4 KB


def _is_int(item: Any, size: int, *, ints: int = 1) -> bool:
    """`item` is a list of `size` values whose first `ints` are ints (never bools)."""
    return isinstance(item, list) and len(item) == size and all(type(x) is int for x in item[:ints])


def _no_card(h: int, seq: int | None) -> Verdict:
    """The verdict on a card whose proven shares open to no card: nobody named until the audit."""
    return Verdict(
        None,
        "deck",
        f"handle {h} opens to no card with every seat's proven share: a shuffle is corrupt (the audit names the "
        "shuffler)",
        seq,
    )


@dataclass
class AuditReport:
    violations: list[Verdict] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def violation(self, seat: int | None, rule: str, msg: str, seq: int | None = None) -> None:
        self.violations.append(Verdict(seat, rule, msg, seq))
