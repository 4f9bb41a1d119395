"""`cards`, `rules` and `sim` of Classified Information, and the checks of its options (two players, its profiles
and bots; over the network at the table its registered part plays)."""

from __future__ import annotations

import json

import pytest
from adp2p.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = int(exc.code or 0)
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def test_cards_every_card_in_english_and_german(capsys: pytest.CaptureFixture[str]) -> None:
    rc, en = run(capsys, "cards", "--game", "classified")
    assert rc == 0 and "1 Fortune Teller (Sentinel; Code 9 1 2; PEEK 2)" in en and "9 Shine Spotlights" in en
    rc, de = run(capsys, "cards", "--game", "classified", "--lang", "de")
    assert rc == 0 and "1 Wahrsagerin" in de and "9 Scheinwerfer" in de and "unsere" in de
    rc, js = run(capsys, "cards", "--game", "classified", "--json")
    assert [c["number"] for c in json.loads(js)] == list(range(1, 10))


def test_rules_the_summary_and_our_rulings(capsys: pytest.CaptureFixture[str]) -> None:
    rc, en = run(capsys, "rules", "--game", "classified")
    assert rc == 0 and "Unguarded Match" in en and "C-GUILDS" in en and "Guard 2 5 8" in en
    rc, de = run(capsys, "rules", "--game", "classified", "--lang", "de")
    assert rc == 0 and "ungeschützter Treffer" in de and "Wächter 2 5 8" in de


def test_sim_ends_every_game_and_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = run(capsys, "sim", "--game", "classified", "--games", "30", "--bots", "random,deduction")
    assert rc == 0, out
    assert "30 games of Classified Information, standard, 2 players, bots random,deduction" in out
    assert "0 unfinished" in out and "wins by strategy" in out
    rc, js = run(capsys, "sim", "--game", "classified", "--games", "10", "--json", "--rules", "four-card")
    data = json.loads(js)
    assert data["unfinished"] == 0 and data["profile"] == "four-card"


@pytest.mark.parametrize("argv, words", [
    (["sim", "--game", "classified", "--players", "3"], "for 2 players, not 3"),
    (["sim", "--game", "classified", "--bots", "planner"], "not a Classified Information bot"),
    (["play", "--game", "classified", "--offline", "--bots", "2"], "one bot, not 2"),
    (["play", "--game", "classified", "--offline", "--goal", "3"], "--goal is another game's"),
    (["sim", "--game", "classified", "--rules", "classic"], "unknown Classified Information profile"),
])
def test_options_it_does_not_take_are_refused(capsys: pytest.CaptureFixture[str], argv: list[str],
                                              words: str) -> None:
    rc, out = run(capsys, *argv)
    assert rc != 0 and words in out, out


def test_over_the_network_the_table_has_no_stalemate_goal_or_round_limit() -> None:
    """The table's part is registered (games/classified/): `play` and `join` go to the table, and the genesis names
    none of the other games' settings (their defaults would make a bot's seat refuse the genesis)."""
    from adp2p.cli.checks import check
    from adp2p.cli.classified.commands import table_ready
    from adp2p.cli.main import parser

    assert table_ready()
    for argv in (["play", "--game", "classified", "--bots", "1"], ["join", "--no-mdns", "--game", "classified"]):
        args = parser().parse_args(argv)
        check(args)
        assert (args.stalemate, args.goal, args.round_limit) == (0, None, None), argv
