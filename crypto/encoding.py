"""Strict canonical msgpack: decode only what re-encodes to the exact same bytes.

Wire structures are msgpack arrays of ints and bin (bytes) only. ``unpack_canonical`` rejects
invalid msgpack, trailing bytes, ext types, and any non-canonical encoding (non-minimal ints,
str instead of bin, ...) by re-encoding with ``packb(use_bin_type=True)`` and comparing.
The ``expect_*`` helpers check exact Python types (``bool`` is not an ``int`` here) and ranges.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import msgpack

from .errors import MalformedEncoding


def pack(obj: Any) -> bytes:
    """Canonical msgpack encoding (smallest ints, bin type for bytes)."""
    return msgpack.packb(obj, use_bin_type=True)


def unpack_canonical(raw: bytes, what: str) -> Any:
    if type(raw) is not bytes:
        raise MalformedEncoding(f"{what}: expected bytes, got {type(raw).__name__}")
    try:
        obj = msgpack.unpackb(raw, raw=False, use_list=True, strict_map_key=True)
    except Exception as exc:  # msgpack raises many unrelated classes (ExtraData, FormatError, ...)
        raise MalformedEncoding(f"{what}: not a single valid msgpack object ({type(exc).__name__})") from None
    try:
        again = pack(obj)
    except Exception:
        raise MalformedEncoding(f"{what}: contains values that do not re-encode") from None
    if again != raw:
        raise MalformedEncoding(f"{what}: non-canonical msgpack encoding")
    return obj


def expect_array(obj: Any, n: int, what: str) -> list[Any]:
    if type(obj) is not list or len(obj) != n:
        raise MalformedEncoding(f"{what}: expected an array of {n} elements")
    return obj


def expect_int(v: Any, lo: int, hi: int, what: str) -> int:
    if type(v) is not int:
        raise MalformedEncoding(f"{what}: expected an integer, got {type(v).__name__}")
    if not lo <= v <= hi:
        raise MalformedEncoding(f"{what}: {v} out of range [{lo}, {hi}]")
    return v


def expect_bytes(
    v: Any, what: str, *, lengths: Collection[int] | None = None, max_len: int | None = None
) -> bytes:
    if type(v) is not bytes:
        raise MalformedEncoding(f"{what}: expected bytes, got {type(v).__name__}")
    if lengths is not None and len(v) not in lengths:
        raise MalformedEncoding(f"{what}: length {len(v)} not in {sorted(lengths)}")
    if max_len is not None and len(v) > max_len:
        raise MalformedEncoding(f"{what}: length {len(v)} exceeds {max_len}")
    return v
