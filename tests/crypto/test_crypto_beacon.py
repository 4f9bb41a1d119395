"""Hash-chain beacon and unbiased derivations."""

from __future__ import annotations

import collections

import pytest
from adp2p.crypto.beacon import (
    BeaconChain,
    BeaconTracker,
    combine,
    next_link,
    permutation,
    sample,
    uniform_int,
    verify_link,
)
from adp2p.crypto.errors import BeaconError
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

LINKS = [bytes([i]) * 32 for i in range(3)]
KAT_PICK = "22d86aa146d54dff60f9db101e39dc97a4fb1b2c5612658ecf95624aa073a4b7"


def test_known_answer_beacon() -> None:
    out = combine(GAME_ID, b"seat-order", LINKS)
    assert out.hex() == KAT_PICK
    assert permutation(out, 6) == [2, 5, 1, 0, 3, 4]
    assert sample(out, 63, 6) == [61, 35, 29, 25, 18, 34]
    assert uniform_int(out, 1000) == 839
    assert next_link(GAME_ID, 1, bytes(32)).hex() == (
        "cc069e10989940ff66659e00fd5fc38b9ecc8d6ea4b327995d3eafb6d2f1369b"
    )


def test_chain_links_verify_forward() -> None:
    ch = BeaconChain(GAME_ID, 2, bytes([9]) * 32, 5)
    assert ch.length == 5
    prev = ch.head
    for k in range(1, 6):
        verify_link(GAME_ID, 2, prev, ch.link(k))
        prev = ch.link(k)
    verify_link(GAME_ID, 2, ch.head, ch.link(4), steps=4)
    assert "09090909" not in repr(ch)


def test_wrong_link_names_the_seat() -> None:
    ch = BeaconChain.generate(GAME_ID, 1, 4)
    with pytest.raises(BeaconError, match="seat 1") as info:
        verify_link(GAME_ID, 1, ch.head, ch.link(2))  # skipped a link without saying so
    assert info.value.seat == 1
    with pytest.raises(BeaconError):
        verify_link(GAME_ID, 0, ch.head, ch.link(1))  # link bound to its seat
    with pytest.raises(BeaconError):
        verify_link(bytes(16), 1, ch.head, ch.link(1))  # and to its game
    with pytest.raises(BeaconError):
        verify_link(GAME_ID, 1, ch.head, b"short")


def test_tracker_full_round() -> None:
    chains = [BeaconChain.generate(GAME_ID, s, 3) for s in range(4)]
    t = BeaconTracker(GAME_ID, [c.head for c in chains])
    for s in (3, 0, 2):
        t.reveal(s, 1, chains[s].link(1))
    assert not t.ready(1) and t.missing(1) == [1]
    with pytest.raises(BeaconError, match="seat 1"):
        t.pick(1, b"x")
    with pytest.raises(BeaconError, match="seat 1"):
        t.reveal(1, 1, chains[0].link(1))  # another seat's link
    t.reveal(1, 1, chains[1].link(1))
    t.reveal(1, 1, chains[1].link(1))  # idempotent
    assert t.pick(1, b"x") == combine(GAME_ID, b"x", [c.link(1) for c in chains])
    # seat 0 jumps to pick 3: the skipped link 2 becomes known too
    t.reveal(0, 3, chains[0].link(3))
    for s in (1, 2, 3):
        t.reveal(s, 2, chains[s].link(2))
    assert t.pick(2, b"y") == combine(GAME_ID, b"y", [c.link(2) for c in chains])
    with pytest.raises(BeaconError):
        t.reveal(0, 2, chains[1].link(2))


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 70))
def test_permutation_is_a_permutation(seed: bytes, n: int) -> None:
    assert sorted(permutation(seed, n)) == list(range(n))


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.data())
def test_sample_distinct_in_range(seed: bytes, data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 70))
    k = data.draw(st.integers(0, n))
    s = sample(seed, n, k)
    assert len(s) == k and len(set(s)) == k and all(0 <= x < n for x in s)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 2**64 - 1))
def test_uniform_int_in_range(seed: bytes, n: int) -> None:
    assert 0 <= uniform_int(seed, n) < n


def test_distribution_roughly_uniform() -> None:
    counts = collections.Counter(uniform_int(i.to_bytes(32, "big"), 6) for i in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values())
    firsts = collections.Counter(permutation(i.to_bytes(32, "big"), 3)[0] for i in range(3000))
    assert all(850 < c < 1150 for c in firsts.values())


def test_derivation_argument_checks() -> None:
    with pytest.raises(ValueError):
        uniform_int(bytes(32), 0)
    with pytest.raises(ValueError):
        sample(bytes(32), 3, 4)


def test_tracker_bounds_the_hashing_work() -> None:
    ch = BeaconChain.generate(GAME_ID, 0, 3)
    t = BeaconTracker(GAME_ID, [ch.head], length=3)
    with pytest.raises(BeaconError, match="outside the chain length"):
        t.reveal(0, 4, bytes(32))
