"""Salted commitments and per-code password commitments."""

from __future__ import annotations

import hashlib

import pytest
from adp2p.crypto import domains
from adp2p.crypto.commitments import (
    code_commitment,
    commit,
    commit_code,
    verify_code_opening,
    verify_opening,
)
from adp2p.crypto.errors import CommitmentMismatch, MalformedEncoding
from crypto_helpers import GAME_ID

SALT = bytes([7]) * 32
KAT = "3150d9685fce8208cdc061e1278f28f6dc81efe7f9c91abd3720027f7ba075e8"


def test_known_answer_code_commitment() -> None:
    assert code_commitment(GAME_ID, 42, 3, SALT).hex() == KAT
    # independent recomputation of the documented layout
    parts = [GAME_ID, (42).to_bytes(8, "big") + b"\0", SALT, b"\3"]
    framed = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    assert hashlib.blake2b(b"adp2p/v1/commit/password\0" + framed, digest_size=32).hexdigest() == KAT
    verify_code_opening(GAME_ID, 42, bytes.fromhex(KAT), 3, SALT)


def test_commit_open_each_code_alone() -> None:
    codes = [0, 5, 2]
    made = [commit_code(GAME_ID, 7, c, slot=i) for i, c in enumerate(codes)]
    for i, (c, opening) in enumerate(made):
        assert opening.code == codes[i]
        verify_code_opening(GAME_ID, 7, c, opening.code, opening.salt, slot=i)
        assert opening.salt.hex() not in repr(opening)
    assert len({c for c, _ in made}) == 3


def test_commitment_opened_to_another_code() -> None:
    c, opening = commit_code(GAME_ID, 7, 4)
    for other in (0, 1, 2, 3, 5):
        with pytest.raises(CommitmentMismatch):
            verify_code_opening(GAME_ID, 7, c, other, opening.salt)
    with pytest.raises(CommitmentMismatch):
        verify_code_opening(GAME_ID, 7, c, 6, opening.salt)  # not a code
    with pytest.raises(CommitmentMismatch):
        verify_code_opening(GAME_ID, 8, c, 4, opening.salt)  # other card
    with pytest.raises(CommitmentMismatch):
        verify_code_opening(bytes(16), 7, c, 4, opening.salt)  # other game
    with pytest.raises(CommitmentMismatch):
        verify_code_opening(GAME_ID, 7, c, 4, opening.salt, slot=1)  # other slot
    with pytest.raises(CommitmentMismatch):
        verify_code_opening(GAME_ID, 7, c, 4, bytes(32))  # wrong salt
    with pytest.raises(MalformedEncoding):
        verify_code_opening(GAME_ID, 7, c, 4, b"short")
    with pytest.raises(MalformedEncoding):
        commit_code(GAME_ID, 7, 6)


def test_generic_commitment() -> None:
    c, salt = commit(domains.COMMIT, GAME_ID, b"ctx", b"value")
    verify_opening(domains.COMMIT, GAME_ID, b"ctx", c, b"value", salt)
    with pytest.raises(CommitmentMismatch):
        verify_opening(domains.COMMIT, GAME_ID, b"ctx", c, b"valuf", salt)
    with pytest.raises(CommitmentMismatch):
        verify_opening(domains.COMMIT_PASSWORD, GAME_ID, b"ctx", c, b"value", salt)
    c2, salt2 = commit(domains.COMMIT, GAME_ID, b"ctx", b"value")
    assert c2 != c and salt2 != salt  # fresh salts hide equal values
