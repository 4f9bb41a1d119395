"""Profile differences: classic (000) vs retro2013 (002) vs two-player, and the sector bonus tables."""

from adp2p.engine.access_denied import apply, get_profile, new_game, pending
from adp2p.engine.access_denied.flow import actions_available, draw_options
from adp2p.engine.access_denied.rules import goal_count, hand_limit, has_bonus, max_draw
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
    discard_key,
    done,
    empty_hand,
    ev,
    illegal,
    pass_all,
    set_level,
    setup,
    where,
)


def test_actions_classic_roots_retro_one():
    st = done(set_level(setup(3), 0, GOVERNMENT, ROOT))
    assert actions_available(st) == 2
    st = done(set_level(setup(3, "retro2013"), 0, GOVERNMENT, ROOT))
    assert actions_available(st) == 1


def test_hand_limit_classic_accesses_retro_six():
    st = set_level(setup(3), 0, NEWSMEDIA, USER)
    assert hand_limit(st, 0) == 2
    assert hand_limit(setup(3, "retro2013"), 0) == 6
    assert hand_limit(setup(3, "retro2013"), 2) == 8  # Micronopoly bonus


def test_draws_classic_oper_root_retro_up_to_two():
    st = advance_to(setup(3, perm=[3, 4, 5, 0, 1, 2]), "draw", 0)  # NewsMedia: no draw bonus
    st = set_level(set_level(st, 0, GOVERNMENT, OPER), 0, BANKING, USER)
    st = empty_hand(st, 0)
    assert max_draw(st, 0) == 2
    st = advance_to(setup(3, "retro2013", perm=[3, 4, 5, 0, 1, 2]), "draw", 0)
    assert [e["n"] for e in draw_options(st)] == [0, 1, 2]


def test_sole_root_bonus_classic_vs_retro():
    st = setup(3)
    assert has_bonus(st, 2, "hand_limit_plus2")
    st = set_level(st, 0, MICRONOPOLY, ROOT)
    assert not has_bonus(st, 2, "hand_limit_plus2") and not has_bonus(st, 0, "hand_limit_plus2")
    st = set_level(setup(3, "retro2013"), 0, MICRONOPOLY, ROOT)
    assert has_bonus(st, 2, "hand_limit_plus2") and has_bonus(st, 0, "hand_limit_plus2")


def test_banking_bonus_classic_capped_by_limit():
    st = advance_to(setup(3), "draw", 0)
    st = empty_hand(st, 0)
    assert max_draw(st, 0) == 1  # 1 Root + 1 bonus, capped by a limit of 1


def test_banking_bonus_retro_draw_two_then_discard_down():
    st = advance_to(setup(3, "retro2013"), "draw", 0)
    n = len(st.hands[0])
    st = ev(st, "draw", 0, n=2, bank=True)
    assert len(st.hands[0]) == n + 2
    assert pending(st).kind == "discard"


def test_government_bonus_takes_top_discard():
    st = setup(3, first=1)
    assert pending(st).kind == "free"  # empty discard pile: nothing to choose
    st = advance_to(setup(3, deck=["guru"], first=0), "window:end", 1)
    st = discard_key(st, "guru")
    st = advance_to(pass_all(st), "turn_start", 1)
    st = ev(st, "gov_draw", 1)
    assert where(st, "guru") == ("hand", 1)
    assert pending(st).kind == "free"  # once per turn: the choice is gone
    assert illegal(st, {"t": "gov_draw", "p": 1}) == "unexpected_event"


def test_micronopoly_bonus_plus_two():
    assert hand_limit(setup(3), 2) == 3


def test_newsmedia_skip_classic_up_to_six_retro_six():
    for prof, expect in (("classic", 6), ("retro2013", 3 + 6)):
        st = setup(3, prof, perm=[NEWSMEDIA, 1, 2, 0, 4, 5])
        assert pending(st).kind == "turn_start"
        st = ev(st, "news_skip", 0)
        assert len(st.hands[0]) == expect
        assert st.turn.ended and pending(st).info["window"] == "end"  # no free attempt, no actions


def test_telecomm_bonus_retro_discard_two_for_an_action():
    st = setup(3, "retro2013", perm=[TELECOMM, 1, 2, 3, 0, 5])
    st = done(st)
    st = ev(st, "tele_action", 0, cards=st.hands[0][:2])
    assert actions_available(st) == 2
    assert illegal(st, {"t": "tele_action", "p": 0, "cards": st.hands[0][:1] * 2}) == "tele_bonus"


def test_universities_bonus_auto_user_uses_free_attempt():
    st = setup(3, perm=[UNIVERSITIES, 1, 2, 3, 4, 0])
    st = ev(st, "univ", 0, s=GOVERNMENT)
    assert st.access[0][GOVERNMENT] == USER
    assert pending(st).kind != "free"


def test_two_player_setup():
    st = setup(2, "two-player")
    assert [len(st.sectors_of(p)) for p in range(2)] == [2, 2]
    assert sorted(len(v) for v in st.passwords.values()) == [3, 3, 3, 3]
    assert [len(x) for x in st.hands] == [3, 3]  # 9 dealt, 6 in two passwords
    assert st.profile.goal == 5 and st.profile.counts_uncontrolled(2)
    st = set_level(set_level(st, 0, 4, ROOT), 0, 5, ROOT)
    assert goal_count(st, 0) == 4


def test_profiles_by_name():
    assert get_profile("classic-de").distinct_attempt_codes
    new_game(get_profile("two-player"), 2)
    for bad in (("two-player", 3), ("classic", 2)):
        try:
            new_game(get_profile(bad[0]), bad[1])
        except ValueError:
            continue
        raise AssertionError(bad)
    assert apply and BANKING == 0
