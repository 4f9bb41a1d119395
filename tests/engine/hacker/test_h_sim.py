"""`ad-p2p sim --game hacker` and the simulator's figures; Access Denied stays the default game."""

from __future__ import annotations

import json

import pytest
from adp2p.cli.main import main
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.sim import play_game, simulate


def test_simulate_counts_every_game_and_the_planner_beats_random() -> None:
    out = simulate(get_profile("basic"), 3, 12, ["random", "planner"], 1)
    assert out["unfinished"] == 0 and out["games"] == 12
    assert sum(out["wins_by_strategy"].values()) >= 12 - out["ended_by_round_limit"]
    rates = out["win_rate_per_seat_by_strategy"]
    assert rates["planner"] > rates["random"]


def test_planner_games_end_by_codes() -> None:
    for seed in range(5):
        st = play_game(get_profile("basic"), [make_bot("planner", seed * 7 + i) for i in range(6)], seed).state
        assert st.over and st.end_reason == "codes" and all(st.codes(w) >= 4 for w in st.winners)


@pytest.mark.parametrize("players", [3, 4])
def test_closed_departments_are_winnable(players: int) -> None:
    """H-CLOSEDGOAL (004:24): with as many departments as players there are only that many codes; before, `closed`
    still asked for 5 and every game ran to the round limit with no winner by codes."""
    prof = get_profile("closed")
    assert prof.codes_to_win(players) == players
    for seed in range(4):
        st = play_game(prof, [make_bot("planner", seed * 7 + i) for i in range(players)], seed).state
        assert st.over and st.end_reason == "codes" and all(st.codes(w) == players for w in st.winners)


def test_cli_sim_hacker(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--game", "hacker", "--players", "3", "--games", "3", "--bots", "random,planner",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "hacker" and out["profile"] == "basic" and out["games"] == 3


@pytest.mark.parametrize(("argv", "words"), [
    (["sim", "--game", "hacker", "--bots", "deduction"], "not a Hacker bot"),
    (["sim", "--bots", "planner"], "unknown bot strategy 'planner'"),
    (["sim", "--game", "hacker", "--rules", "classic"], "unknown Hacker profile"),
    (["sim", "--game", "hacker", "--rules", "closed", "--players", "5"], "--players"),
])
def test_cli_sim_checks_each_games_bots_and_rules(argv: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2  # one line, exit 2 (cli/checks.py)
    assert words in capsys.readouterr().err


def test_cli_sim_default_is_still_access_denied(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--players", "3", "--games", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["profile"] == "classic" and out["strategies"] == ["deduction"]
