"""Per-game player identities: an Ed25519 signing key and an X25519 box key.

A :class:`SecretIdentity` is created fresh for every player and every game; its public half
is a :class:`PublicIdentity`. An identity bundle (name, keys, extra) is self-signed under the
``IDENTITY`` domain so peers can exchange it over an untrusted channel and compare
fingerprints out of band.

Layouts:
  SecretIdentity.to_bytes() = 0x01 ‖ ed25519 seed (32) ‖ x25519 secret (32)         (65 bytes)
  PublicIdentity.to_bytes() = ed25519 public (32) ‖ x25519 public (32)               (64 bytes)
  bundle = msgpack [body: bin, sig: bin(64)], body = msgpack [1, name: bin(utf-8), sign_pk, box_pk, extra]
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import nacl.bindings as nb
import nacl.exceptions
import nacl.signing
from nacl.public import PrivateKey

from . import domains
from .encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from .errors import InvalidPoint, InvalidSignature, MalformedEncoding
from .hashing import hash32

SECRET_VERSION = 1
BUNDLE_VERSION = 1
MAX_NAME_BYTES = 64
MAX_EXTRA_BYTES = 4096
_LOW_ORDER_PROBE = bytes([9]) + bytes(31)  # any scalar: X25519 clamps it to a multiple of the cofactor


@dataclass(frozen=True)
class PublicIdentity:
    """Public keys of one player in one game. Construction validates both keys."""

    sign_pk: bytes
    box_pk: bytes

    def __post_init__(self) -> None:
        if type(self.sign_pk) is not bytes or len(self.sign_pk) != 32:
            raise MalformedEncoding("sign_pk: expected 32 bytes")
        if type(self.box_pk) is not bytes or len(self.box_pk) != 32:
            raise MalformedEncoding("box_pk: expected 32 bytes")
        if not nb.crypto_core_ed25519_is_valid_point(self.sign_pk):
            raise InvalidPoint("sign_pk: not a valid Ed25519 public key (small order or not in the subgroup)")
        try:  # a low-order X25519 key gives an all-zero shared secret, which libsodium refuses
            nb.crypto_scalarmult(_LOW_ORDER_PROBE, self.box_pk)
        except nacl.exceptions.RuntimeError:
            raise InvalidPoint("box_pk: low-order X25519 public key") from None

    def verify(self, domain: bytes, msg: bytes, sig: bytes) -> None:
        """Check an Ed25519 signature over ``domain + msg``; raise :class:`InvalidSignature`."""
        if type(sig) is not bytes or len(sig) != 64:
            raise InvalidSignature("signature must be 64 bytes")
        try:
            nacl.signing.VerifyKey(self.sign_pk).verify(domain + msg, sig)
        except nacl.exceptions.BadSignatureError:
            raise InvalidSignature(f"signature does not verify under key {self.fingerprint()}") from None

    def fingerprint(self) -> str:
        """Short human-comparable fingerprint: first 8 bytes of the hash, as 4 hex groups."""
        h = hash32(domains.FINGERPRINT, self.sign_pk, self.box_pk)[:8].hex()
        return "-".join(h[i : i + 4] for i in range(0, 16, 4))

    def to_bytes(self) -> bytes:
        return self.sign_pk + self.box_pk

    @classmethod
    def from_bytes(cls, data: bytes) -> PublicIdentity:
        if type(data) is not bytes or len(data) != 64:
            raise MalformedEncoding("public identity: expected 64 bytes")
        return cls(data[:32], data[32:])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicIdentity):
            return NotImplemented
        return hmac.compare_digest(self.to_bytes(), other.to_bytes())

    def __hash__(self) -> int:
        return hash(self.to_bytes())


class SecretIdentity:
    """Secret keys of one player in one game. ``repr`` shows only the public fingerprint."""

    __slots__ = ("_box", "_public", "_sign")

    def __init__(self, sign_key: nacl.signing.SigningKey, box_key: PrivateKey) -> None:
        self._sign = sign_key
        self._box = box_key
        self._public = PublicIdentity(bytes(sign_key.verify_key), bytes(box_key.public_key))

    @classmethod
    def generate(cls) -> SecretIdentity:
        return cls(nacl.signing.SigningKey.generate(), PrivateKey.generate())

    @classmethod
    def from_seeds(cls, sign_seed: bytes, box_secret: bytes) -> SecretIdentity:
        """Deterministic identity (tests, known-answer vectors)."""
        if type(sign_seed) is not bytes or len(sign_seed) != 32:
            raise MalformedEncoding("sign seed: expected 32 bytes")
        if type(box_secret) is not bytes or len(box_secret) != 32:
            raise MalformedEncoding("box secret: expected 32 bytes")
        return cls(nacl.signing.SigningKey(sign_seed), PrivateKey(box_secret))

    @property
    def public(self) -> PublicIdentity:
        return self._public

    @property
    def box_key(self) -> PrivateKey:
        """The X25519 private key (for :mod:`adp2p.crypto.private`)."""
        return self._box

    def sign(self, domain: bytes, msg: bytes) -> bytes:
        """64-byte Ed25519 signature over ``domain + msg``."""
        return self._sign.sign(domain + msg).signature

    def to_bytes(self) -> bytes:
        return bytes([SECRET_VERSION]) + bytes(self._sign) + bytes(self._box)

    @classmethod
    def from_bytes(cls, data: bytes) -> SecretIdentity:
        if type(data) is not bytes or len(data) != 65 or data[0] != SECRET_VERSION:
            raise MalformedEncoding("secret identity: expected 65 bytes starting with version 1")
        return cls.from_seeds(data[1:33], data[33:])

    def __repr__(self) -> str:
        return f"SecretIdentity(<secret>, public={self._public.fingerprint()})"


def _check_name(name: str) -> bytes:
    raw = name.encode("utf-8")
    if not 1 <= len(raw) <= MAX_NAME_BYTES or not name.isprintable():
        raise MalformedEncoding(f"name: must be 1..{MAX_NAME_BYTES} bytes of printable UTF-8")
    return raw


def make_bundle(secret: SecretIdentity, name: str, extra: bytes = b"") -> bytes:
    """Self-signed identity bundle: msgpack [body, sig] with sig over IDENTITY + body."""
    if type(extra) is not bytes or len(extra) > MAX_EXTRA_BYTES:
        raise MalformedEncoding(f"extra: expected at most {MAX_EXTRA_BYTES} bytes")
    pub = secret.public
    body = pack([BUNDLE_VERSION, _check_name(name), pub.sign_pk, pub.box_pk, extra])
    return pack([body, secret.sign(domains.IDENTITY, body)])


def open_bundle(data: bytes) -> tuple[PublicIdentity, str, bytes]:
    """Decode and verify a bundle; return (public identity, name, extra)."""
    outer = expect_array(unpack_canonical(data, "bundle"), 2, "bundle")
    body = expect_bytes(outer[0], "bundle body")
    sig = expect_bytes(outer[1], "bundle signature", lengths=(64,))
    fields = expect_array(unpack_canonical(body, "bundle body"), 5, "bundle body")
    expect_int(fields[0], BUNDLE_VERSION, BUNDLE_VERSION, "bundle version")
    name_raw = expect_bytes(fields[1], "bundle name", max_len=MAX_NAME_BYTES)
    sign_pk = expect_bytes(fields[2], "bundle sign_pk", lengths=(32,))
    box_pk = expect_bytes(fields[3], "bundle box_pk", lengths=(32,))
    extra = expect_bytes(fields[4], "bundle extra", max_len=MAX_EXTRA_BYTES)
    try:
        name = name_raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedEncoding("bundle name: not UTF-8") from None
    _check_name(name)
    pub = PublicIdentity(sign_pk, box_pk)
    pub.verify(domains.IDENTITY, body, sig)
    return pub, name, extra
