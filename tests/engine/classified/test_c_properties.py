"""Seeded random games: every one ends; after every event the cards are where the state says (18, each once), no
hand holds more than two cards between turns, at most three Guards; every seat's own engine (folding only what it
was shown) agrees on every pending decision and, shown every face at the end, finds no broken answer; the strict
replay of the log (the audit) ends the same."""

import random

import pytest
from adp2p.engine.classified import api
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.profiles import FOUR_CARD, STANDARD
from adp2p.engine.classified.sim import play_game


def _invariants(st):
    where = [*st.deck, *st.discard, *st.encrypted, *st.hands[0], *st.hands[1], *st.guards[0], *st.guards[1],
             *[s for s in st.suitcase if s is not None], *[h for h, loc in st.loc.items() if loc[0] in
                                                         ("guard_area", "table")]]
    assert len(where) == len(set(where)) == 18  # a mixed hand's cards take new handles (ruling C-MIX)
    assert set(where) == set(st.loc)
    for h, loc in st.loc.items():
        if loc[0] == "hand":
            assert h in st.hands[loc[1]]
        if loc[0] == "guard":
            assert h in st.guards[loc[1]]
    assert all(len(g) <= 3 for g in st.guards)
    assert st.up <= set(st.guards[0]) | set(st.guards[1])
    if st.stack and st.stack[-1]["op"] == "action":
        p = st.stack[-1]["actor"]
        assert len(st.hands[p]) <= 3 and len(st.hands[1 - p]) <= 2


def _peer_game(profile, seed, strategies=("random", "random")):
    rng = random.Random(seed)
    bots = [make_bot(s, seed * 7 + i) for i, s in enumerate(strategies)]
    full = api.new_game(profile)
    peers = [api.new_game(profile), api.new_game(profile)]
    events = []
    faces = {}
    while (d := api.pending(full)) is not None:
        for peer in peers:
            pd = api.pending(peer)
            assert (pd.actor, pd.kind) == (d.actor, d.kind)
        if d.actor is None:
            ev = chance_event(full, d, rng)
            if ev["t"] == "shuffle":
                fs = deck_faces(full)
                rng.shuffle(fs)
                faces = dict(enumerate(fs))
                full = api.learn(full, faces)
        else:
            seen = api.view(full, d.actor)
            ev = bots[d.actor](seen, d.actor, api.legal(seen, d.actor))
        mixed = list(full.hands[d.actor]) if ev["t"] == "mix" else []
        first = full.next_handle
        full = api.apply(full, ev)
        if mixed:  # the owner's secret permutation of its hand onto the new handles (ruling C-MIX)
            rng.shuffle(mixed)
            faces = {**faces, **{first + j: faces[h] for j, h in enumerate(mixed)}}
            full = api.learn(full, {first + j: faces[first + j] for j in range(len(mixed))})
        events.append(ev)
        _invariants(full)
        for i in (0, 1):
            peers[i] = api.apply(peers[i], ev)
            shown = {h: faces[h] for h, m in full.reveals if m >> i & 1}
            peers[i] = api.learn(peers[i], {h: f for h, f in shown.items() if h not in peers[i].faces})
    return full, peers, events, faces


@pytest.mark.parametrize("profile", [STANDARD, FOUR_CARD], ids=lambda p: p.name)
def test_seeded_random_games_end_legally_and_peers_agree(profile):
    for seed in range(60):
        full, peers, events, faces = _peer_game(profile, seed)
        assert full.over and all(p.over for p in peers)
        assert all(api.result(p) == api.result(full) for p in peers)
        for peer in peers:
            assert not api.broken_obligations(api.learn(peer, {h: f for h, f in faces.items()
                                                               if h not in peer.faces}))
        again = api.replay(profile, 2, events, faces, strict=True)
        assert api.result(again) == api.result(full)


def test_deduction_games_end_with_peers_agreeing():
    for seed in range(15):
        full, peers, _, _ = _peer_game(STANDARD, 1000 + seed, ("deduction", "random"))
        assert full.over and all(api.result(p) == api.result(full) for p in peers)


def test_a_thousand_sim_games_all_end():
    ends = 0
    for seed in range(1000):
        st = play_game([make_bot("random", seed), make_bot("random", seed + 1)], seed).state
        ends += st.over
    assert ends == 1000
