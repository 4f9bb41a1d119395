"""`ad-p2p join --word`: a table's shared word (p2p/table_word.py). An empty word is one line and exit 2; a word
never appears in what the peer prints or writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent / "ad-p2p"
# `ad-p2p` whose lobby gives up after LOBBY seconds (a player's lobby waits at least 30 s, p2p/peer/common.py): the
# same command, the same exit, sooner
LOBBY = 2.0
SHORT_LOBBY = [sys.executable, "-c",
               "import sys; import adp2p.cli.cmd_join as j; w = j.with_patience\n"
               "def short(cfg, patience):\n    cfg = w(cfg, patience); cfg.lobby_timeout = " + repr(LOBBY) +
               "; return cfg\n"
               "j.with_patience = short\nfrom adp2p.cli.main import main; sys.exit(main(sys.argv[1:]))"]


def test_an_empty_word_is_one_line_and_exit_2(tmp_path: Path) -> None:
    out = subprocess.run(
        [str(BIN), "join", "--no-mdns", "--bot", "random", "--word", "   ", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "a table word is 1 to 256 bytes" in out.stderr.strip().splitlines()[-1], out.stderr


def test_the_word_is_written_nowhere_and_said_nowhere(tmp_path: Path) -> None:
    """A lone peer with a word waits out a short lobby: its output and its data directory hold no trace of it."""
    out = subprocess.run(
        [*SHORT_LOBBY, "join", "--no-mdns", "--bot", "random", "--word", "secret-otter-7", "--data-dir", str(tmp_path),
         "--patience", "1", "--table", "w"],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert out.returncode == 3, out.stderr
    assert f"within {LOBBY:.0f} s" in out.stdout + out.stderr  # (the lobby's own timeout line: the short lobby)
    assert "secret-otter-7" not in out.stdout + out.stderr
    for f in tmp_path.rglob("*"):
        if f.is_file():
            assert b"secret-otter-7" not in f.read_bytes(), f
