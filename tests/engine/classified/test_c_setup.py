"""Set-up (003 set-up 1-3, the four-card variant), the turn (draw, one action), Encrypt and Enlist."""

import pytest
from adp2p.engine.classified import api
from adp2p.engine.classified.profiles import FOUR_CARD, STANDARD
from adp2p.engine.classified.scenario import Scene
from adp2p.engine.errors import IllegalEvent


def test_deal_two_in_hand_a_suitcase_two_encrypted_ten_to_draw():
    st = api.new_game(STANDARD)
    assert api.pending(st).kind == "chance:shuffle"
    st = api.apply(st, {"t": "shuffle"})
    assert [len(h) for h in st.hands] == [2, 2]
    assert all(s is not None for s in st.suitcase) and len(st.encrypted) == 2 and len(st.deck) == 10
    assert api.pending(st).kind == "chance:start"
    # only the owner sees their hand and Suitcase; nobody sees the encrypted cards or the deck
    for p in (0, 1):
        for h in [*st.hands[p], st.suitcase[p]]:
            assert st.known[h] == 1 << p
    assert not any(st.known.get(h) for h in [*st.encrypted, *st.deck])


def test_first_player_is_chance_and_turn_is_draw_then_one_action():
    s = Scene(start=1)
    d = s.pending
    assert d.actor == 1 and d.kind == "action" and len(s.st.hands[1]) == 3 and len(s.st.deck) == 9
    s.encrypt(1, s.st.faces[s.st.hands[1][0]])
    assert s.pending.actor == 0 and len(s.st.hands[0]) == 3 and len(s.st.hands[1]) == 2


def test_four_card_variant_each_chooses_suitcase_and_one_to_encrypt():
    s = Scene("four-card", hands={0: [1, 2, 3, 4], 1: [5, 6, 7, 8]})
    assert s.pending.kind == "choose" and s.pending.actor == 0
    assert len(api.legal(s.st, 0)) == 12
    s.choose(0, suitcase=3, encrypt=1).choose(1, suitcase=8, encrypt=5)
    assert s.st.faces[s.st.suitcase[0]] == 3 and s.st.faces[s.st.suitcase[1]] == 8
    assert len(s.st.encrypted) == 2 and len(s.st.deck) == 10  # C-FOUR: their choices are the pile
    assert sorted(s.st.faces[h] for h in s.st.hands[1]) == [6, 7]
    assert s.pending.kind == "chance:start"
    with pytest.raises(ValueError, match="two players"):
        api.new_game(FOUR_CARD, 3)


def test_encrypt_puts_a_card_face_down_on_the_encrypted_pile():
    s = Scene(hands={0: [1, 2]})
    h = s.h(0, 1)
    s.encrypt(0, 1)
    assert h in s.st.encrypted and s.st.known[h] == 1  # still only its player knows it


def test_enlist_guard_face_down_at_most_three():
    s = Scene(hands={0: [2, 5], 1: [3, 6]}, deck=[8, 9, 1, 9, 4])
    s.guard(0, 2)
    h = s.st.guards[0][0]
    assert s.st.known[h] == 1 and h not in s.st.up  # face down: only its owner knows it
    s.encrypt(1, 3).guard(0, 5).encrypt(1, 6).guard(0, 1)
    assert len(s.st.guards[0]) == 3
    s.encrypt(1, 9)
    assert not [e for e in api.legal(s.st, 0) if e.get("as") == "guard"]
    with pytest.raises(IllegalEvent, match="three"):
        s.guard(0, 4)


def test_a_card_of_no_guard_guild_cannot_be_enlisted_face_down():
    s = Scene(hands={0: [3, 6]})
    assert not [e for e in api.legal(s.st, 0) if e.get("as") == "guard" and e["h"] == s.h(0, 3)]
    with pytest.raises(IllegalEvent, match="not_a_guard"):
        s.guard(0, 3)


def test_a_peer_that_cannot_see_the_guard_records_an_obligation_the_audit_decides():
    s = Scene(hands={0: [3, 6]})
    peer = api.view(s.st, 1)  # seat 1's engine: does not know seat 0's hand
    peer = api.apply(peer, {"t": "enlist", "p": 0, "h": s.h(0, 3), "as": "guard"})
    assert peer.obligations and peer.obligations[0]["q"] == "guard_guild"
    assert not api.broken_obligations(peer)
    later = api.learn(peer, {s.h(0, 3): 3})
    assert [o["seat"] for o in api.broken_obligations(later)] == [0]


def test_events_with_unknown_fields_or_out_of_turn_are_refused():
    s = Scene(hands={0: [1, 2]})
    with pytest.raises(IllegalEvent, match="not_your_turn"):
        s.do({"t": "encrypt", "p": 1, "h": s.st.hands[1][0]})
    with pytest.raises(IllegalEvent, match="bad_event"):
        s.do({"t": "encrypt", "p": 0, "h": s.h(0, 1), "x": 1})
    with pytest.raises(IllegalEvent, match="not_your_turn"):
        s.do({"t": "encrypt", "p": True, "h": s.h(0, 1)})
    with pytest.raises(IllegalEvent, match="not_now"):
        s.do({"t": "answer", "p": 0, "yes": True})
