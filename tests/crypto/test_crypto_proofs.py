"""Schnorr and DLEQ proofs: completeness, soundness checks, context binding."""

from __future__ import annotations

import pytest
from adp2p.crypto.errors import InvalidPoint, InvalidProof
from adp2p.crypto.group import IDENTITY, L, base_mul, mul, random_scalar
from adp2p.crypto.proofs import dleq_prove, dleq_verify, schnorr_prove, schnorr_verify


def _key() -> tuple[bytes, bytes]:
    x = random_scalar()
    return x, base_mul(x)


def _bump_s(proof: bytes, delta: int) -> bytes:
    s = int.from_bytes(proof[32:], "little") + delta
    return proof[:32] + s.to_bytes(32, "little")


def test_schnorr() -> None:
    x, X = _key()
    p = schnorr_prove(x, X, b"ctx")
    schnorr_verify(X, p, b"ctx")
    with pytest.raises(InvalidProof):
        schnorr_verify(X, p, b"other ctx")  # replayed in another context
    with pytest.raises(InvalidProof):
        schnorr_verify(_key()[1], p, b"ctx")  # another key
    with pytest.raises(InvalidProof):
        schnorr_verify(X, _bump_s(p, 1), b"ctx")
    with pytest.raises(InvalidProof, match="not reduced"):
        schnorr_verify(X, _bump_s(p, L), b"ctx")  # non-canonical response scalar
    with pytest.raises(InvalidProof):
        schnorr_verify(X, p[:63], b"ctx")
    with pytest.raises(InvalidPoint):
        schnorr_verify(IDENTITY, p, b"ctx")
    with pytest.raises(InvalidProof):
        schnorr_verify(X, p[:32] + bytes(32), b"ctx")  # zero response


def test_dleq() -> None:
    x, X = _key()
    C = base_mul(random_scalar())
    D = mul(x, C)
    p = dleq_prove(x, X, C, D, b"ctx")
    dleq_verify(X, C, D, p, b"ctx")
    with pytest.raises(InvalidProof):
        dleq_verify(X, C, D, p, b"ctx2")  # replayed in another context
    with pytest.raises(InvalidProof):
        dleq_verify(X, C, mul(random_scalar(), C), p, b"ctx")  # wrong share
    C2 = base_mul(random_scalar())
    with pytest.raises(InvalidProof):
        dleq_verify(X, C2, mul(x, C2), p, b"ctx")  # share for another ciphertext, old proof
    with pytest.raises(InvalidProof, match="not reduced"):
        dleq_verify(X, C, D, _bump_s(p, L), b"ctx")
    with pytest.raises(InvalidPoint):
        dleq_verify(X, C, IDENTITY, p, b"ctx")
    # a cheater who uses another exponent for the share cannot make a proof that verifies
    y = random_scalar()
    with pytest.raises(InvalidProof):
        dleq_verify(X, C, mul(y, C), dleq_prove(y, X, C, mul(y, C), b"ctx"), b"ctx")


def test_proofs_are_randomised() -> None:
    x, X = _key()
    assert schnorr_prove(x, X, b"c") != schnorr_prove(x, X, b"c")
