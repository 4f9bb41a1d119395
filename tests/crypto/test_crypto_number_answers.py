"""Classified Information's answers about a hidden Card Number, proved: every question, every asked number, every
hidden number; the rulebook's own examples; and the whole chain on a dealt card of an 18-card deck (the card link
ties the commitment to the Suitcase or face-down Guard, each answer is proved against that commitment) with the
cheats the chain must stop: a liar for each kind of answer, a Suitcase swapped mid-game, a false face-down Guard
comparison."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from adp2p.crypto import card_link as cl
from adp2p.crypto import code_proofs as cp
from adp2p.crypto import deck
from adp2p.crypto import number_answers as na
from adp2p.crypto import set_proofs as sp
from adp2p.crypto.errors import CommitmentMismatch, FalseStatement, InvalidProof, MalformedEncoding
from adp2p.crypto.group import CardTable, L, mul, scalar_from_int, sub
from crypto_helpers import GAME_ID
from set_forgery import forge_set_proof

Q = na.Question
NUMBERS = na.CARD_NUMBERS
ATTRS = [i // 2 + 1 for i in range(18)]  # an 18-card deck: two of each Card Number 1..9
TABLE = CardTable.linear(GAME_ID, ATTRS)
J = TABLE.id_base
HOLDER = 1


def test_the_wheel_and_codes_as_the_rulebook_states_them() -> None:
    assert na.code_of(6) == (5, 6, 7) and na.code_of(9) == (1, 8, 9) and na.code_of(1) == (1, 2, 9)
    # Fortune Teller names 1: "8, 9, 1, 2 and 3 are within +/-2"; Josephine's number is 9: "yes".
    assert na.answer_set(Q.NEAR, 1, True) == (1, 2, 3, 8, 9) and na.holds(Q.NEAR, 9, 1)
    # Wheel of Fate flips a 6, "6 is not in her Code": Suitcase Numbers 5, 6 and 7 are eliminated.
    assert na.answer_set(Q.IN_CODE, 6, False) == (1, 2, 3, 4, 8, 9)
    # ... flips a 9, "her Code does not contain a 9": 8, 9 and 1 are eliminated.
    assert na.answer_set(Q.IN_CODE, 9, False) == (2, 3, 4, 5, 6, 7)
    # Fortune Teller (Code 9-1-2) against a Guard of Code 3-4-5: no number in common, the attempt fails.
    assert not na.holds(Q.CODES_TOUCH, 4, 1) and na.holds(Q.CODES_TOUCH, 3, 1)
    assert na.answer_set(Q.NOT_NUMBER, 3, True) == (1, 2, 4, 5, 6, 7, 8, 9)
    assert na.answer_set(Q.EQUAL, 7, True) == (7,)


def test_every_answer_set_is_a_proper_subset_and_means_what_it_says() -> None:
    for q in Q:
        for x in NUMBERS:
            yes, no = na.answer_set(q, x, True), na.answer_set(q, x, False)
            assert yes and no and set(yes) | set(no) == set(NUMBERS) and not set(yes) & set(no)
            for n in NUMBERS:
                code_n, code_x = set(na.code_of(n)), set(na.code_of(x))
                d = min((n - x) % 9, (x - n) % 9)
                meaning = {Q.NEAR: d <= 2, Q.EQUAL: n == x, Q.IN_CODE: x in code_n,
                           Q.CODES_TOUCH: bool(code_n & code_x), Q.NOT_NUMBER: n != x}[q]
                assert (n in yes) == meaning == na.holds(q, n, x)
        assert max(len(na.answer_set(q, x, b)) for x in NUMBERS for b in (True, False)) <= 8
    # two Codes touch exactly when the numbers are within two of each other (one set, two questions)
    for x in NUMBERS:
        for b in (True, False):
            assert na.answer_set(Q.CODES_TOUCH, x, b) == na.answer_set(Q.NEAR, x, b)


def test_every_true_answer_verifies_and_every_lie_is_refused_and_rejected() -> None:
    """For every question, asked number and hidden number: the true answer's proof verifies (and not as the other
    answer); the false answer is refused by an honest prover, and a liar's forged proof of it is rejected."""
    rng = random.Random(3)
    for n in NUMBERS:
        blind = scalar_from_int(rng.randrange(1, L))
        c = sp.commit_number(n, blind)
        for q in Q:
            for x in NUMBERS:
                ctx = na.context(q, GAME_ID, HOLDER, 40 + n, 100 + x)
                yes, p = na.prove_answer(c, n, blind, q, x, ctx)
                assert yes == na.holds(q, n, x)
                na.verify_answer(c, q, x, yes, p, ctx)
                with pytest.raises(InvalidProof):
                    na.verify_answer(c, q, x, not yes, p, ctx)
                with pytest.raises(FalseStatement):
                    na.prove_claim(c, n, blind, q, x, not yes, ctx)
                lie = na.answer_set(q, x, not yes)
                forged = forge_set_proof(c, lie, rng.randrange(len(lie)), blind, ctx)
                with pytest.raises(InvalidProof):
                    na.verify_answer(c, q, x, not yes, forged, ctx)


def test_an_answer_is_bound_to_its_question_number_card_and_entry() -> None:
    blind = scalar_from_int(5)
    c = sp.commit_number(4, blind)
    ctx = na.context(Q.NEAR, GAME_ID, HOLDER, 7, 12)
    yes, p = na.prove_answer(c, 4, blind, Q.NEAR, 5, ctx)
    assert yes
    na.verify_answer(c, Q.NEAR, 5, True, p, ctx)
    with pytest.raises(MalformedEncoding):  # a context for another question
        na.verify_answer(c, Q.CODES_TOUCH, 5, True, p, ctx)
    with pytest.raises(InvalidProof):  # the same set, asked as another question: another context
        na.verify_answer(c, Q.CODES_TOUCH, 5, True, p, na.context(Q.CODES_TOUCH, GAME_ID, HOLDER, 7, 12))
    for other in (ctx._replace(seq=13), ctx._replace(handle=8), ctx._replace(seat=0)):
        with pytest.raises(InvalidProof):
            na.verify_answer(c, Q.NEAR, 5, True, p, other)
    with pytest.raises(InvalidProof):  # another asked number whose set differs
        na.verify_answer(c, Q.NEAR, 6, True, p, ctx)
    for bad_x in (0, 10, True, "5"):
        with pytest.raises(MalformedEncoding):
            na.verify_answer(c, Q.NEAR, bad_x, True, p, ctx)  # type: ignore[arg-type]
    for bad_yes in (1, None, "yes"):
        with pytest.raises(MalformedEncoding):
            na.verify_answer(c, Q.NEAR, 5, bad_yes, p, ctx)  # type: ignore[arg-type]
    with pytest.raises(MalformedEncoding):
        na.verify_answer(c, "near", 5, True, p, ctx)  # type: ignore[arg-type]
    for bad_ctx in (None, tuple(ctx), ctx.to_bytes()):
        with pytest.raises(MalformedEncoding):
            na.verify_answer(c, Q.NEAR, 5, True, p, bad_ctx)  # type: ignore[arg-type]
    with pytest.raises(CommitmentMismatch):
        na.prove_answer(c, 5, blind, Q.NEAR, 5, ctx)


# ---------------------------------------------------------------- the whole chain on dealt cards


class Hand(NamedTuple):
    """A seat's view of its dealt cards: handle -> (c1, c2' under its key alone, face)."""

    key: deck.DeckKey
    cards: dict[int, tuple[bytes, bytes, int]]


@pytest.fixture(scope="module")
def hand() -> Hand:
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(2)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    pile, _ = deck.shuffle(deck.initial_deck(GAME_ID, pk, TABLE), pk)
    pile, _ = deck.shuffle(pile, pk)
    cards = {}
    for h in range(6):  # the holder's: two hand cards, its Suitcase, ... (the table decides which)
        ct = pile[h]
        share = deck.make_share(GAME_ID, keys[0], h, ct)  # the opponent's share, as it reached the holder
        deck.verify_share(GAME_ID, keys[0].public, h, ct, share)
        c2p = deck.combine(ct, [share.d])
        cards[h] = (ct.c1, c2p, TABLE.face(sub(c2p, mul(keys[HOLDER].secret, ct.c1))))
    return Hand(keys[HOLDER], cards)


def _link(hand: Hand, h: int, number: int, blind: bytes) -> tuple[bytes, bytes, sp.NumberContext]:
    c1, c2p, face = hand.cards[h]
    c = sp.commit_number(number, blind)
    ctx = sp.NumberContext(GAME_ID, HOLDER, h, b"link", 2)
    return c, cl.prove_card_link(J, c1, c2p, hand.key.secret, c, number, blind, face, ctx), ctx


def test_a_dealt_suitcase_is_linked_then_every_answer_about_it_is_proved(hand: Hand) -> None:
    h = 2
    c1, c2p, face = hand.cards[h]
    n, blind = ATTRS[face], scalar_from_int(77)
    c, link, lctx = _link(hand, h, n, blind)
    cl.verify_card_link(J, c1, c2p, hand.key.public, c, link, lctx)  # every peer, once, on arrival
    with pytest.raises(InvalidProof):  # a link is bound to its context type's bytes too
        cl.verify_card_link(J, c1, c2p, hand.key.public, c, link, cp.ProofContext(GAME_ID, HOLDER, (h, h, h),
                                                                                   b"link", 2))
    for seq, (q, x) in enumerate(((Q.NEAR, 1), (Q.EQUAL, n), (Q.IN_CODE, 6), (Q.NOT_NUMBER, 8 if n != 8 else 7)),
                                 start=10):
        ctx = na.context(q, GAME_ID, HOLDER, h, seq)
        yes, p = na.prove_answer(c, n, blind, q, x, ctx)
        na.verify_answer(c, q, x, yes, p, ctx)  # every peer, on arrival
    assert na.prove_answer(c, n, blind, Q.EQUAL, n, na.context(Q.EQUAL, GAME_ID, HOLDER, h, 20))[0] is True


def test_a_false_number_cannot_be_linked(hand: Hand) -> None:
    """The liar commits another number to its Suitcase: the honest prover refuses, and the forged link (the
    Σ-protocol answered with the id of a card that has that number) does not verify."""
    h = 2
    c1, c2p, face = hand.cards[h]
    false = na.wheel(ATTRS[face] + 1)
    blind = scalar_from_int(78)
    c = sp.commit_number(false, blind)
    ctx = sp.NumberContext(GAME_ID, HOLDER, h, b"link", 2)
    with pytest.raises(FalseStatement):
        cl.prove_card_link(J, c1, c2p, hand.key.secret, c, false, blind, face, ctx)
    statement = (J, hand.key.public, c1, c2p, c)
    for f in [f for f in range(18) if ATTRS[f] == false] + [face]:
        forged = cl._prove(statement, hand.key.secret, scalar_from_int(f + 1), blind, ctx.to_bytes(), bytes(32))
        with pytest.raises(InvalidProof):
            cl.verify_card_link(J, c1, c2p, hand.key.public, c, forged, ctx)


def test_a_suitcase_swapped_mid_game_is_rejected(hand: Hand) -> None:
    """Linked to the Suitcase at handle 2, the holder later answers by another card of its hand (handle 3, another
    number): a proof against that card's commitment does not verify against the Suitcase's, and that commitment
    cannot be linked to the Suitcase's handle."""
    faces = {h: ATTRS[f] for h, (_a, _b, f) in hand.cards.items()}
    other = next(h for h in hand.cards if h != 2 and faces[h] != faces[2])
    suit_c, _link_proof, _ = _link(hand, 2, faces[2], scalar_from_int(79))
    swap_blind = scalar_from_int(80)
    swap_c = sp.commit_number(faces[other], swap_blind)
    x = faces[other]
    ctx = na.context(Q.EQUAL, GAME_ID, HOLDER, 2, 30)
    p = na.prove_claim(swap_c, faces[other], swap_blind, Q.EQUAL, x, True, ctx)  # "yes, it is x", true of the swap
    na.verify_answer(swap_c, Q.EQUAL, x, True, p, ctx)
    with pytest.raises(InvalidProof):  # every peer checks against the Suitcase's linked commitment
        na.verify_answer(suit_c, Q.EQUAL, x, True, p, ctx)
    c1, c2p, face = hand.cards[2]
    lctx = sp.NumberContext(GAME_ID, HOLDER, 2, b"link", 31)
    with pytest.raises(FalseStatement):
        cl.prove_card_link(J, c1, c2p, hand.key.secret, swap_c, faces[other], swap_blind, face, lctx)
    o1, o2p, oface = hand.cards[other]
    relink = cl.prove_card_link(J, o1, o2p, hand.key.secret, swap_c, faces[other], swap_blind, oface, lctx)
    with pytest.raises(InvalidProof):  # the other card's link is no link of the Suitcase
        cl.verify_card_link(J, c1, c2p, hand.key.public, swap_c, relink, lctx)


def test_a_false_face_down_guard_comparison_is_rejected(hand: Hand) -> None:
    """A face-down Guard (handle 4) linked when enlisted; an Assassin of each Card Number attempts it: the true
    comparison verifies, the false one is refused by an honest prover and a forged one rejected."""
    c1, c2p, face = hand.cards[4]
    g, blind = ATTRS[face], scalar_from_int(81)
    c, link, lctx = _link(hand, 4, g, blind)
    cl.verify_card_link(J, c1, c2p, hand.key.public, c, link, lctx)
    for a in NUMBERS:
        ctx = na.context(Q.CODES_TOUCH, GAME_ID, HOLDER, 4, 50 + a)
        touch, p = na.prove_answer(c, g, blind, Q.CODES_TOUCH, a, ctx)
        assert touch == bool(set(na.code_of(a)) & set(na.code_of(g)))
        na.verify_answer(c, Q.CODES_TOUCH, a, touch, p, ctx)
        lie = na.answer_set(Q.CODES_TOUCH, a, not touch)
        with pytest.raises(InvalidProof):
            na.verify_answer(c, Q.CODES_TOUCH, a, not touch, forge_set_proof(c, lie, 0, blind, ctx), ctx)
