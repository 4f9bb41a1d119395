"""Classified Information's answers at the table, checked by every peer: a real deck of 18 (two seats' keys, both
shuffles), a Suitcase and a face-down Guard dealt to seat 2, its answers made by `NumberProver` and checked by
`HiddenNumbers` at every peer (seat 1's, seat 2's, a fresh auditor's) — honest answers accepted everywhere, and each
lie named at every peer with its rule, the record untouched: a liar for each kind of answer, a missing or surplus
proof, a consistent liar (a false number with a forged link), a Suitcase swapped mid-game, a false face-down Guard
comparison, a link with another seat's share or from another card or entry. (The same entries over the network, in
the zoo, come with the table part: docs/security.md.)"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from adp2p.crypto import card_link as cl
from adp2p.crypto import deck
from adp2p.crypto import number_answers as na
from adp2p.crypto.errors import FalseStatement, MalformedEncoding
from adp2p.crypto.group import CardTable, mul, scalar_from_int, sub
from adp2p.crypto.set_proofs import NumberContext, commit_number, number_blinding
from adp2p.games.classified.hidden_numbers import (
    RULE_ANSWER,
    RULE_LINK,
    Claim,
    Due,
    HiddenNumbers,
    NumberProver,
    answer_claim,
    claim_of,
)
from adp2p.p2p.protocol import ProtocolError
from set_forgery import forge_set_proof

Q = na.Question
GAME_ID = bytes(range(16))
TABLE = CardTable.linear(GAME_ID, [i // 2 + 1 for i in range(18)])
J = TABLE.id_base
HOLDER, OTHER = 1, 0
SUITCASE, GUARD, HAND = 2, 4, 3  # the holder's Suitcase, a face-down Guard, its Final Card (a hand card)


class Table(NamedTuple):
    keys: list[deck.DeckKey]
    pile: list[deck.Ciphertext]
    faces: dict[int, int]  # the holder's cards: handle -> table index
    shares: dict[int, deck.Share]  # the other seat's share of each, as it reached the holder

    def number(self, h: int) -> int:
        return self.faces[h] // 2 + 1


@pytest.fixture(scope="module")
def table() -> Table:
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(2)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    pile = deck.initial_deck(GAME_ID, pk, TABLE)
    for _ in keys:
        pile, _w = deck.shuffle(pile, pk)
    faces, shares = {}, {}
    for h in (1, SUITCASE, HAND, GUARD):
        share = deck.make_share(GAME_ID, keys[OTHER], h, pile[h])
        shares[h] = share
        c2p = deck.combine(pile[h], [share.d])
        faces[h] = TABLE.face(sub(c2p, mul(keys[HOLDER].secret, pile[h].c1)))
    return Table(keys, list(pile), faces, shares)


def _peers(t: Table) -> list[HiddenNumbers]:
    """Seat 1's peer, seat 2's peer and a fresh auditor: each holds only public facts."""
    return [HiddenNumbers(GAME_ID, J, [k.public for k in t.keys]) for _ in range(3)]


def _prover(t: Table) -> NumberProver:
    return NumberProver(GAME_ID, J, t.keys[HOLDER])


def _accept(peers: list[HiddenNumbers], t: Table, seq: int, h: int, claims: list[Claim], body: dict) -> None:
    for p in peers:
        p.check(HOLDER, seq, h, t.pile[h], claims, body)


def _named(peers: list[HiddenNumbers], t: Table, seq: int, h: int, claims: list[Claim], body: dict, rule: str,
           author: int = HOLDER) -> None:
    """Every peer names `author` with `rule`, and its record is what it was."""
    for p in peers:
        before = dict(p.linked)
        with pytest.raises(ProtocolError) as got:
            p.check(author, seq, h, t.pile[h], claims, body)
        assert got.value.seat == author and got.value.rule == rule, got.value
        assert p.linked == before


def _truth(t: Table, h: int, q: na.Question, x: int) -> Claim:
    return answer_claim(q, x, na.holds(q, t.number(h), x))


def test_honest_answers_are_accepted_at_every_peer_and_linked_once(table: Table) -> None:
    peers, prover = _peers(table), _prover(table)
    n = table.number(SUITCASE)
    first = [_truth(table, SUITCASE, Q.NEAR, 1)]
    body = prover.fields(10, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, first,
                         link_share=table.shares[SUITCASE])
    assert set(body) == {"number", "link", "proofs"}
    _accept(peers, table, 10, SUITCASE, first, body)
    c = commit_number(n, number_blinding(GAME_ID, SUITCASE, table.keys[HOLDER].secret))
    assert all(p.commitment(SUITCASE, HOLDER) == c for p in peers)
    later = [
        [_truth(table, SUITCASE, Q.EQUAL, n)],
        [_truth(table, SUITCASE, Q.IN_CODE, 6)],
        [answer_claim(Q.NOT_NUMBER, na.wheel(n + 1), True),  # Picking Petals: two numbers
         answer_claim(Q.NOT_NUMBER, na.wheel(n + 4), True)],
    ]
    for seq, claims in enumerate(later, start=11):
        body = prover.fields(seq, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, claims, link_share=None)
        assert set(body) == {"proofs"} and len(body["proofs"]) == len(claims)
        _accept(peers, table, seq, SUITCASE, claims, body)
    copy = peers[0].copy()
    assert copy.linked == peers[0].linked and copy.linked is not peers[0].linked


def test_an_honest_prover_refuses_every_lie(table: Table) -> None:
    prover, n = _prover(table), table.number(SUITCASE)
    for q in Q:
        for x in na.CARD_NUMBERS:
            lie = answer_claim(q, x, not na.holds(q, n, x))
            with pytest.raises(FalseStatement):
                prover.fields(20, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, [lie], link_share=None)


def _lying_body(t: Table, seq: int, h: int, lie: Claim, *, first: bool) -> dict:
    """A liar's answer: its true commitment (and honest link, on a first answer), a forged proof of the lie."""
    n = t.number(h)
    blind = number_blinding(GAME_ID, h, t.keys[HOLDER].secret)
    c = commit_number(n, blind)
    body = {}
    if first:
        honest = _prover(t).fields(seq, h, t.pile[h], t.faces[h], n, [answer_claim(Q.EQUAL, n, True)],
                                   link_share=t.shares[h])
        body = {"number": honest["number"], "link": honest["link"]}
    members = lie.members
    ctx = NumberContext(GAME_ID, HOLDER, h, lie.purpose, seq)
    body["proofs"] = [forge_set_proof(c, members, random.Random(seq).randrange(len(members)), blind, ctx)]
    return body


@pytest.mark.parametrize("q", list(Q), ids=lambda q: q.name.lower())
def test_a_liar_for_each_kind_of_answer_is_named_at_every_peer(table: Table, q: na.Question) -> None:
    """About the Suitcase (the Guard for touch), on a first answer (with an honest link: the record stays
    unlinked) and on a later one, for every asked number."""
    h = GUARD if q is Q.CODES_TOUCH else SUITCASE
    n = table.number(h)
    peers = _peers(table)
    for x in na.CARD_NUMBERS:
        lie = answer_claim(q, x, not na.holds(q, n, x))
        _named(peers, table, 30 + x, h, [lie], _lying_body(table, 30 + x, h, lie, first=True), RULE_ANSWER)
    assert all(p.commitment(h, HOLDER) is None for p in peers)
    honest = [_truth(table, h, q, 5)]
    _accept(peers, table, 40, h, honest, _prover(table).fields(40, h, table.pile[h], table.faces[h], n, honest,
                                                                 link_share=table.shares[h]))
    for x in na.CARD_NUMBERS:
        lie = answer_claim(q, x, not na.holds(q, n, x))
        _named(peers, table, 50 + x, h, [lie], _lying_body(table, 50 + x, h, lie, first=False), RULE_ANSWER)


def test_missing_surplus_and_malformed_proofs_name_the_author(table: Table) -> None:
    peers, prover, n = _peers(table), _prover(table), table.number(SUITCASE)
    claims = [_truth(table, SUITCASE, Q.NEAR, 3)]
    good = prover.fields(60, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, claims,
                         link_share=table.shares[SUITCASE])
    p0 = good["proofs"][0]
    for proofs in (None, [], [p0, p0], p0, ["x"], [p0 + bytes(512)], [p0[:-1]], [bytearray(p0)]):
        body = {**good, "proofs": proofs}
        if proofs is None:
            del body["proofs"]
        _named(peers, table, 60, SUITCASE, claims, body, RULE_ANSWER)
    _named(peers, table, 61, SUITCASE, claims, good, RULE_LINK)  # the same entry at another seq: link fails first
    _accept(peers, table, 60, SUITCASE, claims, good)
    with pytest.raises(ProtocolError):  # replayed at a later seq: its proofs are bound to the entry
        peers[0].check(HOLDER, 62, SUITCASE, table.pile[SUITCASE], claims, {"proofs": good["proofs"]})


def test_a_first_answer_without_its_link_or_a_later_one_with_a_link_is_named(table: Table) -> None:
    peers, prover, n = _peers(table), _prover(table), table.number(SUITCASE)
    claims = [_truth(table, SUITCASE, Q.NEAR, 7)]
    good = prover.fields(70, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, claims,
                         link_share=table.shares[SUITCASE])
    for drop in ("number", "link"):
        _named(peers, table, 70, SUITCASE, claims, {k: v for k, v in good.items() if k != drop}, RULE_LINK)
    for bad_link in ([good["link"][0]], [good["link"][0], good["link"][1][:-1]], [b"", good["link"][1]], "x",
                     [good["link"][1], good["link"][0]]):
        _named(peers, table, 70, SUITCASE, claims, {**good, "link": bad_link}, RULE_LINK)
    _named(peers, table, 70, SUITCASE, claims, {**good, "number": good["number"][:31]}, RULE_LINK)
    _accept(peers, table, 70, SUITCASE, claims, good)
    again = prover.fields(71, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, claims,
                          link_share=table.shares[SUITCASE])
    _named(peers, table, 71, SUITCASE, claims, again, RULE_LINK)  # a second link for a linked card


def test_a_consistent_liar_with_a_false_number_is_named_at_its_first_answer(table: Table) -> None:
    """It commits another number to its Suitcase, answers truly about that number, and forges the link with the id
    of a card that has that number: every peer names it (`number_link`)."""
    peers = _peers(table)
    h, n = SUITCASE, table.number(SUITCASE)
    false = na.wheel(n + 3)
    blind = number_blinding(GAME_ID, h, table.keys[HOLDER].secret)
    c = commit_number(false, blind)
    ct, share = table.pile[h], table.shares[h]
    c2p = deck.combine(ct, [share.d])
    lctx = NumberContext(GAME_ID, HOLDER, h, b"link", 80)
    statement = (J, table.keys[HOLDER].public, ct.c1, c2p, c)
    claims = [answer_claim(Q.NEAR, false, True)]  # true of the false number
    proofs = [na.prove_claim(c, false, blind, Q.NEAR, false, True, na.context(Q.NEAR, GAME_ID, HOLDER, h, 80))]
    for f in [f for f in range(18) if f // 2 + 1 == false] + [table.faces[h]]:
        forged = cl._prove(statement, table.keys[HOLDER].secret, scalar_from_int(f + 1), blind, lctx.to_bytes(),
                           bytes(32))
        body = {"number": c, "link": [share.to_bytes(), forged], "proofs": proofs}
        _named(peers, table, 80, h, claims, body, RULE_LINK)


def test_a_suitcase_swapped_mid_game_is_named_at_every_peer(table: Table) -> None:
    """Linked to its Suitcase, the holder answers by another card of its hand: with that card's commitment as a new
    `number` (a second link), or with proofs about that card's commitment only. Both named."""
    peers, prover = _peers(table), _prover(table)
    n = table.number(SUITCASE)
    claims = [_truth(table, SUITCASE, Q.NEAR, 2)]
    _accept(peers, table, 90, SUITCASE, claims, prover.fields(90, SUITCASE, table.pile[SUITCASE],
                                                              table.faces[SUITCASE], n, claims,
                                                              link_share=table.shares[SUITCASE]))
    m = table.number(HAND)
    x = m if m != n else na.wheel(m + 4)  # a question whose answer differs for the swapped card if it can
    swapped = [answer_claim(Q.EQUAL, x, m == x)]
    by_hand = prover.fields(91, HAND, table.pile[HAND], table.faces[HAND], m, swapped, link_share=table.shares[HAND])
    # the hand card's own link, presented as the Suitcase's: a second link for a linked card
    _named(peers, table, 91, SUITCASE, swapped, by_hand, RULE_LINK)
    # the proof about the hand card's commitment, bound to the Suitcase's handle: not the Suitcase's commitment
    blind = number_blinding(GAME_ID, HAND, table.keys[HOLDER].secret)
    hc = commit_number(m, blind)
    proof = na.prove_claim(hc, m, blind, Q.EQUAL, x, m == x, na.context(Q.EQUAL, GAME_ID, HOLDER, SUITCASE, 92))
    _named(peers, table, 92, SUITCASE, swapped, {"proofs": [proof]}, RULE_ANSWER)
    assert all(p.commitment(SUITCASE, HOLDER) == peers[0].commitment(SUITCASE, HOLDER) for p in peers)


def test_a_false_face_down_guard_comparison_is_named_at_every_peer(table: Table) -> None:
    """An Assassin of each Card Number attempts the face-down Guard: the true comparison is accepted at every peer,
    the false one named."""
    peers, prover = _peers(table), _prover(table)
    g = table.number(GUARD)
    for seq, a in enumerate(na.CARD_NUMBERS, start=100):
        touch = bool(set(na.code_of(a)) & set(na.code_of(g)))
        claims = [answer_claim(Q.CODES_TOUCH, a, touch)]
        first = peers[0].commitment(GUARD, HOLDER) is None
        body = prover.fields(seq, GUARD, table.pile[GUARD], table.faces[GUARD], g, claims,
                             link_share=table.shares[GUARD] if first else None)
        _accept(peers, table, seq, GUARD, claims, body)
        lie = answer_claim(Q.CODES_TOUCH, a, not touch)
        _named(peers, table, seq + 20, GUARD, [lie], _lying_body(table, seq + 20, GUARD, lie, first=False),
               RULE_ANSWER)


def test_a_link_with_a_wrong_share_or_from_another_card_is_named(table: Table) -> None:
    peers, prover, n = _peers(table), _prover(table), table.number(SUITCASE)
    claims = [_truth(table, SUITCASE, Q.NEAR, 4)]
    good = prover.fields(110, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, claims,
                         link_share=table.shares[SUITCASE])
    own = deck.make_share(GAME_ID, table.keys[HOLDER], SUITCASE, table.pile[SUITCASE])  # its own, not the other's
    other_card = table.shares[HAND]  # the other seat's share of another card
    tampered = deck.Share(OTHER, table.shares[SUITCASE].d, bytes(64))
    for share in (own, other_card, tampered):
        _named(peers, table, 110, SUITCASE, claims, {**good, "link": [share.to_bytes(), good["link"][1]]}, RULE_LINK)
    hand = prover.fields(110, HAND, table.pile[HAND], table.faces[HAND], table.number(HAND),
                         [_truth(table, HAND, Q.NEAR, 4)], link_share=table.shares[HAND])
    _named(peers, table, 110, SUITCASE, claims, {**good, "link": hand["link"]}, RULE_LINK)  # another card's link
    _named(peers, table, 110, SUITCASE, claims, {**good, "number": hand["number"]}, RULE_LINK)
    # the holder's commitment is its own: the other seat answering about that card with the holder's proofs has
    # no link of its own
    _accept(peers, table, 110, SUITCASE, claims, good)
    _named(peers, table, 111, SUITCASE, claims, {"proofs": good["proofs"]}, RULE_LINK, author=OTHER)


def test_the_rules_claims_are_checked_before_anyone_is_blamed(table: Table) -> None:
    """A malformed claim is the caller's bug (the rules'): it raises, and names nobody."""
    p = _peers(table)[0]
    good = {"proofs": [bytes(64)]}
    for claims in ([], [Claim(b"near", (0, 1))], [Claim(b"near", (1, 10))], [Claim("near", (3,))],
                   [Claim(b"near", (3, 2))], [Claim(b"near", [3])], [Claim(b"", (3,))], [Claim(b"near", (3,))] * 3,
                   [Claim(b"near", (True, 3))]):
        with pytest.raises((ValueError, MalformedEncoding)) as got:
            p.check(HOLDER, 1, SUITCASE, table.pile[SUITCASE], claims, good)  # type: ignore[arg-type]
        assert not isinstance(got.value, ProtocolError)
    for x in (0, 10, True):
        with pytest.raises(MalformedEncoding):
            answer_claim(Q.NEAR, x, True)


def test_an_answer_true_of_no_number_is_named_and_never_proved(table: Table) -> None:
    peers, prover, n = _peers(table), _prover(table), table.number(SUITCASE)
    nothing = claim_of(b"near", lambda _n: True, False)  # "no" to a question true of every number
    assert nothing.members == ()
    with pytest.raises(FalseStatement):
        prover.fields(120, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n, [nothing],
                      link_share=table.shares[SUITCASE])
    honest = prover.fields(120, SUITCASE, table.pile[SUITCASE], table.faces[SUITCASE], n,
                           [_truth(table, SUITCASE, Q.NEAR, 1)], link_share=table.shares[SUITCASE])
    _named(peers, table, 120, SUITCASE, [nothing], honest, RULE_ANSWER)


GUILD_GUARDS = (1, 2, 4, 5, 7, 8)  # can guard: Guards 2 5 8, Sentinels 1 4 7 (the rules engine's ruling C-GUILDS)


def test_the_guild_of_a_face_down_guard_is_proved_when_it_is_enlisted(table: Table) -> None:
    """The rules ask that a card enlisted face down can guard: the claim is the set the rules' own truth gives
    (`claim_of`), proved against the card with its link at Enlist. Its true answer is accepted at every peer, the
    other one (a card that cannot guard passed off as one, or the reverse) named."""
    peers, prover, g = _peers(table), _prover(table), table.number(GUARD)
    can = g in GUILD_GUARDS
    true_claim = claim_of(b"guard_guild", lambda n: n in GUILD_GUARDS, can)
    false_claim = claim_of(b"guard_guild", lambda n: n in GUILD_GUARDS, not can)
    assert set(true_claim.members) | set(false_claim.members) == set(na.CARD_NUMBERS)
    with pytest.raises(FalseStatement):
        prover.fields(130, GUARD, table.pile[GUARD], table.faces[GUARD], g, [false_claim],
                      link_share=table.shares[GUARD])
    body = prover.fields(130, GUARD, table.pile[GUARD], table.faces[GUARD], g, [true_claim],
                         link_share=table.shares[GUARD])
    blind = number_blinding(GAME_ID, GUARD, table.keys[HOLDER].secret)
    c = commit_number(g, blind)
    ctx = NumberContext(GAME_ID, HOLDER, GUARD, b"guard_guild", 130)
    forged = {**body, "proofs": [forge_set_proof(c, false_claim.members, 0, blind, ctx)]}
    _named(peers, table, 130, GUARD, [false_claim], forged, RULE_ANSWER)
    _named(peers, table, 130, GUARD, [false_claim], body, RULE_ANSWER)  # the true proof is no proof of the lie
    _accept(peers, table, 130, GUARD, [true_claim], body)
    assert all(p.commitment(GUARD, HOLDER) == c for p in peers)


def _reveal_claim(t: Table, h: int, n: int | None = None) -> Claim:
    """The Big Reveal's claim "card h is Card Number n" (the rules' `claim`), as the rules' truth gives it."""
    n = t.number(h) if n is None else n
    return claim_of(b"claim", lambda m: m == n, True)


def test_the_big_reveal_proves_every_hidden_card_at_once(table: Table) -> None:
    """The last event claims the Suitcase (linked earlier), the face-down Guard (linked at Enlist) and the Final Card
    (never asked about: linked now), one item each: accepted at every peer; a false claim about any one card, an item
    left out, out of order or for another card is named at every peer, and nothing it carried is kept."""
    peers, prover = _peers(table), _prover(table)
    for seq, h in ((140, SUITCASE), (141, GUARD)):
        claims = [_truth(table, h, Q.NEAR, 5)]
        item = prover.item(seq, h, table.pile[h], table.faces[h], table.number(h), claims, link_share=table.shares[h])
        for p in peers:
            p.check_entry(HOLDER, seq, [Due(h, table.pile[h], tuple(claims))], {"hidden": [item]})
    due = [Due(h, table.pile[h], (_reveal_claim(table, h),)) for h in (SUITCASE, GUARD, HAND)]
    items = [prover.item(150, d.h, d.card, table.faces[d.h], table.number(d.h), d.claims,
                         link_share=table.shares[d.h] if d.h == HAND else None) for d in due]
    assert [set(i) for i in items] == [{"h", "proofs"}, {"h", "proofs"}, {"h", "number", "link", "proofs"}]
    assert sum(len(i["proofs"][0]) for i in items) == 3 * 64
    for h in (SUITCASE, GUARD, HAND):  # each card claimed as another number: named, whichever it is
        lie = [Due(d.h, d.card, (_reveal_claim(table, d.h, na.wheel(table.number(d.h) + 1)),)) if d.h == h else d
               for d in due]
        for p in peers:
            before = dict(p.linked)
            with pytest.raises(ProtocolError) as got:
                p.check_entry(HOLDER, 150, lie, {"hidden": items})
            assert (got.value.seat, got.value.rule) == (HOLDER, RULE_ANSWER) and p.linked == before
        with pytest.raises(FalseStatement):
            prover.item(150, h, table.pile[h], table.faces[h], table.number(h), lie[[d.h for d in due].index(h)].claims,
                        link_share=None)
    for bad in ({"hidden": items[:2]}, {"hidden": items[::-1]}, {"hidden": [*items[:2], {**items[2], "h": 9}]},
                {"hidden": [*items[:2], {**items[2], "extra": 1}]}, {"hidden": [*items[:2], ["x"]]}, {},
                {"hidden": "x"}):
        for p in peers:
            before = dict(p.linked)
            with pytest.raises(ProtocolError) as got:
                p.check_entry(HOLDER, 150, due, bad)
            assert got.value.seat == HOLDER and p.linked == before
    for p in peers:
        p.check_entry(HOLDER, 150, due, {"hidden": items})
        assert p.commitment(HAND, HOLDER) is not None
    with pytest.raises(ValueError):  # the rules' bug: a card due twice
        peers[0].check_entry(HOLDER, 151, [due[0], due[0]], {"hidden": items[:1] * 2})


def test_a_handle_is_an_int_not_a_bool(table: Table) -> None:
    """An item for card 1 whose `h` is `true` (msgpack's bool, equal to 1 in Python) is malformed, as everywhere in
    the protocol: named."""
    peers, prover = _peers(table), _prover(table)
    claims = (_truth(table, 1, Q.NEAR, 5),)
    item = prover.item(160, 1, table.pile[1], table.faces[1], table.number(1), claims, link_share=table.shares[1])
    due = [Due(1, table.pile[1], claims)]
    for p in peers:
        with pytest.raises(ProtocolError):
            p.check_entry(HOLDER, 160, due, {"hidden": [{**item, "h": True}]})
        p.check_entry(HOLDER, 160, due, {"hidden": [item]})
