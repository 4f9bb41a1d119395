"""The line client (`--ui lines`) in a real terminal, driven as a new user would drive it: a whole `--offline`
game against bots in English and German, wrong keys, impossible choices, a narrow terminal and Ctrl-C.
(The full-screen client, the default in a terminal, is tested in test_fullscreen.py.)

The terminal is tmux when it is installed (a real terminal emulator), else a pseudo-terminal; the tests
marked `tmux` additionally need tmux and skip with the reason when it is missing (the pty runs cover the
same client).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from _term import PROMPT, PtyTerminal, TmuxTerminal, client_cmd, decline_rematch, play_whole_game, terminal

GAME = ("play", "--offline", "--bots", "2", "--round-limit", "3", "--ui", "lines")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (the pty runs cover this)")


def run_game(term_cls, lang: str, seed: int, cols: int = 100) -> str:  # type: ignore[no-untyped-def]
    term = term_cls(client_cmd(*GAME, "--seed", str(seed), "--lang", lang), cols=cols)
    try:
        play_whole_game(term, timeout=40)
        decline_rematch(term)
        assert term.wait_exit() == 0
        return term.text
    finally:
        term.close()


@pytest.mark.parametrize("term_cls", [PtyTerminal, pytest.param(TmuxTerminal, marks=needs_tmux)], ids=["pty", "tmux"])
def test_whole_game_in_english(term_cls) -> None:  # type: ignore[no-untyped-def]
    text = run_game(term_cls, "en", seed=5)
    assert "Traceback" not in text
    assert "Your decision" in text and "Checklist" in text and "Your hand" in text
    assert "Winner(s): P" in text and "Game over" in text


def test_whole_game_in_german() -> None:
    text = run_game(terminal, "de", seed=6)
    assert "Traceback" not in text
    assert "Deine Entscheidung" in text and "Checkliste" in text and "Wahl (Nummer" in text
    assert "Gewinner: P" in text and "Spiel vorbei" in text


def test_narrow_terminal_compact_layout_whole_game() -> None:
    text = run_game(terminal, "en", seed=5, cols=60)
    assert "Traceback" not in text
    assert "narrow terminal: compact layout" in text
    assert "Winner(s): P" in text


@pytest.mark.parametrize("term_cls", [PtyTerminal, pytest.param(TmuxTerminal, marks=needs_tmux)], ids=["pty", "tmux"])
def test_wrong_keys_impossible_choices_and_ctrl_c(term_cls) -> None:  # type: ignore[no-untyped-def]
    term = term_cls(client_cmd(*GAME, "--seed", "5"), cols=100)
    try:
        m = term.wait_for(PROMPT, timeout=20)
        term.send("banana")
        m = term.wait_for(r"'banana' is not a choice here", start=m.end())
        term.send("0")
        m = term.wait_for(r"'0' is not a choice here", start=m.end())
        term.send("12345")
        m = term.wait_for(r"'12345' is not a choice here", start=m.end())
        term.send("d")  # the password step has no end/pass choice
        m = term.wait_for(r"there is no end/pass choice right now", start=m.end())
        term.send("help")
        m = term.wait_for(r"end this step / pass", start=m.end())
        term.wait_for(PROMPT, start=m.end())
        term.interrupt()
        term.wait_for(r"Game abandoned\.")
        assert term.wait_exit() == 130
        assert "Traceback" not in term.text
    finally:
        term.close()


@needs_tmux
def test_tmux_screen_fits_the_window() -> None:
    term = TmuxTerminal(client_cmd(*GAME, "--seed", "5"), cols=90, rows=50)
    try:
        term.wait_for(PROMPT, timeout=20)
        screen = term.screen()
        assert all(len(line) <= 90 for line in screen.splitlines())
        assert "choice (number" in screen
        term.send("q")
        term.wait_for(r"Game abandoned\.")
        assert term.wait_exit() == 130
    finally:
        term.close()


def test_ctrl_c_in_network_play_prints_the_resume_hint(tmp_path) -> None:  # type: ignore[no-untyped-def]
    argv = client_cmd("play", "--bots", "2", "--round-limit", "2", "--seed", "4", "--think", "0", "--ui", "lines")
    term = terminal([*argv, "--data-dir", str(tmp_path)], cols=100)
    try:
        term.wait_for(PROMPT, timeout=30)
        term.interrupt()
        term.wait_for(r"resume with: ad-p2p join --resume \S+", timeout=20)
        assert term.wait_exit() == 130
        assert "Traceback" not in term.text
    finally:
        term.close()


def test_quitting_network_play_with_q_exits_at_once_and_stops_the_bots(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """q at the prompt leaves the table: the resume hint, exit 130, and the bot processes stopped with it (before:
    each bot was waited for 20 s while it waited for the player who had left)."""
    argv = client_cmd("play", "--bots", "2", "--round-limit", "2", "--seed", "4", "--think", "0", "--ui", "lines")
    term = terminal([*argv, "--data-dir", str(tmp_path)], cols=100)
    try:
        term.wait_for(PROMPT, timeout=30)
        term.send("q")
        term.wait_for(r"resume with: ad-p2p join --resume \S+", timeout=20)
        assert term.wait_exit(timeout=15) == 130
    finally:
        term.close()
    bots = subprocess.run(["pgrep", "-f", f"--data-dir {tmp_path}/bots"], capture_output=True, text=True)
    assert bots.stdout.strip() == "", bots.stdout  # no bot of this game is left running


def test_a_key_typed_ahead_never_answers_a_later_prompt() -> None:
    """Keys typed while nothing is asked (here: before the first prompt) are discarded when a decision appears:
    a '1' meant for nothing does not set the password; the prompt still waits for this decision."""
    term = PtyTerminal(client_cmd(*GAME, "--seed", "5"), cols=100)
    try:
        term.send("1")  # at once: the client is still starting (imports, setup), nothing is asked yet
        m = term.wait_for(PROMPT, timeout=20)
        term.send("help")
        term.wait_for(r"end this step / pass", start=m.end())
        assert "P1 set the password" not in term.text  # the early '1' chose nothing
        term.send("1")  # the first password offered, chosen now
        term.wait_for(r"P1 set the password", start=m.end())
    finally:
        term.close()
