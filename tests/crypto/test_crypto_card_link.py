"""Card link proof (protocol version 5): a Pedersen commitment holds the attribute of the hidden card its holder has,
in constant size, because card points are linear in the attribute (``a·G + (i+1)·J``).

Known answers (J, card points, a proof with fixed randomness); a real dealt card (three seats, a proved-looking
shuffle of the linear deck, the other seats' shares removed); one negative test per input; the cheats the proof
must stop (a commitment to another code, a proof made with another card's id, scalars out of range); and the one it
cannot stop by itself — a malformed card in the deck — which is why soundness rests on the proof of shuffle (the zoo's
Recoder is named there: tests/adversaries/test_zoo_deck.py)."""

from __future__ import annotations

import hashlib
import random
from typing import NamedTuple

import pytest
from adp2p.crypto import card_link as cl
from adp2p.crypto import code_proofs as cp
from adp2p.crypto import deck
from adp2p.crypto.errors import CommitmentMismatch, FalseStatement, InvalidPoint, InvalidProof, MalformedEncoding
from adp2p.crypto.group import CardTable, L, add, base_mul, card_id_base, mul, scalar_from_int, sub
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

ATTRS = [i % 6 for i in range(63)]  # a code for every card (the game's are in engine/access_denied/catalog)
TABLE = CardTable.linear(GAME_ID, ATTRS)
J = TABLE.id_base
HOLDER = 1
CTX = cp.ProofContext(GAME_ID, HOLDER, (4, 9, 20), b"link", 9)


# ---------------------------------------------------------------- known answers


def test_known_answers_card_points() -> None:
    assert card_id_base(GAME_ID) == J
    assert J.hex() == "5f18cf8e11fad932dd62b1a04881606c29c56f646d41428dabaddb4014df165c"
    assert TABLE.point(0) == J  # attribute 0, id 1
    assert TABLE.point(62).hex() == "b6d5c59997d8e2f2710c6bdb8ada7f778fcebe143c73a28ce82ebb5d4aa6474f"
    for i in (0, 7, 62):  # a_i·G + (i+1)·J, however computed
        want = mul(scalar_from_int(i + 1), J)
        if ATTRS[i]:
            want = add(want, base_mul(scalar_from_int(ATTRS[i])))
        assert TABLE.point(i) == want
    assert len(set(TABLE.points)) == 63 and all(TABLE.face(p) == i for i, p in enumerate(TABLE.points))
    assert CardTable.linear(bytes(16), ATTRS).points != TABLE.points  # J is the game's


def test_known_answer_proof() -> None:
    """Game id 00112233…eeff, attributes i mod 6, holder key 11, c1 = 5·G, card 20 (attribute 2), blinding 13,
    context (game, seat 2, handles 10, 11, 12, "link", 20), randomness 00 01 … 1f."""
    x, f, blind = scalar_from_int(11), 20, scalar_from_int(13)
    c1 = base_mul(scalar_from_int(5))
    c2p = add(TABLE.point(f), mul(x, c1))
    c = cp.pedersen_commit(ATTRS[f], blind)
    ctx = cp.ProofContext(GAME_ID, 2, (10, 11, 12), b"link", 20)
    p = cl.prove_card_link(J, c1, c2p, x, c, ATTRS[f], blind, f, ctx, entropy=bytes(range(32)))
    assert hashlib.sha256(p).hexdigest() == "e76aaf573b2ab7f056cf269144ae2fc26b9958ec8eefd4db784b18ee607e5379"
    assert p[:32].hex() == "4555bf9732f4b408b32be43b85c833ba97d88f38e404aa32cc4194384e907a02"
    cl.verify_card_link(J, c1, c2p, base_mul(x), c, p, ctx)


def test_card_attributes_are_checked() -> None:
    for bad in ([-1], [2**16], [True], ["a"]):
        with pytest.raises(MalformedEncoding):
            CardTable.linear(GAME_ID, bad)  # type: ignore[arg-type]
    with pytest.raises(MalformedEncoding):
        CardTable.linear(GAME_ID, [])


# ---------------------------------------------------------------- a dealt card


class Held(NamedTuple):
    c1: bytes
    c2p: bytes  # c2 minus every other seat's share: ElGamal under the holder's key alone
    face: int
    key: deck.DeckKey
    other_key: deck.DeckKey


def _deal(handle: int, table: CardTable = TABLE) -> Held:
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(3)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    pile, _ = deck.shuffle(deck.initial_deck(GAME_ID, pk, table), pk)
    ct = pile[handle]
    shares = [deck.make_share(GAME_ID, k, handle, ct) for k in keys if k.seat != HOLDER]
    for s in shares:
        deck.verify_share(GAME_ID, keys[s.seat].public, handle, ct, s)
    c2p = deck.combine(ct, [s.d for s in shares])
    face = table.face(sub(c2p, mul(keys[HOLDER].secret, ct.c1)))  # only the holder can do this
    return Held(ct.c1, c2p, face, keys[HOLDER], keys[0])


@pytest.fixture(scope="module")
def held() -> Held:
    return _deal(9)


@pytest.fixture(scope="module")
def linked(held: Held) -> tuple[cp.Commitments, cp.PasswordOpening, bytes]:
    code = ATTRS[held.face]
    cs, op = cp.commit_codes((code, (code + 1) % 6, (code + 2) % 6))
    proof = cl.prove_card_link(J, held.c1, held.c2p, held.key.secret, cs[0], code, op.blinds[0], held.face, CTX)
    return cs, op, proof


def _flip(proof: bytes, byte: int, bit: int = 0) -> bytes:
    return proof[:byte] + bytes([proof[byte] ^ (1 << bit)]) + proof[byte + 1 :]


def test_honest_proofs_verify_for_dealt_cards_and_are_constant_size() -> None:
    for handle in (0, 31, 62):
        h = _deal(handle)
        code = ATTRS[h.face]
        cs, op = cp.commit_codes(((code + 3) % 6, code, (code + 1) % 6))
        p = cl.prove_card_link(J, h.c1, h.c2p, h.key.secret, cs[1], code, op.blinds[1], h.face, CTX)
        assert len(p) == cl.PROOF_LEN == 128
        cl.verify_card_link(J, h.c1, h.c2p, h.key.public, cs[1], p, CTX)
        cl.verify_card_link(J, h.c1, h.c2p, h.key.public, cs[1], p, CTX, True)  # points checked before
        with pytest.raises(InvalidProof):
            cl.verify_card_link(J, h.c1, h.c2p, h.key.public, cs[0], p, CTX)  # another slot's commitment


def test_a_proof_is_bound_to_every_input(held: Held, linked: tuple) -> None:
    cs, _op, p = linked
    ok = (J, held.c1, held.c2p, held.key.public, cs[0], p, CTX)
    cl.verify_card_link(*ok)
    other_ctx = cp.ProofContext(GAME_ID, HOLDER, (4, 9, 20), b"link", 4)
    other_j = card_id_base(bytes(16))
    variants = [
        (other_j, *ok[1:]),  # another game's card ids
        (J, base_mul(scalar_from_int(3)), *ok[2:]),  # another card
        (J, held.c1, add(held.c2p, J), *ok[3:]),  # the next card's id
        (J, held.c1, held.c2p, held.other_key.public, *ok[4:]),  # another seat's key
        (*ok[:4], cs[1], p, CTX),  # another commitment
        (*ok[:6], other_ctx),  # another handle
    ]
    for v in variants:
        with pytest.raises(InvalidProof):
            cl.verify_card_link(*v)  # type: ignore[arg-type]
    for byte in (0, 31, 32, 63, 64, 95, 96, 127):
        with pytest.raises(InvalidProof):
            cl.verify_card_link(*ok[:5], _flip(p, byte), CTX)


def test_scalars_out_of_range_and_bad_lengths_are_refused(held: Held, linked: tuple) -> None:
    cs, _op, p = linked
    args = (J, held.c1, held.c2p, held.key.public, cs[0])
    big = (L + 1).to_bytes(32, "little")
    for bad in (p[:-1], p + b"\0", b"", bytes(128), big + p[32:], p[:32] + big + p[64:], p[:96] + bytes(32), "x" * 128):
        with pytest.raises(InvalidProof):
            cl.verify_card_link(*args, bad, CTX)  # type: ignore[arg-type]
    with pytest.raises(InvalidPoint):
        cl.verify_card_link(*args[:4], bytes(32), p, CTX)  # a commitment that is no point: checked even if trusted
    with pytest.raises(InvalidPoint):
        cl.verify_card_link(J, held.c1, held.c2p, bytes(32), cs[0], p, CTX)


def test_an_honest_prover_refuses_a_false_statement(held: Held, linked: tuple) -> None:
    cs, op, _p = linked
    code = ATTRS[held.face]
    other = (held.face + 6) % 63  # another card with the same code: right code, wrong card
    with pytest.raises(FalseStatement):
        cl.prove_card_link(J, held.c1, held.c2p, held.key.secret, cs[0], code, op.blinds[0], other, CTX)
    with pytest.raises(FalseStatement):  # the claimed attribute is not the card's
        cl.prove_card_link(J, held.c1, held.c2p, held.key.secret, cs[1], (code + 1) % 6, op.blinds[1], held.face, CTX)
    with pytest.raises(CommitmentMismatch):
        cl.prove_card_link(J, held.c1, held.c2p, held.key.secret, cs[1], code, op.blinds[1], held.face, CTX)


def _liar_commitment(held: Held) -> tuple[int, bytes, bytes]:
    false = (ATTRS[held.face] + 1) % 6
    blind = scalar_from_int(4242)
    return false, blind, cp.pedersen_commit(false, blind)


def test_a_proof_made_with_another_cards_id_does_not_verify(held: Held) -> None:
    """The liar's forgery: it commits a false code and answers the Σ-protocol with the id of another card that HAS
    that code (the witness the statement would need if the card were that card). It fails: the card is not."""
    false, blind, c = _liar_commitment(held)
    others = [f for f in range(63) if ATTRS[f] == false]
    statement = (J, held.key.public, held.c1, held.c2p, c)
    for f in others[:3]:
        forged = cl._prove(statement, held.key.secret, scalar_from_int(f + 1), blind, CTX.to_bytes(), bytes(32))
        with pytest.raises(InvalidProof):
            cl.verify_card_link(J, held.c1, held.c2p, held.key.public, c, forged, CTX)
    true = cl._prove(statement, held.key.secret, scalar_from_int(held.face + 1), blind, CTX.to_bytes(), bytes(32))
    with pytest.raises(InvalidProof):  # the true card's id does not help either: the commitment is of another code
        cl.verify_card_link(J, held.c1, held.c2p, held.key.public, c, true, CTX)


def test_a_malformed_card_would_link_a_false_code_hence_the_deck_must_be_proved() -> None:
    """Soundness rests on the deck: a card point that is not a·G + id·J of the game's table (here the card with its
    code raised by one, M + G) WOULD link a false code. The proof of shuffle is what keeps such a card out of the
    deck (the zoo's Recoder is named at its shuffle)."""
    h = _deal(9)
    c2p_bad = add(h.c2p, base_mul(scalar_from_int(1)))  # the holder's card, recoded: (a+1)·G + (f+1)·J
    false = ATTRS[h.face] + 1
    blind = scalar_from_int(77)
    c = add(base_mul(scalar_from_int(false)), mul(blind, cp.H))
    statement = (J, h.key.public, h.c1, c2p_bad, c)
    p = cl._prove(statement, h.key.secret, scalar_from_int(h.face + 1), blind, CTX.to_bytes(), bytes(32))
    cl.verify_card_link(J, h.c1, c2p_bad, h.key.public, c, p, CTX)  # verifies: the card is the problem
    with pytest.raises(Exception):  # noqa: B017 - and that point is no card of the table
        TABLE.face(sub(c2p_bad, mul(h.key.secret, h.c1)))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.binary(min_size=0, max_size=160), st.integers(0, 127), st.integers(0, 7))
def test_fuzz_never_raises_anything_but_invalid_proof(junk: bytes, byte: int, bit: int) -> None:
    rng = random.Random(len(junk) * 131 + byte)
    x = scalar_from_int(rng.randrange(1, L))
    c1 = base_mul(scalar_from_int(rng.randrange(1, L)))
    c2p = add(TABLE.point(rng.randrange(63)), mul(x, c1))
    c = base_mul(scalar_from_int(rng.randrange(1, L)))
    for proof in (junk, (junk * 128)[:128] if junk else bytes(128)):
        with pytest.raises(InvalidProof):
            cl.verify_card_link(J, c1, c2p, base_mul(x), c, proof, CTX)
