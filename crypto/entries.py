"""Signed, hash-chained log entries and equivocation proofs.

Wire format of one entry: msgpack ``[header_bytes: bin, signature: bin(64)]`` where
``header_bytes`` is the msgpack encoding of the array
``[version=1, game_id: bin(16|32), seq: uint, prev_hash: bin(32), author: uint8, kind: uint32, body: bin]``.
The signature is Ed25519 by the author over ``ENTRY ‖ header_bytes``; the entry id is
``hash32(ENTRY_ID, header_bytes, signature)``. Decoding is strict (exact types, lengths, canonical
msgpack, no trailing bytes) and verification always uses the exact received bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import domains
from .encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from .errors import ChainError, CryptoError, InvalidProof, InvalidSignature, MalformedEncoding
from .hashing import hash32
from .identity import PublicIdentity, SecretIdentity

ENTRY_VERSION = 1
GENESIS_PREV = bytes(32)
GAME_ID_LENGTHS = (16, 32)
MAX_SEQ = 2**63 - 1
MAX_AUTHOR = 255
MAX_KIND = 2**32 - 1
MAX_BODY = 4 * 1024 * 1024

Identities = Sequence[PublicIdentity] | Mapping[int, PublicIdentity]


@dataclass(frozen=True)
class Entry:
    """A decoded entry. ``raw`` and ``header_bytes`` are the exact received bytes."""

    raw: bytes
    header_bytes: bytes
    signature: bytes
    version: int
    game_id: bytes
    seq: int
    prev_hash: bytes
    author: int
    kind: int
    body: bytes
    id: bytes


def _check_fields(game_id: object, seq: object, prev_hash: object, author: object, kind: object, body: object) -> None:
    expect_bytes(game_id, "entry game_id", lengths=GAME_ID_LENGTHS)
    expect_int(seq, 0, MAX_SEQ, "entry seq")
    expect_bytes(prev_hash, "entry prev_hash", lengths=(32,))
    expect_int(author, 0, MAX_AUTHOR, "entry author")
    expect_int(kind, 0, MAX_KIND, "entry kind")
    expect_bytes(body, "entry body", max_len=MAX_BODY)


def encode_entry(
    secret: SecretIdentity, game_id: bytes, seq: int, prev_hash: bytes, author: int, kind: int, body: bytes
) -> bytes:
    """Build and sign an entry; return its wire bytes."""
    _check_fields(game_id, seq, prev_hash, author, kind, body)
    header = pack([ENTRY_VERSION, game_id, seq, prev_hash, author, kind, body])
    return pack([header, secret.sign(domains.ENTRY, header)])


def decode_entry(raw: bytes) -> Entry:
    """Strictly decode wire bytes (does not check the signature: see :func:`verify_entry`)."""
    outer = expect_array(unpack_canonical(raw, "entry"), 2, "entry")
    header = expect_bytes(outer[0], "entry header", max_len=MAX_BODY + 256)
    sig = expect_bytes(outer[1], "entry signature", lengths=(64,))
    f = expect_array(unpack_canonical(header, "entry header"), 7, "entry header")
    expect_int(f[0], ENTRY_VERSION, ENTRY_VERSION, "entry version")
    _check_fields(f[1], f[2], f[3], f[4], f[5], f[6])
    return Entry(
        raw=raw,
        header_bytes=header,
        signature=sig,
        version=f[0],
        game_id=f[1],
        seq=f[2],
        prev_hash=f[3],
        author=f[4],
        kind=f[5],
        body=f[6],
        id=hash32(domains.ENTRY_ID, header, sig),
    )


def verify_entry(entry: Entry, author_identity: PublicIdentity) -> None:
    """Check the author's signature over the exact received header bytes."""
    try:
        author_identity.verify(domains.ENTRY, entry.header_bytes, entry.signature)
    except InvalidSignature:
        raise InvalidSignature(f"entry seq {entry.seq}: signature of seat {entry.author} does not verify") from None


def _identity(identities: Identities, seat: int, seq: int) -> PublicIdentity:
    try:
        return identities[seat]
    except (IndexError, KeyError):
        raise ChainError(f"entry seq {seq}: unknown author seat {seat}") from None


def verify_chain(entries: Sequence[Entry], identities: Identities, *, game_id: bytes | None = None) -> bytes:
    """Verify a whole log from genesis; return the id of the last entry (GENESIS_PREV if empty).

    Checks: one game id (``game_id`` if given), seq = 0, 1, 2, ..., prev_hash of entry 0 is 32 zero
    bytes and of entry i the id of entry i-1, every signature by its author's identity.
    """
    prev = GENESIS_PREV
    for i, e in enumerate(entries):
        if game_id is None:
            game_id = e.game_id
        if e.game_id != game_id:
            raise ChainError(f"entry {i}: belongs to another game")
        if e.seq != i:
            raise ChainError(f"entry {i}: sequence number {e.seq}, expected {i}")
        if e.prev_hash != prev:
            raise ChainError(
                f"entry {i}: prev_hash does not link to entry {i - 1}"
                if i
                else "entry 0: genesis prev_hash must be 32 zero bytes"
            )
        verify_entry(e, _identity(identities, e.author, e.seq))
        prev = e.id
    return prev


@dataclass(frozen=True)
class EquivocationProof:
    """Two validly signed, different entries by one author for the same game, seq and previous entry.

    The same prev_hash matters: an entry set aside because evidence took its place (see docs/protocol.md,
    "Precedence at one seq") is followed by a new entry of its author at the same seq on another prev; that is
    not a lie. Two entries on one prev are: the author told two peers two different things at one point.

    Anyone holding the authors' public identities can check it with :meth:`verify`.
    Wire: msgpack ``[raw_a: bin, raw_b: bin]``.
    """

    raw_a: bytes
    raw_b: bytes

    def verify(self, identities: Identities) -> int:
        """Return the guilty seat, or raise :class:`InvalidProof`."""
        try:
            a, b = decode_entry(self.raw_a), decode_entry(self.raw_b)
        except MalformedEncoding as exc:
            raise InvalidProof(f"equivocation proof: malformed entry: {exc}") from None
        if a.raw == b.raw:
            raise InvalidProof("equivocation proof: the two entries are identical")
        if a.game_id != b.game_id or a.seq != b.seq or a.author != b.author:
            raise InvalidProof("equivocation proof: entries differ in game, seq or author")
        if a.prev_hash != b.prev_hash:
            raise InvalidProof("equivocation proof: the entries build on different previous entries")
        try:
            ident = identities[a.author]
        except (IndexError, KeyError):
            raise InvalidProof(f"equivocation proof: unknown author seat {a.author}") from None
        try:
            verify_entry(a, ident)
            verify_entry(b, ident)
        except InvalidSignature as exc:
            raise InvalidProof(f"equivocation proof: {exc}") from None
        return a.author

    def to_bytes(self) -> bytes:
        return pack([self.raw_a, self.raw_b])

    @classmethod
    def from_bytes(cls, data: bytes) -> EquivocationProof:
        f = expect_array(unpack_canonical(data, "equivocation proof"), 2, "equivocation proof")
        return cls(expect_bytes(f[0], "equivocation entry a"), expect_bytes(f[1], "equivocation entry b"))


class Equivocation(CryptoError):
    """An author signed two different entries for the same game and sequence number.

    Carries the transferable :class:`EquivocationProof` in ``proof`` and the guilty seat in ``seat``.
    """

    def __init__(self, proof: EquivocationProof, seat: int) -> None:
        super().__init__(f"seat {seat} signed two different entries at the same sequence number")
        self.proof = proof
        self.seat = seat


def check_consistent(a: Entry, b: Entry, identities: Identities) -> None:
    """Raise :class:`Equivocation` (with its proof) if a and b are a valid equivocation pair."""
    if (
        a.game_id == b.game_id
        and a.seq == b.seq
        and a.author == b.author
        and a.prev_hash == b.prev_hash
        and a.raw != b.raw
    ):
        proof = EquivocationProof(a.raw, b.raw)
        seat = proof.verify(identities)
        raise Equivocation(proof, seat)
