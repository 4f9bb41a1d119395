"""One pipeline for an entry that arrives: frame → schema → signature → chain → fold, each step once, each step's
output the next step's input (docs/protocol.md, "The table"; docs/architecture.md).

- **frame** (`frame`): the wire bytes, strictly decoded into an `Entry` (crypto/entries.py): header fields, the
  exact signed header bytes, the id. `MalformedEncoding` if they do not decode.
- **schema** (`schema`): the entry's body, decoded once (canonical msgpack, a map): an `Arrival`, the entry and its
  body, or the `BodyError` that says why the body does not read (kept, not raised: a malformed body is its author's
  fault only once the signature says who the author is, and the fold names it).
- **signature** (`signature`): the author's Ed25519 signature over the exact header bytes, checked once against the
  roster (`CryptoError`: an unknown seat or a signature that does not verify; nobody can be named by it).
- **chain** (`chain`): the next seq of this log, built on its head, of this game (`ChainError`). A peer's log store
  is its chain step (p2p/logstore.py: it also tells a duplicate, an equivocation and another branch apart); it
  frames and checks signatures with this module's steps.
- **fold** (`fold`): the arrival into a game machine (`Machine.fold`): the rules, the proofs, the reveals
  (`ProtocolError` naming the seat at fault, or the body's `BodyError`).

`Pipeline` binds the steps to one game (its roster and id): the peer, `LocalTable` and the audit each run an entry
through it. Nothing here decodes or verifies twice: a later step reads what an earlier one produced.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from adp2p.crypto.entries import Entry, Identities, decode_entry, verify_entry
from adp2p.crypto.errors import ChainError
from adp2p.p2p.protocol import BodyError, Kind, decode_body


@dataclass(frozen=True, slots=True)
class Arrival:
    """An entry and its body, decoded once (`body` None and `error` set: the body does not read)."""

    entry: Entry
    body: dict[str, Any] | None
    error: BodyError | None = None

    @property
    def author(self) -> int:
        return self.entry.author

    @property
    def kind(self) -> int:
        return self.entry.kind

    @property
    def seq(self) -> int:
        return self.entry.seq

    @property
    def raw(self) -> bytes:
        return self.entry.raw

    def passes(self) -> list[Any] | None:
        """The pass tokens an event or abandon entry carries ([] if none; None: another kind, or a body that does not
        read)."""
        if self.entry.kind not in (Kind.EVENT, Kind.ABANDON) or self.body is None:
            return None
        passes = self.body.get("passes", [])
        return passes if isinstance(passes, list) else None

    def event(self) -> Any:
        """The engine event an event entry carries (None if none, or not readable)."""
        if self.entry.kind != Kind.EVENT or self.body is None:
            return None
        return self.body.get("ev")


class Folds(Protocol):
    """What the last step hands an arrival to: a game machine (p2p/machine/), which imports this module."""

    def fold(self, a: Arrival) -> None: ...


def frame(raw: bytes) -> Entry:
    """Step 1: the wire bytes as an entry (`MalformedEncoding` if they do not decode strictly). Framed once: every
    later step takes the entry (its `raw` is the bytes), never the bytes again."""
    return decode_entry(raw)


def schema(e: Entry) -> Arrival:
    """Step 2: the entry's body, decoded once; a body that does not read is kept as its error for the fold."""
    try:
        return Arrival(e, decode_body(e.body))
    except BodyError as exc:
        return Arrival(e, None, exc)


def signature(a: Arrival, ids: Identities) -> Arrival:
    """Step 3: signed by the seat it names (`CryptoError`: an unknown seat, or a signature that does not verify)."""
    e = a.entry
    try:
        ident = ids[e.author]
    except (IndexError, KeyError):
        raise ChainError(f"entry seq {e.seq}: unknown author seat {e.author}") from None
    verify_entry(e, ident)
    return a


def chain(a: Arrival, *, seq: int, prev: bytes, game_id: bytes) -> Arrival:
    """Step 4: the entry at `seq` of this game's log, built on `prev` (`ChainError` if not)."""
    e = a.entry
    if e.seq != seq or e.prev_hash != prev or e.game_id != game_id:
        raise ChainError(f"entry by seat {e.author + 1} is not entry {seq} of this log")
    return a


def fold(m: Folds, a: Arrival) -> None:
    """Step 5: the arrival into a game machine (`ProtocolError` naming the seat at fault, or the body's
    `BodyError`)."""
    m.fold(a)


class Pipeline:
    """The steps bound to one game: its roster (`ids`) and its id."""

    def __init__(self, ids: Identities, game_id: bytes) -> None:
        self.ids = ids
        self.game_id = game_id

    def signed(self, raw: bytes, framed: Entry | None = None) -> Arrival:
        """frame → schema → signature: an entry of this game, signed by its author (`CryptoError` if not); `framed`:
        these bytes framed already (by the caller's own first step)."""
        a = signature(schema(framed or frame(raw)), self.ids)
        if a.entry.game_id != self.game_id:
            raise ChainError(f"entry seq {a.entry.seq} belongs to another game")
        return a

    def check(self, raw: bytes, *, seq: int, prev: bytes) -> Arrival:
        """frame → schema → signature → chain: the next entry of this log, ready to fold."""
        return chain(self.signed(raw), seq=seq, prev=prev, game_id=self.game_id)

    @staticmethod
    def fold(machines: Iterable[Folds], a: Arrival) -> None:
        """The last step into each machine (an in-process table's seats fold the one arrival)."""
        for m in machines:
            m.fold(a)
