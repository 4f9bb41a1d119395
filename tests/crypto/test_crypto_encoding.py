"""Strict canonical msgpack decoding."""

from __future__ import annotations

import msgpack
import pytest
from adp2p.crypto.encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from adp2p.crypto.errors import MalformedEncoding
from hypothesis import given
from hypothesis import strategies as st


@given(st.lists(st.one_of(st.integers(min_value=-(2**63), max_value=2**64 - 1), st.binary(max_size=40))))
def test_roundtrip(obj: list) -> None:
    assert unpack_canonical(pack(obj), "x") == obj


def test_non_canonical_rejected() -> None:
    with pytest.raises(MalformedEncoding, match="non-canonical"):
        unpack_canonical(b"\xcc\x05", "x")  # 5 as uint8 (canonical: fixint 0x05)
    with pytest.raises(MalformedEncoding, match="non-canonical"):
        unpack_canonical(b"\xc5\x00\x01a", "x")  # bin16 for a 1-byte bin (canonical: bin8)
    with pytest.raises(MalformedEncoding, match="non-canonical"):
        unpack_canonical(b"\xdc\x00\x01\x01", "x")  # array16 for a 1-element array


def test_str_and_bool_fail_type_checks() -> None:
    with pytest.raises(MalformedEncoding, match="expected bytes"):
        expect_bytes(unpack_canonical(b"\xa1a", "x"), "x")  # str, not bin
    with pytest.raises(MalformedEncoding, match="expected an integer"):
        expect_int(unpack_canonical(b"\xc3", "x"), 0, 1, "x")  # True is not an int


def test_trailing_bytes_and_garbage() -> None:
    with pytest.raises(MalformedEncoding, match="single valid msgpack"):
        unpack_canonical(pack([1]) + b"\x00", "x")
    with pytest.raises(MalformedEncoding):
        unpack_canonical(b"\xc1", "x")  # never-used byte
    with pytest.raises(MalformedEncoding):
        unpack_canonical(b"", "x")
    with pytest.raises(MalformedEncoding):
        unpack_canonical(bytearray(pack([1])), "x")  # type: ignore[arg-type]


def test_floats_and_maps_fail_type_checks() -> None:
    f = unpack_canonical(msgpack.packb(1.5), "x")
    with pytest.raises(MalformedEncoding):
        expect_int(f, 0, 9, "x")
    m = unpack_canonical(msgpack.packb({"a": 2}), "x")
    with pytest.raises(MalformedEncoding):
        expect_array(m, 1, "x")
    with pytest.raises(MalformedEncoding):
        expect_array([1, 2], 3, "x")
    with pytest.raises(MalformedEncoding):
        expect_bytes(b"abc", "x", lengths=(2,))
    with pytest.raises(MalformedEncoding):
        expect_bytes(b"abc", "x", max_len=2)
    with pytest.raises(MalformedEncoding):
        expect_int(10, 0, 9, "x")
