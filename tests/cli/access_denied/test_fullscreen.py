"""The full-screen client (the default in a terminal) in tmux, at 80x24 and 130x45, as a person would use it:
whole short games where every decision screen shows the header, the board, the hand and the prompt at once
and nothing is cut; German all the way; the keys (PageUp/PageDown, Tab, the arrows, help, the staged password,
q); a reaction's countdown redrawn in place and passing by itself; a networked game's first decision and q; a
watched game (`--watch`) followed on the full screen; a rematch; a terminal resized while a decision waits.

tmux is needed (it is on the CI machine); without it these tests skip, saying so.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys

import pytest
from _fullscreen import END, INPUT, check_screen, drive, full_client, input_line, wait_screen
from _term import TmuxTerminal, client_cmd, decline_rematch
from adp2p.cli.access_denied.words import sector_name


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed: no full-screen tests")
GAME = ("--offline", "--bots", "2", "--round-limit", "2")


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
def test_whole_game_every_decision_on_one_fixed_screen(cols: int, rows: int) -> None:
    term = full_client(*GAME, "--seed", "5", cols=cols, rows=rows)
    try:
        screens = drive(term, cols, rows, "en")
        assert len(screens) >= 5
        decline_rematch(term)
        assert term.wait_exit() == 0
        text = term.text
        assert "Traceback" not in text
        assert re.search(r"Winner\(s\): P", text)  # the end is printed below, in the terminal as it was
        wide = cols >= 110
        assert all(("Checklist" in s) == wide for s in screens)  # at 80x24 behind Tab, said in the header
        assert all("Tab: checklist" in s for s in screens) != wide
        assert any("Access attempts" in s or "End this step" in s for s in screens)
    finally:
        term.close()


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
def test_whole_game_in_german(cols: int, rows: int) -> None:
    """German all the way, at both sizes; at 130x45 the checklist beside the board as in English, at 80x24 behind
    Tab (said in the header at almost every decision: the keys give way to what the header must say)."""
    term = full_client(*GAME, "--seed", "6", "--lang", "de", cols=cols, rows=rows)
    try:
        screens = drive(term, cols, rows, "de")
        decline_rematch(term)
        assert term.wait_exit() == 0
        wide = cols >= 110
        assert all(("Checkliste" in s.split("Tab: Checkliste")[0] + s.split("Tab: Checkliste")[-1]) == wide
                   for s in screens)
        if not wide:
            assert sum("Tab: Checkliste" in s for s in screens) >= 0.8 * len(screens)
        for s in screens:
            assert "Deine Hand (" in s
            for english in ("Your hand", "Your decision", "choice (number", "Choices", "End this step", "PgUp"):
                assert english not in s, (english, s)
        assert re.search(r"Gewinner: P", term.text)
    finally:
        term.close()


def test_keys_staged_password_log_scroll_tab_help_and_q() -> None:
    term = full_client(*GAME, "--seed", "5", cols=80, rows=24)
    try:
        first = wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None and "c1: " in s,
                            check=lambda s: check_screen(s, 80, 24, "en"))  # (drawn in parts: wait for all of it)
        assert "pick card by card" in first and "c1: " in first  # the password, card by card
        term.send("c1")
        picked = wait_screen(term, lambda s: "picked: " in s or "1. Password for" in s or " Password for" in s)
        assert "c2: " in picked or "Password for" in picked
        term.send("c")  # start again
        wait_screen(term, lambda s: "c1: " in s and "picked" not in s)
        term.keys("Tab")  # the password and checklist instead of the board, said in the header
        secret = wait_screen(term, lambda s: "Tab: board" in s)
        assert "Your password" in secret and "Banking      P" not in secret
        term.keys("Tab")
        wait_screen(term, lambda s: "Tab: checklist" in s)
        term.send("help")
        wait_screen(term, lambda s: "end this step / pass" in s)
        term.send("banana")
        wait_screen(term, lambda s: "'banana' is not a choice here" in s)
        term.send("1")  # a password; then the first turns fill the log
        wait_screen(term, lambda s: "round 1, turn" in s and INPUT.match(input_line(s)) is not None)
        term.keys("PageUp")  # the log scrolled back says there is more below
        wait_screen(term, lambda s: "newer (PgDn)" in s)
        term.keys("PageDown")
        wait_screen(term, lambda s: "newer (PgDn)" not in s)
        term.send("q")
        term.wait_for(r"Game abandoned\.", timeout=20)
        assert term.wait_exit() == 130
        assert "Traceback" not in term.text
    finally:
        term.close()


def test_reaction_countdown_redraws_in_place_and_passes_by_itself() -> None:
    """Seed 25 with --react all: the second decision of seat 1 is a reaction window (found by playing the same
    policy in-process; drive answers 1 to the password, then d)."""
    term = full_client(*GAME, "--seed", "25", "--react", "all", "--react-seconds", "4", cols=80, rows=24)
    try:
        first = wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None)
        term.send("1")
        react = wait_screen(term, lambda s: re.match(r"\[\d+ s\] react\?", input_line(s)) is not None, timeout=30,
                            check=lambda s: check_screen(s, 80, 24, "en"))
        secs = int(re.match(r"\[(\d+) s\]", input_line(react)).group(1))  # type: ignore[union-attr]
        later = wait_screen(term, lambda s: re.match(rf"\[{secs - 1} s\] react\?", input_line(s)) is not None)
        assert later.count("react?") == 1  # redrawn in place: one prompt line, the same place, fewer seconds
        assert len(later.split("\n")) == len(react.split("\n"))
        wait_screen(term, lambda s: "time is up: you pass" in s, timeout=15)  # in the log; the game goes on
        assert first
        term.interrupt()  # Ctrl-C leaves cleanly, whether something is asked or not
        term.wait_for(r"Game abandoned\.", timeout=20)
        assert term.wait_exit(timeout=20) == 130
        assert "Traceback" not in term.text
    finally:
        term.close()


def test_networked_game_first_decision_full_screen_then_q(tmp_path) -> None:  # type: ignore[no-untyped-def]
    argv = client_cmd("play", "--bots", "2", "--round-limit", "2", "--seed", "4", "--think", "0")
    term = TmuxTerminal([*argv, "--data-dir", str(tmp_path)], cols=80, rows=24)
    try:
        screen = wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None and "Your decision" in s, 60,
                             check=lambda s: check_screen(s, 80, 24, "en"))
        assert "Player" in screen and "Bot-1" in screen and "Bot-2" in screen  # the table's names on the board
        term.send("q")
        term.wait_for(r"resume with: ad-p2p join --resume \S+", timeout=20)
        assert term.wait_exit(timeout=20) == 130
        assert "Traceback" not in term.text
        assert not END.search(screen)
    finally:
        term.close()


def test_a_key_typed_ahead_never_answers_a_later_decision() -> None:
    term = full_client(*GAME, "--seed", "5", cols=80, rows=24)
    try:
        term.send("1")  # at once: nothing is asked yet (the client is starting)
        # the prompt line and the choices are drawn apart (a capture may fall between): wait for either outcome
        first = wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None
                            and ("pick card by card" in s or "P1 set the password" in s))
        assert "pick card by card" in first and "P1 set the password" not in first
        term.send("1")  # now it answers: the first password
        wait_screen(term, lambda s: "P1 set the password" in s or "Your password: Government: W" in s)
        term.send("q")
        assert term.wait_exit(timeout=20) == 130
    finally:
        term.close()


def test_watching_a_networked_game_shows_the_board_as_it_goes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`play --watch` in a terminal: the full screen follows the bots' game (header, board, the watched seat's hand,
    the log) with nothing asked, then the end of play is printed and the game exits 0."""
    argv = client_cmd("play", "--watch", "--bots", "2", "--round-limit", "1", "--seed", "6", "--think", "0.05",
                      "--lang", "de")
    term = TmuxTerminal([*argv, "--data-dir", str(tmp_path)], cols=80, rows=24)
    try:
        screen = wait_screen(term, lambda s: "Runde 1, Zug" in s and "Deine Hand" in s, 60)
        assert "du bist Zuschauer" in screen or "Zuschauer" in screen.split("\n")[1]
        for s in range(6):
            assert sector_name(s, "de") in screen  # the board, whole
        assert "(warte auf die anderen; q oder Strg-C: verlassen)" in screen  # nothing is asked; how to leave
        decline_rematch(term, timeout=90)
        assert term.wait_exit() == 0
        assert "Prüfung:" in term.text and "Traceback" not in term.text
    finally:
        term.close()


def test_after_a_game_a_rematch_deals_a_new_game() -> None:
    """At a terminal a complete game ends with the question; `y` starts a new game with the same settings (back on
    the full screen), which q then leaves; an answer of no (or piped input, tests/cli/test_terminal.py) ends."""
    term = full_client(*GAME, "--seed", "7", cols=80, rows=24)
    try:
        drive(term, 80, 24, "en", checks=0)
        wait_screen(term, lambda s: "Another game with the same settings and a new deal? [y/N]" in s, 30)
        term.send("y")
        wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None and "Your decision" in s, 60,
                    check=lambda s: check_screen(s, 80, 24, "en"))
        before = term.text.count("Winner(s): P")  # the first game's end, printed once its end screen closed
        term.send("q")
        assert term.wait_exit() == 130
        assert term.text.count("Winner(s): P") == before  # the second game was left, not finished
        assert "Traceback" not in term.text
    finally:
        term.close()



def test_a_resized_terminal_gets_the_layout_of_its_new_size() -> None:
    term = full_client(*GAME, "--seed", "9", cols=80, rows=24)
    try:
        wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None,
                    check=lambda s: check_screen(s, 80, 24, "en"))
        term.resize(130, 45)
        wait_screen(term, lambda s: len(s.rstrip("\n").split("\n")) > 30 and "Checklist" in s,
                    check=lambda s: check_screen(s, 130, 45, "en"))
        term.resize(80, 24)
        wait_screen(term, lambda s: "Tab: checklist" in s and len(s.rstrip("\n").split("\n")) <= 24,
                    check=lambda s: check_screen(s, 80, 24, "en"))
        term.send("q")
        assert term.wait_exit() == 130
        assert "Traceback" not in term.text
    finally:
        term.close()


def test_join_offers_another_game_at_the_same_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A person at `join`: after the game the question; yes takes them back to the lobby of the same table (where the
    others must come too); here the bots have gone, so the player leaves the lobby with Ctrl-C."""
    port = free_port()
    common = ["--table", "again", "--players", "3", "--no-mdns", "--host", "127.0.0.1", "--round-limit", "1"]
    bots = [
        subprocess.Popen(
            [sys.executable, "-m", "adp2p.cli", "join", *common, "--bot", "random", "--peer", f"127.0.0.1:{port}",
             "--data-dir", str(tmp_path / f"bot{i}"), "--name", f"Bot-{i}", "--think", "0", "--quiet",
             "--seed", str(i)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for i in (1, 2)
    ]
    term = TmuxTerminal([*client_cmd("join", *common, "--port", str(port), "--name", "Ana"), "--data-dir",
                         str(tmp_path / "me")], cols=80, rows=24)
    try:
        drive(term, 80, 24, "en", checks=0, timeout=120)
        wait_screen(term, lambda s: "Another game at table again? The others must choose it too. [y/N]" in s, 30)
        assert all(b.wait(timeout=60) == 0 for b in bots)  # the bots' game ended complete and audited
        term.send("y")
        # back in the lobby of the same table (the others must come again)
        term.wait_for(r"Waiting at table 'again' for 3 players \(you are Ana", timeout=30, start=len(term.text))
        term.interrupt()
        assert term.wait_exit(timeout=30) == 130
        assert "Traceback" not in term.text
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
        term.close()


def test_a_whole_networked_game_on_the_full_screen_ends_on_its_end_screen(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A person plays a whole short game against two bot peers over the real protocol, every decision on the fixed
    screen; the end stays inside the full screen: the standings, every password, the audit's verdict and the rematch
    question at the input line; no, and the game exits 0, the end kept below as lines."""
    argv = client_cmd("play", "--bots", "2", "--round-limit", "2", "--seed", "4", "--think", "0")
    term = TmuxTerminal([*argv, "--data-dir", str(tmp_path)], cols=80, rows=24)
    try:
        screens = drive(term, 80, 24, "en", timeout=300)
        assert len(screens) >= 5 and all("Bot-1" in s for s in screens)  # the table's names on every screen
        question = "Another game with the same settings and a new deal? [y/N]"

        def end_screen(end: str) -> None:  # (the end screen is drawn in parts: these are waited for, then asserted)
            lines = end.rstrip("\n").split("\n")
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), end
            assert lines[0].startswith("Access Denied — Game over — winner(s): "), end
            assert re.search(r"^Standings +Root +Oper +User", end, re.M), end
            assert re.search(r"^Standings +Root +Oper +User +Audit", end, re.M), end
            for name in ("Player", "Bot-1", "Bot-2"):  # everyone's standing and the audit's verdict on them
                assert re.search(rf"^{name} +\d +\d +\d .*honest *$", end, re.M), end
            assert "Every password:" in end
            owned = re.findall(r"^  (\S+) \((Player|Bot-\d)\): .*\[[A-F]\]", end, re.M)
            assert owned, end  # at least the starting passwords, revealed
            assert "Audit: every shuffle, card, password commitment and move checks out." in end
            assert re.search(r"^Replay: \S*ad-p2p replay \S+", end, re.M), end  # the game's log, to step through

        wait_screen(term, lambda s: input_line(s).startswith(question), 60, check=end_screen)
        term.send("n")
        assert term.wait_exit(timeout=60) == 0
        text = term.text
        assert "Traceback" not in text
        after = text[text.rfind(question) :]  # printed below once the full screen closed
        assert "Standings: " in after and "Audit: every shuffle" in after and "Game log:" in after
        for name in ("Player", "Bot-1", "Bot-2"):
            assert re.search(rf"^  {name}: honest$", after, re.M), after  # the verdict per player, printed too
    finally:
        term.close()
