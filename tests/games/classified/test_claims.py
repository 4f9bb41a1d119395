"""The claims each event of the rules makes about hidden cards (games/classified/claims.py), over whole seeded games
of the rules engine between random bots: an honest player can always prove them (the true face is in every claim's
set), each is about a card of the event's own author, every kind of question occurs; and a whole game played on a real
deck (two seats' keys, both shuffles) where every such event carries its proofs, checked by both seats' records and
an auditor's: the honest game is accepted everywhere, and a liar at any claimed event is named at every peer."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from adp2p.crypto import deck
from adp2p.crypto.group import CardTable, L, mul, scalar_from_int
from adp2p.crypto.set_proofs import NumberContext, commit_number, number_blinding
from adp2p.engine.classified.api import apply, learn, legal, new_game, pending, view
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.profiles import STANDARD
from adp2p.engine.classified.state import CState
from adp2p.games.classified.claims import event_claims
from adp2p.games.classified.hidden_numbers import (
    MAX_CLAIMS,
    MAX_ITEMS,
    RULE_ANSWER,
    Claim,
    Due,
    HiddenNumbers,
    NumberProver,
)
from adp2p.p2p.protocol import ProtocolError
from set_forgery import forge_set_proof

GAME_ID = bytes(range(16, 32))
Step = Callable[[CState, int, dict[str, Any], list[tuple[int, list[Claim]]]], None]


def _play(seed: int, faces_of: Callable[[random.Random, CState], dict[int, int]], step: Step) -> CState:
    """One game of random bots; `step(state_before, actor, event, claims)` after every player's event."""
    rng = random.Random(seed)
    st = new_game(STANDARD)
    bots = [make_bot("random", seed * 2 + i) for i in range(2)]
    faces: dict[int, int] = {}
    while (d := pending(st)) is not None:
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                faces = faces_of(rng, st)
                st = learn(st, faces, inplace=True)
            st = apply(st, ev, inplace=True)
            continue
        ev = bots[d.actor](view(st, d.actor), d.actor, legal(view(st, d.actor), d.actor))
        before = st.clone()
        n0 = len(st.history)
        st = apply_known(st, ev, inplace=True)  # a hand mixed: new handle first + j is hand[j] (ruling C-MIX)
        faces.update({h: f for h, f in st.faces.items() if h not in faces})
        step(before, d.actor, ev, event_claims(st.history[n0:], faces.get,
                                               lambda h, b=before: b.known.get(h, 0) != b.all_mask))
    return st


def _shuffled(rng: random.Random, st: CState) -> dict[int, int]:
    faces = deck_faces(st)
    rng.shuffle(faces)
    return dict(enumerate(faces))


def test_every_claim_of_honest_play_is_provable_and_the_authors_own() -> None:
    kinds: Counter[bytes] = Counter()
    for seed in range(40):
        facts: dict[int, int] = {}

        def faces_of(rng: random.Random, st: CState, facts: dict[int, int] = facts) -> dict[int, int]:
            facts.update(_shuffled(rng, st))
            return facts

        def step(before: CState, actor: int, ev: dict[str, Any], claims: list, facts: dict[int, int] = facts) -> None:
            assert len(claims) <= MAX_ITEMS
            for h, cs in claims:
                loc = before.loc[h]
                assert loc[0] in ("suitcase", "guard", "hand") and loc[1] == actor, (ev, h, loc)
                assert 1 <= len(cs) <= MAX_CLAIMS
                for c in cs:
                    kinds[c.purpose] += 1
                    assert facts[h] in c.members, (ev, h, c)  # the true face: an honest proof exists

        assert _play(seed, faces_of, step).over
    assert set(kinds) == {b"near", b"in_code", b"equal", b"not_suitcase", b"touch", b"guard_guild", b"claim"}, kinds


class RealDeck:
    """A real 18-card deck for the engine's handles 0..17: both seats' keys, both shuffles; each seat's view of the
    cards it holds (its opponent's share of each, as the private draw brought it)."""

    def __init__(self, seed: int = 31) -> None:
        rng = random.Random(seed)  # fixed keys and shuffles: the same game every run

        def scalar() -> bytes:
            return scalar_from_int(rng.randrange(1, L))

        self.table = CardTable.linear(GAME_ID, [i // 2 + 1 for i in range(18)])
        self.keys = [deck.DeckKey(GAME_ID, s, scalar()) for s in range(2)]
        pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in self.keys])
        pile = deck.initial_deck(GAME_ID, pk, self.table)
        for _ in self.keys:
            perm = list(range(len(pile)))
            rng.shuffle(perm)
            pile = deck.apply_shuffle(pile, pk, deck.ShuffleWitness(perm, [scalar() for _ in pile]))
        self.pile = list(pile)
        self.index: dict[int, int] = {}  # handle -> card index (what its holder decrypts; here: the test's referee)
        for h, ct in enumerate(self.pile):
            point = deck.combine(ct, [mul(k.secret, ct.c1) for k in self.keys])
            self.index[h] = self.table.face(point)

    def faces(self, _rng: random.Random, _st: CState) -> dict[int, int]:
        return {h: f // 2 + 1 for h, f in self.index.items()}

    def share_for(self, holder: int, h: int) -> deck.Share:
        return deck.make_share(GAME_ID, self.keys[1 - holder], h, self.pile[h])


@pytest.fixture(scope="module")
def real() -> RealDeck:
    return RealDeck()


def _table_game(real: RealDeck, seed: int, liar_at: int | None) -> tuple[int, list[HiddenNumbers]]:
    """A game on the real deck whose claimed events carry their proofs (made by the author's `NumberProver`), each
    checked by the three records; the `liar_at`-th claimed event instead carries a forged proof of the opposite of
    its first claim. Returns (claimed events, the records)."""
    records = [HiddenNumbers(GAME_ID, real.table.id_base, [k.public for k in real.keys]) for _ in range(3)]
    provers = [NumberProver(GAME_ID, real.table.id_base, k) for k in real.keys]
    count = 0
    seq = 0
    pile, index = dict(enumerate(real.pile)), dict(real.index)  # (a hand mix adds handles: this game's own)

    def step(before: CState, actor: int, ev: dict[str, Any], claims: list) -> None:
        nonlocal count, seq
        seq += 1
        if ev["t"] == "mix":  # new handle first + j holds hand[j]'s card (its ciphertext as it was: enough here)
            for j, h in enumerate(before.hands[actor]):
                pile[before.next_handle + j], index[before.next_handle + j] = pile[h], index[h]
        if not claims:
            return
        due = [Due(h, pile[h], tuple(cs)) for h, cs in claims]
        items = []
        for d in due:
            first = records[0].commitment(d.h, actor) is None
            share = deck.make_share(GAME_ID, real.keys[1 - actor], d.h, pile[d.h]) if first else None
            items.append(provers[actor].item(seq, d.h, d.card, index[d.h], index[d.h] // 2 + 1, d.claims,
                                             link_share=share))
        if count == liar_at:
            d = due[0]
            lie = Claim(d.claims[0].purpose, tuple(n for n in range(1, 10) if n not in d.claims[0].members))
            n = index[d.h] // 2 + 1
            blind = number_blinding(GAME_ID, d.h, real.keys[actor].secret)
            ctx = NumberContext(GAME_ID, actor, d.h, lie.purpose, seq)
            forged = forge_set_proof(commit_number(n, blind), lie.members, 0, blind, ctx)
            items[0] = {**items[0], "proofs": [forged, *items[0]["proofs"][1:]]}
            due[0] = Due(d.h, d.card, (lie, *d.claims[1:]))
            for r in records:
                with pytest.raises(ProtocolError) as got:
                    r.check_entry(actor, seq, due, {"hidden": items})
                assert (got.value.seat, got.value.rule) == (actor, RULE_ANSWER)
            raise _Named(actor)
        for r in records:
            r.check_entry(actor, seq, due, {"hidden": items})
        count += 1

    try:
        assert _play(seed, real.faces, step).over
    except _Named:
        return -1, records
    return count, records


class _Named(Exception):
    """The lie was named at every peer: the game stops there (as a verdict stops it at the table)."""


def test_a_whole_game_on_a_real_deck_is_proved_claim_by_claim_at_every_peer(real: RealDeck) -> None:
    claimed, records = _table_game(real, 7, None)
    assert claimed > 6  # so that every liar position below is reached
    assert records[0].linked == records[1].linked == records[2].linked and records[0].linked


@pytest.mark.parametrize("at", [0, 1, 3, 6])
def test_a_liar_at_any_claimed_event_is_named_at_every_peer(real: RealDeck, at: int) -> None:
    claimed, _records = _table_game(real, 7, at)
    assert claimed == -1  # the liar was named (at every peer, inside) and the game stopped there
