"""`ad-p2p join` on OS errors: one line naming what failed, a non-zero exit, no traceback, within a bound."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent / "ad-p2p"


def join(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN), "join", "--no-mdns", "--bot", "random", "--players", "3", "--table", "err", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = join("--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path))
    assert out.returncode == 3, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ad-p2p join: ") and "in use" in lines[0], out.stderr


def test_data_dir_that_cannot_be_written(tmp_path: Path) -> None:
    """(a path under a file: unwritable even for root, the way a read-only directory is for a user)"""
    f = tmp_path / "file"
    f.write_text("x")
    out = join("--host", "127.0.0.1", "--data-dir", str(f / "data"))
    assert out.returncode == 3 and "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines == [f"ad-p2p join: the data directory {f / 'data'} cannot be made: a file is in the way; give "
                     "another with --data-dir"], out.stderr
    out = join("--host", "127.0.0.1", "--data-dir", str(f), "--lang", "de")  # the file itself; in German
    assert out.returncode == 3 and out.stderr.strip().splitlines() == [
        f"ad-p2p join: das Datenverzeichnis {f} lässt sich nicht anlegen: eine Datei ist im Weg; gib mit --data-dir "
        "ein anderes an"], out.stderr


def test_resume_from_a_directory_without_a_game(tmp_path: Path) -> None:
    out = join("--host", "127.0.0.1", "--resume", str(tmp_path))
    assert out.returncode == 2 and "Traceback" not in out.stderr + out.stdout, out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines == [f"ad-p2p join: --resume: {tmp_path} is not a game directory (it holds no log)"], lines
    (tmp_path / "log").write_bytes(b"")
    out = join("--host", "127.0.0.1", "--resume", str(tmp_path))
    assert out.returncode == 2 and out.stderr.strip().splitlines() == [
        f"ad-p2p join: --resume: {tmp_path} holds no secrets file (this machine never sat at that game)"]


def test_a_name_that_cannot_be_a_players_name(tmp_path: Path) -> None:
    """Too long, padded, or with a control character: one line naming --name, exit 1 (before: a traceback)."""
    for bad in ("x" * 100, " padded", "line\nbreak"):
        for cmd in (["join", "--no-mdns", "--bot", "random", "--players", "3"], ["play", "--bots", "2"]):
            out = subprocess.run(
                [str(BIN), *cmd, "--name", bad, "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=30
            )
            assert out.returncode == 1 and "Traceback" not in out.stderr + out.stdout, out.stderr
            lines = out.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"ad-p2p {cmd[0]}: --name must be"), out.stderr
