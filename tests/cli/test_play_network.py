"""`ad-p2p play` over the real protocol (your seat watched by a bot, bot peers as processes): its end in German."""

from __future__ import annotations

import re
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


def test_play_name_the_lobby_shows_our_address_and_leaving_says_how_to_come_back(tmp_path: Path) -> None:
    """`play --name Zoe`: the table knows us as Zoe; the lobby line says where we can be reached (HOST:PORT, our
    own listening address); input ending at the first decision leaves at once with the command to resume and 130."""
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--name", "Zoe", "--bots", "2", "--round-limit", "1"]
    cmd += ["--think", "0", "--ui", "lines", "--data-dir", str(tmp_path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 130, out.stdout[-2000:] + out.stderr[-2000:]
    assert re.search(r"^Waiting at table '\S+' for 3 players \(you are Zoe, key [0-9a-f-]+, at 127\.0\.0\.1:\d{2,5}\)",
                     out.stdout, re.M), out.stdout[:600]
    assert "Zoe (you)" in out.stdout and "Traceback" not in out.stdout + out.stderr
    assert re.search(r"Left the table \(resume with: \S*ad-p2p join --resume \S+\)", out.stderr), out.stderr
