"""`ad-p2p sim --game classified`: in-process bot games through Classified Information's engine
(engine/classified/sim.py): wins by strategy, how games ended, events per game, speed."""

from __future__ import annotations

import argparse
import json

from adp2p.engine.classified.profiles import get_profile
from adp2p.engine.classified.sim import simulate


def run_sim(args: argparse.Namespace) -> int:
    bots = list(args.bots)
    strategies = bots if len(bots) == 2 else [bots[0], bots[0]]
    out = simulate(args.games, strategies, args.seed, get_profile(args.rules))
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    wins = ", ".join(f"{k} {v}" for k, v in sorted(out["wins"].items()))
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(out["reasons"].items()))
    print(f"{out['games']} games of Classified Information, {out['profile']}, 2 players, bots "
          f"{','.join(strategies)}")
    print(f"  wins by strategy:  {wins} (a mirror match counts each win once per seat's strategy)")
    print(f"  how they ended:    {reasons}; {out['unfinished']} unfinished")
    print(f"  events per game:   mean {out['events_mean']}")
    speed = out["games"] / out["cpu_seconds"] if out["cpu_seconds"] else 0.0
    print(f"  speed:             {speed:.1f} games/s ({out['cpu_seconds']} s CPU)")
    return 0
