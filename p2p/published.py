"""Check before blame: every secret, opening or proof that a seat reveals or claims is verified here against what
that seat (or the seat it concerns) published earlier in the log, *before* anything is judged with it.

The rule (docs/security.md, "Check before blame"): a secret that does not match what its seat published is the
fault of whoever supplied it (the accuser who put it in evidence, the revealer of a `secrets` entry), never of the
seat the secret would otherwise be used against. Each function below raises `ProtocolError(supplier, ...)` on a
mismatch; the machine routes every such check through this module, so the rule is written once.
"""

from __future__ import annotations

import hmac

import nacl.bindings as nb
from adp2p.crypto.deck import Ciphertext, DeckKey, Share, verify_share
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import PublicIdentity
from adp2p.p2p.protocol import ProtocolError


def box_secret(ids: list[PublicIdentity], owner: int, secret: bytes, supplier: int) -> bytes:
    """`secret` must be the X25519 secret key of `owner`'s published box key (its identity bundle)."""
    if type(secret) is not bytes or len(secret) != 32:
        raise ProtocolError(supplier, "a box secret is 32 bytes")
    try:
        public = nb.crypto_scalarmult_base(secret)
    except Exception:  # libsodium refuses some scalars: then it is not the published key's secret either
        public = b""
    if not hmac.compare_digest(public, ids[owner].box_pk):
        raise ProtocolError(supplier, f"the box secret given for seat {owner + 1} is not the one it published")
    return secret


def deck_secret(game_id: bytes, owner: int, secret: bytes, published: tuple[bytes, bytes], supplier: int) -> bytes:
    """`secret` must be the secret of `owner`'s published deck key (public key, Schnorr proof)."""
    try:
        if DeckKey(game_id, owner, secret, published[1]).public != published[0]:
            raise CryptoError("another key")
    except (CryptoError, TypeError, ValueError) as exc:
        raise ProtocolError(
            supplier, f"the deck secret revealed for seat {owner + 1} does not match its key: {exc}"
        ) from None
    return secret


def share(game_id: bytes, public: bytes, h: int, ct: Ciphertext, sh: Share, supplier: int) -> None:
    """A decryption share of seat `sh.seat` for handle h must carry a valid proof against that seat's deck key
    (our own share included: a share in our name is checked like any other, unless it is the very bytes this process
    made for that key, handle and card: crypto/deck.py)."""
    try:
        verify_share(game_id, public, h, ct, sh)
    except (CryptoError, TypeError, ValueError) as exc:
        raise ProtocolError(supplier, f"handle {h}: invalid decryption share of seat {sh.seat + 1}: {exc}") from None
