"""Code B cards: effect and requirement / timing of each."""

from adp2p.engine.access_denied import pending
from adp2p.engine.access_denied.rules import hand_limit, limit_ignored
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    NONE,
    OPER,
    ROOT,
    UNIVERSITIES,
    USER,
    advance_to,
    answer_honestly,
    attempt,
    done,
    empty_hand,
    ev,
    give,
    h,
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


def test_high_system_hand_limit_plus_two():
    st = setup(hands={0: ["high_system"]}, pw={0: ["A", "B", "C"]})
    before = hand_limit(st, 0)
    st = play(done(st), 0, "high_system")
    st = pass_all(st)
    assert where(st, "high_system") == ("upg", 0)
    assert hand_limit(st, 0) == before + 2


def test_high_system_needs_code_b():
    st = done(setup(hands={0: ["high_system"]}, pw={0: ["A", "C", "D"]}))
    assert illegal_play(st, 0, "high_system") == "requirement_code"


def test_high_system_needs_banking_access():
    st = done(setup(hands={1: ["high_system"]}, first=1))
    assert illegal_play(st, 1, "high_system") == "requirement"


def test_bank_error_draws_three_and_gives_an_action():
    st = setup(hands={0: ["bank_error"]})
    st = set_level(st, 0, BANKING, ROOT)
    st = play(done(st), 0, "bank_error")
    st = pass_all(st)
    assert len(st.hands[0]) == 2 + 3
    assert st.turn.actions_left == 1
    assert limit_ignored(st, 0)
    assert pending(st).kind == "actions"


def test_bank_error_needs_oper_in_banking():
    st = done(setup(hands={1: ["bank_error"]}, first=1))
    st = set_level(st, 1, BANKING, USER)
    assert illegal_play(st, 1, "bank_error") == "requirement"


def test_revoke_login_removes_user_marker():
    st = setup(hands={0: ["revoke_login"]})
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 0, "revoke_login", s=BANKING, q=1))
    assert st.access[1][BANKING] == NONE


def test_revoke_login_only_user_markers_and_needs_oper():
    st = setup(hands={0: ["revoke_login"]})
    st = set_level(set_level(st, 1, BANKING, OPER), 2, GOVERNMENT, USER)
    st = set_level(st, 0, GOVERNMENT, USER)
    st = done(st)
    assert illegal_play(st, 0, "revoke_login", s=BANKING, q=1) == "target"
    assert illegal_play(st, 0, "revoke_login", s=GOVERNMENT, q=2) == "target"


def test_anti_virus_cancels_a_virus():
    st = setup(hands={0: ["satan_virus"], 2: ["anti_virus"]})
    st = set_level(st, 0, MICRONOPOLY, OPER)
    st = play(done(st), 0, "satan_virus", s=MICRONOPOLY)
    assert pending(st).actor == 1
    st = ev(st, "pass", 1)
    assert pending(st).actor == 2
    st = pass_all(play(st, 2, "anti_virus"))
    assert where(st, "satan_virus") == ("discard",)
    assert st.sector_cards.get(MICRONOPOLY, []) == []


def test_anti_virus_only_on_viruses():
    st = setup(hands={0: ["fdic"], 1: ["anti_virus"]})
    st = set_level(set_level(st, 0, BANKING, ROOT), 1, BANKING, OPER)
    st = play(done(st), 0, "fdic", q=1)
    assert pending(st).actor == 1 and pending(st).info["window"] == "card"
    assert illegal_play(st, 1, "anti_virus") == "reaction_timing"


def test_multi_virus_others_with_access_discard_all():
    st = setup(hands={0: ["multi_virus"]})
    st = set_level(st, 1, BANKING, USER)
    st = pass_all(play(done(st), 0, "multi_virus", s=BANKING))
    st = pass_all(st)  # P1's Backup window
    assert st.hands[1] == []
    assert len(st.hands[2]) == 3  # no Banking access
    assert len(st.hands[0]) == 2  # the player is not hit


def test_multi_virus_needs_access_to_the_sector():
    st = done(setup(hands={0: ["multi_virus"]}))
    assert illegal_play(st, 0, "multi_virus", s=GOVERNMENT) == "target"


def test_packet_sniffer_next_requiring_card_shows_code():
    st = setup(hands={0: ["packet_sniffer"], 1: ["red_tape"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    st = pass_all(play(done(st), 0, "packet_sniffer", s=GOVERNMENT))
    assert where(st, "packet_sniffer") == ("sec", GOVERNMENT)
    st = next_turn(st, 1)
    st = play(done(st), 1, "red_tape", q=2)
    st = pass_all(st)
    d = pending(st)
    assert d.kind == "chance:pick" and sorted(d.info["from"]) == sorted(st.passwords[GOVERNMENT])
    x = st.passwords[GOVERNMENT][0]
    st = resolve_chance(st, [x])
    assert st.known[x] & 1
    assert where(st, "packet_sniffer") == ("discard",)


def test_packet_sniffer_needs_access():
    st = done(setup(hands={0: ["packet_sniffer"]}))
    assert illegal_play(st, 0, "packet_sniffer", s=GOVERNMENT) == "target"


def _attempt_on_gov(firewall: bool):
    st = setup(hands={0: ["A"], 1: ["firewall"]})
    st = attempt(st, 0, GOVERNMENT, of_code(st, 0, "A")[:1])
    return st


def test_firewall_keeps_cards_and_denies():
    st = _attempt_on_gov(True)
    a = of_code(st, 0, "A")
    assert pending(st).actor == 1 and pending(st).info["window"] == "attempt"
    handed = pending(st).info["ctx"]["cards"]
    st = pass_all(play(st, 1, "firewall"))
    assert st.access[0][GOVERNMENT] == NONE
    assert all(st.loc[x] == ("hand", 1) for x in handed)
    assert a == []


def test_firewall_only_for_the_controller():
    st = setup(hands={0: ["A"], 2: ["firewall"]})
    st = attempt(st, 0, GOVERNMENT, of_code(st, 0, "A")[:1])
    st = advance_to(st, "window:attempt", 2)
    assert illegal_play(st, 2, "firewall") == "reaction_timing"
    st2 = done(setup(hands={1: ["firewall"]}, first=1))
    assert illegal_play(st2, 1, "firewall") == "reaction_timing"


def test_logic_bomb_next_requiring_card_discards_all():
    st = setup(hands={0: ["logic_bomb"], 1: ["red_tape"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    st = pass_all(play(done(st), 0, "logic_bomb", s=GOVERNMENT))
    st = next_turn(st, 1)
    st = play(done(st), 1, "red_tape", q=2)
    st = pass_all(st)
    assert st.hands[1] == []
    assert where(st, "logic_bomb") == ("discard",)
    assert st.status[2].no_attempts_next  # Red Tape itself still resolved


def test_logic_bomb_needs_access():
    st = done(setup(hands={0: ["logic_bomb"]}))
    assert illegal_play(st, 0, "logic_bomb", s=GOVERNMENT) == "target"


def test_olfactopeg_every_player_gives_a_random_card():
    st = setup(hands={0: ["olfactopeg"]})
    st = set_level(st, 0, UNIVERSITIES, OPER)
    st = pass_all(play(done(st), 0, "olfactopeg"))
    got = []
    for _ in range(2):
        st = pass_all(st)
        d = pending(st)
        assert d.kind == "chance:pick" and d.info["k"] == 1
        got.append(d.info["from"][0])
        st = resolve_chance(st)
    assert all(st.loc[x] == ("hand", 0) for x in got)
    assert len(st.hands[1]) == 2 and len(st.hands[2]) == 2
    assert limit_ignored(st, 0)


def test_olfactopeg_needs_oper_in_universities():
    st = set_level(done(setup(hands={0: ["olfactopeg"]})), 0, UNIVERSITIES, USER)
    assert illegal_play(st, 0, "olfactopeg") == "requirement"


def test_olfactopeg_skips_empty_hands():
    st = setup(hands={0: ["olfactopeg"]})
    st = empty_hand(set_level(st, 0, UNIVERSITIES, OPER), 1)
    st = pass_all(play(done(st), 0, "olfactopeg"))
    st = pass_all(st)
    d = pending(st)
    assert d.kind == "chance:pick" and all(st.loc[x] == ("hand", 2) for x in d.info["from"])
    assert give and h and answer_honestly
