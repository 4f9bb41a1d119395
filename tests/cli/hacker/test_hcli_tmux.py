"""A whole local Hacker game in a real terminal (tmux) at 80x24, as a person plays it: `python -m adp2p.cli.hacker`,
reading each screen and typing `1` (or Enter on the account's pages) until the winners are named; every screen
shows the game's header, and nothing is written past the terminal's 24 rows."""

from __future__ import annotations

import re
import shutil
import sys

import pytest
from _term import TmuxTerminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.mark.parametrize(("lang", "end"), [("en", "Winners"), ("de", "Sieger")])
def test_whole_game_in_tmux_80x24(lang: str, end: str) -> None:
    argv = [sys.executable, "-m", "adp2p.cli.hacker", "--lang", lang, "--seed", "5", "--players", "3",
            "--round-limit", "2"]
    term = TmuxTerminal(argv, cols=80, rows=24)
    try:
        seen = decisions = 0
        for _ in range(300):
            term.wait_for(r"> \Z", timeout=30, start=seen)
            seen = len(term.text)
            screen = term.screen()
            rows = screen.split("\n")
            if end in screen:
                term.send("")
                break
            if "Enter:" in rows[-1] or "Enter:" in screen.rstrip().split("\n")[-1]:
                term.send("")
                continue
            assert re.match(r"HACKER (round|Runde) \d", screen), screen
            term.send("1")
            decisions += 1
        else:
            pytest.fail("the game did not end in 300 decisions")
        assert decisions >= 8
        assert term.wait_exit(20) == 0
        assert end in term.text
    finally:
        term.close()
