"""Code D cards: effect and requirement / timing of each."""

from adp2p.engine.access_denied import pending
from adp2p.engine.access_denied.rules import hand_limit, max_draw
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    NEWSMEDIA,
    NONE,
    OPER,
    ROOT,
    TELECOMM,
    UNIVERSITIES,
    USER,
    advance_to,
    answer_honestly,
    attempt,
    done,
    ev,
    give,
    give_code,
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


def test_war_dialer_extra_free_attempt():
    st = setup(hands={0: ["war_dialer"]}, pw={0: ["A", "B", "D"]})
    st = set_level(st, 0, UNIVERSITIES, USER)
    st = pass_all(play(done(st), 0, "war_dialer"))
    assert where(st, "war_dialer") == ("upg", 0)
    st = next_turn(st, 0)
    assert st.turn.free_left == 2


def test_war_dialer_needs_code_d_and_universities():
    st = set_level(done(setup(hands={0: ["war_dialer"]})), 0, UNIVERSITIES, USER)
    assert illegal_play(st, 0, "war_dialer") == "requirement_code"
    st = done(setup(hands={0: ["war_dialer"]}, pw={0: ["A", "B", "D"]}))
    assert illegal_play(st, 0, "war_dialer") == "requirement"


def _fifteen_minutes_on_p0(p0_cards=("press_pass",)):
    st = setup(hands={0: list(p0_cards), 2: ["fifteen_minutes"]}, first=2)
    st = set_level(st, 2, NEWSMEDIA, USER)
    st = pass_all(play(done(st), 2, "fifteen_minutes", q=0))
    return st


def test_press_pass_keeps_actions():
    st = _fifteen_minutes_on_p0()
    st = set_level(st, 0, NEWSMEDIA, OPER)
    st = advance_to(st, "window:lose_actions", 0)
    st = pass_all(play(st, 0, "press_pass"))
    assert pending(st).kind == "actions" and st.turn.actions_left == 1


def test_without_press_pass_the_actions_are_lost():
    st = advance_to(_fifteen_minutes_on_p0(), "window:lose_actions", 0)
    st = ev(st, "pass", 0)
    assert pending(st).kind != "actions" and st.turn.actions_left == 0


def test_press_pass_timing_and_requirement():
    st = advance_to(_fifteen_minutes_on_p0(), "window:lose_actions", 0)
    assert illegal_play(st, 0, "press_pass") == "requirement"
    st2 = set_level(setup(hands={0: ["press_pass"]}), 0, NEWSMEDIA, OPER)
    assert illegal_play(st2, 0, "press_pass") == "reaction_timing"


def test_easy_credit_draws_three_more_ignoring_limit():
    st = setup(hands={0: ["easy_credit"]})
    st = advance_to(st, "draw", 0)
    assert max_draw(st, 0) == 0  # hand at the limit, one Root: nothing to draw
    st = pass_all(play(st, 0, "easy_credit"))
    # one Oper/Root + the Banking bonus card, the limit ignored, + 3
    assert max_draw(st, 0) == 1 + 1 + 3
    n = len(st.hands[0])
    st = ev(st, "draw", 0, n=5)
    assert len(st.hands[0]) == n + 5


def test_easy_credit_only_own_draw_step_with_banking():
    st = setup(hands={0: ["easy_credit"]})
    assert illegal_play(st, 0, "easy_credit") == "reaction_timing"
    st = setup(hands={1: ["easy_credit"]}, first=1)
    st = advance_to(st, "draw", 1)
    assert illegal_play(st, 1, "easy_credit") == "requirement"


def test_nsa_sees_the_hand_and_takes_one():
    st = setup(hands={0: ["nsa"]})
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = pass_all(play(done(st), 0, "nsa", q=2))
    st = pass_all(st)  # P2's Backup window
    assert pending(st).kind == "nsa_take"
    assert all(st.known[x] & 1 for x in st.hands[2])
    assert not any(st.known[x] & 1 for x in st.passwords[MICRONOPOLY])
    x = st.hands[2][1]
    st = ev(st, "take", 0, card=x)
    assert st.loc[x] == ("hand", 0)
    with_pw = st.passwords[MICRONOPOLY][0]
    assert with_pw not in st.hands[0]


def test_nsa_cannot_take_password_cards_and_needs_oper():
    st = setup(hands={0: ["nsa"]})
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = pass_all(pass_all(play(done(st), 0, "nsa", q=2)))
    assert illegal(st, {"t": "take", "p": 0, "card": st.passwords[MICRONOPOLY][0]}) == "nsa_take"
    st = set_level(done(setup(hands={0: ["nsa"]})), 0, GOVERNMENT, USER)
    assert illegal_play(st, 0, "nsa", q=2) == "requirement"


def test_line_spike_no_actions_next_turn():
    st = setup(hands={0: ["line_spike"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "line_spike", q=1))
    assert st.status[1].no_actions_next
    st = advance_to(st, "window:lose_actions", 1)
    st = ev(st, "pass", 1)
    assert st.turn.player == 1 and st.turn.actions_left == 0


def test_line_spike_target_and_requirement():
    st = setup(hands={0: ["line_spike"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, OPER)
    assert illegal_play(done(st), 0, "line_spike", q=1) == "target"
    st = set_level(set_level(st, 0, TELECOMM, USER), 1, TELECOMM, USER)
    assert illegal_play(done(st), 0, "line_spike", q=1) == "requirement"


def test_beta_site_limit_minus_one_until_oper():
    st = setup(hands={0: ["beta_site"]})
    st = set_level(set_level(st, 0, MICRONOPOLY, OPER), 1, MICRONOPOLY, USER)
    before = hand_limit(st, 1)
    st = pass_all(play(done(st), 0, "beta_site", q=1))
    assert hand_limit(st, 1) == before - 1
    st = next_turn(st, 1)  # P1 reaches Oper in Micronopoly by a real attempt: Beta Site ends
    st = give_code(give_code(st, 1, "A"), 1, "B")
    st = attempt(st, 1, MICRONOPOLY, of_code(st, 1, "A")[:1] + of_code(st, 1, "B")[:1])
    st = answer_honestly(pass_all(st))
    assert st.access[1][MICRONOPOLY] == OPER
    assert not st.status[1].beta and hand_limit(st, 1) == before + 0


def test_beta_site_target_and_requirement():
    st = setup(hands={0: ["beta_site"]})
    st = set_level(st, 0, MICRONOPOLY, OPER)
    assert illegal_play(done(st), 0, "beta_site", q=2) == "target"  # P3 has Root there
    st = set_level(set_level(st, 0, MICRONOPOLY, USER), 1, MICRONOPOLY, USER)
    assert illegal_play(done(st), 0, "beta_site", q=1) == "requirement"


def test_software_patch_others_discard_three_at_random():
    st = setup(hands={0: ["software_patch"]})
    st = set_level(set_level(st, 0, MICRONOPOLY, OPER), 1, MICRONOPOLY, USER)
    st = pass_all(play(done(st), 0, "software_patch"))
    hit = []
    for _ in range(2):
        st = pass_all(st)
        d = pending(st)
        assert d.kind == "chance:pick" and d.info["k"] == 3
        hit.append(st.loc[d.info["from"][0]][1])
        st = resolve_chance(st)
    assert sorted(hit) == [1, 2]
    assert st.hands[1] == [] and st.hands[2] == [] and len(st.hands[0]) == 2


def test_software_patch_needs_oper_micronopoly():
    st = set_level(done(setup(hands={0: ["software_patch"]})), 0, MICRONOPOLY, USER)
    assert illegal_play(st, 0, "software_patch") == "requirement"


def test_trojan_horse_given_with_an_action_blocks_attempts():
    st = setup(hands={0: ["trojan_horse"]})
    x = h(st, "trojan_horse")
    st = pass_all(play(done(st), 0, "trojan_horse", q=1))
    assert st.loc[x] == ("hand", 1)
    st = next_turn(st, 1)
    assert st.turn.no_attempts
    a = of_code(st, 1, "A") or st.hands[1][:1]
    assert illegal(st, {"t": "attempt", "p": 1, "s": BANKING, "cards": a[:1]}) == "no_attempts"


def test_trojan_horse_needs_an_action_and_another_player():
    st = setup(hands={0: ["trojan_horse"]})
    assert illegal_play(st, 0, "trojan_horse", q=1) == "action_timing"  # free step
    assert illegal_play(done(st), 0, "trojan_horse", q=0) == "target"


def test_bank_run_everyone_with_banking_discards_three():
    st = setup(hands={0: ["bank_run"]})
    st = set_level(set_level(st, 0, NEWSMEDIA, OPER), 2, BANKING, USER)
    st = pass_all(play(done(st), 0, "bank_run"))
    victims = []
    while True:
        st = pass_all(st)
        d = pending(st)
        if d.kind != "chance:pick":
            break
        victims.append(st.loc[d.info["from"][0]][1])
        st = resolve_chance(st)
    assert sorted(victims) == [0, 2]  # the player too, P2 (no Banking access) is spared
    assert len(st.hands[1]) == 3


def test_bank_run_needs_oper_newsmedia():
    st = set_level(done(setup(hands={0: ["bank_run"]})), 0, NEWSMEDIA, USER)
    assert illegal_play(st, 0, "bank_run") == "requirement"


def test_retro_virus_strikes_next_successful_improver():
    st = setup(hands={0: ["A", "B"], 1: ["retro_virus"]}, deck=["guru"], first=1)
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 1, "retro_virus", s=BANKING))
    assert where(st, "retro_virus") == ("sec", BANKING)
    st = next_turn(st, 1)  # P1 (its owner) improves: no effect on the owner
    st = next_turn(st, 2)
    st = give(st, 2, "guru")
    st = set_level(st, 2, BANKING, USER)
    st = pass_all(play(done(st), 2, "guru", s=BANKING))
    st = pass_all(st)
    assert st.access[2][BANKING] == OPER
    assert st.hands[2] == []
    assert where(st, "retro_virus") == ("discard",)


def test_retro_virus_needs_access():
    st = done(setup(hands={0: ["retro_virus"]}))
    assert illegal_play(st, 0, "retro_virus", s=GOVERNMENT) == "target"


def test_backup_prevents_losing_cards():
    st = setup(hands={0: ["overdraft"], 1: ["backup"]})
    st = play(done(st), 0, "overdraft", q=1)  # nobody else has Oper in Banking: no card window
    assert pending(st).info["window"] == "lose_cards" and pending(st).actor == 1
    st = pass_all(play(st, 1, "backup"))
    assert pending(st).kind != "chance:pick"
    assert len(st.hands[1]) == 2  # only Backup is gone
    assert where(st, "backup") == ("discard",)


def test_backup_only_when_losing_cards():
    st = setup(hands={1: ["backup"]})
    st = advance_to(st, "window:end", 1)
    assert illegal_play(st, 1, "backup") == "reaction_timing"
    assert (ROOT, NONE, answer_honestly, attempt, give) != ()
