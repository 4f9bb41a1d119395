"""The stalemate table rule (docs/rules.md "Table rules", T1): after `stalemate_rounds` whole rounds in which nobody's
access changed, the game ends as at the round limit (most Roots, then Opers, then Users; a tie is shared)."""

from __future__ import annotations

import pytest
from adp2p.engine.access_denied import apply, get_profile, pending, result
from adp2p.engine.access_denied.catalog import OPER, USER
from adp2p.engine.access_denied.narration import text
from adp2p.engine.access_denied.rules import BANKING, MICRONOPOLY
from harness import _default, attempt, give_code, pass_all, set_level, setup


def _idle(st, limit: int = 2000):  # type: ignore[no-untyped-def]
    """Default choices (begin, done, pass, draw nothing, minimum discards) until the game ends."""
    for _ in range(limit):
        if pending(st) is None:
            return st
        st = apply(st, _default(st))
    raise AssertionError("the game never ended")


def test_rounds_without_an_access_change_end_the_game_by_standings() -> None:
    st = setup(3, stalemate_rounds=2)
    st = set_level(st, 1, BANKING, OPER)
    st = set_level(st, 2, MICRONOPOLY, USER)
    st = _idle(st)
    r = result(st)
    assert r.reason is not None and r.reason.key == "stalemate"
    assert r.winners == [1]  # a Root each (its own sector); only P2 also has an Oper
    assert st.round_no == 2  # it ends as the third round begins: two whole rounds went by with no change
    assert text(r.reason, "de", None).startswith("Patt")


def test_an_access_change_starts_the_count_again() -> None:
    st = setup(3, stalemate_rounds=2)
    st = give_code(st, 0, "A", 2)
    # P1 buys User access to an uncontrolled sector (3..5, with three players) in round 0: the count starts there
    st = pass_all(attempt(st, 0, 3, st.hands[0][:2]))
    assert st.access[0][3] == USER and st.changed_round == 0
    st = _idle(st)
    assert result(st).reason.key == "stalemate"  # type: ignore[union-attr]
    assert st.round_no == 2
    st2 = setup(3, stalemate_rounds=2)
    st2 = _idle_until_round(st2, 1)
    st2 = give_code(st2, st2.active, "A", 2)
    st2 = pass_all(attempt(st2, st2.active, 3, st2.hands[st2.active][:2]))  # a change in round 1
    assert st2.changed_round == 1
    st2 = _idle(st2)
    assert result(st2).reason.key == "stalemate" and st2.round_no == 3  # type: ignore[union-attr]


def _idle_until_round(st, n: int):  # type: ignore[no-untyped-def]
    while st.round_no < n or pending(st).kind != "free":  # type: ignore[union-attr]
        st = apply(st, _default(st))
    return st


def test_without_the_rule_idle_rounds_go_on() -> None:
    st = setup(3, round_limit=6)
    st = _idle(st)
    assert result(st).reason.key == "round_limit" and st.round_no == 6  # type: ignore[union-attr]


def test_the_profile_says_it_and_checks_it() -> None:
    prof = get_profile("classic", stalemate_rounds=12)
    assert "stalemate after 12 idle rounds" in prof.describe()
    assert "Patt nach 12 Runden" in prof.describe("de")
    with pytest.raises(ValueError, match="at least 1 round"):
        get_profile("classic", stalemate_rounds=0)
