"""The Ed25519 prime-order subgroup: validated points, canonical scalars, card points.

Thin wrappers over libsodium (``nacl.bindings``). Points are 32-byte compressed Edwards
encodings; scalars are 32-byte little-endian integers below the group order ``L``.
``check_point`` uses ``crypto_core_ed25519_is_valid_point`` (rejects non-canonical encodings,
small-order points including the identity, and points outside the prime-order subgroup);
``check_scalar`` rejects anything not in [0, L). libsodium's scalar multiplication refuses the
identity and small-order inputs/results; those failures surface as :class:`InvalidPoint`.

Card points (docs/protocol.md, "Deck (mental poker)"):
- protocol version 5 (:meth:`CardTable.linear`): card ``i`` with the game's linked attribute ``a_i`` (Access Denied:
  its code) is ``M_i = a_i·G + (i+1)·J`` with ``J = card_id_base(g)`` a hashed point of unknown logarithm, so the
  attribute is linear in the card's point and a link proof is constant size (crypto/card_link.py);
- versions up to 4 (``CardTable(g, n)``): ``crypto_core_ed25519_from_uniform(hash32(CARD, g, u32(i)))``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

import nacl.bindings as nb
import nacl.exceptions

from . import domains
from .errors import DecryptionError, InvalidPoint, InvalidScalar, MalformedEncoding
from .hashing import frame, hash32, u32

L = 2**252 + 27742317777372353535851937790883648493
SCALAR_LEN = 32
POINT_LEN = 32
IDENTITY = bytes([1]) + bytes(31)
NUM_CARDS = 63
MAX_CARDS = 1024  # the most cards a table's deck may have (a pile's bound)

_is_valid = nb.crypto_core_ed25519_is_valid_point
_base = nb.crypto_scalarmult_ed25519_base_noclamp
_mul = nb.crypto_scalarmult_ed25519_noclamp
_add = nb.crypto_core_ed25519_add
_sub = nb.crypto_core_ed25519_sub
_reduce = nb.crypto_core_ed25519_scalar_reduce


def check_scalar(s: bytes, what: str = "scalar") -> bytes:
    """Return ``s`` if it is a canonical scalar (32 bytes, < L); else raise :class:`InvalidScalar`."""
    if type(s) is not bytes or len(s) != SCALAR_LEN:
        raise InvalidScalar(f"{what}: expected 32 bytes")
    if int.from_bytes(s, "little") >= L:
        raise InvalidScalar(f"{what}: not reduced modulo the group order")
    return s


def check_nonzero_scalar(s: bytes, what: str = "scalar") -> bytes:
    check_scalar(s, what)
    if s == bytes(SCALAR_LEN):
        raise InvalidScalar(f"{what}: must not be zero")
    return s


_valid_points: dict[bytes, None] = {}  # encodings that passed `check_point` in this process, oldest first
MAX_VALID_POINTS = 1 << 16  # (about 6 MiB at most; the oldest forgotten first)


def check_point(p: bytes, what: str = "point") -> bytes:
    """Return ``p`` if it is a valid prime-order-subgroup point; else raise :class:`InvalidPoint`.

    libsodium's check multiplies by the group order (as dear as a scalar multiplication), so the bytes of a point
    that passed are remembered (at most 65 536, failures never): no point is checked twice on the same bytes (a
    commitment under every answer proof, a deck key under every share). Validity is a pure function of the 32
    bytes, so the memory cannot change a verdict; `forget_valid_points` is for benchmarks."""
    if type(p) is not bytes or len(p) != POINT_LEN:
        raise InvalidPoint(f"{what}: expected 32 bytes")
    if p in _valid_points:
        return p
    if not _is_valid(p):
        raise InvalidPoint(f"{what}: not a canonical point of the prime-order subgroup (or small order)")
    if len(_valid_points) >= MAX_VALID_POINTS:
        del _valid_points[next(iter(_valid_points))]
    _valid_points[p] = None
    return p


def forget_valid_points() -> None:
    """Forget every remembered valid point (benchmarks measure the checks themselves)."""
    _valid_points.clear()


def is_valid_point(p: bytes) -> bool:
    return type(p) is bytes and len(p) == POINT_LEN and bool(_is_valid(p))


def random_scalar() -> bytes:
    """Uniform non-zero scalar from ``secrets``."""
    while True:
        s = _reduce(secrets.token_bytes(64))
        if s != bytes(SCALAR_LEN):
            return s


def hash_to_scalar(domain: bytes, *parts: bytes) -> bytes:
    """``SHA-512(domain ‖ frame(parts))`` reduced mod L (Fiat-Shamir challenges, derived scalars)."""
    h = hashlib.sha512()
    h.update(domain)
    h.update(frame(*parts))
    return _reduce(h.digest())


def scalar_from_int(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


def scalar_to_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def base_mul(s: bytes) -> bytes:
    """``s·G``; raises :class:`InvalidPoint` for s = 0 (identity result)."""
    try:
        return _base(s)
    except nacl.exceptions.RuntimeError:
        raise InvalidPoint("base multiplication gave the identity (zero scalar)") from None


def mul(s: bytes, p: bytes) -> bytes:
    """``s·P``; :class:`InvalidPoint` if P is the identity/small order or the result is the identity."""
    try:
        return _mul(s, p)
    except nacl.exceptions.RuntimeError:
        raise InvalidPoint("scalar multiplication with an identity/small-order point or result") from None


def add(p: bytes, q: bytes) -> bytes:
    try:
        return _add(p, q)
    except nacl.exceptions.RuntimeError:
        raise InvalidPoint("point addition on an invalid encoding") from None


def sub(p: bytes, q: bytes) -> bytes:
    try:
        return _sub(p, q)
    except nacl.exceptions.RuntimeError:
        raise InvalidPoint("point subtraction on an invalid encoding") from None


def scalar_add(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_mul(a, b)


def scalar_negate(a: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_negate(a)


def hash_to_point(domain: bytes, *parts: bytes) -> bytes:
    """``crypto_core_ed25519_from_uniform(hash32(domain, parts))``: a point nobody knows the discrete log of.

    libsodium maps the 32 bytes with Elligator 2 and multiplies by the cofactor 8, so the result is in the
    prime-order subgroup; ``check_point`` confirms it (and rejects the identity, never hit in practice).
    """
    return check_point(nb.crypto_core_ed25519_from_uniform(hash32(domain, *parts)), "hashed point")


def card_point(game_id: bytes, index: int) -> bytes:
    """The public group element that stands for card ``index`` in game ``game_id``."""
    p = nb.crypto_core_ed25519_from_uniform(hash32(domains.CARD, game_id, u32(index)))
    return check_point(p, f"card point {index}")


MAX_ATTRIBUTE = 2**16  # a card's linked attribute is an int in [0, MAX_ATTRIBUTE)


def card_id_base(game_id: bytes) -> bytes:
    """``J = from_uniform(hash32(CARD_ID, game_id))``: the base of the card ids in version-5 card points."""
    return hash_to_point(domains.CARD_ID, game_id)


def linear_card_points(game_id: bytes, attributes: Sequence[int]) -> list[bytes]:
    """``a_i·G + (i+1)·J`` for every card i (the ids by repeated addition of J, each ``a·G`` once)."""
    if not 1 <= len(attributes) <= MAX_CARDS:
        raise MalformedEncoding(f"card attributes: 1..{MAX_CARDS} cards")
    j = card_id_base(game_id)
    times_g: dict[int, bytes] = {}
    out: list[bytes] = []
    ij = j
    for i, a in enumerate(attributes):
        if type(a) is not int or not 0 <= a < MAX_ATTRIBUTE:
            raise MalformedEncoding(f"card {i}: its attribute is not an int in [0, {MAX_ATTRIBUTE})")
        if i:
            ij = add(ij, j)
        if a and a not in times_g:
            times_g[a] = base_mul(scalar_from_int(a))
        out.append(check_point(add(ij, times_g[a]) if a else ij, f"card point {i}"))
    return out


class CardTable:
    """The card points of one game and the reverse lookup point -> card index."""

    def __init__(self, game_id: bytes, n: int = NUM_CARDS, attributes: Sequence[int] | None = None) -> None:
        """``attributes`` None: the hashed points of protocol versions up to 4; else the version-5 linear points
        (:meth:`linear`), one attribute per card (``n`` must be their number)."""
        self.game_id = game_id
        self.attributes = None if attributes is None else tuple(attributes)
        if attributes is None:
            self.points = [card_point(game_id, i) for i in range(n)]
        else:
            if len(attributes) != n:
                raise MalformedEncoding("card attributes: one per card")
            self.points = linear_card_points(game_id, attributes)
        self.id_base = card_id_base(game_id) if attributes is not None else None
        self._index = {p: i for i, p in enumerate(self.points)}
        if len(self._index) != n:  # pragma: no cover - a hash collision
            raise DecryptionError("card points collide")

    @classmethod
    def linear(cls, game_id: bytes, attributes: Sequence[int]) -> CardTable:
        """The version-5 table: card i is ``attributes[i]·G + (i+1)·J``."""
        return cls(game_id, len(attributes), attributes)

    def __len__(self) -> int:
        return len(self.points)

    def point(self, index: int) -> bytes:
        return self.points[index]

    def face(self, point: bytes) -> int:
        """The card index of a decrypted point; :class:`DecryptionError` if it is no card."""
        try:
            return self._index[point]
        except KeyError:
            raise DecryptionError("decrypted point is not a card of this game") from None
