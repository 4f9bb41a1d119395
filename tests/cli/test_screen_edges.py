"""Screen edges a newcomer meets, in a real terminal (tmux): a terminal too small for the full screen says so (and
the game appears when the window grows); Hacker's page is drawn again when the window is resized while a question
waits (before: only after Enter)."""

from __future__ import annotations

import shutil
import sys

import pytest
from _fullscreen import wait_screen
from _term import TmuxTerminal, client_cmd

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed: no screen tests")


@pytest.mark.parametrize(("lang", "said"), [("en", "The terminal is 40x12: the game needs at least 60x20"),
                                            ("de", "Das Terminal hat 40x12: das Spiel braucht mindestens 60x20")])
def test_a_terminal_too_small_says_so_and_the_game_appears_when_it_grows(lang: str, said: str) -> None:
    term = TmuxTerminal(client_cmd("play", "--offline", "--bots", "2", "--seed", "5", "--lang", lang), cols=40,
                        rows=12)
    try:
        term.wait_for(said.split(":")[0], timeout=30)
        flat = said.replace(" ", "")  # (the screen is drawn in parts: the line is waited for on it, not read once)
        wait_screen(term, lambda s: flat in s.replace("\n", "").replace(" ", ""))
        term.resize(80, 24)
        title = "Access Denied" if lang == "en" else "Zugang Verweigert"
        wait_screen(term, lambda s: s.startswith(title))
        term.send("q")
        assert term.wait_exit(timeout=20) == 130
    finally:
        term.close()


def test_the_hacker_page_is_drawn_again_when_the_window_is_resized() -> None:
    argv = [sys.executable, "-m", "adp2p.cli.hacker", "--seed", "5", "--players", "3", "--round-limit", "2"]
    term = TmuxTerminal(argv, cols=80, rows=24)
    try:
        term.wait_for(r"> \Z", timeout=30)
        while "Enter:" in term.screen().rstrip().split("\n")[-1]:  # (the account's pages first, if any)
            seen = len(term.text)
            term.send("")
            term.wait_for(r"> \Z", timeout=30, start=seen)
        wait_screen(term, lambda s: s.startswith("HACKER"))
        seen = len(term.text)
        term.resize(100, 30)  # nothing typed: the page comes again at the new size
        term.wait_for(r"HACKER round \d", timeout=20, start=seen)
        term.wait_for(r"> \Z", timeout=20, start=seen)
        wait_screen(term, lambda s: s.startswith("HACKER"))
    finally:
        term.close()
