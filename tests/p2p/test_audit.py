"""The offline audit of a game log: honest games (mixed profiles, 2-6 players) are clean with no verdict and
no violation; a log edited, cut or reordered after the game is reported at the seq where it breaks; the
`audit` command."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
from _zoo import Table
from adp2p.cli.main import main
from adp2p.p2p.audit import audit_log, history, read_records

SETUPS = [("classic", n) for n in (3, 4, 5, 6)] + [("retro2013", n) for n in (3, 4, 6)] + [("two-player", 2)]


@pytest.mark.parametrize("k", range(16))  # each setup twice; `./dev bench audit` plays 200 such games
def test_honest_games_no_false_accusation(k: int, tmp_path: Path) -> None:
    profile, n = SETUPS[k % len(SETUPS)]
    t = Table(n, profile=profile, round_limit=3 + k % 4, seed=k, bots="deduction,random").run()
    assert t.verdict_seats() == set() and t.abandoned is None
    for m in t.ms:
        assert m.verdict is None and m.audit_report is not None and m.audit_report.ok, m.audit_report
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
    assert res.winners == t.ms[0].state.winners


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = Table(3, round_limit=3, seed=3).run()
    return t.write_log(tmp_path_factory.mktemp("g") / "log")


def _rewrite(src: Path, dst: Path, raws: list[bytes]) -> Path:
    dst.write_bytes(b"".join(struct.pack(">I", len(r)) + r for r in raws))
    return dst


def test_edited_entry_is_reported_at_its_seq(game_log: Path, tmp_path: Path) -> None:
    raws, _ = read_records(game_log)
    r = bytearray(raws[20])
    r[-70] ^= 1  # a byte of the signed header
    raws[20] = bytes(r)
    res = audit_log(_rewrite(game_log, tmp_path / "log", raws))
    assert res.tampered is not None and res.tampered.seq == 20 and not res.ok


def test_removed_and_reordered_entries_reported(game_log: Path, tmp_path: Path) -> None:
    raws, _ = read_records(game_log)
    res = audit_log(_rewrite(game_log, tmp_path / "a", raws[:15] + raws[16:]))
    assert res.tampered is not None and res.tampered.seq == 15
    res = audit_log(_rewrite(game_log, tmp_path / "b", [*raws[:30], raws[31], raws[30], *raws[32:]]))
    assert res.tampered is not None and res.tampered.seq == 30


def test_cut_log_is_incomplete(game_log: Path, tmp_path: Path) -> None:
    raws, _ = read_records(game_log)
    res = audit_log(_rewrite(game_log, tmp_path / "log", raws[:-1]))
    assert not res.ok and not res.complete


def test_audit_and_replay_commands(game_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(game_log)]) == 0
    out = capsys.readouterr().out
    assert "honest" in out and "no violations" in out
    assert main(["audit", str(game_log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and all(p["honest"] for p in data["players"])
    lines, turns = history(game_log)
    assert turns and lines[turns[0]].startswith("Turn 1")
