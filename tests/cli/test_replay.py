"""`ad-p2p play` over the real protocol (bot peer processes, a short game) ends with the end screen and
the audit line; `ad-p2p replay` then steps through its log turn by turn."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest
from adp2p.cli.tui.replay import run_replay


@pytest.fixture(scope="module")
def network_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    data = tmp_path_factory.mktemp("adp2p")
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--watch", "--bots", "2", "--round-limit", "2"]
    cmd += ["--think", "0", "--seed", "3", "--data-dir", str(data)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    log = re.search(r"Game log: (\S+)", out.stdout)
    assert log, out.stdout[-2000:]
    return out.stdout, Path(log.group(1))


def test_network_play_ends_with_screen_and_audit(network_game: tuple[str, Path]) -> None:
    text, log = network_game
    assert "Game over — winner(s):" in text  # the end screen's header
    assert "Audit: every shuffle, card, password commitment and move checks out." in text
    assert log.exists()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_replay_steps_through_every_turn(network_game: tuple[str, Path], lang: str) -> None:
    _, log = network_game
    out = io.StringIO()
    rc = run_replay(Namespace(log=str(log), lang=lang, all=True, width=100), out, io.StringIO())
    text = out.getvalue()
    assert rc == 0
    assert "Traceback" not in text
    turns = re.findall(r"^  (?:Turn|Zug) (\d+):", text, re.M)
    assert [int(t) for t in turns] == list(range(1, len(turns) + 1)) and len(turns) >= 4
    if lang == "en":
        assert "Replay of game" in text and "checks out" in text
    else:
        assert "Wiederholung von Spiel" in text and "Prüfung: jedes Mischen" in text


def test_replay_of_the_game_directory_via_the_command(network_game: tuple[str, Path]) -> None:
    _, log = network_game
    out = subprocess.run(
        [sys.executable, "-m", "adp2p.cli", "replay", str(log.parent), "--all"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0 and "winner(s):" in out.stdout


def test_replay_of_a_missing_log_is_a_clear_error(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "adp2p.cli", "replay", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [f"ad-p2p replay: no game log at {tmp_path / 'nope'}"]


class _Keys(io.StringIO):
    """Typed keys, as from a terminal (the replay waits for a key only at a terminal)."""

    def isatty(self) -> bool:
        return True


def test_replay_steps_back_and_jumps(network_game: tuple[str, Path]) -> None:
    """Enter goes on, b goes one turn back, a number jumps to that turn, q leaves."""
    _, log = network_game
    out = io.StringIO()
    rc = run_replay(Namespace(log=str(log), lang="en", all=False, width=100), out, _Keys("\n\nb\n3\nq\n"))
    assert rc == 0
    steps = [int(x) for x in re.findall(r"\[(\d+)/\d+\] Enter = next turn", out.getvalue())]
    assert steps == [0, 1, 2, 1, 3]  # on, on, back, jump to 3, then q
