"""Assassinations (003:16-17), REACT with Extra Protection (003 "Card Symbols"; C-REACT), the random card shown."""

import pytest
from adp2p.engine.classified import api
from adp2p.engine.classified.scenario import Scene
from adp2p.engine.errors import IllegalEvent


def _guarded(hand1=(4, 2), deck=(9, 7, 1, 8)):
    """Seat 1 has Switch Places (4, code 3-4-5) as a face-down Guard; seat 0 holds Assassins."""
    s = Scene(hands={0: [3, 1], 1: list(hand1)}, suitcases={0: 5, 1: 8}, deck=list(deck), start=1)
    s.guard(1, 4)
    return s


def test_rulebook_example_failed_attempt_fortune_teller_on_switch_places():
    # 003:17: John's Fortune Teller (9-1-2) against Cathy's face-down Switch Places (3-4-5): fails
    s = _guarded()
    g = s.h(1, 4, "guard")
    a = s.h(0, 1)
    s.assassin(0, 1, g)
    assert s.pending.kind == "window"
    s.pass_()
    assert s.pending.kind == "answer" and s.pending.info["question"]["q"] == "touch"
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": False}]
    s.answer()
    assert s.st.guards[1] == [g] and g not in s.st.up and s.st.known[g] == 2  # stays, face down
    assert s.st.discard[-1] == a  # the Assassin is discarded
    d = s.pending
    assert d.kind == "chance:show" and d.info == {"p": 1, "to": 0, "n": 2}
    shown = s.st.hands[1][1]
    s.show(1)
    assert s.st.known[shown] == 3 and [m for h, m in s.st.reveals if h == shown] == [1]  # to the attacker alone


def test_successful_attempt_discards_both_in_the_attackers_order():
    s = _guarded()
    g = s.h(1, 4, "guard")
    a = s.h(0, 3)
    s.assassin(0, 3, g, top="guard").pass_()
    s.answer()
    assert s.st.guards[1] == [] and s.st.discard[-2:] == [a, g] and s.st.known[g] == 3


def test_a_false_touch_answer_is_refused_by_its_owner_and_owed_at_a_peer():
    s = _guarded()
    g = s.h(1, 4, "guard")
    s.assassin(0, 3, g).pass_()
    with pytest.raises(IllegalEvent, match="false_answer"):
        s.answer(False)
    peer = api.apply(api.view(s.st, 0), {"t": "answer", "p": 1, "yes": False})
    assert peer.obligations[-1]["q"] == "touch" and not api.broken_obligations(peer)
    assert api.broken_obligations(api.learn(peer, {g: 4}))[0]["seat"] == 1
    # the audit (every face known, strict) refuses it outright
    strict = Scene(hands={0: [3, 1], 1: [4, 2]}, suitcases={0: 5, 1: 8}, deck=[9, 7, 1, 8], start=1, strict=True)
    strict.guard(1, 4).assassin(0, 3, g).pass_()
    with pytest.raises(IllegalEvent, match="false_answer"):
        strict.answer(False)


def test_face_up_guard_needs_touching_codes():
    s = Scene(hands={0: [2, 7], 1: [9, 6]}, suitcases={1: 1}, deck=[4, 3, 6, 5])
    s.guard(0, 2)
    g = s.h(0, 2, "guard")
    s.encrypt(1, 9)
    s.deploy(0, 7, guard=g).answer()  # now face up: 1-2-3
    assert not [e for e in api.legal(s.st, 1) if e.get("as") == "assassin" and e["card"] == 6]  # 5-6-7: no
    with pytest.raises(IllegalEvent, match="no_touch"):
        s.assassin(1, 6, g)
    s.encrypt(1, 6).encrypt(0, 4)
    s.assassin(1, 3, g).pass_()  # 2-3-4 touches 1-2-3, no question: everyone sees it
    assert s.pending.kind == "action" and g in s.st.discard


def test_c_react_extra_protection_blocks_and_forgoes_the_next_action():
    s = Scene(hands={0: [2, 6], 1: [3, 1]}, suitcases={0: 8}, deck=[5, 4, 7, 9], start=0)
    s.guard(0, 2)
    g = s.h(0, 2, "guard")
    a = s.h(1, 3)
    s.assassin(1, 3, g)
    assert s.pending.kind == "window" and s.pending.actor == 0
    assert {e["t"] for e in api.legal(s.st, 0)} == {"pass", "react"}
    ep = s.h(0, 6)
    d0, d1 = s.st.deck[:2]
    s.react(0)
    assert s.st.tucks == {ep: g} and a in s.st.discard and s.st.guards[0] == [g]
    # seat 0's own turn came at once: it drew and looked at the next card (PEEK 1), and took no action
    assert not s.st.forgo[0] and s.pending.actor == 1
    assert d0 in s.st.hands[0] and len(s.st.hands[0]) == 2 and s.st.known[d1] & 1
    assert [x["k"] for x in s.st.history[-4:]] == ["turn", "peek", "forgo", "turn"]


def test_the_window_opens_whatever_the_hand_holds_and_passing_goes_on():
    s = Scene(hands={0: [2, 5], 1: [3, 1]}, suitcases={0: 8, 1: 9}, deck=[4, 7, 8, 9], start=0)
    s.guard(0, 2)
    g = s.h(0, 2, "guard")
    s.assassin(1, 3, g)
    assert s.pending.kind == "window"  # public: seat 0 holds no Extra Protection, yet it is asked
    assert api.legal(s.st, 0) == [{"t": "pass", "p": 0}]
    s.pass_()
    assert s.pending.kind == "answer"


def test_c_react_final_card_rule_and_one_react_at_a_time():
    from adp2p.engine.classified.assassins import can_react

    s = Scene(hands={0: [2, 6]}, start=0)
    s.guard(0, 2)
    g = s.h(0, 2, "guard")
    assert can_react(s.st, 0, g)
    st = s.st.clone()
    st.hands[0] = st.hands[0][:1]
    assert not can_react(st, 0, g)  # a REACT may not leave its player without a Final Card
    st = s.st.clone()
    st.forgo[0] = True
    assert not can_react(st, 0, g)  # a forgone turn still to take: no second REACT


def test_extra_protection_falls_to_a_touching_assassin():
    s = Scene(hands={0: [2, 6], 1: [9, 3]}, suitcases={0: 1, 1: 4}, deck=[8, 7, 5, 4])
    s.guard(0, 2)
    g = s.h(0, 2, "guard")
    ep = s.h(0, 6)
    s.encrypt(1, 3)
    s.deploy(0, 6, guard=g)
    with pytest.raises(IllegalEvent, match="no_touch"):
        s.assassin(1, 9, ep)  # 8-9-1 against 5-6-7
    s.encrypt(1, 9).encrypt(0, 5)
    s.assassin(1, 7, ep)  # 6-7-8 touches 5-6-7
    assert ep in s.st.discard and s.st.tucks == {} and s.st.guards[0] == [g] and g not in s.st.up
