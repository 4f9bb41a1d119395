"""Turn structure: actions counted at the start of the actions step, password draws, reshuffles,
harmful cards held at the start of the turn, and refused events leaving the state unchanged."""

from adp2p.engine.access_denied import IllegalEvent, apply, card, get_profile, learn, new_game, pending
from adp2p.engine.access_denied.catalog import card_by_key
from adp2p.engine.access_denied.flow import actions_available
from adp2p.engine.access_denied.rules import max_draw
from harness import (
    GOVERNMENT,
    MICRONOPOLY,
    OPER,
    ROOT,
    USER,
    advance_to,
    answer_honestly,
    attempt,
    done,
    empty_hand,
    ev,
    give,
    h,
    illegal,
    move,
    of_code,
    pass_all,
    set_level,
    setup,
    snapshot,
)


def test_actions_fixed_at_start_of_actions_step():
    st = setup(3, hands={0: ["A", "B", "C"]})
    st = set_level(set_level(st, 0, GOVERNMENT, ROOT), 0, MICRONOPOLY, OPER)
    st = done(st)
    assert actions_available(st) == 2
    hs = of_code(st, 0, "A") + of_code(st, 0, "B") + of_code(st, 0, "C")
    st = set_level(st, 0, GOVERNMENT, OPER)  # keep the game going: 1 controlled Root before the attempt
    st = answer_honestly(pass_all(attempt(st, 0, MICRONOPOLY, hs)))
    assert st.access[0][MICRONOPOLY] == ROOT
    assert actions_available(st) == 1  # gaining Root mid-step adds no action


def test_free_attempt_gains_root_before_actions_count():
    st = setup(3, hands={0: ["A", "B", "C"]})
    st = set_level(st, 0, MICRONOPOLY, OPER)
    hs = of_code(st, 0, "A") + of_code(st, 0, "B") + of_code(st, 0, "C")
    st = answer_honestly(pass_all(attempt(st, 0, MICRONOPOLY, hs)))
    st = advance_to(st, "actions", 0)
    assert actions_available(st) == 2


def test_draw_until_a_password_can_be_formed():
    prof = get_profile("classic")
    st = new_game(prof, 3)
    st = apply(st, {"t": "sectors", "perm": [0, 1, 2, 3, 4, 5]})
    st = apply(st, {"t": "shuffle"})
    # P1 is dealt six F cards, the next card in the deck is an A
    fs = [c for c in range(63) if card(c).code == card_by_key("warez").code]
    others = [c for c in range(63) if c not in fs]
    order = []
    for i in range(6):
        order += [fs[i], others[2 * i], others[2 * i + 1]]
    order += [c for c in others[12:]] + fs[6:]
    st = learn(st, dict(enumerate(order)))
    assert illegal(st, {"t": "password", "p": 0, "s": 0, "cards": st.hands[0][:3]}) == "password_distinct"
    st = apply(st, {"t": "password_draw", "p": 0})
    assert len(st.hands[0]) == 7 and pending(st).kind == "password"
    while len({card(st.faces[x]).code for x in st.hands[0]}) < 3:
        st = apply(st, {"t": "password_draw", "p": 0})
    assert illegal(st, {"t": "password_draw", "p": 0}) == "password_draw"
    pick = {card(st.faces[x]).code: x for x in st.hands[0]}
    st = apply(st, {"t": "password", "p": 0, "s": 0, "cards": list(pick.values())[:3]})
    assert len(st.passwords[0]) == 3


def test_deck_exhaustion_reshuffles_discards_into_new_handles():
    st = advance_to(setup(3), "draw", 0)
    st = empty_hand(st, 0)
    moved = list(st.discard) + list(st.deck)
    st = move(st, list(st.deck), "discard")  # every deck card onto the discard pile
    assert max_draw(st, 0) == 1
    st = ev(st, "draw", 0, n=1)
    d = pending(st)
    assert d.kind == "chance:shuffle" and d.info["size"] == len(moved)
    first = st.next_handle
    st = apply(st, {"t": "shuffle"})
    assert all(st.loc[x] == ("gone",) for x in moved)
    assert st.hands[0] and st.hands[0][0] >= first and st.discard == []


def test_trojan_horse_held_blocks_attempts_and_free_step():
    st = setup(3, hands={0: ["trojan_horse", "A"]})
    assert st.turn.no_attempts
    e = {"t": "attempt", "p": 0, "s": GOVERNMENT, "cards": of_code(st, 0, "A")}
    assert illegal(st, e) == "no_attempts"


def test_bug_held_caps_actions_to_one():
    st = done(set_level(setup(3, hands={0: ["bug"]}), 0, GOVERNMENT, ROOT))
    assert actions_available(st) == 1


def test_worm_held_no_draw_even_after_giving_it_away():
    st = setup(3, hands={0: ["worm"]})
    st = done(st)
    st = pass_all(ev(st, "play", 0, card=h(st, "worm"), face=card_by_key("worm").id, q=1))
    st = advance_to(st, "draw", 0)
    assert max_draw(st, 0) == 0


def test_illegal_events_name_the_rule_and_leave_state_unchanged():
    st = setup(3, hands={0: ["A"]})
    before = snapshot(st)
    cases = [
        ({"t": "attempt", "p": 1, "s": 0, "cards": st.hands[1][:1]}, "not_your_turn"),
        ({"t": "attempt", "p": 0, "s": 0, "cards": st.hands[0][:1]}, "attempt_own"),
        ({"t": "attempt", "p": 0, "s": GOVERNMENT, "cards": st.hands[0][:2]}, "attempt_count"),
        ({"t": "attempt", "p": 0, "s": GOVERNMENT, "cards": st.hands[1][:1]}, "attempt_from_hand"),
        ({"t": "draw", "p": 0, "n": 1}, "unexpected_event"),
        ({"t": "shuffle"}, "not_your_turn"),
        ({"x": 1}, "malformed"),
    ]
    for e, rule in cases:
        try:
            apply(st, e)
        except IllegalEvent as err:
            assert err.rule == rule, (e, err.rule)
        else:
            raise AssertionError(e)
        assert snapshot(st) == before
    assert give and USER and OPER
