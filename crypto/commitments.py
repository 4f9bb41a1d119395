"""Salted hash commitments, and per-code password commitments.

``commitment = hash32(domain, game_id, context, salt, value)`` with a fresh 32-byte salt from
``secrets``. The commitment hides ``value`` (the salt is secret until opening) and binds the
committer to it (BLAKE2b-256 collision resistance).

A password code (an int 0..5, letters A..F) is committed alone, bound to the game, to the
password card's handle and to its slot (0..2) on that card, so each code can be opened alone:
``context = u64(handle) ‖ u8(slot)``, ``value = u8(code)``, domain ``COMMIT_PASSWORD``: one use of the table
core's commit / open facility (crypto/commit_open.py), unbound to a seat there because the signed password entry that
carries the commitments binds its author.
"""

from __future__ import annotations

from typing import NamedTuple

from . import domains
from .commit_open import SALT_LEN, Binding, commit, commit_value, commitment_of, verify_opening
from .errors import CommitmentMismatch, MalformedEncoding
from .hashing import u8, u64

__all__ = [
    "SALT_LEN", "CodeOpening", "code_commitment", "commit", "commit_code", "commitment_of", "verify_code_opening",
    "verify_opening",
]
NUM_CODES = 6  # codes are 0..5 (A..F)
CODE_LETTERS = "ABCDEF"


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


def code_binding(game_id: bytes, handle: int, slot: int = 0) -> Binding:
    """Where a password code is committed: the core's commit / open facility, domain ``COMMIT_PASSWORD``, no seat
    (the signed password entry binds its author), slot = the card's handle and the code's place on it."""
    return Binding(domains.COMMIT_PASSWORD, game_id, None, _code_context(handle, slot))


def commit_code(game_id: bytes, handle: int, code: int, *, slot: int = 0) -> tuple[bytes, CodeOpening]:
    """Commit to one password code; return (commitment, opening)."""
    c, opening = commit_value(code_binding(game_id, handle, slot), u8(_check_code(code)))
    return c, CodeOpening(code, opening.salt)


def code_commitment(game_id: bytes, handle: int, code: int, salt: bytes, *, slot: int = 0) -> bytes:
    """Recompute a code commitment (known-answer tests, audit)."""
    b = code_binding(game_id, handle, slot)
    return commitment_of(b.domain, b.game_id, b.context(), u8(_check_code(code)), salt)


def verify_code_opening(
    game_id: bytes, handle: int, commitment: bytes, code: int, salt: bytes, *, slot: int = 0
) -> None:
    """Raise :class:`CommitmentMismatch` unless ``commitment`` opens to ``code`` with ``salt``."""
    if type(code) is not int or not 0 <= code < NUM_CODES:
        raise CommitmentMismatch("opened code is not in 0..5")
    b = code_binding(game_id, handle, slot)
    verify_opening(b.domain, b.game_id, b.context(), commitment, u8(code), salt)
