"""Code E cards: effect and requirement / timing of each."""

from adp2p.engine.access_denied import pending
from adp2p.engine.access_denied.flow import actions_available
from adp2p.engine.access_denied.rules import max_draw
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
    attempt,
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


def test_ice_immune_to_viruses():
    st = setup(hands={0: ["multi_virus"], 1: ["ice"]}, pw={1: ["A", "B", "E"]}, first=1)
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 1, "ice"))
    assert where(st, "ice") == ("upg", 1)
    st = next_turn(st, 0)
    st = pass_all(play(done(st), 0, "multi_virus", s=BANKING))
    assert len(st.hands[1]) == 2  # untouched


def test_ice_needs_code_e_and_government():
    st = done(setup(hands={1: ["ice"]}, first=1))
    assert illegal_play(st, 1, "ice") == "requirement_code"
    st = done(setup(hands={0: ["ice"]}, pw={0: ["A", "B", "E"]}))
    assert illegal_play(st, 0, "ice") == "requirement"


def test_whoops_no_attempts_next_turn():
    st = setup(hands={0: ["whoops"]})
    st = set_level(st, 0, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "whoops", q=1))
    st = next_turn(st, 1)
    assert st.turn.no_attempts
    assert illegal(st, {"t": "attempt", "p": 1, "s": BANKING, "cards": st.hands[1][:1]}) == "no_attempts"


def test_whoops_needs_telecomm():
    assert illegal_play(done(setup(hands={0: ["whoops"]})), 0, "whoops", q=1) == "requirement"


def test_no_etaxes_everyone_ignores_limit_and_draws_two_more():
    st = setup(hands={1: ["no_etaxes"]})
    st = set_level(st, 1, NEWSMEDIA, USER)
    st = advance_to(st, "window:end", 1)
    st = pass_all(play(st, 1, "no_etaxes"))
    # P2's next turn has begun at once (its flag moved into the turn); the others wait for theirs
    assert [s.etaxes_next for s in st.status] == [1, 0, 1]
    st = advance_to(st, "draw", 1)
    assert st.turn.ignore_limit and st.turn.extra_draws == 2
    assert max_draw(st, 1) == 1 + 2


def test_no_etaxes_needs_newsmedia():
    st = advance_to(setup(hands={1: ["no_etaxes"]}), "window:end", 1)
    assert illegal_play(st, 1, "no_etaxes") == "requirement"


def test_human_services_take_two_give_one_keep_one():
    st = setup(hands={0: ["human_services"]})
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = pass_all(pass_all(play(done(st), 0, "human_services", q=2)))
    d = pending(st)
    assert d.kind == "chance:pick" and d.info["k"] == 2
    a, b = d.info["from"][:2]
    st = resolve_chance(st, [a, b])
    assert pending(st).kind == "hs_give"
    assert illegal(st, {"t": "give", "p": 0, "card": a, "q": 2}) == "hs_give"
    st = ev(st, "give", 0, card=a, q=1)
    assert st.loc[a] == ("hand", 1) and st.loc[b] == ("hand", 0)


def test_human_services_needs_oper_government():
    st = set_level(done(setup(hands={0: ["human_services"]})), 0, GOVERNMENT, USER)
    assert illegal_play(st, 0, "human_services", q=2) == "requirement"


def test_cancelbot_cancels_card_and_ends_turn():
    st = setup(hands={0: ["overdraft"], 1: ["cancelbot"]})
    st = set_level(st, 1, BANKING, OPER)
    st = play(done(st), 0, "overdraft", q=2)
    st = pass_all(play(st, 1, "cancelbot"))
    assert len(st.hands[2]) == 3
    assert where(st, "overdraft") == ("discard",)
    assert st.turn is None or st.turn.player != 0


def test_cancelbot_needs_oper_in_the_required_sector():
    st = setup(hands={0: ["overdraft", "spam"], 1: ["cancelbot"]})
    st = set_level(set_level(st, 1, BANKING, OPER), 0, BANKING, ROOT)
    st = set_level(st, 2, BANKING, USER)
    st = play(done(st), 0, "overdraft", q=2)
    assert pending(st).actor == 1  # P3 (only User) is not asked
    st0 = setup(hands={0: ["spam"], 1: ["cancelbot"]})
    st0 = set_level(st0, 0, BANKING, ROOT)
    st0 = play(done(st0), 0, "spam", q=2)
    assert pending(st0).kind == "spam_give"  # Spam requires nothing: no window


def test_winzap_extra_action_for_micronopoly_access():
    st = setup(hands={1: ["winzap"]})
    st = set_level(set_level(st, 1, MICRONOPOLY, USER), 0, MICRONOPOLY, USER)
    st = advance_to(st, "window:end", 1)
    st = pass_all(play(st, 1, "winzap"))
    assert [s.extra_actions_next for s in st.status] == [1, 0, 1]  # P2's next turn has begun
    st = done(advance_to(st, "free", 1))
    assert st.turn.actions_left == 2


def test_winzap_needs_micronopoly():
    st = advance_to(setup(hands={1: ["winzap"]}), "window:end", 1)
    assert illegal_play(st, 1, "winzap") == "requirement"


def test_fdic_government_controller_gives_half_rounded_up():
    st = setup(hands={0: ["fdic"]})
    st = play(done(st), 0, "fdic", q=1)
    st = advance_to(st, "fdic_give", 1)
    assert st.stack[-1]["k"] == 2  # 3 cards: 2
    give = st.hands[1][:2]
    assert illegal(st, {"t": "give", "p": 1, "cards": give[:1]}) == "fdic_give"
    st = ev(st, "give", 1, cards=give)
    assert all(st.loc[x] == ("hand", 0) for x in give)


def test_fdic_only_against_government_controller_with_root_banking():
    st = done(setup(hands={0: ["fdic"]}))
    assert illegal_play(st, 0, "fdic", q=2) == "target"
    st = done(setup(hands={2: ["fdic"]}, first=2))
    assert illegal_play(set_level(st, 2, BANKING, OPER), 2, "fdic", q=1) == "requirement"


def test_spam_each_card_received_costs_an_action():
    st = setup(hands={0: ["spam"]})
    st = play(done(st), 0, "spam", q=1)
    assert pending(st).kind == "spam_give" and pending(st).actor == 0
    st = ev(st, "spam_give", 0, cards=st.hands[0][:1])
    st = ev(st, "spam_give", 2, cards=st.hands[2][:2])
    assert st.status[1].lose_actions_next == 3
    assert len(st.hands[1]) == 6
    assert illegal_play(setup(hands={0: ["spam"]}), 0, "spam", q=1) == "action_timing"


def test_net_volleyball_others_lose_an_action():
    st = setup(hands={0: ["net_volleyball"]})
    st = set_level(st, 0, UNIVERSITIES, USER)
    st = pass_all(play(done(st), 0, "net_volleyball"))
    assert [s.lose_actions_next for s in st.status] == [0, 1, 1]
    st = advance_to(st, "window:lose_actions", 1)
    st = ev(st, "pass", 1)
    assert st.turn.actions_left == 0


def test_net_volleyball_needs_universities():
    assert illegal_play(done(setup(hands={0: ["net_volleyball"]})), 0, "net_volleyball") == "requirement"


def test_red_tape_no_attempts_next_turn():
    st = setup(hands={0: ["red_tape"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    st = pass_all(play(done(st), 0, "red_tape", q=2))
    st = next_turn(st, 2)
    assert st.turn.no_attempts
    assert illegal_play(done(setup(hands={0: ["red_tape"]})), 0, "red_tape", q=2) == "requirement"


def test_bug_held_at_turn_start_one_action():
    st = setup(hands={0: ["bug"]})
    st = set_level(st, 0, GOVERNMENT, ROOT)
    st = done(st)
    assert st.turn.actions_left == 2 and actions_available(st) == 1
    st = pass_all(play(st, 0, "bug", q=1))  # the one action gives it away
    assert where(st, "bug") == ("hand", 1)
    assert actions_available(st) == 0


def test_overdraft_three_random_discards():
    st = setup(hands={0: ["overdraft"]})
    st = pass_all(play(done(st), 0, "overdraft", q=1))
    d = pending(st)
    assert d.kind == "chance:pick" and d.info["k"] == 3
    st = resolve_chance(st)
    assert st.hands[1] == []
    assert illegal_play(done(setup(hands={1: ["overdraft"]}, first=1)), 1, "overdraft", q=2) == "requirement"
    assert (NONE, ROOT, attempt, h, of_code) != ()
