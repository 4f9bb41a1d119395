"""`ad-p2p sim`: in-process bot games through a game's engine (each game's own: cli/<game>/sim.py); prints winners
by strategy, the length of the games and games per second."""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.checks import commands


def by_strategy(out: dict[str, Any]) -> str:
    """"deduction 12 wins (40.0% of its seats), random 3 wins (10.0% of its seats)"; a strategy that never won too."""
    wins, rates = out["wins_by_strategy"], out["win_rate_per_seat_by_strategy"]
    return ", ".join(f"{k} {wins.get(k, 0)} win{'s' if wins.get(k, 0) != 1 else ''} ({100 * r:.1f}% of its seats)"
                     for k, r in rates.items())


def run_sim(args: argparse.Namespace) -> int:
    """`sim` of the game `--game` names (checked by cli/checks.py): its client's `commands.sim`."""
    return commands(args.game).sim(args)
