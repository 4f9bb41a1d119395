"""A newcomer's bad inputs: one line (German under --lang de), a non-zero exit, never a traceback. Ctrl-C in any
command, a file that is no game log, a log cut short, a table without a name, a mistyped ./dev command; and what
`sim` and `audit --json` print, in words a person reads (seats numbered from 1)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from adp2p.cli.main import main
from adp2p.p2p.audit import read_records

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "adversaries"))  # the in-process table of the zoo makes a real game log
from _zoo import Table  # noqa: E402

CLI = [sys.executable, "-m", "adp2p.cli"]


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = Table(3, round_limit=3, seed=3).run()
    return t.write_log(tmp_path_factory.mktemp("g") / "log")


def one_line(out: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("content", "en", "de"), [
    (b"", "is not a game log: it is empty", "ist kein Spielprotokoll: die Datei ist leer"),
    (bytes(range(256)) * 3, "is not a game log: its first record is cut short",
     "ist kein Spielprotokoll: der erste Eintrag ist abgeschnitten"),
    (b"\x00\x00\x00\x05abcde", "is not a game log: its first record is not a game's beginning",
     "ist kein Spielprotokoll: der erste Eintrag ist kein Spielbeginn"),
])
def test_a_file_that_is_no_game_log_is_one_line_in_the_players_language(tmp_path: Path, content: bytes, en: str,
                                                                        de: str) -> None:
    """(before: "THE LOG WAS TAMPERED WITH … list index out of range" for an empty file or random bytes)"""
    path = tmp_path / "log"
    path.write_bytes(content)
    for cmd in ("audit", "replay"):
        out = run(cmd, str(path))
        assert out.returncode == 2 and one_line(out).startswith(f"ad-p2p {cmd}: {path} {en}")
        out = run(cmd, str(path), "--lang", "de")
        assert out.returncode == 2 and one_line(out).startswith(f"ad-p2p {cmd}: {path} {de}")


def test_replay_of_a_log_cut_short_says_where_it_ends_and_fails(game_log: Path, tmp_path: Path) -> None:
    """(before: "winner(s): — / Audit: not run" and exit 0)"""
    raws, _ = read_records(game_log)
    cut = tmp_path / "log"
    cut.write_bytes(b"".join(struct.pack(">I", len(r)) + r for r in raws[:30]) + b"\x00\x00\x01")
    out = run("replay", "--all", str(cut))
    assert out.returncode == 1
    assert one_line(out) == (f"ad-p2p replay: the log {cut} ends after 30 entries, before the game did: no result and "
                             "no audit to show (a log cut short, or a game still being played: ad-p2p join --resume "
                             "goes on with it)")
    out = run("replay", "--all", "--lang", "de", str(cut))
    assert out.returncode == 1 and one_line(out).startswith(f"ad-p2p replay: das Protokoll {cut} endet nach 30")
    assert run("replay", "--all", str(game_log)).returncode == 0  # a whole game still replays to its end


def test_audit_numbers_seats_from_1_in_text_and_json_and_speaks_german(game_log: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(game_log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats_numbered_from"] == 1 and [p["seat"] for p in data["players"]] == [1, 2, 3]
    assert all(1 <= w <= 3 for w in data["winners"]) and data["winners"]
    assert main(["audit", str(game_log)]) == 0
    text = capsys.readouterr().out
    winners = [data["players"][w - 1]["name"] for w in data["winners"]]
    assert "  seat 1 " in text and "  seat 3 " in text and "seat 0" not in text
    assert f"  winner(s): {', '.join(winners)}" in text
    assert main(["audit", str(game_log), "--lang", "de"]) == 0
    text = capsys.readouterr().out
    assert "  Platz 1 " in text and ": ehrlich" in text and "Ergebnis: keine Verstöße" in text


def _interrupting(*_: object, **__: object) -> object:
    raise KeyboardInterrupt  # what Python raises on a person's Ctrl-C (a test worker may not get the signal itself)


async def _interrupting_scan(*_: object, **__: object) -> object:
    import trio

    await trio.sleep(0)
    raise KeyboardInterrupt  # inside trio's run, from a task: it comes out of trio.run (perhaps in a group)


@pytest.mark.parametrize("cmd", ["audit", "replay", "sim", "tables"])
def test_ctrl_c_in_any_command_is_one_line_and_130(cmd: str, game_log: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """(before: a KeyboardInterrupt traceback in audit, replay, sim and tables)"""
    import adp2p.cli.access_denied.sim
    import adp2p.cli.cmd_tables
    import adp2p.cli.tui.replay
    import adp2p.p2p.audit

    argv = {"audit": ["audit", str(game_log)], "replay": ["replay", "--all", str(game_log)],
            "sim": ["sim", "--games", "5"], "tables": ["tables", "--seconds", "30"]}[cmd]
    monkeypatch.setattr(adp2p.p2p.audit, "_audit", _interrupting)
    monkeypatch.setattr(adp2p.cli.tui.replay, "fold_log", _interrupting)
    monkeypatch.setattr(adp2p.cli.access_denied.sim, "simulate", _interrupting)
    monkeypatch.setattr(adp2p.cli.cmd_tables, "scan", _interrupting_scan)
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err.strip() == f"ad-p2p {cmd}: interrupted" and "Traceback" not in err
    assert main([*argv, "--lang", "de"] if cmd in ("audit", "replay") else argv) == 130


@pytest.mark.parametrize(("table", "lang", "said"), [
    ("", "en", "ad-p2p join: --table: a table's name is 1..64 bytes of printable text, not ''"),
    ("   ", "de", "ad-p2p join: --table: der Name eines Tisches ist 1..64 Bytes druckbarer Text, nicht '   '"),
])
def test_a_table_without_a_name_is_refused(table: str, lang: str, said: str) -> None:
    out = run("join", "--table", table, "--lang", lang, "--no-mdns")
    assert out.returncode == 2 and one_line(out) == said


def test_a_mistyped_dev_command_is_one_line() -> None:
    out = subprocess.run([str(ROOT / "dev"), "plya"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "command not found" not in out.stderr
    # (the last line: a first run sets up .venv before, as every ./dev command does)
    assert out.stderr.strip().splitlines()[-1] == "dev: unknown command 'plya' (play, test, ad-p2p, bench, help)"


def test_sim_prints_words_not_python_dicts() -> None:
    out = run("sim", "--games", "6", "--players", "3", "--bots", "deduction,random")
    assert out.returncode == 0, out.stderr
    seats = next(line for line in out.stdout.splitlines() if "wins by seat:" in line)
    strategies = next(line for line in out.stdout.splitlines() if "wins by strategy:" in line)
    assert "{" not in out.stdout and "seat 1: " in seats and "seat 3: " in seats and "seat 0" not in seats
    assert "deduction " in strategies and "random " in strategies and "% of its seats" in strategies


def test_a_bots_default_name_fits_a_table_cell_and_tells_bots_apart() -> None:
    """(before: "deduction-bot" for every bot, cut to "deducti…" in the tables, all alike: P1..Pn instead)"""
    import re

    from adp2p.cli.access_denied.screen import NAME_MAX, short_names
    from adp2p.cli.cmd_join import default_name

    names = [default_name("deduction") for _ in range(5)]
    assert all(len(n) <= NAME_MAX and re.fullmatch(r"Bot-[0-9a-f]{4}", n) for n in names)
    assert short_names(["Bot-3fa1", "Bot-07c2", "Bot-3fb1"]) == ["Bot-3fa1", "Bot-07c2", "Bot-3fb1"]  # whole
    assert default_name(None) == "player"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["actions: one per Root access", "hand limit: the number of sectors", "drawing: as many cards"]),
    ("de", ["Aktionen: eine je Root-Zugang", "Handlimit: die Zahl der Sektoren", "Ziehen: so viele Karten"]),
])
def test_the_in_game_rules_say_hand_limit_drawing_and_actions(lang: str, words: list[str]) -> None:
    """(before: `rules` at the prompt had the turn and the bonuses only)"""
    from adp2p.cli.access_denied.reference import rules_lines
    from adp2p.engine.access_denied.api import new_game
    from adp2p.engine.access_denied.profiles import get_profile

    lines = rules_lines(new_game(get_profile("classic"), 3), lang, 78)
    text = "\n".join(lines)
    assert all(w in text for w in words)
    bonuses = next(i for i, line in enumerate(lines) if line.startswith(("Sector bonuses", "Sektor-Boni")))
    assert all(text.index(w) < len("\n".join(lines[:bonuses])) for w in words)  # before the bonuses' heading
