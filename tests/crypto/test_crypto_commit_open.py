"""The table core's commit / open facility (crypto/commit_open.py): known answers (seat-bound and entry-bound), Access
Denied's password codes as one use of it (byte for byte), per-slot openings checked at once, and every way an opening
of the wrong thing is refused."""

from __future__ import annotations

import hashlib

import pytest
from adp2p.crypto import domains
from adp2p.crypto.commit_open import Binding, Opening, check_opening, commit_slots, commit_value
from adp2p.crypto.commitments import code_binding, code_commitment, commit_code
from adp2p.crypto.errors import CommitmentMismatch, MalformedEncoding
from crypto_helpers import GAME_ID

SALT = bytes([7]) * 32
KAT_SEAT = "8a1c002598d09774012f31591bf9cafe41f873ed09abe0e5506472c22641ad5f"  # seat 2, slot b"die/1", value 5
KAT_ENTRY = "e8d846efed4be364370d47d20ef092ede1515bd81bbc486633b7dd3c2253f181"  # no seat (the entry binds it)
KAT_CODE = "3150d9685fce8208cdc061e1278f28f6dc81efe7f9c91abd3720027f7ba075e8"  # tests/crypto/test_crypto_commitments


def _blake(domain: bytes, *parts: bytes) -> str:
    framed = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return hashlib.blake2b(domain + framed, digest_size=32).hexdigest()


def test_known_answers_follow_the_documented_layout() -> None:
    seat_bound = Binding(domains.COMMIT, GAME_ID, 2, b"die/1")
    c, op = commit_value(seat_bound, b"\5", salt=SALT)
    assert c.hex() == KAT_SEAT == _blake(b"adp2p/v1/commit\0", GAME_ID, b"\2die/1", SALT, b"\5")
    assert check_opening(seat_bound, c, op) == b"\5"
    entry_bound = seat_bound._replace(seat=None)
    c2, _ = commit_value(entry_bound, b"\5", salt=SALT)
    assert c2.hex() == KAT_ENTRY == _blake(b"adp2p/v1/commit\0", GAME_ID, b"die/1", SALT, b"\5")


def test_access_denied_password_codes_are_one_use_byte_for_byte() -> None:
    b = code_binding(GAME_ID, 42, 0)
    assert (b.domain, b.seat, b.slot) == (domains.COMMIT_PASSWORD, None, (42).to_bytes(8, "big") + b"\0")
    c, _ = commit_value(b, b"\3", salt=SALT)
    assert c.hex() == KAT_CODE == code_commitment(GAME_ID, 42, 3, SALT).hex()
    c3, op = commit_code(GAME_ID, 9, 4, slot=2)
    assert check_opening(code_binding(GAME_ID, 9, 2), c3, (b"\4", op.salt)) == b"\4"


def test_each_slot_opens_alone_and_hides_the_others() -> None:
    base = Binding(domains.COMMIT, GAME_ID, 1, b"hand")
    made = commit_slots(base, [b"\1", b"\2", b"\3"])
    assert len({c for c, _ in made}) == 3 and len({op.salt for _, op in made}) == 3  # a salt per slot
    for k, (c, op) in enumerate(made):
        assert check_opening(base._replace(slot=b"hand" + bytes([k])), c, op) == bytes([k + 1])
        assert op.salt.hex() not in repr(op) and "secret" in repr(op)
    op0 = made[0][1]
    with pytest.raises(CommitmentMismatch):  # slot 0's opening says nothing of slot 1: it does not open it
        check_opening(base._replace(slot=b"hand\1"), made[1][0], op0)


@pytest.mark.parametrize(
    "what",
    ["value", "salt", "game", "seat", "no seat", "slot", "domain"],
)
def test_an_opening_of_anything_else_is_refused(what: str) -> None:
    b = Binding(domains.COMMIT, GAME_ID, 3, b"slot")
    c, op = commit_value(b, b"\4")
    other = {
        "value": (b, Opening(b"\5", op.salt)),
        "salt": (b, Opening(op.value, bytes(32))),
        "game": (b._replace(game_id=bytes(16)), op),
        "seat": (b._replace(seat=4), op),
        "no seat": (b._replace(seat=None), op),
        "slot": (b._replace(slot=b"slou"), op),
        "domain": (b._replace(domain=domains.COMMIT_PASSWORD), op),
    }[what]
    with pytest.raises(CommitmentMismatch):
        check_opening(other[0], c, other[1])


def test_malformed_inputs_are_refused_without_secrets() -> None:
    b = Binding(domains.COMMIT, GAME_ID, 0, b"s")
    c, op = commit_value(b, b"\1")
    for bad in [None, (b"\1",), (1, op.salt), (b"\1", b"short"), (b"x" * 65, op.salt)]:
        with pytest.raises(MalformedEncoding) as exc:
            check_opening(b, c, bad)
        assert op.salt.hex() not in str(exc.value)
    with pytest.raises(MalformedEncoding):
        check_opening(b, b"short", op)
    with pytest.raises(MalformedEncoding):
        commit_value(b._replace(seat=256), b"\1")
    with pytest.raises(MalformedEncoding):
        commit_value(b._replace(slot=b"x" * 65), b"\1")
    with pytest.raises(MalformedEncoding):
        commit_value(b, b"x" * 65)
