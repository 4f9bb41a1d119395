"""Signed hash-chained entries: known answers, strict decoding, chains, equivocation."""

from __future__ import annotations

import msgpack
import pytest
from adp2p.crypto import domains
from adp2p.crypto.encoding import pack
from adp2p.crypto.entries import (
    GENESIS_PREV,
    Equivocation,
    EquivocationProof,
    check_consistent,
    decode_entry,
    encode_entry,
    verify_chain,
    verify_entry,
)
from adp2p.crypto.errors import ChainError, InvalidProof, InvalidSignature, MalformedEncoding
from adp2p.crypto.identity import SecretIdentity
from crypto_helpers import GAME_ID, fixed_identity
from hypothesis import given, settings
from hypothesis import strategies as st

KAT_SECRET = SecretIdentity.from_seeds(bytes(range(32)), bytes(range(32, 64)))
KAT_HEADER = (
    "9701c41000112233445566778899aabbccddeeff00c420000000000000000000000000000000000000000000000000"
    "00000000000000000207c40568656c6c6f"
)
KAT_RAW = (
    "92c440" + KAT_HEADER + "c440ed0da24d9a7b3722241bdb30bc778b3ed9f0362cdfb7692c500298a91c6d3f77604d"
    "90c2f5c9b5645e806fac263d590aab87e09bcd6f149448f2944a2442eb09"
)
KAT_ID = "3e113b70c560def3d13f9649f3330bd8c2da1c145650b2e69722d4e55da308df"


def test_known_answer_entry() -> None:
    raw = encode_entry(KAT_SECRET, GAME_ID, 0, GENESIS_PREV, 2, 7, b"hello")
    assert raw.hex() == KAT_RAW
    e = decode_entry(raw)
    assert e.header_bytes.hex() == KAT_HEADER
    assert e.id.hex() == KAT_ID
    assert (e.version, e.game_id, e.seq, e.prev_hash, e.author, e.kind, e.body) == (
        1,
        GAME_ID,
        0,
        GENESIS_PREV,
        2,
        7,
        b"hello",
    )
    verify_entry(e, KAT_SECRET.public)


def _chain(n: int, ids: list[SecretIdentity]) -> list[bytes]:
    raws, prev = [], GENESIS_PREV
    for seq in range(n):
        author = seq % len(ids)
        raw = encode_entry(ids[author], GAME_ID, seq, prev, author, 1, b"body %d" % seq)
        raws.append(raw)
        prev = decode_entry(raw).id
    return raws


def test_chain_verifies_and_returns_head() -> None:
    ids = [fixed_identity(i) for i in range(3)]
    entries = [decode_entry(r) for r in _chain(5, ids)]
    assert verify_chain(entries, [i.public for i in ids]) == entries[-1].id
    assert verify_chain([], [i.public for i in ids]) == GENESIS_PREV
    assert verify_chain(entries, {k: i.public for k, i in enumerate(ids)}, game_id=GAME_ID) == entries[-1].id


def test_tampered_header_rejected() -> None:
    ids = [fixed_identity(0)]
    raw = encode_entry(ids[0], GAME_ID, 0, GENESIS_PREV, 0, 1, b"pay 10")
    e = decode_entry(raw)
    forged_header = e.header_bytes.replace(b"pay 10", b"pay 99")
    forged = decode_entry(pack([forged_header, e.signature]))
    with pytest.raises(InvalidSignature):
        verify_entry(forged, ids[0].public)
    with pytest.raises(InvalidSignature):
        verify_chain([forged], [ids[0].public])


def test_wrong_key_rejected() -> None:
    e = decode_entry(encode_entry(fixed_identity(0), GAME_ID, 0, GENESIS_PREV, 0, 1, b""))
    with pytest.raises(InvalidSignature):
        verify_entry(e, fixed_identity(1).public)
    # claims seat 1 but signed by seat 0's key
    e1 = decode_entry(encode_entry(fixed_identity(0), GAME_ID, 0, GENESIS_PREV, 1, 1, b""))
    with pytest.raises(InvalidSignature):
        verify_chain([e1], [fixed_identity(0).public, fixed_identity(1).public])


def test_reordered_and_broken_chains_rejected() -> None:
    ids = [fixed_identity(i) for i in range(2)]
    pubs = [i.public for i in ids]
    entries = [decode_entry(r) for r in _chain(4, ids)]
    with pytest.raises(ChainError, match="sequence"):
        verify_chain([entries[1], entries[0], *entries[2:]], pubs)
    with pytest.raises(ChainError, match="sequence"):
        verify_chain([entries[0], entries[2]], pubs)  # gap
    with pytest.raises(ChainError, match="sequence"):
        verify_chain(entries[1:], pubs)  # does not start at 0
    # same seq numbers but a link to the wrong predecessor
    bad = decode_entry(encode_entry(ids[0], GAME_ID, 2, entries[0].id, 0, 1, b"x"))
    with pytest.raises(ChainError, match="prev_hash"):
        verify_chain([entries[0], entries[1], bad], pubs)
    # genesis with a non-zero prev
    g = decode_entry(encode_entry(ids[0], GAME_ID, 0, b"\1" * 32, 0, 1, b""))
    with pytest.raises(ChainError, match="genesis"):
        verify_chain([g], pubs)
    # another game's entry
    other = decode_entry(encode_entry(ids[1], bytes(16), 1, entries[0].id, 1, 1, b""))
    with pytest.raises(ChainError, match="another game"):
        verify_chain([entries[0], other], pubs)
    with pytest.raises(ChainError, match="unknown author"):
        verify_chain(entries, pubs[:1])


def _header(fields: list) -> bytes:
    return msgpack.packb(fields, use_bin_type=True)


GOOD = [1, GAME_ID, 0, GENESIS_PREV, 0, 1, b"b"]


@pytest.mark.parametrize(
    "fields",
    [
        [2, *GOOD[1:]],  # unknown version
        [1, b"short", *GOOD[2:]],  # game id length
        [1, GAME_ID, -1, *GOOD[3:]],  # negative seq
        [1, GAME_ID, 0, b"\0" * 31, *GOOD[4:]],  # prev_hash length
        [1, GAME_ID, 0, GENESIS_PREV, 256, 1, b"b"],  # author out of range
        [1, GAME_ID, 0, GENESIS_PREV, 0, 1, "b"],  # str body
        [1, GAME_ID, 0, GENESIS_PREV, True, 1, b"b"],  # bool author
        [1, GAME_ID, 0.0, GENESIS_PREV, 0, 1, b"b"],  # float seq
        [1, GAME_ID, 0, GENESIS_PREV, 0, 1],  # too few fields
        [*GOOD, b"extra"],  # too many fields
        {"version": 1},  # a map
    ],
)
def test_wrong_types_in_header_rejected(fields: object) -> None:
    header = _header(fields)  # type: ignore[arg-type]
    with pytest.raises(MalformedEncoding):
        decode_entry(pack([header, fixed_identity(0).sign(domains.ENTRY, header)]))


def test_non_canonical_and_trailing_bytes_rejected() -> None:
    good = encode_entry(fixed_identity(0), GAME_ID, 0, GENESIS_PREV, 0, 1, b"b")
    with pytest.raises(MalformedEncoding):
        decode_entry(good + b"\0")
    e = decode_entry(good)
    # header: seq 0 written as uint8 (0xcc 0x00) instead of fixint 0x00
    nc = e.header_bytes.replace(GAME_ID + b"\x00", GAME_ID + b"\xcc\x00", 1)
    assert nc != e.header_bytes
    with pytest.raises(MalformedEncoding, match="non-canonical"):
        decode_entry(pack([nc, fixed_identity(0).sign(domains.ENTRY, nc)]))
    # outer array written as array16
    outer = b"\xdc\x00\x02" + good[1:]
    with pytest.raises(MalformedEncoding, match="non-canonical"):
        decode_entry(outer)
    with pytest.raises(MalformedEncoding):
        decode_entry(pack([e.header_bytes, e.signature[:63]]))
    with pytest.raises(MalformedEncoding):
        decode_entry(pack([e.header_bytes + b"\0", e.signature]))  # trailing bytes inside header


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([bytes(16), bytes(range(32))]),
    st.integers(0, 2**63 - 1),
    st.binary(min_size=32, max_size=32),
    st.integers(0, 255),
    st.integers(0, 2**32 - 1),
    st.binary(max_size=300),
)
def test_entry_roundtrip(gid: bytes, seq: int, prev: bytes, author: int, kind: int, body: bytes) -> None:
    sid = fixed_identity(0)
    raw = encode_entry(sid, gid, seq, prev, author, kind, body)
    e = decode_entry(raw)
    assert (e.raw, e.game_id, e.seq, e.prev_hash, e.author, e.kind, e.body) == (
        raw,
        gid,
        seq,
        prev,
        author,
        kind,
        body,
    )
    verify_entry(e, sid.public)


def test_equivocation() -> None:
    ids = [fixed_identity(i) for i in range(2)]
    pubs = [i.public for i in ids]
    a = encode_entry(ids[1], GAME_ID, 3, GENESIS_PREV, 1, 1, b"play card 5")
    b = encode_entry(ids[1], GAME_ID, 3, GENESIS_PREV, 1, 1, b"play card 9")
    proof = EquivocationProof(a, b)
    assert proof.verify(pubs) == 1
    assert EquivocationProof.from_bytes(proof.to_bytes()).verify(pubs) == 1
    with pytest.raises(Equivocation) as info:
        check_consistent(decode_entry(a), decode_entry(b), pubs)
    assert info.value.seat == 1 and info.value.proof.verify(pubs) == 1
    # identical entries are not equivocation
    with pytest.raises(InvalidProof, match="identical"):
        EquivocationProof(a, a).verify(pubs)
    check_consistent(decode_entry(a), decode_entry(a), pubs)
    # different seq is not equivocation
    c = encode_entry(ids[1], GAME_ID, 4, GENESIS_PREV, 1, 1, b"play card 9")
    with pytest.raises(InvalidProof):
        EquivocationProof(a, c).verify(pubs)
    # a forged second entry (signed by someone else) proves nothing against seat 1
    forged = encode_entry(ids[0], GAME_ID, 3, GENESIS_PREV, 1, 1, b"play card 9")
    with pytest.raises(InvalidProof):
        EquivocationProof(a, forged).verify(pubs)
    with pytest.raises(InvalidProof):
        EquivocationProof(a, b"\x00").verify(pubs)
    # two entries at one seq on different previous entries: one was set aside by evidence, not a lie
    other_prev = encode_entry(ids[1], GAME_ID, 3, bytes(range(32)), 1, 1, b"play card 9")
    with pytest.raises(InvalidProof, match="different previous"):
        EquivocationProof(a, other_prev).verify(pubs)
    check_consistent(decode_entry(a), decode_entry(other_prev), pubs)
