"""The command of a local Hacker game against bots: `python -m adp2p.cli.hacker [options]` (and, once cli/main.py
routes `play --game hacker --local` here, `ad-p2p play --game hacker --local`): `add_args` and `run`."""

from __future__ import annotations

import argparse

from adp2p.engine.hacker.bots import STRATEGIES
from adp2p.engine.hacker.profiles import PROFILES


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=range(3, 7), default=4, help="players at the table (default 4)")
    p.add_argument("--seat", type=int, default=1, help="your seat, 1 to --players (default 1)")
    p.add_argument("--strategy", choices=list(STRATEGIES), default="planner", help="the bots' strategy")
    p.add_argument("--rules", choices=list(PROFILES), default="basic", help="Hacker's rule profile (default basic)")
    p.add_argument("--round-limit", type=int, default=None, help="end with the most codes after this many rounds")
    p.add_argument("--lang", choices=["en", "de"], default="en", help="language of the game screen")
    p.add_argument("--seed", type=int, default=None, help="the game's seed (default: a random one)")


def run(args: argparse.Namespace) -> int:
    from adp2p.cli.hacker.human import Human
    from adp2p.cli.hacker.local import play_local

    if not 1 <= args.seat <= args.players:
        print(f"--seat must be 1 to {args.players}")
        return 2
    try:
        play_local(Human(args.lang), seat=args.seat - 1, players=args.players, profile=args.rules,
                   bots=args.strategy, seed=args.seed, round_limit=args.round_limit)
    except KeyboardInterrupt:
        return 130
    return 0  # a game played to its end, or left with q
