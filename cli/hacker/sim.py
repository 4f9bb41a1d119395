"""`ad-p2p sim --game hacker`: in-process bot games through Hacker's engine; wins by strategy, rounds per game and
games per second."""

from __future__ import annotations

import argparse
import json

from adp2p.cli.cmd_sim import by_strategy
from adp2p.engine.hacker.profiles import get_profile as hacker_profile
from adp2p.engine.hacker.sim import simulate as hacker_simulate


def run_sim(args: argparse.Namespace) -> int:
    """`sim --game hacker`: Hacker's engine (engine/hacker/), its bots and profiles."""
    prof = hacker_profile(args.rules, goal=args.goal, round_limit=args.round_limit)
    out = hacker_simulate(prof, args.players, args.games, list(args.bots), args.seed)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['games']} games of Hacker, {out['profile']}, {out['players']} players, bots {','.join(args.bots)}")
    print(f"  wins by strategy:  {by_strategy(out)}")
    print(f"  rounds per game:   mean {out['rounds_mean']}, median {out['rounds_median']}, max {out['rounds_max']}; "
          f"{out['ended_by_round_limit']} ended at the {args.round_limit}-round limit, {out['unfinished']} unfinished")
    print(f"  speed:             {out['games_per_second']} games/s ({out['seconds']} s)")
    return 0
