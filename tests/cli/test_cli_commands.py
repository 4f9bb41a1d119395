"""The `ad-p2p` commands run as a user would run them (in-process through `main`, and once as a real
subprocess through the installed console script)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest
from adp2p.cli.main import main


def test_cards_json_lists_all_63_with_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 63
    counts = {c: sum(1 for d in data if d["code"] == c) for c in "ABCDEF"}
    assert counts == {"A": 8, "B": 9, "C": 10, "D": 11, "E": 12, "F": 13}
    dsl = next(d for d in data if d["key"] == "dsl")
    assert dsl["kinds"] == ["upgrade"] and dsl["password_code"] == "C"
    assert dsl["requires"] == {"sector": "telecomm", "level": "User"}


def test_cards_german_titles_and_texts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--json", "--lang", "de"]) == 0
    data = {d["key"]: d for d in json.loads(capsys.readouterr().out)}
    assert data["trojan_horse"]["title"] == "Trojaner"
    assert data["firewall"]["text"].startswith("Spiele Firewall")


ENGLISH_FIELDS = re.compile(r"\brequires\b|password has|\((upgrade|reaction|harmful|virus|companion|sector)\b|"
                            r"\bplayers\b|\bactions\b|hand limit|drawing|bonuses|card texts|profiles")


def test_cards_in_german_has_german_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """`cards --lang de`: the kinds, the requirement, the password condition and the sector names in German too."""
    assert main(["cards", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert not ENGLISH_FIELDS.search(out), ENGLISH_FIELDS.search(out)
    assert "benötigt: User+ Nachrichten, dein Passwort enthält A" in " ".join(out.split())
    assert "(Upgrade)" in out and "(jederzeit)" in out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_describes_every_profile_in_words(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`rules` (and `rules --lang de`): every profile in sentences, not a table cut at 80 columns of codes."""
    assert main(["rules", "--lang", lang]) == 0
    out = capsys.readouterr().out
    for name in ("classic", "classic-de", "retro2013", "two-player"):
        assert re.search(rf"^{name} — ", out, re.M), out
    assert all(len(line) <= 80 for line in out.splitlines())
    if lang == "de":
        assert not ENGLISH_FIELDS.search(out), ENGLISH_FIELDS.search(out)
        assert "Handlimit: 6 Karten" in out and "Sektor-Boni: jeder Root-Inhaber" in out
    else:
        assert "hand limit: 6 cards" in out and "sector bonuses: every player with Root" in out


def test_cards_table_renders_every_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards"]) == 0
    out = capsys.readouterr().out
    for title in ("Popular War", "Mother's Maiden Name", "The NSA is Watching You", "Blog"):
        assert title in out


def test_rules_json_names_every_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    names = [r["name"] for r in json.loads(capsys.readouterr().out)]
    assert names == ["classic", "classic-de", "retro2013", "two-player"]


def test_console_script_runs_as_subprocess() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "adp2p.cli", "rules", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout)[0]["name"] == "classic"


def test_unknown_profile_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["sim", "--rules", "nope"])
    assert "invalid choice" in capsys.readouterr().err


def test_play_rejects_impossible_player_count() -> None:
    from adp2p.cli.cmd_play import run_play

    args = Namespace(
        rules="two-player",
        goal=None,
        round_limit=10,
        stalemate=0,
        bots=3,
        watch=True,
        strategy="random",
        lang="en",
        seed=1,
    )
    with pytest.raises(SystemExit, match="needs 2-2 players"):
        run_play(args, out=io.StringIO(), inp=io.StringIO())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_end_of_network_game_lines_put_a_proven_cheat_first(lang: str) -> None:
    from adp2p.cli.play_end import audit_line
    from adp2p.p2p.peer import Outcome

    clean = Outcome(audit_ok=True, entries=42)
    counted = "(42 entries)" if lang == "en" else "(42 Einträge)"
    assert "\n" not in audit_line(clean, lang) and counted in audit_line(clean, lang)
    caught = Outcome(audit_ok=True, entries=42, verdict="p1 (seat 2, key ab): entry: seat 2 signed ...")
    first, second = audit_line(caught, lang).split("\n")
    assert caught.verdict in first and ("Cheating" in first if lang == "en" else "Betrug" in first)
    assert second == audit_line(clean, lang)
    bad = Outcome(audit_ok=False, verdict="v", violations=["p0: commitment: x", "p0: shuffle: y"])
    lines = audit_line(bad, lang).split("\n")
    assert lines[0].endswith(": v") and lines[2:] == ["  p0: commitment: x", "  p0: shuffle: y"]


def test_table_diagnostics_never_reach_a_players_terminal() -> None:
    """Without ADP2P_LOG, a warning of the table (a bad message, a dropped connection), traceback and all, is not
    printed on the player's terminal (Python prints unhandled warnings to stderr)."""
    code = (
        "import logging; from adp2p.cli.main import main; main(['rules']); "
        "logging.getLogger('adp2p.peer').warning('LEAKED', exc_info=ValueError('x'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "LEAKED" not in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_audit_starts_without_the_network_stack() -> None:
    """`ad-p2p audit` builds the whole parser (every command's options) but imports neither trio nor the peer: a fresh
    auditor's start-up (benchmarks/bench_audit.py) pays only for what the audit uses."""
    log = Path(__file__).resolve().parents[1] / "p2p" / "data" / "v6_access_denied_3p.log"
    probe = (
        "import sys; from adp2p.cli.main import main; rc = main(['audit', sys.argv[1]]); "
        "print(sorted(m for m in ('trio', 'adp2p.p2p.peer', 'adp2p.cli.cmd_join') if m in sys.modules))"
    )
    res = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True, text=True, timeout=300)
    assert "Result: no violations" in res.stdout, res.stdout + res.stderr
    assert res.stdout.strip().splitlines()[-1] == "[]", res.stdout
