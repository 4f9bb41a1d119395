"""Salted hash commitments, and per-code password commitments.

``commitment = hash32(domain, game_id, context, salt, value)`` with a fresh 32-byte salt from
``secrets``. The commitment hides ``value`` (the salt is secret until opening) and binds the
committer to it (BLAKE2b-256 collision resistance).

A password code (an int 0..5, letters A..F) is committed alone, bound to the game, to the
password card's handle and to its slot (0..2) on that card, so each code can be opened alone:
``context = u64(handle) ‖ u8(slot)``, ``value = u8(code)``, domain ``COMMIT_PASSWORD``.
"""

from __future__ import annotations

import hmac
import secrets
from typing import NamedTuple

from . import domains
from .errors import CommitmentMismatch, MalformedEncoding
from .hashing import hash32, u8, u64

SALT_LEN = 32
NUM_CODES = 6  # codes are 0..5 (A..F)
CODE_LETTERS = "ABCDEF"


def commit(domain: bytes, game_id: bytes, context: bytes, value: bytes) -> tuple[bytes, bytes]:
    """Return (commitment, salt)."""
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


class CodeOpening(NamedTuple):
    """Opening of one code commitment (secret until the code is revealed)."""

    code: int
    salt: bytes

    def __repr__(self) -> str:
        return "CodeOpening(<secret>)"


def _code_context(handle: int, slot: int) -> bytes:
    if type(handle) is not int or not 0 <= handle < 2**64:
        raise MalformedEncoding("handle: expected an int in [0, 2^64)")
    if type(slot) is not int or not 0 <= slot < 256:
        raise MalformedEncoding("slot: expected an int in [0, 256)")
    return u64(handle) + u8(slot)


def _check_code(code: object) -> int:
    if type(code) is not int or not 0 <= code < NUM_CODES:
        raise MalformedEncoding(f"code: expected an int in [0, {NUM_CODES})")
    return code


def commit_code(game_id: bytes, handle: int, code: int, *, slot: int = 0) -> tuple[bytes, CodeOpening]:
    """Commit to one password code; return (commitment, opening)."""
    c, salt = commit(domains.COMMIT_PASSWORD, game_id, _code_context(handle, slot), u8(_check_code(code)))
    return c, CodeOpening(code, salt)


def code_commitment(game_id: bytes, handle: int, code: int, salt: bytes, *, slot: int = 0) -> bytes:
    """Recompute a code commitment (known-answer tests, audit)."""
    return commitment_of(
        domains.COMMIT_PASSWORD, game_id, _code_context(handle, slot), u8(_check_code(code)), salt
    )


def verify_code_opening(
    game_id: bytes, handle: int, commitment: bytes, code: int, salt: bytes, *, slot: int = 0
) -> None:
    """Raise :class:`CommitmentMismatch` unless ``commitment`` opens to ``code`` with ``salt``."""
    if type(code) is not int or not 0 <= code < NUM_CODES:
        raise CommitmentMismatch("opened code is not in 0..5")
    verify_opening(domains.COMMIT_PASSWORD, game_id, _code_context(handle, slot), commitment, u8(code), salt)
