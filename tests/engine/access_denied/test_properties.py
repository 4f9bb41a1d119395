"""Property tests: random legal play over every profile never breaks the engine's invariants."""

import random

from adp2p.engine.access_denied import apply, get_profile, learn, legal, new_game, pending, replay, view
from adp2p.engine.access_denied.chance import chance_event, deck_faces
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

CASES = [("classic", 3), ("classic", 4), ("classic", 6), ("retro2013", 3), ("retro2013", 5),
         ("two-player", 2), ("classic-de", 3), ("classic-de", 6)]


def _check_invariants(st):
    if st.next_handle == 0:
        return
    live = [h for h, where in st.loc.items() if where[0] != "gone"]
    assert sorted(st.faces[h] for h in live) == list(range(63))
    places = {}
    for h in st.deck:
        places.setdefault(h, []).append("deck")
    for h in st.discard:
        places.setdefault(h, []).append("discard")
    for p, hand in enumerate(st.hands):
        for h in hand:
            places.setdefault(h, []).append(("hand", p))
    for s, hs in st.passwords.items():
        for h in hs:
            places.setdefault(h, []).append(("pw", s))
    for p, us in enumerate(st.upgrades):
        for h in us:
            places.setdefault(h, []).append(("upg", p))
    for s, hs in st.sector_cards.items():
        for h in hs:
            places.setdefault(h, []).append(("sec", s))
    for h in live:
        where = st.loc[h]
        if where[0] in ("play", "att"):
            assert h not in places
        else:
            assert len(places.get(h, [])) == 1, (h, where, places.get(h))
    assert set(places) <= set(live)
    for p in range(st.n):
        v = view(st, p)
        for h in v.faces:
            assert st.known.get(h, 0) >> p & 1
        for q in range(st.n):
            if q != p:
                for s in st.sectors_of(q):
                    for h in st.passwords.get(s, []):
                        if h in v.faces:
                            assert st.known[h] >> p & 1


def _play(profile, n, seed, max_events=6000):
    rng = random.Random(seed)
    st = new_game(profile, n)
    events, faces = [], {}
    for i in range(max_events):
        d = pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                fs = deck_faces(st)
                rng.shuffle(fs)
                first = st.next_handle
                st = apply(st, ev)
                new = dict(zip(range(first, st.next_handle), fs, strict=True))
                st = learn(st, new)
                faces.update(new)
                events.append(ev)
                continue
        else:
            opts = legal(view(st, d.actor), d.actor)
            assert opts, f"no legal event for {d}"
            ev = rng.choice(opts)
        st = apply(st, ev)
        events.append(ev)
        if i % 7 == 0 or d.actor is None:
            _check_invariants(st)
    _check_invariants(st)
    return st, events, faces


def _key(st):
    return (st.loc, st.hands, st.access, st.discard, st.deck, st.passwords, st.upgrades, st.winners,
            st.sector_cards, st.over)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st_.sampled_from(CASES), seed=st_.integers(0, 10**9))
def test_random_legal_play_keeps_invariants_and_replays(case, seed):
    name, n = case
    profile = get_profile(name, round_limit=30)
    st, events, faces = _play(profile, n, seed)
    again = replay(profile, n, events, faces)
    assert _key(again) == _key(st)
