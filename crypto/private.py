"""Private messages: signed by the sender, encrypted to one peer, with a public digest.

``sealed = nonce(24) ‖ XSalsa20-Poly1305 box`` (PyNaCl ``Box(sender_x25519_sk, recipient_x25519_pk)``,
random nonce) of the plaintext msgpack ``[1, payload: bin, sig: bin(64)]`` where ``sig`` is the
sender's Ed25519 signature over ``PRIVATE ‖ frame(sender sign_pk, recipient sign_pk, recipient
box_pk, context, payload)``. The signature makes the payload transferable (the recipient can
show it to others); the context binds it to its purpose (game id, kind, handle, ...).

``private_digest(sealed) = hash32(PRIVATE_DIGEST, sealed)`` goes into the public log so the audit
can check, once a per-game X25519 secret key is revealed, that what was sent is what was promised.
"""

from __future__ import annotations

import functools
import hmac

import nacl.bindings as nb
import nacl.exceptions
from nacl.public import Box, PrivateKey, PublicKey

from . import domains
from .encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from .errors import DecryptionFailed, InvalidSignature, MalformedEncoding
from .hashing import frame, hash32
from .identity import PublicIdentity, SecretIdentity

PRIVATE_VERSION = 1
NONCE_LEN = 24
MAX_PAYLOAD = 1024 * 1024


def _signed_bytes(sender: PublicIdentity, recipient: PublicIdentity, context: bytes, payload: bytes) -> bytes:
    return frame(sender.sign_pk, recipient.sign_pk, recipient.box_pk, context, payload)


def seal_private(
    sender_secret: SecretIdentity, recipient_public: PublicIdentity, context: bytes, payload: bytes
) -> bytes:
    if type(payload) is not bytes or len(payload) > MAX_PAYLOAD:
        raise MalformedEncoding(f"payload: expected at most {MAX_PAYLOAD} bytes")
    sig = sender_secret.sign(
        domains.PRIVATE, _signed_bytes(sender_secret.public, recipient_public, context, payload)
    )
    inner = pack([PRIVATE_VERSION, payload, sig])
    return bytes(Box(sender_secret.box_key, PublicKey(recipient_public.box_pk)).encrypt(inner))


def _open_with_box(
    box: Box, sender_public: PublicIdentity, recipient_public: PublicIdentity, context: bytes, sealed: bytes
) -> bytes:
    if type(sealed) is not bytes or len(sealed) < NONCE_LEN + 16:
        raise MalformedEncoding("sealed message too short")
    try:
        inner = box.decrypt(sealed)
    except nacl.exceptions.CryptoError:
        raise DecryptionFailed("sealed message does not decrypt (wrong keys or tampered)") from None
    f = expect_array(unpack_canonical(inner, "private message"), 3, "private message")
    expect_int(f[0], PRIVATE_VERSION, PRIVATE_VERSION, "private message version")
    payload = expect_bytes(f[1], "private payload", max_len=MAX_PAYLOAD)
    sig = expect_bytes(f[2], "private signature", lengths=(64,))
    try:
        sender_public.verify(
            domains.PRIVATE, _signed_bytes(sender_public, recipient_public, context, payload), sig
        )
    except InvalidSignature:
        raise InvalidSignature(
            "private message signature does not verify (wrong sender or context)"
        ) from None
    return payload


def open_private(
    recipient_secret: SecretIdentity, sender_public: PublicIdentity, context: bytes, sealed: bytes
) -> bytes:
    """Decrypt and verify; return the payload. DecryptionFailed / MalformedEncoding / InvalidSignature."""
    box = Box(recipient_secret.box_key, PublicKey(sender_public.box_pk))
    return _open_with_box(box, sender_public, recipient_secret.public, context, sealed)


def audit_open_private(
    revealed_box_secret: bytes,
    sender_public: PublicIdentity,
    recipient_public: PublicIdentity,
    context: bytes,
    sealed: bytes,
) -> bytes:
    """Open a sealed message with either party's revealed per-game X25519 secret key (audit)."""
    if type(revealed_box_secret) is not bytes or len(revealed_box_secret) != 32:
        raise MalformedEncoding("revealed box secret: expected 32 bytes")
    box = _audit_box(revealed_box_secret, sender_public.box_pk, recipient_public.box_pk)
    return _open_with_box(box, sender_public, recipient_public, context, sealed)


@functools.lru_cache(maxsize=256)
def _audit_box(secret: bytes, sender_pk: bytes, recipient_pk: bytes) -> Box:
    """The box of a revealed secret with the other party's key (an audit opens every box between the same two seats
    with the same two keys: its X25519 multiplications once a pair, not once a box)."""
    mine = nb.crypto_scalarmult_base(secret)
    if hmac.compare_digest(mine, sender_pk):
        peer = recipient_pk
    elif hmac.compare_digest(mine, recipient_pk):
        peer = sender_pk
    else:
        raise MalformedEncoding("revealed box secret belongs to neither party")
    return Box(PrivateKey(secret), PublicKey(peer))


def private_digest(sealed: bytes) -> bytes:
    """32-byte digest of the exact sealed bytes, for the public log."""
    return hash32(domains.PRIVATE_DIGEST, sealed)
