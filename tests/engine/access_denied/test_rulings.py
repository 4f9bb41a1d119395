"""Rulings on unclear points of the rulebooks, one test each; docs/rules.md cites these names."""

from adp2p.engine.access_denied import apply, pending
from adp2p.engine.access_denied.flow import actions_available
from adp2p.engine.access_denied.rules import base_draws, has_bonus
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
    cid,
    done,
    empty_hand,
    ev,
    give,
    give_code,
    h,
    illegal,
    illegal_play,
    move,
    next_turn,
    of_code,
    pass_all,
    play,
    resolve_chance,
    set_level,
    setup,
    where,
)


def test_ruling_user_example_typo():
    st = setup(hands={0: ["B"]})
    st = attempt(st, 0, GOVERNMENT, of_code(st, 0, "B"))
    st = answer_honestly(pass_all(st))
    assert st.access[0][GOVERNMENT] == USER  # not Oper, as 000's example text says


def test_ruling_distinct_codes_profile():
    for profile, ok in (("classic", True), ("classic-de", False)):
        st = setup(hands={0: ["D"]}, profile=profile)
        st = set_level(give_code(st, 0, "D"), 0, GOVERNMENT, USER)
        ds = of_code(st, 0, "D")
        e = {"t": "attempt", "p": 0, "s": GOVERNMENT, "cards": ds[:2]}
        if ok:
            st = answer_honestly(pass_all(ev(st, "attempt", 0, s=GOVERNMENT, cards=ds[:2])))
            assert all(st.loc[x] == ("hand", 1) for x in ds[:2])  # D is not in A/B/C: both kept
        else:
            assert illegal(st, e) == "attempt_distinct"


def test_ruling_trade_declined_costs_action():
    st = done(setup())
    assert actions_available(st) == 1
    st = ev(st, "trade", 0, q=1, card=st.hands[0][0], promise=None)
    st = ev(st, "trade_reply", 1, accept=False, cards=[])
    assert st.turn.actions_taken == 1 and actions_available(st) == 0
    assert pending(st).kind == "discard"


def test_ruling_sector_traps_ignore_owner():
    # Logic Bomb and Packet Sniffer: the owner plays a card that requires the sector
    for trap in ("logic_bomb", "packet_sniffer"):
        st = setup(hands={0: [trap, "red_tape"]})
        st = set_level(set_level(st, 0, GOVERNMENT, USER), 0, MICRONOPOLY, ROOT)
        st = pass_all(play(done(st), 0, trap, s=GOVERNMENT))
        st = pass_all(play(st, 0, "red_tape", q=1))
        assert where(st, trap) == ("sec", GOVERNMENT)
        assert pending(st).kind != "chance:pick"
        assert len(st.hands[0]) == 1
    # Retro-Virus: its owner improves access to the sector
    st = setup(hands={0: ["retro_virus", "guru"]})
    st = set_level(set_level(st, 0, GOVERNMENT, USER), 0, MICRONOPOLY, ROOT)
    st = pass_all(play(done(st), 0, "retro_virus", s=GOVERNMENT))
    st = pass_all(play(st, 0, "guru", s=GOVERNMENT))
    assert st.access[0][GOVERNMENT] == OPER
    assert where(st, "retro_virus") == ("sec", GOVERNMENT)
    assert len(st.hands[0]) == 1


def test_ruling_traps_fire_when_cancelled():
    st = setup(hands={0: ["red_tape"], 1: ["cancelbot"], 2: ["logic_bomb"]}, first=2)
    st = set_level(set_level(st, 2, GOVERNMENT, USER), 0, GOVERNMENT, USER)
    st = pass_all(play(done(st), 2, "logic_bomb", s=GOVERNMENT))
    st = next_turn(st, 0)
    st = play(done(st), 0, "red_tape", q=2)
    assert pending(st).actor == 1
    st = pass_all(play(st, 1, "cancelbot"))
    assert not st.status[2].no_attempts_next  # cancelled
    assert where(st, "logic_bomb") == ("discard",)
    assert st.hands[0] == []  # but the bomb went off


def test_ruling_cancelbot_ends_turn():
    # CancelBot: P1 holds 5 cards over a limit of 1; no discard step, no draw step follow
    st = setup(hands={0: ["overdraft"], 1: ["cancelbot"]})
    st = give_code(st, 0, "A", 3)
    st = set_level(st, 1, BANKING, OPER)
    st = pass_all(play(play(done(st), 0, "overdraft", q=2), 1, "cancelbot"))
    assert len(st.hands[0]) == 5
    assert st.turn.player == 1 and not any(x.key in ("discards", "draws") and x.args["p"] == 0 for x in st.history)
    # Route Trace likewise
    st = setup(hands={0: ["D"], 2: ["route_trace"]})
    st = give_code(st, 0, "A", 3)
    st = set_level(st, 2, GOVERNMENT, OPER)
    st = advance_to(attempt(st, 0, GOVERNMENT, of_code(st, 0, "D")), "window:attempt", 2)
    st = pass_all(play(st, 2, "route_trace"))
    assert len(st.hands[0]) == 6
    assert st.turn.player == 1 and not any(x.key in ("discards", "draws") and x.args["p"] == 0 for x in st.history)


def test_ruling_guru_blocked_by_prohibitions():
    # Trojan Horse held at the start of the turn
    st = setup(hands={0: ["guru", "trojan_horse"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    assert illegal_play(done(st), 0, "guru", s=GOVERNMENT) == "target"
    # Whoops! Disconnect and Red Tape
    for key, lvl_sector in (("whoops", TELECOMM), ("red_tape", GOVERNMENT)):
        st = setup(hands={0: [key], 1: ["guru"]})
        st = set_level(set_level(st, 0, lvl_sector, USER), 1, BANKING, USER)
        st = pass_all(play(done(st), 0, key, q=1))
        st = next_turn(st, 1)
        assert illegal_play(done(st), 1, "guru", s=BANKING) == "target"
    # Guru is not an access attempt: no attempt window (Firewall, Route Trace)
    st = setup(hands={0: ["guru"], 1: ["firewall"], 2: ["route_trace"]})
    st = set_level(set_level(st, 0, GOVERNMENT, USER), 2, GOVERNMENT, OPER)
    st = play(done(st), 0, "guru", s=GOVERNMENT)
    d = pending(st)
    assert not (d.kind == "window" and d.info["window"] == "attempt")
    st = pass_all(st)
    assert st.access[0][GOVERNMENT] == OPER


def test_ruling_gain_user_unstoppable():
    st = setup(hands={0: ["warez", "mothers_maiden_name", "trojan_horse"], 1: ["cancelbot"],
                      2: ["counter_virus"]})
    st = set_level(set_level(st, 0, GOVERNMENT, ROOT), 1, MICRONOPOLY, OPER)  # 2 actions
    st = done(st)
    assert st.turn.no_attempts
    st = play(st, 0, "warez")
    assert pending(st).kind == "actions"  # no reaction window at all
    assert st.access[0][MICRONOPOLY] == USER
    st = play(st, 0, "mothers_maiden_name", s=NEWSMEDIA)
    assert st.access[0][NEWSMEDIA] == USER
    # only on a sector without access
    st2 = set_level(done(setup(hands={0: ["warez", "mothers_maiden_name"]})), 0, MICRONOPOLY, USER)
    assert illegal_play(st2, 0, "warez") == "target"
    assert illegal_play(st2, 0, "mothers_maiden_name", s=MICRONOPOLY) == "target"


def test_ruling_anti_virus_cancels_other_viruses():
    # S.A.T.A.N.
    st = setup(hands={0: ["satan_virus"], 1: ["anti_virus"]})
    st = set_level(st, 0, MICRONOPOLY, OPER)
    st = pass_all(play(play(done(st), 0, "satan_virus", s=MICRONOPOLY), 1, "anti_virus"))
    assert where(st, "satan_virus") == ("discard",) and has_bonus(st, 2, "hand_limit_plus2")
    # Retro-Virus
    st = setup(hands={0: ["retro_virus"], 1: ["anti_virus"]})
    st = pass_all(play(play(done(st), 0, "retro_virus", s=BANKING), 1, "anti_virus"))
    assert where(st, "retro_virus") == ("discard",) and not st.sector_cards.get(BANKING)
    # Multi-Virus: only the Anti-Virus player is protected
    st = setup(hands={0: ["multi_virus"], 1: ["anti_virus"]})
    st = set_level(set_level(st, 1, BANKING, USER), 2, BANKING, USER)
    st = pass_all(play(play(done(st), 0, "multi_virus", s=BANKING), 1, "anti_virus"))
    st = pass_all(st)
    assert len(st.hands[1]) == 2  # played Anti-Virus, kept the rest
    assert st.hands[2] == []


def test_ruling_ice_keeps_bonus_under_satan():
    st = setup(hands={0: ["satan_virus"], 2: ["ice"]}, pw={2: ["A", "B", "E"]}, first=2)
    st = set_level(st, 2, GOVERNMENT, USER)
    st = pass_all(play(done(st), 2, "ice"))
    st = next_turn(st, 0)
    st = set_level(set_level(st, 0, MICRONOPOLY, OPER), 0, BANKING, NONE)
    st = set_level(st, 0, BANKING, ROOT)
    st = pass_all(play(done(st), 0, "satan_virus", s=MICRONOPOLY))
    assert where(st, "satan_virus") == ("sec", MICRONOPOLY)
    assert has_bonus(st, 2, "hand_limit_plus2")
    # without ICE the same sector's bonus is gone (Banking's holder P1 is unaffected here)
    st = set_level(st, 1, MICRONOPOLY, NONE)
    assert has_bonus(st, 0, "extra_draw_capped")


def _backed_up(key, target, victim, setup_levels):
    st = setup(hands={0: [key], victim: ["backup"]})
    for p, s, lvl in setup_levels:
        st = set_level(st, p, s, lvl)
    st = play(done(st), 0, key, **target)
    st = advance_to(st, "window:lose_cards", victim)
    return pass_all(play(st, victim, "backup"))


def test_ruling_backup_covers_forced_takes():
    st = _backed_up("nsa", {"q": 2}, 2, [(0, GOVERNMENT, OPER)])
    assert len(st.hands[2]) == 2 and len(st.hands[0]) == 2
    assert all(st.known[x] & 1 for x in st.hands[2])  # the NSA player still saw the hand
    assert pending(st).kind != "nsa_take"
    st = _backed_up("olfactopeg", {}, 1, [(0, UNIVERSITIES, OPER)])
    # losses resolve in seat order: P2's Backup kept all of P2's cards, then P3 gives one at random
    assert len(st.hands[1]) == 2 and len(st.hands[0]) == 2
    d = pending(st)
    assert d is not None and d.kind == "chance:pick" and set(d.info["from"]) == set(st.hands[2])
    st = resolve_chance(st)
    assert len(st.hands[2]) == 2 and len(st.hands[0]) == 3
    st = _backed_up("human_services", {"q": 2}, 2, [(0, GOVERNMENT, OPER)])
    assert len(st.hands[2]) == 2 and pending(st).kind != "chance:pick"
    st = _backed_up("fdic", {"q": 1}, 1, [])
    assert len(st.hands[1]) == 2 and pending(st).kind != "fdic_give"
    st = _backed_up("overdraft", {"q": 1}, 1, [])
    assert len(st.hands[1]) == 2 and pending(st).kind != "chance:pick"


def test_ruling_press_pass_scope():
    def hit(key, extra=()):
        st = setup(hands={0: [key, *extra], 1: ["press_pass", "A"]})
        st = set_level(set_level(st, 0, NEWSMEDIA, OPER), 0, UNIVERSITIES, USER)
        st = set_level(set_level(st, 0, TELECOMM, OPER), 1, NEWSMEDIA, OPER)
        st = set_level(set_level(st, 1, TELECOMM, USER), 1, BANKING, ROOT)  # P2: two Roots
        st = set_level(st, 0, MICRONOPOLY, ROOT)
        return st

    for key, tgt in (("net_volleyball", {}), ("fifteen_minutes", {"q": 1}), ("line_spike", {"q": 1}),
                     ("spam", {"q": 1})):
        st = hit(key)
        st = play(done(st), 0, key, **tgt)
        if key == "spam":
            st = ev(ev(st, "spam_give", 0, cards=st.hands[0][:1]), "spam_give", 2, cards=[])
        st = advance_to(st, "window:lose_actions", 1)
        st = play(st, 1, "press_pass")
        st = pass_all(st)
        assert st.turn.player == 1 and st.turn.actions_left == 2, key
    # Burnout (needs an Over-Clock in front of P2)
    st = setup(hands={0: ["burnout"], 1: ["press_pass", "over_clock"]}, pw={1: ["A", "B", "F"]}, first=1)
    st = set_level(set_level(st, 1, MICRONOPOLY, USER), 1, NEWSMEDIA, OPER)
    st = pass_all(play(done(st), 1, "over_clock"))
    st = pass_all(play(done(next_turn(st, 0)), 0, "burnout", q=1))
    st = play(advance_to(st, "window:lose_actions", 1), 1, "press_pass")
    assert st.turn.actions_left == 1
    # TeleComm immunity against Fifteen Minutes; Bug and S.O.L. caps stay
    st = setup(hands={0: ["fifteen_minutes", "sol"], 1: ["bug"]})
    st = set_level(set_level(st, 0, NEWSMEDIA, USER), 0, TELECOMM, OPER)
    st = set_level(st, 0, GOVERNMENT, ROOT)
    st = pass_all(play(done(st), 0, "fifteen_minutes", q=1))
    st = set_level(next_turn(st, 1), 1, TELECOMM, ROOT)  # sole Root: immune to losing actions
    st = set_level(st, 0, TELECOMM, OPER)
    st = done(st)
    assert st.turn.protected and st.turn.actions_left == 2
    assert actions_available(st) == 1  # Bug still caps
    st = setup(hands={0: ["sol"], 1: ["press_pass"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "sol", q=1))
    st = done(set_level(next_turn(st, 1), 1, BANKING, ROOT))
    assert actions_available(st) == 1  # no lose_actions window; S.O.L. caps


def test_ruling_upgrade_immediate():
    for key, sector, code in (("dsl", TELECOMM, "C"), ("over_clock", MICRONOPOLY, "F")):
        st = setup(hands={0: [key]}, pw={0: ["A", "B", code] if code != "C" else ["A", "B", "C"]})
        st = set_level(st, 0, sector, USER)
        st = pass_all(play(done(st), 0, key))
        assert pending(st).kind == "actions" and actions_available(st) == 1, key


def test_ruling_backdoor_one_action():
    st = setup(hands={1: ["backdoor", "overdraft", "guru"], 0: ["cancelbot"]}, first=1)
    st = set_level(set_level(st, 1, MICRONOPOLY, ROOT), 0, BANKING, ROOT)
    st = done(st)
    assert actions_available(st) == 2
    st = play(st, 1, "overdraft", q=2, backdoor=True)
    assert st.turn.actions_taken == 1
    assert pending(st).actor == 0 and pending(st).info["window"] == "card"  # "requires" Banking
    st = pass_all(play(st, 0, "cancelbot"))
    assert len(st.hands[2]) == 3 and st.turn.player == 2


def test_ruling_wiretap_in_attempt_window():
    st = setup(hands={0: ["A", "D"], 2: ["wiretap"]})
    st = set_level(st, 2, GOVERNMENT, OPER)
    st = set_level(st, 0, GOVERNMENT, USER)
    hs = of_code(st, 0, "A") + of_code(st, 0, "D")
    st = attempt(st, 0, GOVERNMENT, hs)
    st = advance_to(st, "window:attempt", 2)
    assert all(st.loc[x] == ("att",) for x in hs)  # handed over
    st = pass_all(play(st, 2, "wiretap"))
    assert pending(st).kind == "answer"  # before the answer
    assert all(st.known[x] & 4 for x in hs)
    st = answer_honestly(st)
    assert st.loc[hs[0]] == ("hand", 0) and st.loc[hs[1]] == ("hand", 1)


def test_ruling_human_services_single_card():
    st = setup(hands={0: ["human_services"]})
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = move(st, st.hands[2][1:], "deck_bottom")  # P2 keeps one card
    only = st.hands[2][0]
    st = pass_all(play(done(st), 0, "human_services", q=2))
    st = resolve_chance(st)
    assert st.loc[only] == ("hand", 0)
    assert pending(st).kind != "hs_give"


def test_ruling_german_texts():
    # DSL: draws a card instead of an action
    st = setup(hands={0: ["dsl"]}, profile="classic-de")
    st = set_level(st, 0, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "dsl"))
    assert actions_available(st) == 0
    assert base_draws(st, 0) == 1 + 1 + 1  # Root Banking + Banking bonus + DSL
    # Revoke Login needs Root
    st = setup(hands={0: ["revoke_login"]}, profile="classic-de")
    st = set_level(set_level(st, 0, GOVERNMENT, OPER), 2, GOVERNMENT, USER)
    assert illegal_play(done(st), 0, "revoke_login", s=GOVERNMENT, q=2) == "target"
    st = set_level(st, 0, GOVERNMENT, ROOT)
    st = pass_all(play(done(st), 0, "revoke_login", s=GOVERNMENT, q=2))
    assert st.access[2][GOVERNMENT] == NONE
    # Easy Credit needs Oper or Root in Banking
    st = setup(hands={1: ["easy_credit"]}, profile="classic-de", first=1)
    st = advance_to(set_level(st, 1, BANKING, USER), "draw", 1)
    assert illegal_play(st, 1, "easy_credit") == "requirement"
    st = set_level(st, 1, BANKING, OPER)
    st = pass_all(play(st, 1, "easy_credit"))
    assert st.turn.draw_three and st.turn.draw_bonus == 0  # 001: three cards, not three more (R40)


def test_ruling_harmful_give_is_public():
    st = setup(hands={0: ["bug"]})
    x = h(st, "bug")
    assert st.known[x] == 1
    st = pass_all(play(done(st), 0, "bug", q=1))
    assert st.known[x] == 0b111


def test_ruling_satan_needs_oper():
    st = setup(hands={0: ["satan_virus"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    assert illegal_play(done(st), 0, "satan_virus", s=GOVERNMENT) == "target"
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = pass_all(play(done(st), 0, "satan_virus", s=GOVERNMENT))
    assert where(st, "satan_virus") == ("sec", GOVERNMENT)
    st = setup(hands={0: ["satan_virus"]})  # Root: its own sector
    st = pass_all(play(done(st), 0, "satan_virus", s=BANKING))
    assert where(st, "satan_virus") == ("sec", BANKING)
    assert give and UNIVERSITIES


def test_ruling_windows_follow_public_facts_only():
    """R24: who is asked in a reaction window depends on access levels and the card played, never on who
    holds which card: the same play asks the same players whatever their hands."""
    asked = []
    for hands in ({0: ["multi_virus"], 1: ["anti_virus"]}, {0: ["multi_virus"]}):
        st = setup(hands=hands)
        st = set_level(st, 1, BANKING, USER)
        st = play(done(st), 0, "multi_virus", s=BANKING)
        order = []
        d = pending(st)
        while d is not None and d.kind == "window" and d.info["window"] == "card":
            order.append(d.actor)
            st = apply(st, {"t": "pass", "p": d.actor})
            d = pending(st)
        asked.append(order)
    assert asked[0] == asked[1] == [1, 2]  # every other player, in seat order from the player's left


def test_ruling_card_without_effect_is_playable():
    """R26: a card may be played when it would do nothing (Multi-Virus on a sector nobody else has)."""
    st = setup(hands={0: ["multi_virus"]})
    before = [len(h) for h in st.hands]
    st = pass_all(play(done(st), 0, "multi_virus", s=0))
    assert where(st, "multi_virus") == ("discard",)
    assert [len(h) for h in st.hands] == [before[0] - 1, before[1], before[2]]


def test_ruling_universities_bonus_sets_off_retro_virus():
    """R30: the Universities bonus's automatic User access is an improvement of access ("succeeds in improving
    access", 000 Retro-Virus), as Free Checking's is: a Retro-Virus on that sector strikes."""
    perm = [BANKING, GOVERNMENT, UNIVERSITIES, MICRONOPOLY, NEWSMEDIA, TELECOMM]  # P2 controls Universities
    st = setup(hands={2: ["A", "B"], 1: ["retro_virus"]}, first=1, perm=perm)
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 1, "retro_virus", s=BANKING))
    assert where(st, "retro_virus") == ("sec", BANKING)
    st = next_turn(st, 1)
    st = next_turn(st, 2)
    assert st.turn is not None and st.turn.player == 2 and st.hands[2]
    st = pass_all(ev(st, "univ", 2, s=BANKING))
    assert st.access[2][BANKING] == USER
    assert st.hands[2] == [] and where(st, "retro_virus") == ("discard",)


def _at_turn_of_1(st):
    from adp2p.engine.access_denied.flow import turn_start_options

    st = next_turn(st, 1)
    return st, turn_start_options(st)


def test_ruling_direct_deposit_forbids_every_draw_worm_only_the_draw_step():
    """R31: Direct Deposit's victim "may not draw any cards" (000:809): no Draw Cards step, and neither the
    Government bonus's top discard nor NewsMedia's skip-and-draw (both draw cards); Worm (000:849) takes only the
    Draw Cards step."""
    from adp2p.engine.access_denied.rules import max_draw

    def base(extra: list[str]):
        st = setup(hands={0: ["direct_deposit", "A"], 1: extra})
        st = set_level(set_level(st, 0, BANKING, ROOT), 1, BANKING, USER)
        return set_level(set_level(st, 1, GOVERNMENT, ROOT), 1, NEWSMEDIA, ROOT)  # both bonuses are P1's

    st = pass_all(play(done(base([])), 0, "direct_deposit", q=1))
    assert st.discard  # (the Government bonus has a card to take)
    st, options = _at_turn_of_1(st)
    assert st.turn.no_draw_any and options == []
    st = empty_hand(st, 1)
    assert max_draw(st, 1) == 0

    st, options = _at_turn_of_1(done(base(["worm"])))  # Worm held at P1's turn start instead
    assert not st.turn.no_draw_any and st.turn.no_draw
    assert "news_skip" in options


def test_ruling_telecomm_bonus_buys_no_action_on_a_turn_without_actions():
    """R32: the retro2013 TeleComm bonus (002: "discard 2 cards from your hand to take 1 additional action") does
    not lift "may not take any actions" (000:833, Fifteen Minutes): no tele action is offered or accepted, so no
    attempt either."""
    from adp2p.engine.access_denied.flow import tele_bonus_open

    st = setup(3, "retro2013", perm=[TELECOMM, 1, 2, 3, 0, 5], hands={1: ["fifteen_minutes"]}, first=1)
    st = set_level(st, 1, NEWSMEDIA, USER)
    st = pass_all(play(done(st), 1, "fifteen_minutes", q=0))
    st = next_turn(st, 0)
    assert st.turn.player == 0 and st.turn.no_actions and len(st.hands[0]) >= 2
    assert has_bonus(st, 0, "discard2_for_action") and not tele_bonus_open(st)
    tele = {"t": "tele_action", "p": 0, "cards": st.hands[0][:2]}
    st = done(st) if pending(st).kind == "free" else st
    d = pending(st)
    assert not (d.kind == "actions" and d.actor == 0)  # the step is skipped: nothing to take
    assert illegal(st, tele) is not None


def test_ruling_good_day_and_easy_credit_in_one_draw_step():
    """R33: Good Day at the Market ("ignore your hand limit and draw 6 cards", 000:511) replaces the count of
    Oper/Root sectors by six; Easy Credit's "3 additional cards" (000:599), No eTaxes' 2 (000:709) and the other
    additional cards (the Banking bonus, upgrades) still add, the limit ignored, as with Easy Credit alone."""
    from adp2p.engine.access_denied.rules import max_draw

    st = setup(hands={0: ["good_day", "easy_credit"]})  # P0 controls Banking: its bonus adds 1
    st = set_level(st, 0, NEWSMEDIA, OPER)
    st = advance_to(st, "draw", 0)
    st = pass_all(play(st, 0, "good_day"))
    assert max_draw(st, 0) == 6 + 1
    st = pass_all(play(st, 0, "easy_credit"))
    assert max_draw(st, 0) == 6 + 1 + 3
    n = len(st.hands[0])
    st = ev(st, "draw", 0, n=10)
    assert len(st.hands[0]) == n + 10


def test_ruling_human_services_is_unplayable_with_two_players():
    """R34: Human Services gives one of the two cards taken "to a different player" (000:719); at a table of two
    there is none, so the card cannot be played there (it can still be held, traded, discarded)."""
    st = setup(2, "two-player", hands={0: ["human_services"]})
    st = set_level(done(st), 0, GOVERNMENT, OPER)
    assert st.hands[1]
    assert illegal_play(st, 0, "human_services", q=1) == "target"
    st3 = set_level(done(setup(hands={0: ["human_services"]})), 0, GOVERNMENT, OPER)  # three players: playable
    assert pending(play(st3, 0, "human_services", q=2)) is not None


def test_ruling_classic_de_route_trace_does_not_end_the_turn():
    """R35: in 001 Route Trace makes the attempt fail and the controller return every card ("Der Versuch schlägt
    fehl und der Kontrolleur muß alle Karten zurück geben", 001:524); unlike 000:533 the attacker's turn goes on."""
    for profile, ends in (("classic", True), ("classic-de", False)):
        st = setup(hands={0: ["D", "E"], 2: ["route_trace"]}, profile=profile)
        st = set_level(st, 2, GOVERNMENT, OPER)
        handed = of_code(st, 0, "D")[:1]
        st = pass_all(play(advance_to(attempt(st, 0, GOVERNMENT, handed), "window:attempt", 2), 2, "route_trace"))
        assert st.loc[handed[0]] == ("hand", 0) and st.access[0][GOVERNMENT] == NONE
        if ends:
            assert st.turn is None or st.turn.player != 0 or st.turn.ended
        else:
            d = pending(st)
            assert st.turn is not None and st.turn.player == 0 and not st.turn.ended
            assert d.actor == 0 and d.kind == "actions"


def test_ruling_classic_de_retro_virus_strikes_whoever_tries():
    """R36: 001's Retro-Virus strikes "the next player who tries to improve access here" after the attempt
    ("Der nächste Spieler, der versucht seinen Zugriff hier zu erhöhen", 001:605); 000:669 only one who succeeds."""
    for profile, strikes in (("classic", False), ("classic-de", True)):
        st = setup(hands={2: ["D", "E"], 1: ["retro_virus"]}, first=1, profile=profile, pw={0: ["A", "B", "C"]})
        st = set_level(st, 1, BANKING, USER)
        st = pass_all(play(done(st), 1, "retro_virus", s=BANKING))
        st = next_turn(next_turn(st, 1), 2)
        d_card = of_code(st, 2, "D")[:1]
        st = answer_honestly(pass_all(attempt(st, 2, BANKING, d_card)))
        st = pass_all(st)
        assert st.access[2][BANKING] == NONE  # D is not in A, B, C: denied
        if strikes:
            assert st.hands[2] == [] and where(st, "retro_virus") == ("discard",)
        else:
            assert st.hands[2] and where(st, "retro_virus") == ("sec", BANKING)


def test_ruling_classic_de_fbi_takes_any_upgrade_on_the_table():
    """R37: 001's FBI takes "1 Upgrade Karte, die auf dem Tisch liegt" (001:525), one's own too; 000:541 only
    "in front of another player"."""
    for profile, own_ok in (("classic", False), ("classic-de", True)):
        st = setup(hands={0: ["fbi", "ice"]}, pw={0: ["A", "B", "E"]}, profile=profile)
        st = set_level(st, 0, GOVERNMENT, ROOT)
        st = pass_all(play(done(st), 0, "ice"))
        if own_ok:
            st = pass_all(play(st, 0, "fbi", u=h(st, "ice")))
            assert where(st, "ice") == ("hand", 0)
        else:
            assert illegal_play(st, 0, "fbi", u=h(st, "ice")) == "target"


def test_ruling_classic_de_fifteen_minutes_on_any_player():
    """R38: 001's Fifteen Minutes is played "gegen einen beliebigen Spieler" (001:773), oneself included; 000:833
    "against any other player"."""
    for profile, self_ok in (("classic", False), ("classic-de", True)):
        st = set_level(done(setup(hands={0: ["fifteen_minutes"]}, profile=profile)), 0, NEWSMEDIA, USER)
        if self_ok:
            st = pass_all(play(st, 0, "fifteen_minutes", q=0))
            assert st.status[0].no_actions_next
        else:
            assert illegal_play(st, 0, "fifteen_minutes", q=0) == "target"


def test_ruling_classic_de_more_sectors_count_uncontrolled():
    """R39: with a goal of 4-6 Roots, 001 counts uncontrolled sectors "wie kontrollierte" (001:265) whatever the
    number of players; 000:305 only when the goal exceeds the number of players."""
    from adp2p.engine.access_denied.profiles import get_profile

    assert not get_profile("classic", goal=4).counts_uncontrolled(5)
    assert get_profile("classic-de", goal=4).counts_uncontrolled(5)
    assert not get_profile("classic-de").counts_uncontrolled(5)  # the base game: controlled sectors only


def test_ruling_classic_de_easy_credit_draws_three():
    """R40: 001's Easy Credit says "3 Karten zu ziehen" (001:547): three cards instead of the step's count, the
    limit ignored; 000:599 "3 additional cards" on top of it. Additional cards (the Banking bonus) still add."""
    from adp2p.engine.access_denied.rules import max_draw

    for profile, want in (("classic", 1 + 1 + 3), ("classic-de", 3 + 1)):
        st = setup(hands={0: ["easy_credit"]}, profile=profile)  # P0: Root in Banking (1 sector) and its bonus
        st = advance_to(st, "draw", 0)
        st = pass_all(play(st, 0, "easy_credit"))
        assert max_draw(st, 0) == want


# -- issue 33: the seeds' silences ------------------------------------------------------------------------------


def test_ruling_ice_holder_sets_off_a_retro_virus_unharmed():
    """R42: ICE ("ignore the effect of any virus played", 000:687) against Retro-Virus ("The next player who succeeds
    in improving access ... must discard all ... Then discard Retro-Virus", 000:669): the ICE holder who improves
    access keeps its cards, and the Retro-Virus is discarded all the same (its condition was met, 000:159)."""
    st = setup(hands={0: ["retro_virus"], 1: ["ice", "guru", "D"]}, pw={1: ["A", "B", "E"]})
    st = set_level(set_level(st, 1, BANKING, USER), 1, MICRONOPOLY, ROOT)  # (a second action for P2)
    st = pass_all(play(done(st), 0, "retro_virus", s=BANKING))
    assert where(st, "retro_virus") == ("sec", BANKING)
    st = done(next_turn(st, 1))
    st = pass_all(play(st, 1, "ice"))
    st = pass_all(play(st, 1, "guru", s=BANKING))
    assert st.access[1][BANKING] == OPER
    assert where(st, "retro_virus") == ("discard",)  # spent on the ICE holder
    assert len(st.hands[1]) == 1 and len(of_code(st, 1, "D")) == 1  # the ICE holder kept its last card
    st = setup(hands={0: ["retro_virus"], 1: ["guru", "D"]})  # without ICE: every card discarded
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 0, "retro_virus", s=BANKING))
    st = pass_all(play(done(next_turn(st, 1)), 1, "guru", s=BANKING))
    assert st.hands[1] == [] and where(st, "retro_virus") == ("discard",)


def test_ruling_firewall_or_route_trace_closes_the_attempt_window():
    """R43: the attempt's reaction window goes round in seat order from the attacker's left; Firewall (000:445) or
    Route Trace (000:533) settles the attempt and closes it, so the players after in seat order get no say in it
    (a Wiretap there would see no answer that depends on the password)."""
    for closer, key in ((1, "firewall"), (2, "route_trace")):
        st = setup(4, hands={0: ["A"], 1: ["firewall"], 2: ["route_trace"], 3: ["wiretap"]})
        st = set_level(set_level(st, 2, GOVERNMENT, OPER), 3, GOVERNMENT, OPER)
        x = of_code(st, 0, "A")[0]
        st = advance_to(attempt(st, 0, GOVERNMENT, [x]), "window:attempt", 1)
        if closer == 2:
            st = ev(st, "pass", 1)
        st = play(st, closer, key)
        seen = []
        while (d := pending(st)) is not None and d.kind == "window":
            seen.append((d.actor, d.info["window"]))
            st = ev(st, "pass", d.actor)
        assert (3, "attempt") not in seen and where(st, "wiretap") == ("hand", 3), key
        assert st.access[0][GOVERNMENT] == NONE, key
    # passing instead, the window reaches P4, who may Wiretap
    st = setup(4, hands={0: ["A"], 1: ["firewall"], 3: ["wiretap"]})
    st = set_level(st, 3, GOVERNMENT, OPER)
    st = advance_to(attempt(st, 0, GOVERNMENT, of_code(st, 0, "A")), "window:attempt", 3)
    assert pending(play(st, 3, "wiretap")) is not None


def test_ruling_bank_error_does_not_lift_bug_or_sol():
    """R44: Bank Error's "take 1 additional action" (000:407) under Bug ("you may take only 1 action", 000:783) or
    S.O.L. ("may not take more than 1 action per turn", 000:561): the cap stands; the cards are drawn."""
    st = setup(hands={0: ["bug", "bank_error"]})
    st = set_level(st, 0, GOVERNMENT, ROOT)  # two actions, capped to one by Bug
    st = done(st)
    n = len(st.hands[0])
    st = pass_all(play(st, 0, "bank_error"))
    assert len(st.hands[0]) == n - 1 + 3
    assert st.turn.actions_left == 2 and actions_available(st) == 0  # (Bug is hidden: its step still asks)
    trade = {"t": "trade", "p": 0, "q": 1, "card": st.hands[0][0], "promise": None}
    assert illegal(st, trade) == "no_actions"
    st = setup(hands={0: ["sol"], 1: ["bank_error"]})
    st = set_level(set_level(st, 0, TELECOMM, OPER), 1, TELECOMM, USER)
    st = pass_all(play(done(st), 0, "sol", q=1))
    st = set_level(set_level(next_turn(st, 1), 1, BANKING, OPER), 1, MICRONOPOLY, ROOT)
    st = done(st) if pending(st).kind == "free" else st
    assert actions_available(st) == 1  # S.O.L.: one action
    st = pass_all(play(st, 1, "bank_error"))
    assert actions_available(st) == 0 and pending(st).kind != "actions"  # (S.O.L. is public: the step is over)


def test_ruling_two_player_upgrade_code_from_either_password():
    """R45: an upgrade that needs a code in "your sector's password" (DSL, 000:469) at a table of two, where each
    player controls two sectors ("act as though you gained Root access to both", 002:293): a code in either of the
    player's two passwords meets it; in neither, it does not."""
    for pws, ok in (([["A", "B", "C"], ["D", "E", "F"]], True), ([["D", "E", "F"], ["A", "B", "C"]], True),
                    ([["A", "B", "D"], ["A", "E", "F"]], False)):
        st = setup(2, "two-player", pw={0: pws}, hands={0: ["dsl"]})
        st = set_level(done(st), 0, TELECOMM, USER)
        if ok:
            st = pass_all(play(st, 0, "dsl"))
            assert where(st, "dsl") == ("upg", 0)
        else:
            assert illegal_play(st, 0, "dsl") == "requirement_code"


def test_ruling_route_trace_on_an_uncontrolled_sector_returns_the_cards_to_the_attacker():
    """R46: Route Trace on an attempt to buy access to an uncontrolled sector (000:256, an "access attempt" at 000:265)
    by a player with Oper there: the attempt fails and the turn ends (000:533); the cards, given to no controller,
    go back to the attacker; only players with Oper or Root in that sector are asked."""
    st = setup(4, hands={0: ["A", "B"], 2: ["route_trace"]})  # 4 players: TeleComm and Universities uncontrolled
    st = set_level(st, 2, TELECOMM, OPER)
    paid = of_code(st, 0, "A") + of_code(st, 0, "B")
    st = attempt(st, 0, TELECOMM, paid)
    d = pending(st)
    assert d.kind == "window" and d.actor == 2  # P2 and P4 have no Oper in TeleComm: not asked
    st = pass_all(play(st, 2, "route_trace"))
    assert all(st.loc[x] == ("hand", 0) for x in paid)
    assert st.access[0][TELECOMM] == NONE
    assert st.turn.player == 1  # the turn ended


def test_ruling_classic_de_top_discard_is_seen_by_all():
    """R47: 001:167 drops 000:181's "Except for the top card on the discard pile" ("Der Ablagestapel darf nicht
    durchsucht werden"). Every profile plays 000: a discard lies face up (001:167 "mit dem Bild nach oben"), so its
    face is public, and the Government bonus takes the top card by sight (001:241)."""
    from adp2p.engine.access_denied.flow import discard_needed

    st = setup(profile="classic-de", hands={0: ["firewall"]})
    st = advance_to(st, "discard", 0)
    x = h(st, "firewall")
    rest = [y for y in st.hands[0] if y != x][: max(0, discard_needed(st, 0) - 1)]
    st = ev(st, "discard", 0, cards=[*rest, x])  # the Firewall last: on top
    top = st.discard[-1]
    from adp2p.engine.access_denied import legal, view

    assert all(view(st, p).face(top, p) == cid("firewall") for p in range(3))
    st = advance_to(st, "turn_start", 1)
    assert {"t": "gov_draw", "p": 1} in legal(view(st, 1), 1)
    st = ev(st, "gov_draw", 1)
    assert where(st, "firewall") == ("hand", 1)
