"""Code F cards: effect and requirement / timing of each."""

import pytest
from adp2p.engine.access_denied import pending
from adp2p.engine.access_denied.rules import limit_ignored, max_draw
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    NEWSMEDIA,
    OPER,
    ROOT,
    TELECOMM,
    UNIVERSITIES,
    USER,
    advance_to,
    done,
    empty_hand,
    ev,
    illegal,
    illegal_play,
    next_turn,
    pass_all,
    play,
    set_level,
    setup,
    where,
)


def test_over_clock_extra_action_now_and_later():
    st = setup(hands={0: ["over_clock"]}, pw={0: ["A", "B", "F"]})
    st = set_level(st, 0, MICRONOPOLY, USER)
    st = pass_all(play(done(st), 0, "over_clock"))
    assert where(st, "over_clock") == ("upg", 0)
    assert st.turn.actions_left == 1
    st = done(next_turn(st, 0))
    assert st.turn.actions_left == 2


def test_over_clock_needs_code_f_and_micronopoly():
    st = set_level(done(setup(hands={0: ["over_clock"]})), 0, MICRONOPOLY, USER)
    assert illegal_play(st, 0, "over_clock") == "requirement_code"
    assert illegal_play(done(setup(hands={0: ["over_clock"]}, pw={0: ["A", "B", "F"]})), 0,
                        "over_clock") == "requirement"


def test_direct_deposit_no_draw_next_turn():
    st = setup(hands={0: ["direct_deposit"]})
    st = set_level(set_level(st, 0, BANKING, ROOT), 1, BANKING, USER)
    st = pass_all(play(done(st), 0, "direct_deposit", q=1))
    st = next_turn(st, 1)
    assert st.turn.no_draw
    st = empty_hand(st, 1)
    assert max_draw(st, 1) == 0


def test_direct_deposit_target_only_user_banking():
    st = setup(hands={0: ["direct_deposit"]})
    st = set_level(st, 1, BANKING, OPER)
    assert illegal_play(done(st), 0, "direct_deposit", q=1) == "target"
    st = done(setup(hands={1: ["direct_deposit"]}, first=1))
    assert illegal_play(set_level(st, 2, BANKING, USER), 1, "direct_deposit", q=2) == "requirement"


def test_loan_default_ignores_limit_until_next_turn():
    st = setup(hands={0: ["loan_default"]})
    st = set_level(st, 0, UNIVERSITIES, OPER)
    st = pass_all(play(done(st), 0, "loan_default"))
    assert limit_ignored(st, 0)
    st = ev(st, "discard", 0, cards=[])  # 2 cards over a limit of 2 would be fine anyway; check the draw
    assert pending(st).kind == "draw"
    st = next_turn(st, 0)
    assert not limit_ignored(st, 0)


def test_loan_default_needs_oper_universities():
    st = set_level(done(setup(hands={0: ["loan_default"]})), 0, UNIVERSITIES, USER)
    assert illegal_play(st, 0, "loan_default") == "requirement"


def test_mothers_maiden_name_user_access_any_sector():
    st = setup(hands={0: ["mothers_maiden_name"]})
    st = play(done(st), 0, "mothers_maiden_name", s=GOVERNMENT)
    assert pending(st).kind != "window"  # nobody may react: it cannot be stopped
    st = pass_all(st)
    assert st.access[0][GOVERNMENT] == USER
    st2 = set_level(done(setup(hands={0: ["mothers_maiden_name"]})), 0, GOVERNMENT, USER)
    assert illegal_play(st2, 0, "mothers_maiden_name", s=GOVERNMENT) == "target"


def test_fifteen_minutes_no_actions_next_turn():
    st = setup(hands={0: ["fifteen_minutes"]})
    st = set_level(st, 0, NEWSMEDIA, USER)
    st = pass_all(play(done(st), 0, "fifteen_minutes", q=1))
    st = ev(advance_to(st, "window:lose_actions", 1), "pass", 1)
    assert st.turn.player == 1 and st.turn.actions_left == 0
    st = done(setup(hands={0: ["fifteen_minutes"]}))
    assert illegal_play(st, 0, "fifteen_minutes", q=1) == "requirement"


def test_burnout_discards_over_clock_and_no_actions():
    st = setup(hands={0: ["burnout"], 1: ["over_clock"]}, pw={1: ["A", "B", "F"]}, first=1)
    st = set_level(st, 1, MICRONOPOLY, USER)
    st = pass_all(play(done(st), 1, "over_clock"))
    st = next_turn(st, 0)
    st = pass_all(play(done(st), 0, "burnout", q=1))
    assert where(st, "over_clock") == ("discard",)
    assert st.status[1].no_actions_next


def test_burnout_only_against_over_clock():
    assert illegal_play(done(setup(hands={0: ["burnout"]})), 0, "burnout", q=1) == "target"


def test_worm_held_at_turn_start_no_draw():
    st = setup(hands={0: ["worm"]})
    assert st.turn.no_draw
    st = advance_to(st, "draw", 0)
    assert max_draw(st, 0) == 0


def test_worm_given_with_an_action():
    st = setup(hands={0: ["worm"]})
    st = pass_all(play(done(st), 0, "worm", q=2))
    assert where(st, "worm") == ("hand", 2)
    assert st.turn.no_draw  # decided at the start of the turn


@pytest.mark.parametrize("key,sector", [
    ("warez", MICRONOPOLY), ("free_checking", BANKING), ("telecourse", UNIVERSITIES),
    ("public_library", GOVERNMENT), ("phreaking", TELECOMM), ("blog", NEWSMEDIA),
])
def test_gain_user_cards(key, sector):
    p = 2 if sector == BANKING else 0
    st = setup(hands={p: [key]}, first=p)
    st = play(done(st), p, key)
    assert pending(st).kind != "window"
    assert st.access[p][sector] == USER
    st2 = set_level(done(setup(hands={p: [key]}, first=p)), p, sector, USER)
    assert illegal_play(st2, p, key) == "target"
    wrong = st2.hands[p][0]
    lie = {"t": "play", "p": p, "card": wrong, "face": (st2.faces[wrong] + 1) % 63}
    assert illegal(st2, lie) == "face_mismatch"
