"""A game ended by the standings (round limit, stalemate) says when a tie-break decided it (before: the winner was
named with no word that others were level on Roots): level on Roots, the most Opers decide; level on Roots and
Opers, the most Users; level on all three, a shared win. In both languages."""

from __future__ import annotations

import pytest
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.narration import text
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.sim import play_game


@pytest.mark.parametrize(("seed", "key", "en", "de"), [
    (2, "tie_break_oper", "are level on Root accesses (1); the most Oper accesses (1) decide",
     "haben gleich viele Root-Zugänge (1); die meisten Oper-Zugänge (1) entscheiden"),
    (13, "tie_break_user", "are level on Root and Oper accesses (1, 1); the most User accesses (1) decide",
     "haben gleich viele Root- und Oper-Zugänge (1, 1); die meisten User-Zugänge (1) entscheiden"),
    (3, "tie_shared", "are level on Root, Oper and User accesses (2, 0, 1): they share the win",
     "haben gleich viele Root-, Oper- und User-Zugänge (2, 0, 1): sie teilen den Sieg"),
])
def test_a_tie_break_at_the_round_limit_says_so(seed: int, key: str, en: str, de: str) -> None:
    prof = get_profile("classic", round_limit=3)
    st = play_game(prof, [make_bot("deduction", seed * 10 + i) for i in range(3)], seed).state
    assert st.over and st.end_reason is not None and st.end_reason.key == "round_limit"
    said = [h for h in st.history if getattr(h, "key", None) == key]
    assert len(said) == 1 and st.history.index(said[0]) == len(st.history) - 2  # just before "Game over"
    assert en in text(said[0], "en", None) and de in text(said[0], "de", None)
    assert said[0].args["players"] == st.winners
