"""Code C cards: effect and requirement / timing of each."""

from adp2p.engine.access_denied import pending
from adp2p.engine.access_denied.flow import actions_available
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    NEWSMEDIA,
    NONE,
    OPER,
    ROOT,
    TELECOMM,
    USER,
    advance_to,
    attempt,
    discard_key,
    done,
    ev,
    h,
    illegal,
    illegal_play,
    next_turn,
    of_code,
    pass_all,
    play,
    resolve_chance,
    set_level,
    setup,
    where,
)


def test_dsl_extra_action_each_turn():
    st = setup(hands={0: ["dsl"]})
    st = set_level(st, 0, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "dsl"))
    assert where(st, "dsl") == ("upg", 0)
    assert actions_available(st) == 1  # the one action was spent on DSL, DSL gives one back now
    st = next_turn(st, 0)
    st = done(st) if pending(st).kind == "free" else st
    assert st.turn.actions_left == 2


def test_dsl_needs_telecomm_and_code_c():
    st = done(setup(hands={0: ["dsl"]}))
    assert illegal_play(st, 0, "dsl") == "requirement"
    st2 = set_level(done(setup(hands={0: ["dsl"]}, pw={0: ["A", "B", "D"]})), 0, TELECOMM, USER)
    assert illegal_play(st2, 0, "dsl") == "requirement_code"


def test_backdoor_ignores_the_access_requirement():
    st = setup(hands={1: ["backdoor", "overdraft"]}, first=1)
    st = done(st)
    assert illegal_play(st, 1, "overdraft", q=2) == "requirement"
    st = pass_all(play(st, 1, "overdraft", q=2, backdoor=True))
    assert where(st, "backdoor") == ("discard",)
    assert pending(st).kind == "chance:pick"


def test_backdoor_not_alone_and_not_with_an_upgrade():
    st = done(setup(hands={0: ["backdoor", "popular_war"]}))
    assert illegal_play(st, 0, "backdoor") == "backdoor_alone"
    assert illegal_play(st, 0, "popular_war", backdoor=True) == "backdoor_upgrade"


def test_copybot_takes_top_discard_any_time():
    st = setup(hands={1: ["copybot"]}, deck=["guru"])  # (named: not a password card)
    st = advance_to(st, "window:end", 1)
    st = discard_key(st, "guru")
    st = pass_all(play(st, 1, "copybot"))
    assert where(st, "guru") == ("hand", 1)


def test_copybot_not_the_card_just_played():
    st = setup(hands={0: ["copybot", "red_tape"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    st = pass_all(play(done(st), 0, "red_tape", q=1))
    assert st.discard[-1] == h(st, "red_tape")
    assert illegal_play(st, 0, "copybot") == "copybot"
    empty = setup(hands={0: ["copybot"]})
    assert empty.discard == [] and illegal_play(empty, 0, "copybot") == "copybot"


def _fdic_against_gov(extra2=("mocking_bird",)):
    st = setup(hands={0: ["fdic"], 2: list(extra2)})
    st = set_level(st, 2, TELECOMM, USER)
    return play(done(st), 0, "fdic", q=1)


def test_mocking_bird_blocks_root_only_card_and_shows_a_code():
    st = _fdic_against_gov()
    st = ev(st, "pass", 1)
    st = play(st, 2, "mocking_bird")
    st = pass_all(st)
    d = pending(st)
    assert d.kind == "chance:pick" and sorted(d.info["from"]) == sorted(st.passwords[BANKING])
    x = st.passwords[BANKING][2]
    st = resolve_chance(st, [x])
    assert st.known[x] & 4
    assert where(st, "fdic") == ("discard",)
    assert len(st.hands[1]) == 3  # FDIC blocked


def test_mocking_bird_not_on_oper_cards_and_needs_telecomm():
    st = setup(hands={0: ["nsa"], 2: ["mocking_bird"]})
    st = set_level(set_level(st, 0, GOVERNMENT, OPER), 2, GOVERNMENT, OPER)
    st = set_level(st, 2, TELECOMM, USER)
    st = play(done(st), 0, "nsa", q=1)
    st = advance_to(st, "window:card", 2)
    assert illegal_play(st, 2, "mocking_bird") == "reaction_timing"
    st2 = _fdic_against_gov()
    st2 = set_level(ev(st2, "pass", 1), 2, TELECOMM, NONE)
    assert illegal_play(st2, 2, "mocking_bird") == "requirement"


def test_good_day_draws_six():
    st = setup(hands={0: ["good_day"]})
    st = set_level(st, 0, NEWSMEDIA, OPER)
    st = advance_to(st, "draw", 0)
    n = len(st.hands[0])
    st = pass_all(play(st, 0, "good_day"))
    assert pending(st).kind == "draw"
    st = ev(st, "draw", 0, n=6)
    assert len(st.hands[0]) == n - 1 + 6


def test_good_day_only_in_own_draw_step_with_oper_newsmedia():
    st = set_level(setup(hands={0: ["good_day"]}), 0, NEWSMEDIA, OPER)
    assert illegal_play(done(st), 0, "good_day") == "reaction_timing"
    st = set_level(advance_to(st, "draw", 0), 0, NEWSMEDIA, USER)
    assert illegal_play(st, 0, "good_day") == "requirement"


def test_wiretap_sees_the_attempt_cards():
    st = setup(hands={0: ["A"], 2: ["wiretap"]})
    st = set_level(st, 2, GOVERNMENT, OPER)
    x = of_code(st, 0, "A")[0]
    st = attempt(st, 0, GOVERNMENT, [x])
    st = advance_to(st, "window:attempt", 2)
    assert not st.known[x] & 4
    st = pass_all(play(st, 2, "wiretap"))
    assert st.known[x] & 4


def test_wiretap_needs_oper_in_government():
    st = setup(hands={0: ["A"], 2: ["wiretap"]})
    st = set_level(st, 2, GOVERNMENT, USER)
    st = advance_to(attempt(st, 0, GOVERNMENT, of_code(st, 0, "A")[:1]), "window:attempt", 2)
    assert illegal_play(st, 2, "wiretap") == "requirement"


def test_route_trace_fails_attempt_returns_cards_ends_turn():
    st = setup(hands={0: ["D", "E"], 2: ["route_trace"]})
    st = set_level(st, 2, GOVERNMENT, OPER)
    handed = of_code(st, 0, "D")[:1]
    st = attempt(st, 0, GOVERNMENT, handed)
    st = advance_to(st, "window:attempt", 2)
    st = play(st, 2, "route_trace")
    st = pass_all(st)
    assert st.loc[handed[0]] == ("hand", 0)
    assert st.access[0][GOVERNMENT] == NONE
    # the turn ended: the next decision is the end-of-turn window or P2's turn, no actions / draw
    assert st.turn is None or st.turn.player != 0 or st.turn.ended
    assert pending(st).actor != 0 or pending(st).kind == "window"


def test_route_trace_needs_oper_in_the_attempted_sector():
    st = setup(hands={0: ["D"], 2: ["route_trace"]})
    st = set_level(st, 2, GOVERNMENT, USER)
    st = advance_to(attempt(st, 0, GOVERNMENT, of_code(st, 0, "D")[:1]), "window:attempt", 2)
    assert illegal_play(st, 2, "route_trace") == "reaction_timing"


def test_fbi_takes_an_upgrade_into_hand():
    st = setup(hands={0: ["fbi"], 1: ["ice"]}, pw={1: ["A", "B", "E"]}, first=1)
    st = pass_all(play(done(st), 1, "ice"))
    st = next_turn(st, 0)
    st = set_level(st, 0, GOVERNMENT, ROOT)
    st = pass_all(play(done(st), 0, "fbi", u=h(st, "ice")))
    assert where(st, "ice") == ("hand", 0)
    assert st.upgrades[1] == []


def test_fbi_needs_root_government():
    st = setup(hands={0: ["fbi"], 1: ["ice"]}, pw={1: ["A", "B", "E"]}, first=1)
    st = pass_all(play(done(st), 1, "ice"))
    st = set_level(next_turn(st, 0), 0, GOVERNMENT, OPER)
    assert illegal_play(done(st), 0, "fbi", u=h(st, "ice")) == "requirement"


def test_major_release_others_with_micronopoly_discard_all():
    st = setup(hands={0: ["major_release"]})
    st = set_level(st, 0, MICRONOPOLY, ROOT)
    st = pass_all(play(done(st), 0, "major_release"))
    st = pass_all(st)
    assert st.hands[2] == []  # controls Micronopoly
    assert len(st.hands[1]) == 3
    assert len(st.hands[0]) == 2


def test_major_release_needs_root():
    st = set_level(done(setup(hands={0: ["major_release"]})), 0, MICRONOPOLY, OPER)
    assert illegal_play(st, 0, "major_release") == "requirement"


def test_sol_caps_actions_until_oper_telecomm():
    st = setup(hands={0: ["sol"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "sol", q=1))
    assert st.status[1].sol
    st = set_level(next_turn(st, 1), 1, BANKING, ROOT)  # two Roots: two actions, capped at 1
    st = done(st)
    assert st.turn.player == 1
    assert st.turn.actions_left == 2 and actions_available(st) == 1


def test_sol_only_against_only_user_telecomm():
    st = setup(hands={0: ["sol"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, OPER)
    assert illegal_play(done(st), 0, "sol", q=1) == "target"
    st = set_level(st, 0, TELECOMM, USER)
    st = set_level(st, 1, TELECOMM, USER)
    assert illegal_play(done(st), 0, "sol", q=1) == "requirement"
    assert illegal
