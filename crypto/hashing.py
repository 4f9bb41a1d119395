"""Domain-separated hashing with unambiguous length-prefixed framing.

``frame(p1, ..., pn) = u32be(len p1) ‖ p1 ‖ ... ‖ u32be(len pn) ‖ pn``.
``hash32(domain, *parts) = BLAKE2b-256(domain ‖ frame(parts))`` (unkeyed, no personalisation).
``hash64(domain, *parts) = SHA-512(domain ‖ frame(parts))`` where a uniform 64-byte value is needed.
Integers enter hashes through the fixed-width big-endian helpers ``u8``, ``u32``, ``u64``.
"""

from __future__ import annotations

import hashlib

MAX_PART = 0xFFFFFFFF


def u8(n: int) -> bytes:
    return n.to_bytes(1, "big")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def frame(*parts: bytes) -> bytes:
    """Length-prefix every part (u32 big-endian) and concatenate."""
    out = bytearray()
    for p in parts:
        if not isinstance(p, bytes | bytearray):
            raise TypeError("frame parts must be bytes")
        if len(p) > MAX_PART:
            raise ValueError("frame part too long")
        out += len(p).to_bytes(4, "big")
        out += p
    return bytes(out)


def _check_domain(domain: bytes) -> None:
    if not isinstance(domain, bytes) or not domain.endswith(b"\0") or domain.count(b"\0") != 1:
        raise ValueError("domain must be bytes ending with a single NUL")


def hash32(domain: bytes, *parts: bytes) -> bytes:
    """BLAKE2b-256 of ``domain ‖ frame(parts)``."""
    _check_domain(domain)
    h = hashlib.blake2b(digest_size=32)
    h.update(domain)
    h.update(frame(*parts))
    return h.digest()


def hash32_prefixed(domain: bytes, *fixed: bytes) -> hashlib._Hash:
    """A BLAKE2b-256 state that has taken in ``domain ‖ frame(fixed)``: ``copy()`` it and ``update`` it with
    ``frame(last)`` to get ``hash32(domain, *fixed, last)`` without framing the fixed parts again (a hash chain)."""
    _check_domain(domain)
    h = hashlib.blake2b(digest_size=32)
    h.update(domain)
    h.update(frame(*fixed))
    return h


def hash64(domain: bytes, *parts: bytes) -> bytes:
    """SHA-512 of ``domain ‖ frame(parts)``."""
    _check_domain(domain)
    h = hashlib.sha512()
    h.update(domain)
    h.update(frame(*parts))
    return h.digest()
