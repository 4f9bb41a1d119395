"""Framing, domain strings and hash helpers."""

from __future__ import annotations

import hashlib

import pytest
from adp2p.crypto import domains
from adp2p.crypto.hashing import frame, hash32, hash64, u8, u32, u64
from hypothesis import given
from hypothesis import strategies as st


def test_frame_layout() -> None:
    assert frame(b"ab", b"") == bytes.fromhex("00000002616200000000")
    assert frame() == b""


def test_hash32_known_answer() -> None:
    expect = hashlib.blake2b(b"adp2p/v1/commit\0" + b"\0\0\0\x01a" + b"\0\0\0\0", digest_size=32).digest()
    assert hash32(domains.COMMIT, b"a", b"") == expect
    assert expect.hex() == "1bd4da65d25060b306344604cde4f53b201ab6bec1f70a8d2ea85cc5dd27ebd2"
    assert hash64(domains.COMMIT, b"a") == hashlib.sha512(b"adp2p/v1/commit\0\0\0\0\x01a").digest()


@given(st.lists(st.binary(max_size=8), max_size=4), st.lists(st.binary(max_size=8), max_size=4))
def test_framing_is_unambiguous(a: list[bytes], b: list[bytes]) -> None:
    if a != b:
        assert hash32(domains.COMMIT, *a) != hash32(domains.COMMIT, *b)


def test_domains_are_distinct_and_nul_terminated() -> None:
    assert len(set(domains.ALL)) == len(domains.ALL)
    for d in domains.ALL:
        assert d.startswith(b"adp2p/v1/") and d.endswith(b"\0") and d.count(b"\0") == 1
    assert domains.ENTRY == b"adp2p/v1/entry\0"


def test_bad_domain_rejected() -> None:
    with pytest.raises(ValueError):
        hash32(b"no-nul", b"x")
    with pytest.raises(ValueError):
        hash32(b"two\0nuls\0", b"x")


def test_int_helpers() -> None:
    assert u8(255) == b"\xff" and u32(1) == b"\0\0\0\1" and u64(2) == bytes(7) + b"\2"
    with pytest.raises(OverflowError):
        u8(256)
