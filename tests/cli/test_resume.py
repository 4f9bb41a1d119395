"""Resume from what the game directory saved (cli/seat_file.py) and one data directory per running peer
(cli/peer_dirs.py): a `play` game left at its first question and resumed with the printed command finishes against
the same bot peers (they resume too); `join --resume` needs no flags and refuses one that contradicts the game in one
line; two peers on one machine with the default data directory each get their own, and `join --resume` (the README's
command) finds the one a killed peer left."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import _term
import pytest
from _term import REMATCH, client_cmd, terminal

CLI = [sys.executable, "-m", "adp2p.cli"]


def left_with_resume_command(argv: list[str], env: dict[str, str] | None = None) -> list[str]:
    """Run a `play` that leaves at its first question (input ends: as q does); the resume command it printed, as
    argv for this interpreter."""
    out = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                         env=env)
    assert out.returncode == 130, out.stdout[-1500:] + out.stderr[-1500:]
    m = re.search(r"(?:resume with|weiter mit): ad-p2p (join [^\n)]*)\)", out.stderr)
    assert m is not None, out.stderr
    return m.group(1).split()


def test_a_hacker_play_game_left_and_resumed_with_the_printed_command_finishes_against_the_same_bots(
        tmp_path: Path) -> None:
    cmd = left_with_resume_command(["play", "--game", "hacker", "--bots", "2", "--round-limit", "1", "--think", "0",
                                    "--lang", "de", "--data-dir", str(tmp_path)])
    assert "--bots" not in cmd and "--lang" not in cmd  # the game directory knows the rest
    # a person who types 1 at every question (piped: the page's line prompt)
    out = subprocess.run([*CLI, *cmd], input="1\n" * 400, capture_output=True, text=True, timeout=180)
    said = out.stdout
    assert out.returncode == 0, said[-2000:] + out.stderr[-2000:]
    assert "Traceback" not in said + out.stderr
    for name in ("Spieler", "Bot-1", "Bot-2"):  # the same table, in German as it was set up
        assert f"\n  {name}: ehrlich\n" in said, said[-1500:]
    bot_logs = sorted(tmp_path.glob("bots/*/bot*/games/*/log"))
    mine = next(tmp_path.glob("games/*/log"))
    assert len(bot_logs) == 2 and all(b.parent.name == mine.parent.name for b in bot_logs)
    assert all(b.read_bytes() == mine.read_bytes() for b in bot_logs)  # the bots resumed their own seats to the end


def test_an_access_denied_play_game_left_with_q_resumes_at_80x24_against_the_same_bots(tmp_path: Path) -> None:
    argv = client_cmd("play", "--bots", "2", "--round-limit", "2", "--seed", "4", "--think", "0", "--ui", "lines",
                      "--data-dir", str(tmp_path))
    term = terminal(argv, cols=80, rows=24)
    try:
        term.wait_for(r"choice \(number[^\n]*: $", timeout=60)
        term.send("q")
        m = term.wait_for(r"resume with: ad-p2p (join[^)]*)\)", timeout=30)
        assert term.wait_exit(timeout=30) == 130
    finally:
        term.close()
    cmd = re.sub(r"\s+", " ", m.group(1)).replace("- -", "--").split()  # (the hint is wrapped at 80 columns)
    gdir = Path(cmd[-1])
    assert gdir.parent.parent == tmp_path and (gdir / "seat.json").is_file()
    term = terminal(client_cmd(*cmd), cols=80, rows=24)
    try:
        end, _term.END = _term.END, REMATCH  # (the networked game's lines end at the rematch question)
        try:
            text = _term.play_whole_game(term, timeout=180)
        finally:
            _term.END = end
        assert "Game over" in text and "Bot-1: honest" in text
        term.send("n")
        assert term.wait_exit(timeout=60) == 0
        assert "Traceback" not in term.text
    finally:
        term.close()
    logs = [next(tmp_path.glob("games/*/log")), *sorted(tmp_path.glob("bots/*/bot*/games/*/log"))]
    assert len(logs) == 3 and len({p.read_bytes() for p in logs}) == 1  # one log, every seat to the end


def _game(tmp_path: Path, game: str = "access-denied") -> Path:
    """A game directory left after a few entries (a `play` game whose person left at the first question)."""
    left_with_resume_command(["play", "--game", game, "--bots", "2", "--round-limit", "1", "--think", "0",
                              "--data-dir", str(tmp_path)])
    return next(tmp_path.glob("games/*"))


@pytest.mark.parametrize(("flag", "said"), [
    (["--table", "other"], "--table other: the game in {d} was set up with --table play-"),
    (["--game", "hacker"], "--game hacker: the game in {d} was set up with --game access-denied"),
    (["--bot", "random"], "--bot random: the game in {d} was set up with --bot a person's seat"),
    (["--players", "4"], "--players 4: the game in {d} was set up with --players 3"),
])
def test_a_flag_that_contradicts_the_saved_game_is_one_line(tmp_path: Path, flag: list[str], said: str) -> None:
    gdir = _game(tmp_path)
    out = subprocess.run([*CLI, "join", "--resume", str(gdir), *flag], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("ad-p2p join: " + said.format(d=gdir)), out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_a_hacker_game_resumes_without_game_flag_as_the_seat_it_was(tmp_path: Path) -> None:
    """The README's `join --resume DIR` on a Hacker game: the genesis names the game (before: Access Denied's client
    read Hacker's state, an AttributeError); the seat file says it is a person's seat with play's bots."""
    from adp2p.cli import seat_file
    from adp2p.cli.main import given_options, parser

    gdir = _game(tmp_path, "hacker")
    argv = ["join", "--resume", str(gdir)]
    args = parser().parse_args(argv)
    saved = seat_file.resume_args(args, given_options(argv))
    assert (args.game, args.players, args.rules, args.bot) == ("hacker", 3, "basic", None)
    assert args.table.startswith("play-") and args.name == "Player" and args.resume == str(gdir)
    assert [Path(b).name for b in saved["play"]["bots"]] == ["bot1", "bot2"]


def test_a_bot_seat_resumes_as_that_bot_with_its_network(tmp_path: Path) -> None:
    from adp2p.cli import seat_file
    from adp2p.cli.main import given_options, parser

    gdir = _game(tmp_path)
    bot_game = next(tmp_path.glob("bots/*/bot1/games/*"))
    argv = ["join", "--resume", str(bot_game)]
    args = parser().parse_args(argv)
    seat_file.resume_args(args, given_options(argv))
    assert (args.bot, args.no_mdns, args.host, args.name) == ("deduction", True, "127.0.0.1", "Bot-1")
    assert args.peer and args.peer[0][0] == "127.0.0.1" and bot_game.name == gdir.name


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _entries(log: Path) -> int:
    data = log.read_bytes() if log.exists() else b""
    n = off = 0
    while off + 4 <= len(data):
        size = int.from_bytes(data[off:off + 4], "big")
        if size == 0 or off + 4 + size > len(data):
            break
        n, off = n + 1, off + 4 + size
    return n


@pytest.mark.slow
def test_three_peers_on_one_machine_with_the_default_data_dir_play_and_one_resumes_with_join_resume(
        tmp_path: Path) -> None:
    """Three `join` peers, none given --data-dir (the default is under XDG_DATA_HOME): each gets a directory of its
    own (before: the second failed on the first's locked log). One is killed and comes back with `join --resume` and
    nothing else; the table finishes, and every log audits clean."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "PYTHONUNBUFFERED": "1"}
    ports = [_free_port() for _ in range(3)]
    procs: list[subprocess.Popen[bytes]] = []

    def start(i: int, *extra: str) -> subprocess.Popen[bytes]:
        cmd = [*CLI, "join", *extra] if extra else [
            *CLI, "join", "--table", "t1", "--players", "3", "--bot", "deduction", "--no-mdns", "--host", "127.0.0.1",
            "--port", str(ports[i]), "--peer", f"127.0.0.1:{ports[(i + 1) % 3]}", "--name", f"P{i}",
            "--round-limit", "10", "--think", "0.01", "--seed", str(i)]
        with open(tmp_path / f"p{i}.out", "ab") as fh:
            return subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)

    try:
        procs = [start(i) for i in range(3)]
        base = tmp_path / "xdg" / "ad-p2p"
        logs = lambda: sorted(base.glob("**/games/*/log"))  # noqa: E731
        deadline = time.monotonic() + 300  # (a bound on a broken run, not a margin: it waits for what it needs)
        while (len(logs()) < 3 or min(_entries(p) for p in logs()) < 30) and time.monotonic() < deadline:
            assert all(p.poll() is None for p in procs), [(tmp_path / f"p{i}.out").read_text() for i in range(3)]
            time.sleep(0.1)
        homes = {p.parent.parent.parent for p in logs()}
        assert homes == {base, base / "peers" / "2", base / "peers" / "3"}, homes
        procs[1].send_signal(signal.SIGKILL)
        procs[1].wait()
        procs[1] = start(1, "--resume")  # the README's command, nothing else
        codes = [p.wait(timeout=300) for p in procs]
        outs = [(tmp_path / f"p{i}.out").read_text() for i in range(3)]
        assert codes == [0, 0, 0], outs
        assert "Traceback" not in "".join(outs)
        assert len({p.read_bytes() for p in logs()}) == 1
        for log in logs():
            audit = subprocess.run([*CLI, "audit", str(log)], capture_output=True, text=True, timeout=120)
            assert audit.returncode == 0, audit.stdout[-1500:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_resume_from_a_damaged_secrets_file_is_one_line(tmp_path: Path) -> None:
    gdir = _game(tmp_path)
    (gdir / "secrets").write_bytes(b"\x93\x02\x01" + bytes(40))
    out = subprocess.run([*CLI, "join", "--resume", str(gdir)], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 3 and "Traceback" not in out.stderr + out.stdout, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ad-p2p join: cannot resume from {gdir / 'secrets'}: "), lines


def test_a_seat_played_on_the_page_resumes_on_the_page(tmp_path: Path) -> None:
    """Found playing on the page: `join --resume DIR` (the command the page and the terminal print) brought a page
    player's game back in the terminal, and `--web` given again was dropped on the way to `play`'s resume."""
    from adp2p.cli import seat_file
    from adp2p.cli.main import given_options, parser
    from adp2p.cli.web import wanted

    gdir = _game(tmp_path)
    play = seat_file.read(gdir)["play"]
    seat_file.write(gdir, parser().parse_args(["join", "--table", "t", "--web", "--lang", "de"]), play=play)
    here, full = ["join", "--resume", str(gdir)], ["join", "--resume", str(gdir), "--ui", "full"]
    for argv, page in ((here, True), (full, False)):
        args = parser().parse_args(argv)
        seat_file.resume_args(args, given_options(argv))
        assert wanted(args) is page and args.lang == "de"
