"""Commit / open for a game's small secrets (the table core's, game-neutral): a salted hash commitment to one small
value, bound to the game, to the committing seat and to a slot, opened one query at a time and checked at once.

``commitment = hash32(domain, game_id, context, salt, value)`` (`commitment_of`, every part length-prefixed), with a
fresh 32-byte salt per slot and

- ``context = u8(seat) ‖ slot`` for a seat-bound commitment (`Binding(domain, game_id, seat, slot)`), or
- ``context = slot`` where the signed entry that carries the commitment binds its author (``seat=None``): Access
  Denied's password codes are this case (domain ``COMMIT_PASSWORD``, slot ``u64(handle) ‖ u8(k)``, value
  ``u8(code)``: crypto/commitments.py's `commit_code`, byte for byte as before).

One domain uses one of the two forms for all its slots (the domain says which: a seat-bound and an unbound context
are never compared). A secret of several parts is committed slot by slot, each with its own salt, so that a query
about one part is answered by opening that slot alone (`Opening`), and the answer is checked the moment it arrives
(`check_opening`: `CommitmentMismatch` names nothing secret). The salt hides the value (32 uniform bytes); BLAKE2b-256
binds the committer to it. An opening's repr shows no secret.
"""

from __future__ import annotations

import hmac
import secrets
from typing import NamedTuple

from .errors import CommitmentMismatch, MalformedEncoding
from .hashing import hash32, u8

SALT_LEN = 32

MAX_VALUE = 64  # bytes of one committed value (a code, a die, a small number: small secrets only)
MAX_SLOT = 64  # bytes that name a slot


def commit(domain: bytes, game_id: bytes, context: bytes, value: bytes) -> tuple[bytes, bytes]:
    """The raw form: (commitment, fresh salt)."""
    salt = secrets.token_bytes(SALT_LEN)
    return commitment_of(domain, game_id, context, value, salt), salt


def commitment_of(domain: bytes, game_id: bytes, context: bytes, value: bytes, salt: bytes) -> bytes:
    if type(salt) is not bytes or len(salt) != SALT_LEN:
        raise MalformedEncoding(f"salt: expected {SALT_LEN} bytes")
    return hash32(domain, game_id, context, salt, value)


def verify_opening(
    domain: bytes, game_id: bytes, context: bytes, commitment: bytes, value: bytes, salt: bytes
) -> None:
    if type(commitment) is not bytes or len(commitment) != 32:
        raise MalformedEncoding("commitment: expected 32 bytes")
    if not hmac.compare_digest(commitment_of(domain, game_id, context, value, salt), commitment):
        raise CommitmentMismatch("commitment does not open to the claimed value with this salt")


class Binding(NamedTuple):
    """What one commitment is bound to: its domain (one per use), the game, the seat (None: the signed entry that
    carries it binds its author) and the slot (which part of the seat's secret)."""

    domain: bytes
    game_id: bytes
    seat: int | None
    slot: bytes

    def context(self) -> bytes:
        if type(self.slot) is not bytes or len(self.slot) > MAX_SLOT:
            raise MalformedEncoding(f"slot: expected at most {MAX_SLOT} bytes")
        if self.seat is None:
            return self.slot
        if type(self.seat) is not int or not 0 <= self.seat < 256:
            raise MalformedEncoding("seat: expected an int in [0, 256)")
        return u8(self.seat) + self.slot


class Opening(NamedTuple):
    """The opening of one slot: its value and salt (secret until the slot is opened)."""

    value: bytes
    salt: bytes

    def __repr__(self) -> str:
        return "Opening(<secret>)"


def _value(value: object) -> bytes:
    if type(value) is not bytes or len(value) > MAX_VALUE:
        raise MalformedEncoding(f"value: expected at most {MAX_VALUE} bytes")
    return value


def commit_value(binding: Binding, value: bytes, *, salt: bytes | None = None) -> tuple[bytes, Opening]:
    """Commit to `value` in one slot: (commitment, opening). `salt`: only for known-answer tests (fresh otherwise)."""
    salt = secrets.token_bytes(SALT_LEN) if salt is None else salt
    c = commitment_of(binding.domain, binding.game_id, binding.context(), _value(value), salt)
    return c, Opening(value, salt)


def commit_slots(binding: Binding, values: list[bytes]) -> list[tuple[bytes, Opening]]:
    """A secret of several parts, one slot each (slot = binding.slot ‖ u8(k)): each part opens alone."""
    if len(values) > 256:
        raise MalformedEncoding("at most 256 parts")
    return [commit_value(binding._replace(slot=binding.slot + u8(k)), v) for k, v in enumerate(values)]


def check_opening(binding: Binding, commitment: bytes, opening: object) -> bytes:
    """The value `opening` opens `commitment` to, checked at once: CommitmentMismatch unless it is the value
    committed in that very slot (same domain, game, seat, slot) with that salt; MalformedEncoding if not an opening."""
    if not (isinstance(opening, tuple) and len(opening) == 2):
        raise MalformedEncoding("an opening is (value, salt)")
    value, salt = _value(opening[0]), opening[1]
    verify_opening(binding.domain, binding.game_id, binding.context(), commitment, value, salt)
    return value
