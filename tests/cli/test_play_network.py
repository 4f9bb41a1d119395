"""`ad-p2p play` over the real protocol (your seat watched by a bot, bot peers as processes): its end in German."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_a_watched_network_game_ends_in_german_with_exit_0(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--watch", "--bots", "2", "--round-limit", "1", "--lang", "de"]
    cmd += ["--think", "0", "--seed", "4", "--data-dir", str(tmp_path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "Spielprotokoll: " in out.stdout and "Game log" not in out.stdout, out.stdout[-1500:]
    assert "Prüfung:" in out.stdout and "Traceback" not in out.stdout + out.stderr
    for name in ("Bot-1", "Bot-2"):  # the audit's verdict per player, in German
        assert f"\n  {name}: ehrlich\n" in out.stdout, out.stdout[-1500:]
    english = ("Waiting at table", "sat down", "begins", "Setup:", "Shuffling", "Dealing", "Game over", "Audit",
               "Log:", "players", "winner(s)", "Winner", "access", "card(s)", "watcher", "this machine")
    said = [line for line in out.stdout.splitlines() if any(w in line for w in english)]
    assert not said, said  # every line the table streams reads German (the lobby, the setup, the game, the end)
