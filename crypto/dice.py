"""Private dice: a seat's secret roll that nobody can bias and nobody else can see before the seat opens it
(commit, then beacon). A game-neutral primitive of the table core; *Hacker* rolls this way (issue 13).

Roll number ``r`` of seat ``i`` (every roll of a game has its own number):

1. **Commit.** The seat draws a 32-byte secret ``s`` and publishes, in a signed entry,
   ``c = hash32(DICE_COMMIT, game_id, u8(i), u64(r), s)``.
2. **Beacon.** Only after ``c`` is in the log is a beacon pick ``b`` drawn for the roll (crypto/beacon.py: every
   seat's next hash-chain link; nobody controls it).
3. **Face.** ``face = 1 + uniform_int(hash32(DICE, game_id, u8(i), u64(r), s, b), sides)``. Only the seat knows
   ``s``, so only it knows the face now. It cannot bias the face: ``s`` was fixed before ``b`` existed, and ``b``
   is uniform whatever ``s`` is. Nobody else can: ``b`` is the beacon's, and ``s`` is secret and uniform.
4. **Open.** When the rules say so (or at the end), the seat reveals ``s``; every peer checks it against ``c``
   first (a mismatch names the seat that opened it) and recomputes the face from the log's ``b``.

``s`` hides the roll as a salt hides a committed value (32 uniform bytes); BLAKE2b-256 binds the seat to it.
A seat that never opens is a staller, handled by the table's silence rules; one that opens a wrong secret is
named at once by ``open_roll``.
"""

from __future__ import annotations

import hmac
import secrets
from typing import NamedTuple

from . import domains
from .beacon import uniform_int
from .errors import CommitmentMismatch, MalformedEncoding
from .hashing import hash32, u8, u64

SECRET_LEN = 32
MAX_SIDES = 1 << 16


class RollSecret(NamedTuple):
    """The secret of one roll (kept by its seat until it opens the roll)."""

    secret: bytes

    def __repr__(self) -> str:
        return "RollSecret(<secret>)"


def _check(seat: int, roll: int, sides: int | None = None) -> None:
    if type(seat) is not int or not 0 <= seat < 256:
        raise MalformedEncoding("seat: expected an int in [0, 256)")
    if type(roll) is not int or not 0 <= roll < 1 << 64:
        raise MalformedEncoding("roll number: expected an int in [0, 2^64)")
    if sides is not None and (type(sides) is not int or not 2 <= sides <= MAX_SIDES):
        raise MalformedEncoding(f"sides: expected an int in [2, {MAX_SIDES}]")


def _secret(s: object) -> bytes:
    if type(s) is not bytes or len(s) != SECRET_LEN:
        raise MalformedEncoding(f"roll secret: expected {SECRET_LEN} bytes")
    return s


def commitment_of(game_id: bytes, seat: int, roll: int, secret: bytes) -> bytes:
    _check(seat, roll)
    return hash32(domains.DICE_COMMIT, game_id, u8(seat), u64(roll), _secret(secret))


def commit_roll(game_id: bytes, seat: int, roll: int, secret: bytes | None = None) -> tuple[bytes, RollSecret]:
    """(the commitment to publish, the secret to keep) for roll number `roll` of `seat`. `secret`: only for
    known-answer tests and seeded test tables (fresh from the OS otherwise)."""
    s = secrets.token_bytes(SECRET_LEN) if secret is None else _secret(secret)
    return commitment_of(game_id, seat, roll, s), RollSecret(s)


def face(game_id: bytes, seat: int, roll: int, secret: bytes, beacon: bytes, sides: int) -> int:
    """The face (1..sides) of the roll: what its seat sees at once, and everyone once it is opened."""
    _check(seat, roll, sides)
    if type(beacon) is not bytes or len(beacon) != 32:
        raise MalformedEncoding("beacon pick: expected 32 bytes")
    seed = hash32(domains.DICE, game_id, u8(seat), u64(roll), _secret(secret), beacon)
    return 1 + uniform_int(seed, sides)


def open_roll(
    game_id: bytes, seat: int, roll: int, commitment: bytes, secret: bytes, beacon: bytes, sides: int
) -> int:
    """Check an opened roll against the seat's commitment (check before blame), then its face.
    Raises CommitmentMismatch if the secret is not the committed one, MalformedEncoding if anything is malformed."""
    if type(commitment) is not bytes or len(commitment) != 32:
        raise MalformedEncoding("roll commitment: expected 32 bytes")
    if not hmac.compare_digest(commitment_of(game_id, seat, roll, secret), commitment):
        raise CommitmentMismatch(f"seat {seat}'s opening of roll {roll} is not the secret it committed to")
    return face(game_id, seat, roll, secret, beacon, sides)
