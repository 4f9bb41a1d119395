"""Non-interactive zero-knowledge proofs over the Ed25519 group (Fiat-Shamir).

Schnorr proof of knowledge of ``x`` with ``X = x·G`` (deck keys; defeats rogue keys):
  k hedged nonce, R = k·G, e = H2S(SCHNORR, context, X, R), s = k + e·x; proof = e ‖ s (64 bytes).
  Verify: R' = s·G − e·X and e == H2S(SCHNORR, context, X, R').
Chaum-Pedersen DLEQ proof that log_G(X) = log_C(D) (decryption share D = x·C):
  A = k·G, B = k·C, e = H2S(DLEQ, context, X, C, D, A, B), s = k + e·x; proof = e ‖ s.
  Verify: A' = s·G − e·X, B' = s·C − e·D, e == H2S(DLEQ, context, X, C, D, A', B').
``H2S(domain, parts) = SHA-512(domain ‖ frame(parts)) mod L``. The context (game id, purpose,
seat, card handle, ...) is inside the challenge, so a proof replayed in another context fails.
Nonces are hedged: ``k = H2S(NONCE, x, 32 random bytes, context, statement)``.
"""

from __future__ import annotations

import hmac
import secrets

from . import domains
from .errors import InvalidPoint, InvalidProof, InvalidScalar
from .group import (
    base_mul,
    check_nonzero_scalar,
    check_point,
    check_scalar,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_mul,
    sub,
)

PROOF_LEN = 64


def _nonce(x: bytes, context: bytes, *statement: bytes) -> bytes:
    k = hash_to_scalar(domains.NONCE, x, secrets.token_bytes(32), context, *statement)
    return k if k != bytes(32) else _nonce(x, context, *statement)


def _split(proof: bytes, what: str) -> tuple[bytes, bytes]:
    if type(proof) is not bytes or len(proof) != PROOF_LEN:
        raise InvalidProof(f"{what}: proof must be 64 bytes")
    try:
        return check_scalar(proof[:32], f"{what} challenge"), check_nonzero_scalar(
            proof[32:], f"{what} response"
        )
    except InvalidScalar as exc:
        raise InvalidProof(str(exc)) from None


def schnorr_prove(x: bytes, public: bytes, context: bytes) -> bytes:
    """Prove knowledge of ``x`` with ``public = x·G`` in ``context``."""
    k = _nonce(x, context, public)
    e = hash_to_scalar(domains.SCHNORR, context, public, base_mul(k))
    return e + scalar_add(k, scalar_mul(e, x))


def schnorr_verify(public: bytes, proof: bytes, context: bytes) -> None:
    """Raise :class:`InvalidProof` (or :class:`InvalidPoint` for a bad key) unless the proof verifies."""
    check_point(public, "schnorr public key")
    e, s = _split(proof, "schnorr")
    try:
        r = sub(base_mul(s), mul(e, public))
    except InvalidPoint:
        raise InvalidProof("schnorr proof does not verify") from None
    if not hmac.compare_digest(hash_to_scalar(domains.SCHNORR, context, public, r), e):
        raise InvalidProof("schnorr proof does not verify (wrong key, proof or context)")


def dleq_prove(x: bytes, public: bytes, base: bytes, result: bytes, context: bytes) -> bytes:
    """Prove ``log_G(public) = log_base(result)`` (= x) in ``context``."""
    k = _nonce(x, context, public, base, result)
    e = hash_to_scalar(domains.DLEQ, context, public, base, result, base_mul(k), mul(k, base))
    return e + scalar_add(k, scalar_mul(e, x))


def dleq_verify(
    public: bytes, base: bytes, result: bytes, proof: bytes, context: bytes, *, trusted: bool = False
) -> None:
    """Check a DLEQ proof. Validates all three points unless ``trusted`` (caller validated them)."""
    if not trusted:
        check_point(public, "dleq public key")
        check_point(base, "dleq base")
        check_point(result, "dleq result")
    e, s = _split(proof, "dleq")
    try:
        a = sub(base_mul(s), mul(e, public))
        b = sub(mul(s, base), mul(e, result))
    except InvalidPoint:
        raise InvalidProof("dleq proof does not verify") from None
    if not hmac.compare_digest(hash_to_scalar(domains.DLEQ, context, public, base, result, a, b), e):
        raise InvalidProof("dleq proof does not verify (wrong share, base, key or context)")
