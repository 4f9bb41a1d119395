"""Properties on many seeded games: random legal play never raises and always ends; every card is in exactly one
place; a view never shows a face its player does not know; replay reproduces the state; an illegal event is
rejected with IllegalEvent and leaves the state unchanged."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

import pytest
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.scenario import Scene
from adp2p.engine.hacker.sim import play_game
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import pile_of

CASES = [(n, prof, bot, seed) for n in (3, 4, 6) for prof in ("basic", "advanced", "advanced-superspy")
         for bot in ("random", "planner")
         for seed in range(3)] + [(3, "closed", "random", 7), (4, "closed-3", "planner", 8)]


def card_places(st: HState) -> None:
    """Every live handle is in exactly one place, and that place lists it once."""
    seen: dict[int, tuple] = {}
    piles = [("deck",), ("discard",)] + [(k, p) for p in range(st.n)
                                         for k in ("hand", "laid_chance", "laid_term", "front")]
    for loc in piles:
        for h in pile_of(st, loc):  # type: ignore[union-attr]
            assert h not in seen, f"handle {h} in {seen[h]} and {loc}"
            seen[h] = loc
    for p, h in enumerate(st.passing):
        if h is not None:
            assert h not in seen
            seen[h] = ("passing", p)
    assert seen == st.loc
    assert len(seen) == sum(st.profile.deck_counts().values())


def fingerprint(st: HState) -> Any:
    return copy.deepcopy({k: v for k, v in st.__dict__.items() if k not in ("profile", "reveals")})


@pytest.mark.parametrize(("n", "prof", "bot", "seed"), CASES)
def test_seeded_games_end_keep_every_card_and_replay(n: int, prof: str, bot: str, seed: int) -> None:
    profile = get_profile(prof, round_limit=40)
    rec = play_game(profile, [make_bot(bot, seed * 10 + i) for i in range(n)], seed)
    st = rec.state
    assert api.is_over(st) and st.winners and st.end_reason in ("codes", "round_limit")
    card_places(st)
    again = api.replay(profile, n, rec.events, rec.faces, rec.secrets)
    assert fingerprint(again) == fingerprint(st)
    assert all("secret" not in ev for ev in rec.events)  # the log carries commitments only


def walk(n: int, seed: int, steps: int = 4000) -> list[tuple[HState, int, list[dict[str, Any]]]]:
    """States met in a random game, with the deciding seat and its legal events (CHANCE as in the simulator)."""
    from adp2p.engine.hacker.chance import chance_event
    from adp2p.engine.hacker.tasks import deck_faces

    rng = random.Random(seed)
    st = api.new_game(get_profile("basic", round_limit=30), n)
    out = []
    for _ in range(steps):
        d = api.pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                faces = deck_faces(st)
                rng.shuffle(faces)
                first = st.next_handle
                st = api.apply(st, ev)
                st = api.learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)))
                continue
        else:
            legal = api.legal(api.view(st, d.actor), d.actor)
            out.append((st, d.actor, legal))
            ev = legal[rng.randrange(len(legal))]
        st = api.apply(st, ev)
        card_places(st)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_views_show_only_known_faces_and_own_secrets(seed: int) -> None:
    for st, _p, _ in walk(4, seed)[::7]:
        for q in range(st.n):
            v = api.view(st, q)
            assert all(st.known.get(h, 0) >> q & 1 for h in v.faces)
            assert all(k.endswith(f":{q}") for k in v.secrets)
            assert set(v.hands[q]) <= set(v.faces)  # a player knows its own hand


def _mutations(ev: dict[str, Any], st: HState, p: int) -> list[dict[str, Any]]:
    other = (p + 1) % st.n
    out = [{**ev, "p": other}, {**ev, "t": "bogus"}, {"t": ev["t"]}]
    if "h" in ev:
        out += [{**ev, "h": max(st.loc) + 99}, {**ev, "h": "x"}]
        out += [{**ev, "h": h} for h in st.hands[other][:1]]
    if "card" in ev:
        out.append({**ev, "card": "no-such-card"})
    if ev["t"] == "play":
        out.append({**ev, "who": 99, "d": 99})
    if ev["t"] == "unseal" and "to" in ev:
        out.append({**ev, "to": 42})
    if ev["t"] == "exchange":
        out += [{**ev, "hs": [[1]]}, {**ev, "hs": ev["hs"] + ev["hs"][:1]}] if ev["hs"] else []
    if ev["t"] == "probe":
        out.append({**ev, "sq": "C3" if ev["sq"] != "C3" else "Z0"})
    return out


@pytest.mark.parametrize("seed", range(4))
def test_illegal_events_are_rejected_and_leave_the_state_unchanged(seed: int) -> None:
    rejected = 0
    for st, p, legal in walk(3, 100 + seed)[::5]:
        before = fingerprint(st)
        for ev in _mutations(legal[0], st, p):
            if ev in legal:
                continue
            with pytest.raises(IllegalEvent):
                api.apply(st, ev)
            rejected += 1
        assert fingerprint(st) == before
    assert rejected > 100


def test_an_exhausted_deck_is_the_discard_pile_reshuffled_with_new_handles() -> None:
    """H-EXHAUST: long games run through the deck; every card is still in exactly one place."""
    profile = get_profile("basic", round_limit=40)
    rec = play_game(profile, [make_bot("random", i) for i in range(6)], 5)
    size = sum(profile.deck_counts().values())
    assert rec.state.next_handle > size and sum(ev["t"] == "shuffle" for ev in rec.events) >= 2
    card_places(rec.state)


@pytest.mark.parametrize(("prof", "seed"), [("basic", 21), ("advanced-superspy", 22), ("basic", 23)])
def test_a_peer_knowing_only_its_own_faces_and_secrets_folds_the_same_public_game(prof: str, seed: int) -> None:
    """Seat 0's engine gets the log's entries, the faces the rules reveal to seat 0 (as the network layer would
    decrypt them) and its own sealed values only; it reaches the referee's public state."""
    profile = get_profile(prof, round_limit=25)
    rec = play_game(profile, [make_bot("planner", seed + i) for i in range(4)], seed)
    secrets = {i: (what, p, v) for i, what, p, v in rec.secrets}
    ref = api.new_game(profile, 4)
    ref.faces = dict(rec.faces)
    peer = api.new_game(profile, 4)
    for i, ev in enumerate(rec.events):
        if i in secrets:
            what, p, v = secrets[i]
            api.learn_secret(ref, what, p, v, inplace=True)
            if p == 0:
                api.learn_secret(peer, what, p, v, inplace=True)
        ref = api.apply(ref, ev, inplace=True)
        peer = api.apply(peer, ev, inplace=True)
        shown = {h: ref.faces[h] for h, mask in ref.reveals if mask & 1 and h in ref.faces}
        api.learn(peer, shown, inplace=True)
        assert all(ref.known.get(h, 0) & 1 for h in peer.faces)  # it never knows more than seat 0 may
    public = ("loc", "dept", "where", "time", "prio", "pw", "pwx", "code", "locks", "round_no", "winners", "over")
    assert {k: getattr(peer, k) for k in public} == {k: getattr(ref, k) for k in public}
    assert peer.obligations and api.broken_obligations(api.learn(peer, rec.faces)) == []  # an honest game


JUNK: list[Any] = [None, -1, 99, "x", [], [[1]], [1.5], {"a": 1}, [0, "1"], True]


@pytest.mark.parametrize("seed", range(2))
def test_junk_in_any_field_is_an_illegal_event_never_a_crash(seed: int) -> None:
    rng = random.Random(seed)
    for st, _p, legal in walk(3, 200 + seed)[::9]:
        ev = legal[rng.randrange(len(legal))]
        for field_name in [k for k in ev if k != "t"]:
            for junk in JUNK:
                bad = {**ev, field_name: junk}
                if bad in legal:
                    continue
                with contextlib.suppress(IllegalEvent):
                    api.apply(st, bad)


def test_junk_chance_events_are_illegal_events() -> None:
    deal = Scene(3, hands={0: ["information_exchange"]}).lay({0: ["information_exchange"]}).start(0)
    deal.play(0, "information_exchange")
    scenes = {"start": Scene(3).lay(), "roll": Scene(3).lay().start(0).to_phase("dummies"),
              "boss": Scene(3).lay().start(0).to_phase("boss"), "deal": deal}
    fields = {"start": "p", "roll": "dice", "boss": "at", "deal": "perm"}
    for t, s in scenes.items():
        assert s.pending.kind == f"chance:{t}"
        for junk in JUNK:
            with pytest.raises(IllegalEvent):
                s.do({"t": t, fields[t]: junk})
