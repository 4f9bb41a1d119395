"""Private dice (crypto/dice.py): commit, then beacon; only the seat sees its face until it opens the roll."""

from __future__ import annotations

import collections
import contextlib
import hashlib

import pytest
from adp2p.crypto.dice import commit_roll, commitment_of, face, open_roll
from adp2p.crypto.errors import CommitmentMismatch, CryptoError, MalformedEncoding
from hypothesis import given, settings
from hypothesis import strategies as st

GAME = bytes(range(16))
SECRET = bytes(range(32, 64))
BEACON = bytes(range(64, 96))
KAT_COMMITMENT = "139a5abb1e826ae6b1577920e331a8303ffca78d34ad37f7058734e96bb466a6"


def _bytes(tag: str, i: int) -> bytes:
    return hashlib.blake2b(f"{tag}{i}".encode(), digest_size=32).digest()


def test_known_answers() -> None:
    """For a second implementation: game id 00..0f, seat 2, roll 7, secret 20..3f, beacon pick 40..5f."""
    assert commitment_of(GAME, 2, 7, SECRET).hex() == KAT_COMMITMENT
    assert face(GAME, 2, 7, SECRET, BEACON, 6) == 5
    assert face(GAME, 2, 7, SECRET, BEACON, 20) == 11


@settings(max_examples=40, deadline=None)
@given(seat=st.integers(0, 255), roll=st.integers(0, 2**64 - 1), sides=st.integers(2, 1 << 16),
       beacon=st.binary(min_size=32, max_size=32))
def test_an_honest_roll_opens_to_the_face_its_seat_saw(seat: int, roll: int, sides: int, beacon: bytes) -> None:
    c, s = commit_roll(GAME, seat, roll)
    seen = face(GAME, seat, roll, s.secret, beacon, sides)
    assert 1 <= seen <= sides
    assert open_roll(GAME, seat, roll, c, s.secret, beacon, sides) == seen
    assert "secret" not in repr(s).replace("<secret>", "") and s.secret.hex() not in repr(s)


@pytest.mark.parametrize(
    "change",
    [
        {"secret": bytes(32)},
        {"seat": 3},
        {"roll": 8},
        {"game": bytes(16)},
    ],
)
def test_an_opening_that_is_not_the_committed_secret_is_refused(change: dict[str, object]) -> None:
    args = {"game": GAME, "seat": 2, "roll": 7, "secret": SECRET}
    args.update(change)
    c = commitment_of(GAME, 2, 7, SECRET)
    with pytest.raises(CommitmentMismatch):
        open_roll(args["game"], args["seat"], args["roll"], c, args["secret"], BEACON, 6)  # type: ignore[arg-type]


def test_the_face_depends_on_the_beacon_drawn_after_the_commitment() -> None:
    """The seat fixed its secret before the pick: each pick gives another face, so the seat cannot choose one."""
    faces = {face(GAME, 2, 7, SECRET, _bytes("beacon", i), 6) for i in range(40)}
    assert faces == set(range(1, 7))


def test_faces_are_uniform() -> None:
    counts = collections.Counter(face(GAME, 0, i, _bytes("s", i), _bytes("b", i), 6) for i in range(6000))
    assert set(counts) == set(range(1, 7))
    assert all(900 <= n <= 1100 for n in counts.values()), counts  # 1000 expected; fixed inputs, no flakiness


@pytest.mark.parametrize(
    "call",
    [
        lambda: face(GAME, 256, 0, SECRET, BEACON, 6),
        lambda: face(GAME, 0, -1, SECRET, BEACON, 6),
        lambda: face(GAME, 0, 0, SECRET[:31], BEACON, 6),
        lambda: face(GAME, 0, 0, SECRET, BEACON[:31], 6),
        lambda: face(GAME, 0, 0, SECRET, BEACON, 1),
        lambda: face(GAME, 0, 0, SECRET, BEACON, (1 << 16) + 1),
        lambda: open_roll(GAME, 0, 0, b"short", SECRET, BEACON, 6),
        lambda: face(GAME, True, 0, SECRET, BEACON, 6),
    ],
)
def test_malformed_input_is_refused(call: object) -> None:
    with pytest.raises(MalformedEncoding):
        call()  # type: ignore[operator]


@settings(max_examples=60, deadline=None)
@given(commitment=st.binary(max_size=40), secret=st.binary(max_size=40), beacon=st.binary(max_size=40),
       sides=st.integers(-5, 1 << 17), seat=st.integers(-2, 300))
def test_any_bytes_only_raise_crypto_errors(commitment: bytes, secret: bytes, beacon: bytes, sides: int,
                                            seat: int) -> None:
    with contextlib.suppress(CryptoError):  # and nothing else
        open_roll(GAME, seat, 1, commitment, secret, beacon, sides)
