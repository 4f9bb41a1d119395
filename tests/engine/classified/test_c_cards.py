"""Every Citrine card's Deploy (classified-setup.md 1-7; rulings C-DECOY, C-SPOTLIGHTS, C-PETALS, C-POSSIBLE)."""

import pytest
from adp2p.engine.classified import api
from adp2p.engine.classified.scenario import Scene
from adp2p.engine.errors import IllegalEvent


def _last(s, k):
    return next(x for x in reversed(s.st.history) if x["k"] == k)


def test_fortune_teller_asks_within_two_and_peeks_two():
    s = Scene(hands={0: [1, 2], 1: [3, 4]}, suitcases={0: 5, 1: 9}, deck=[6, 7, 8, 2])
    s.deploy(0, 1, n=1)
    top = s.st.deck[:3]
    d = s.pending
    assert d.actor == 1 and d.kind == "answer" and d.info["question"]["q"] == "near"
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": True}]  # 003:20 Josephine's 9: yes
    s.answer()
    assert _last(s, "answer")["yes"] is True
    assert [s.st.known.get(h, 0) & 1 for h in top] == [1, 1, 0]  # PEEK 2
    assert s.st.discard[-1] == s.log[-2]["h"]  # then discarded


def test_fortune_teller_no_when_far():
    s = Scene(hands={0: [1, 2]}, suitcases={1: 5})
    s.deploy(0, 1, n=1)
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": False}]


def test_test_access_codes_shows_the_hand_then_a_picked_card_is_compared():
    s = Scene(hands={0: [2, 1], 1: [7, 4]}, suitcases={1: 7})
    s.deploy(0, 2)
    assert all(s.st.known[h] & 1 for h in s.st.hands[1])  # the hand is shown to the player of the card
    assert s.pending.kind == "pick" and s.pending.actor == 0
    s.pick(s.h(1, 7))
    assert s.pending.info["question"]["q"] == "equal"
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": True}]
    s.answer()


def test_picking_petals_one_name_when_guards_are_in_play():
    s = Scene(hands={0: [4, 3], 1: [2, 5]}, suitcases={1: 6})
    s.guard(0, 4).encrypt(1, 5)
    s.deploy(0, 3)
    assert s.pending.kind == "name" and s.pending.info["left"] == 1
    names = [e["n"] for e in api.legal(s.st, 1)]
    assert 3 not in names and 6 not in names and len(names) == 7
    s.name(1)
    assert s.pending.kind == "action"


def test_c_petals_two_names_when_no_guard_is_in_play_on_either_side():
    s = Scene(hands={0: [3, 1]}, suitcases={1: 6})
    s.deploy(0, 3)
    assert s.pending.info["left"] == 2
    s.name(1)
    assert 1 not in [e["n"] for e in api.legal(s.st, 1)]  # a second, different number
    with pytest.raises(IllegalEvent, match="bad_name"):
        s.name(3)
    s.name(2)
    assert s.pending.kind == "action"


def test_picking_petals_naming_the_suitcase_is_refused_by_its_owner_and_owed_at_a_peer():
    s = Scene(hands={0: [3, 1]}, suitcases={1: 6})
    s.deploy(0, 3)
    with pytest.raises(IllegalEvent, match="false_answer"):
        s.name(6)
    peer = api.apply(api.view(s.st, 0), {"t": "name", "p": 1, "n": 6})
    assert not api.broken_obligations(peer)
    assert api.broken_obligations(api.learn(peer, {s.st.suitcase[1]: 6}))[0]["seat"] == 1


def _two_guards():
    s = Scene(hands={0: [2, 4], 1: [5, 8]}, suitcases={0: 1, 1: 6}, deck=[7, 9, 1, 3, 6])
    s.guard(0, 2).guard(1, 5)
    return s


def test_switch_places_swaps_guards_with_the_opponent_face_up():
    s = _two_guards()
    mine, theirs = s.h(0, 2, "guard"), s.h(1, 5, "guard")
    s.deploy(0, 4, mode="swap", mine=mine, theirs=theirs)
    assert s.st.guards[0] == [theirs] and s.st.guards[1] == [mine]
    assert {mine, theirs} <= s.st.up and s.st.known[mine] == 3 and s.st.known[theirs] == 3


def test_switch_places_with_the_top_of_the_discard_pile():
    s = _two_guards()
    s.encrypt(0, 7)  # (a turn passes)
    s.deploy(1, 8, n=3).answer()  # Decoy Guard goes to the discard pile
    top = s.st.discard[-1]
    mine = s.h(0, 2, "guard")
    s.deploy(0, 4, mode="discard", mine=mine)
    assert s.st.guards[0] == [top] and top in s.st.up
    assert s.st.discard[-2:] == [mine, s.log[-1]["h"]] and s.st.known[mine] == 3


def test_switch_places_with_itself_takes_the_guard_back_then_discards():
    s = _two_guards()
    mine = s.h(0, 2, "guard")
    sp = s.h(0, 4)
    s.deploy(0, 4, mode="self", mine=mine, drop=mine)
    assert s.st.guards[0] == [sp] and sp in s.st.up
    assert s.st.discard[-1] == mine and len(s.st.hands[0]) == 2


def test_switch_places_reaches_a_tucked_guard_and_the_new_one_is_tucked():
    s = Scene(hands={0: [2, 6], 1: [5, 4]}, suitcases={0: 1, 1: 3}, deck=[7, 9, 1, 8, 3])
    s.guard(0, 2).guard(1, 5)
    ep = s.h(0, 6)
    g = s.h(0, 2, "guard")
    s.deploy(0, 6, guard=g)
    assert s.st.tucks == {ep: g}
    theirs = s.h(1, 5, "guard")
    s.deploy(1, 4, mode="swap", mine=theirs, theirs=g)
    assert s.st.tucks == {ep: theirs} and s.st.guards[0] == [theirs]


def test_scavenge_takes_one_of_the_top_three_then_discards_a_different_card():
    s = Scene(hands={0: [1, 5], 1: [3, 4]}, suitcases={1: 2}, deck=[7, 8, 9])
    s.deploy(0, 1, n=2).answer()
    ft = s.st.discard[-1]
    s.deploy(1, 8, n=4).answer()
    assert not [e for e in api.legal(s.st, 0) if e.get("card") == 5 and e.get("take") == e.get("drop")]
    s.deploy(0, 5, take=ft, drop=s.h(0, 7))
    assert ft in s.st.hands[0] and len(s.st.hands[0]) == 2


def test_extra_protection_tucks_a_guard_and_counts_half():
    s = Scene(hands={0: [2, 6]}, deck=[7])
    s.guard(0, 2).encrypt(1, s.st.faces[s.st.hands[1][0]])
    g = s.st.guards[0][0]
    s.deploy(0, 6, guard=g)
    assert s.st.guard_count(0) == 1.5 and len(s.st.guards[0]) == 1


def test_wheel_of_fate_turns_an_own_guard_up_and_asks_code():
    s = Scene(hands={0: [2, 7], 1: [1, 3]}, suitcases={1: 3}, deck=[9])
    s.guard(0, 2).encrypt(1, 1)
    g = s.st.guards[0][0]
    s.deploy(0, 7, guard=g)
    assert g in s.st.up and s.st.known[g] == 3
    assert s.pending.info["question"] == {"q": "in_code", "h": g, "seat": 1, "s": s.st.suitcase[1]}
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": True}]  # 2 is in 2-3-4


def test_wheel_of_fate_may_choose_a_guard_already_face_up():
    s = Scene(hands={0: [2, 7], 1: [1, 3]}, suitcases={1: 3}, deck=[7, 9])
    s.guard(0, 2).encrypt(1, 1)
    g = s.st.guards[0][0]
    s.deploy(0, 7, guard=g).answer().encrypt(1, 3)
    assert {"t": "deploy", "p": 0, "h": s.h(0, 7), "card": 7, "guard": g} in api.legal(s.st, 0)


def test_c_decoy_guard_asks_whether_a_number_is_in_the_code():
    s = Scene(hands={0: [8, 1]}, suitcases={1: 9})
    s.deploy(0, 8, n=1)
    assert api.legal(s.st, 1) == [{"t": "answer", "p": 1, "yes": True}]  # 8-9-1


def test_c_spotlights_turns_one_or_two_opponent_guards_up_and_asks_each():
    s = Scene(hands={0: [9, 1], 1: [2, 5]}, suitcases={1: 4}, deck=[7, 8, 3])
    s.encrypt(0, 1).guard(1, 2).encrypt(0, 7).guard(1, 5)
    g2, g5 = s.h(1, 2, "guard"), s.h(1, 5, "guard")
    s.deploy(0, 9, guards=[g2, g5])
    assert {g2, g5} <= s.st.up
    assert s.pending.info["question"]["h"] == g2
    s.answer()
    assert s.pending.info["question"]["h"] == g5
    s.answer()
    said = [x["yes"] for x in s.st.history if x["k"] == "answer"]
    assert said == [False, True]  # 4's Code is 3-4-5


def test_c_possible_a_card_whose_ability_cannot_act_is_not_deployed():
    s = Scene(hands={0: [7, 9]})
    assert not [e for e in api.legal(s.st, 0) if e["t"] == "deploy"]
    with pytest.raises(IllegalEvent, match="not_possible"):
        s.deploy(0, 7, guard=0)


def test_a_card_claimed_as_another_is_refused():
    s = Scene(hands={0: [1, 2]})
    with pytest.raises(IllegalEvent, match="face_mismatch"):
        s.do({"t": "deploy", "p": 0, "h": s.h(0, 2), "card": 8, "n": 3})
