"""The worked examples of rulebook 000, as tests."""

from adp2p.engine.access_denied import get_profile, new_game, pending, result
from adp2p.engine.access_denied.rules import hand_limit, max_draw
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
    answer_honestly,
    attempt,
    done,
    empty_hand,
    ev,
    give,
    give_code,
    illegal,
    of_code,
    pass_all,
    set_level,
    setup,
)

# NewsMedia (sector 3) is controlled by P4 in a 4-player game with password A/B/C.


def _news(hands0):
    st = setup(4, hands={0: hands0}, pw={3: ["A", "B", "C"]})
    return st


def test_oper_attempt_a_b_granted_both_returned():
    st = set_level(_news(["A", "B"]), 0, NEWSMEDIA, USER)
    hs = of_code(st, 0, "A") + of_code(st, 0, "B")
    st = answer_honestly(pass_all(attempt(st, 0, NEWSMEDIA, hs)))
    assert st.access[0][NEWSMEDIA] == OPER
    assert all(st.loc[x] == ("hand", 0) for x in hs)


def test_oper_attempt_c_d_denied_c_returned_d_kept():
    st = set_level(_news(["C", "D"]), 0, NEWSMEDIA, USER)
    c, d = of_code(st, 0, "C")[0], of_code(st, 0, "D")[0]
    st = answer_honestly(pass_all(attempt(st, 0, NEWSMEDIA, [c, d])))
    assert st.access[0][NEWSMEDIA] == USER
    assert st.loc[c] == ("hand", 0) and st.loc[d] == ("hand", 3)


def test_user_attempt_b_granted():
    st = _news(["B"])
    st = answer_honestly(pass_all(attempt(st, 0, NEWSMEDIA, of_code(st, 0, "B"))))
    assert st.access[0][NEWSMEDIA] == USER


def test_root_attempt_a_b_c_granted():
    st = set_level(_news(["A", "B", "C"]), 0, NEWSMEDIA, OPER)
    hs = of_code(st, 0, "A") + of_code(st, 0, "B") + of_code(st, 0, "C")
    st = answer_honestly(pass_all(attempt(st, 0, NEWSMEDIA, hs)))
    assert st.access[0][NEWSMEDIA] == ROOT


def test_wrong_answer_is_refused():
    st = pass_all(attempt(_news(["B"]), 0, NEWSMEDIA, of_code(_news(["B"]), 0, "B")))
    assert illegal(st, {"t": "answer", "p": 3, "match": [False]}) == "controller_answer"


def test_hand_limit_example():
    st = setup(3, perm=[UNIVERSITIES, 0, 1, 2, 3, 4])  # P1 controls Universities
    st = set_level(st, 0, TELECOMM, USER)
    assert hand_limit(st, 0) == 2


def test_draw_example():
    st = setup(3, perm=[BANKING, GOVERNMENT, TELECOMM, NEWSMEDIA, MICRONOPOLY, UNIVERSITIES])
    st = set_level(set_level(st, 0, MICRONOPOLY, OPER), 0, UNIVERSITIES, USER)
    st = advance_to(st, "draw", 0)
    st = empty_hand(st, 0)
    # Banking's bonus would add 1: this example is about the base rule, so P2 shares Root in Banking
    st = set_level(st, 1, BANKING, ROOT)
    assert max_draw(st, 0) == 2
    st = give_code(st, 0, "A", 2)
    assert max_draw(st, 0) == 1


def test_discard_example():
    st = setup(3)
    st = set_level(st, 0, GOVERNMENT, USER)  # limit 2
    st = advance_to(st, "discard", 0)
    assert len(st.hands[0]) == 3
    assert illegal(st, {"t": "discard", "p": 0, "cards": []}) == "hand_limit"
    assert pending(ev(st, "discard", 0, cards=st.hands[0][:1])).kind == "draw"
    after = ev(st, "discard", 0, cards=list(st.hands[0]))
    assert after.hands[0] == [] or after.turn is None or len(after.hands[0]) <= hand_limit(after, 0)


def test_nine_cards_to_root_an_uncontrolled_sector():
    st = setup(3)
    st = give_code(st, 0, "D", 6)
    st = give_code(st, 0, "E", 3)  # 3 + 9 cards
    st = set_level(st, 0, GOVERNMENT, ROOT)  # the free attempt + 2 actions
    n0 = len(st.hands[0])
    for level, k in ((USER, 2), (OPER, 3), (ROOT, 4)):
        st = advance_to(st, "actions", 0) if pending(st).kind != "free" else st
        assert illegal(st, {"t": "attempt", "p": 0, "s": NEWSMEDIA, "cards": st.hands[0][: k - 1]}) == \
            "attempt_count"
        st = pass_all(attempt(st, 0, NEWSMEDIA, st.hands[0][:k]))
        assert st.access[0][NEWSMEDIA] == level
    assert len(st.hands[0]) == n0 - 9


def test_controller_keeps_cards_above_its_hand_limit():
    st = setup(3, hands={0: ["D", "E", "F"]})
    hs = of_code(st, 0, "D") + of_code(st, 0, "E") + of_code(st, 0, "F")
    st = set_level(set_level(st, 0, GOVERNMENT, OPER), 0, MICRONOPOLY, ROOT)
    st = answer_honestly(pass_all(attempt(st, 0, GOVERNMENT, hs)))
    assert len(st.hands[1]) == 6 > hand_limit(st, 1)
    assert all(st.loc[x] == ("hand", 1) for x in hs)


def test_win_the_moment_the_third_root_is_reached():
    st = setup(3, hands={0: ["A", "B", "C"]})
    st = set_level(set_level(st, 0, GOVERNMENT, ROOT), 0, MICRONOPOLY, OPER)
    hs = of_code(st, 0, "A") + of_code(st, 0, "B") + of_code(st, 0, "C")
    st = answer_honestly(pass_all(attempt(st, 0, MICRONOPOLY, hs)))
    assert st.over and st.winners == [0] and pending(st) is None


def test_uncontrolled_root_does_not_count_for_three():
    st = setup(3)
    st = set_level(set_level(st, 0, GOVERNMENT, ROOT), 0, NEWSMEDIA, ROOT)
    st = set_level(st, 0, TELECOMM, OPER)
    st = give_code(st, 0, "D", 4)
    st = pass_all(attempt(st, 0, TELECOMM, st.hands[0][:4]))  # a real Root, the win checked
    assert st.access[0][TELECOMM] == ROOT and not st.over
    st4 = setup(3, goal=4)
    st4 = set_level(set_level(st4, 0, GOVERNMENT, ROOT), 0, NEWSMEDIA, ROOT)
    st4 = set_level(st4, 0, TELECOMM, OPER)
    st4 = give_code(st4, 0, "D", 4)
    st4 = pass_all(attempt(st4, 0, TELECOMM, st4.hands[0][:4]))
    assert st4.over and st4.winners == [0]


def test_round_limit_tie_breaks():
    st = setup(3, round_limit=1)
    st = set_level(set_level(st, 1, GOVERNMENT, ROOT), 1, BANKING, OPER)
    st = set_level(st, 2, BANKING, OPER)
    st = set_level(st, 2, NEWSMEDIA, USER)
    st = set_level(st, 0, NEWSMEDIA, OPER)
    for _ in range(200):
        if pending(st) is None:
            break
        st = _step(st)
    r = result(st)
    assert st.over and r.winners == [2]  # 1 Root and 1 Oper each; only P3 also has a User
    assert r.standings[2] == (1, 1, 1)


def _step(st):
    from adp2p.engine.access_denied import apply
    from harness import _default
    return apply(st, _default(st))


def test_round_limit_profile_value():
    assert get_profile("classic", round_limit=5).round_limit == 5
    assert new_game(get_profile("classic"), 3).round_no == 0
    assert give and done
