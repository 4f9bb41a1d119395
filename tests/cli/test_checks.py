"""Every command checks its options against the rules and the OS before it starts (cli/checks.py): a bad value
is one line naming the option and why, exit status 2, never a traceback and never a table that waits forever."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from adp2p.cli.main import main

BIN = Path(sys.executable).parent / "ad-p2p"

BAD = [  # (argv, words the one line must hold)
    (["join", "--players", "1"], ["--players", "classic is for 3 to 6 players, not 1"]),
    (["join", "--players", "0"], ["--players", "not 0"]),
    (["join", "--players", "-3"], ["--players", "must be 0..99"]),
    (["join", "--players", "7"], ["--players", "not 7"]),
    (["join", "--rules", "two-player", "--players", "4"], ["two-player is for 2 players, not 4"]),
    (["join", "--port", "80000"], ["--port", "0..65535"]),
    (["join", "--port", "http"], ["--port", "whole number"]),
    (["join", "--peer", "localhost:0"], ["--peer", "HOST:PORT"]),
    (["join", "--peer", "nohost"], ["--peer", "HOST:PORT"]),
    (["join", "--bot", "foo"], ["--bot", "unknown bot strategy 'foo'"]),
    (["join", "--interface", "nosuch0"], ["--interface", "nosuch0"]),
    (["join", "--patience", "0"], ["--patience", "1..86400"]),
    (["join", "--think", "-1"], ["--think"]),
    (["join", "--round-limit", "0"], ["--round-limit", "1..10000"]),
    (["join", "--stalemate", "-1"], ["--stalemate", "0..10000"]),
    (["join", "--game", "hacker", "--round-limit", "201"], ["--round-limit", "at most 200 rounds"]),
    (["play", "--game", "hacker", "--round-limit", "5000"], ["--round-limit", "at most 200 rounds"]),
    (["play", "--stalemate", "x"], ["--stalemate", "whole number"]),
    (["sim", "--players", "2"], ["--players", "not 2"]),
    (["sim", "--players", "9"], ["--players", "not 9"]),
    (["sim", "--bots", "random,foo"], ["--bots", "'foo'"]),
    (["sim", "--games", "0"], ["--games"]),
    (["play", "--strategy", "foo"], ["--strategy", "'foo'"]),
    (["play", "--bots", "9"], ["--bots 9 and you", "not 10"]),
    (["play", "--watch", "--offline", "--bots", "2"], ["--bots", "not 2"]),
    (["play", "--watch", "--bots", "1"], ["--bots 1 and your seat", "not 2"]),
    (["play", "--rules", "two-player"], ["two-player is for 2 players, not 4"]),
    (["play", "--think", "nan"], ["--think"]),
    (["play", "--react-seconds", "-5"], ["--react-seconds"]),
    (["tables", "--seconds", "-1"], ["--seconds"]),
    (["tables", "--interface", "nosuch0"], ["--interface"]),
    (["replay", "--width", "5", "x"], ["--width", "40..1000"]),
    (["sim", "--rules", "nope"], ["--rules", "invalid choice"]),
]


@pytest.mark.parametrize("argv, words", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_option_is_one_clear_line(argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's own checks exit
        rc = exc.code
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert rc == 2 and out.out == "", (rc, out)
    assert len(lines) == 1 and lines[0].startswith(f"ad-p2p {argv[0]}: "), out.err
    assert all(w in lines[0] for w in words), lines[0]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("ad-p2p 0.")


def test_every_option_has_help_text() -> None:
    from adp2p.cli.main import parser

    ap = parser()
    subs = next(a for a in ap._actions if a.dest == "cmd").choices  # type: ignore[union-attr]
    missing = [
        f"{name} {'/'.join(a.option_strings)}"
        for name, sp in subs.items()
        for a in sp._actions
        if a.option_strings and a.help is None and a.dest != "help"
    ]
    assert not missing, missing


@pytest.mark.parametrize(
    "argv", [["join", "--players", "7", "--no-mdns"], ["play", "--strategy", "foo"], ["sim", "--players", "9"]]
)
def test_the_console_script_exits_at_once_without_a_traceback(argv: list[str], tmp_path: Path) -> None:
    """(the cases that used to wait forever or print a traceback, through the installed command)"""
    out = subprocess.run([str(BIN), *argv, *(["--data-dir", str(tmp_path)] if argv[0] != "sim" else [])],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr + out.stdout
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_bug_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The last net: an exception nobody expected still ends the command with one line (ADP2P_DEBUG shows it)."""
    import adp2p.cli.cmd_cards as cards

    def broken(args: object) -> int:
        raise KeyError("boom")

    monkeypatch.setattr(cards, "run_rules", broken)
    monkeypatch.delenv("ADP2P_DEBUG", raising=False)
    assert main(["rules"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ad-p2p rules: internal error (KeyError") and "ADP2P_DEBUG" in err[0]
    monkeypatch.setenv("ADP2P_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["rules"])


def test_join_has_a_round_limit_and_a_stalemate_end_by_default() -> None:
    """Three bots at a `join` table once ran 2,997 turns repeating a move: a table ends by itself, at the round limit
    or after rounds in which nobody's access changed (both on unless set otherwise)."""
    from adp2p.cli.main import DEFAULT_ROUND_LIMIT, DEFAULT_STALEMATE, parser

    args = parser().parse_args(["join"])
    assert args.round_limit == DEFAULT_ROUND_LIMIT and 0 < DEFAULT_ROUND_LIMIT <= 1000
    assert args.stalemate == DEFAULT_STALEMATE and 0 < DEFAULT_STALEMATE <= 100
