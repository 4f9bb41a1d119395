"""Multi-game mode (003 "Multi-Game Mode"; C-MATCH)."""

import pytest
from adp2p.engine.classified.api import Result
from adp2p.engine.classified.match import Match


def _r(winners):
    return Result(winners, "guards" if winners else "tie", [False, False], [0, 0])


def test_best_of_three_ends_at_two_wins():
    m = Match(3)
    m.record(_r([0])).record(_r([1]))
    assert not m.over
    m.record(_r([1]))
    assert m.over and m.winners == [1]
    with pytest.raises(ValueError):
        m.record(_r([0]))


def test_c_match_ties_count_for_nobody_and_a_cap_ends_it():
    m = Match(5)
    for _ in range(9):
        m.record(_r([]))
    assert not m.over
    m.record(_r([0]))
    assert m.over and m.winners == [0]  # ten games played: more wins win
    m = Match(3)
    for w in ([0], [1], [], [], [], []):
        m.record(_r(w))
    assert m.over and m.winners == []


def test_only_three_or_five():
    with pytest.raises(ValueError):
        Match(4)
