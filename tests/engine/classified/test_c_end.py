"""The end (003:11-15): the last draw, one final turn each without drawing, the Final Card, the Big Reveal, the
Unguarded Match and the end-game chart, the rulebook's worked example (Violet and Pete)."""

import pytest
from adp2p.engine.classified import api
from adp2p.engine.classified.ending import decide, unguarded_match
from adp2p.engine.classified.scenario import Scene
from adp2p.engine.errors import IllegalEvent


def _violet_and_pete(pete_keeps: int) -> Scene:
    # Violet (seat 0): Code 6-7-8 (Suitcase 7), Guards 1 and 8, Final Card 5.
    # Pete (seat 1): Code 1-2-3 (Suitcase 2), no Guards, Final Card `pete_keeps`.
    s = Scene(hands={0: [1, 8], 1: [pete_keeps, 3]}, suitcases={0: 7, 1: 2}, deck=[5, 4, 9], start=0)
    s.guard(0, 1).encrypt(1, 3).guard(0, 8)
    return s.play_out(keep={0: 5, 1: pete_keeps})


def test_worked_example_violet_wins_on_guards():
    s = _violet_and_pete(8)
    r = api.result(s.st)
    assert r.matches == [False, False]  # Violet's 8 Guard blocks Pete's 8; Violet's 5 is not in 1-2-3
    assert r.guard_counts == [2.0, 0.0]
    assert r.winners == [0] and r.reason == "guards"


@pytest.mark.parametrize("pete", [6, 7])
def test_worked_example_pete_with_6_or_7_wins_by_an_unguarded_match(pete):
    r = api.result(_violet_and_pete(pete).st)
    assert r.matches == [False, True] and r.winners == [1] and r.reason == "unguarded_match"


def test_end_chart():
    assert decide([True, False], [0, 3]) == ([0], "unguarded_match")
    assert decide([False, True], [3, 0]) == ([1], "unguarded_match")
    assert decide([False, False], [1, 2]) == ([1], "guards")
    assert decide([True, True], [2, 1.5]) == ([0], "guards")  # Extra Protection's half Guard decides
    assert decide([True, True], [1, 1]) == ([], "tie")
    assert decide([False, False], [0, 0]) == ([], "tie")
    assert unguarded_match(8, 7, [1, 8]) is False and unguarded_match(6, 7, [1, 8]) is True
    assert unguarded_match(5, 7, []) is False


def test_last_draw_then_one_final_turn_each_without_drawing():
    s = Scene(start=0)
    s.play_out()
    turns = [x for x in s.st.history if x["k"] == "turn"]
    assert [t["p"] for t in turns] == [0, 1] * 6
    assert [t["drew"] for t in turns] == [True] * 10 + [False, False]
    assert [t["final"] for t in turns] == [False] * 10 + [True, True]
    assert turns[9]["left"] == 0  # seat 1 drew the last card and finished that turn
    assert all(len(h) == 1 for h in s.st.hands)  # each keeps one Final Card
    assert s.st.over


def test_big_reveal_claims_suitcase_face_down_guards_and_final_card():
    s = Scene(hands={0: [2, 5]}, start=0)
    s.guard(0, 2)
    s.play_out()
    reveal0 = next(x for x in s.st.history if x["k"] == "reveal" and x["p"] == 0)
    hs = sorted(h for h, _ in reveal0["cards"])
    assert hs == sorted([s.st.suitcase[0], s.st.guards[0][0], s.st.hands[0][0]])
    assert s.st.history[-1]["k"] == "end"
    assert s.st.reveals == []  # the event that ends the game shows nothing (p2p/game.py)


def test_a_false_claim_at_the_big_reveal_is_refused_or_owed():
    s = Scene(hands={0: [2, 5]}, start=0)
    s.guard(0, 2)
    while s.pending.kind != "reveal":
        d = s.pending
        s.do({"t": "encrypt", "p": d.actor, "h": s.st.hands[d.actor][0]})
    p = s.actor
    ev = api.legal(s.st, p)[0]
    lie = {**ev, "cards": [[h, n % 9 + 1] for h, n in ev["cards"]]}
    with pytest.raises(IllegalEvent, match="false_reveal"):
        s.do(lie)
    peer = api.apply(api.view(s.st, 1 - p), lie)
    assert any(o["q"] == "claim" for o in peer.obligations)
    later = api.learn(peer, {h: s.st.faces[h] for h, _ in lie["cards"]})
    assert {o["seat"] for o in api.broken_obligations(later)} == {p}
    with pytest.raises(IllegalEvent, match="bad_reveal"):
        s.do({**ev, "cards": ev["cards"][1:]})


def test_replay_of_the_log_gives_the_same_end_strictly():
    s = _violet_and_pete(7)
    again = s.replayed(strict=True)
    assert api.result(again) == api.result(s.st)
