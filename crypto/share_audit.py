"""The decryption shares of one card checked by an auditor who knows (claims) the sharing seat's deck secret and the
card's mask: the verdict of :func:`adp2p.crypto.deck.verify_share` with fixed-base multiplications only.

Once every seat has revealed its deck secret ``x_s`` and its shuffle witnesses (the offline audit reads them ahead),
a card's ciphertext is ``(ρ·G, …)`` for a scalar ``ρ`` the auditor computes (the pile's public mask ``r0_j`` plus
the ``r`` of every step that moved the card there), and the seat's key is ``X_s = x_s·G``. Where both hold — checked
here, one fixed-base multiplication each, never assumed — the share is right exactly when ``d = (x_s·ρ)·G``, and the
DLEQ proof's two commitments are ``a = s·G − e·X_s = k·G`` and ``b = s·c1 − e·d = (k·ρ)·G`` with ``k = s − e·x_s``:
the very points the generic check computes with three variable-base multiplications (about six times dearer
each on this machine, ~136 µs against ~24 µs), so the challenge holds exactly when it holds there.

A claim that does not hold (a wrong ``x_s``, a mask that does not give ``c1``), a ``k`` of zero (the generic
check's ``a`` would be the identity, which no fixed-base multiplication gives) or a ``d`` other than ``(x_s·ρ)·G``
(DLEQ soundness: no proof verifies for it; the generic check then says so itself) leaves the verdict to
:func:`verify_share`. Used by the offline audit's workers only (p2p/audit_pool.py).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from . import domains
from .deck import Ciphertext, Share, share_context, verify_share
from .errors import CryptoError
from .group import L, base_mul, hash_to_scalar, scalar_from_int, scalar_to_int


def _known_share_holds(game_id: bytes, public: bytes, handle: int, ct: Ciphertext, share: Share, x: int,
                       rho: int) -> bool:
    """True where the share and its proof hold by the fixed-base route; False where that route cannot say."""
    proof = share.proof
    if type(proof) is not bytes or len(proof) != 64 or type(share.d) is not bytes:
        return False
    e, s = scalar_to_int(proof[:32]), scalar_to_int(proof[32:])
    if not (0 < e < L and 0 < s < L):
        return False
    k = (s - e * x) % L
    if k == 0 or not hmac.compare_digest(base_mul(scalar_from_int(x * rho)), share.d):
        return False
    a, b = base_mul(scalar_from_int(k)), base_mul(scalar_from_int(k * rho))
    context = share_context(game_id, share.seat, handle)
    return hmac.compare_digest(hash_to_scalar(domains.DLEQ, context, public, ct.c1, share.d, a, b), proof[:32])


def _secret_of(secret: bytes, public: bytes) -> int | None:
    """The claimed secret as a number where it is a canonical non-zero scalar whose multiple of G is ``public``."""
    if type(secret) is not bytes or len(secret) != 32:
        return None
    x = scalar_to_int(secret)
    try:
        return x if 0 < x < L and hmac.compare_digest(base_mul(secret), public) else None
    except CryptoError:
        return None


def verify_shares_known(
    game_id: bytes, handle: int, ct: Ciphertext, todo: Sequence[tuple[bytes, Share]], secrets: Sequence[bytes],
    rho: int,
) -> None:
    """Check every ``(public key, share)`` of ``todo`` for the card ``ct`` at ``handle`` (``secrets``: every seat's
    claimed deck secret; ``rho``: the card's claimed mask). Raises exactly where :func:`verify_share` on each in turn
    would (a CryptoError)."""
    try:
        rho %= L
        c1_known = rho != 0 and hmac.compare_digest(base_mul(scalar_from_int(rho)), ct.c1)
    except CryptoError:
        c1_known = False
    keys: dict[tuple[int, bytes], int | None] = {}  # (seat, key) -> its claimed secret where it gives that key
    for public, share in todo:
        x = None
        if c1_known and type(share.seat) is int and 0 <= share.seat < len(secrets):
            if (share.seat, public) not in keys:
                keys[share.seat, public] = _secret_of(secrets[share.seat], public)
            x = keys[share.seat, public]
        try:
            if x is not None and _known_share_holds(game_id, public, handle, ct, share, x, rho):
                continue
        except CryptoError:
            pass
        verify_share(game_id, public, handle, ct, share)
