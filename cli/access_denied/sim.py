"""`ad-p2p sim` of Access Denied: in-process bot games through its engine; winners by seat and strategy, turns per
game and games per second."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from typing import Any

from adp2p.cli.cmd_sim import by_strategy
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.sim import play_game


def simulate(
    profile_name: str,
    players: int,
    games: int,
    strategies: list[str],
    seed: int,
    round_limit: int,
    goal: int | None = None,
    stalemate: int | None = None,
) -> dict[str, object]:
    prof = get_profile(profile_name, goal=goal, round_limit=round_limit, stalemate_rounds=stalemate)
    seat_wins: Counter[int] = Counter()
    strat_wins: Counter[str] = Counter()
    strat_seats: Counter[str] = Counter()
    turns: list[int] = []
    limit_hits = stalemates = 0
    t0 = time.perf_counter()
    for g in range(games):
        # rotate strategies around the table so no strategy keeps the same seat
        seats = [strategies[(i + g) % len(strategies)] for i in range(players)]
        bots = [make_bot(name, seed * 1_000_003 + g * 17 + i) for i, name in enumerate(seats)]
        rec = play_game(prof, bots, seed * 7919 + g)
        st = rec.state
        turns.append(st.turn_no)
        if st.end_reason is not None and st.end_reason.key == "round_limit":
            limit_hits += 1
        elif st.end_reason is not None and st.end_reason.key == "stalemate":
            stalemates += 1
        for name in seats:
            strat_seats[name] += 1
        for w in st.winners:
            seat_wins[w] += 1
            strat_wins[seats[w]] += 1
    dt = time.perf_counter() - t0
    return {
        "profile": prof.name,
        "players": players,
        "games": games,
        "strategies": strategies,
        "wins_by_seat": {str(k): seat_wins[k] for k in range(players)},
        "wins_by_strategy": dict(strat_wins),
        "win_rate_per_seat_by_strategy": {k: round(strat_wins[k] / strat_seats[k], 4) for k in strat_seats},
        "turns_median": statistics.median(turns) if turns else 0,
        "turns_max": max(turns) if turns else 0,
        "ended_by_round_limit": limit_hits,
        "ended_by_stalemate": stalemates,
        "seconds": round(dt, 3),
        "games_per_second": round(games / dt, 2) if dt else 0.0,
    }


def by_seat(out: dict[str, Any]) -> str:
    """"seat 1: 5 (25%), seat 2: 9 (45%)": seats numbered from 1, the share of all games."""
    games = max(1, int(out["games"]))
    return ", ".join(f"seat {int(k) + 1}: {n} ({100 * n / games:.0f}%)" for k, n in out["wins_by_seat"].items())


def run_sim(args: argparse.Namespace) -> int:
    """`sim` of Access Denied: wins by seat and strategy, turns per game, speed (or the figures as JSON)."""
    strategies = list(args.bots)  # checked by the parser (cli/checks.py)
    out = simulate(
        args.rules, args.players, args.games, strategies, args.seed, args.round_limit, args.goal, args.stalemate or None
    )
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['games']} games, {out['profile']}, {out['players']} players, bots {','.join(strategies)}")
    print(f"  wins by seat:      {by_seat(out)}")
    print(f"  wins by strategy:  {by_strategy(out)}")
    print(
        f"  turns per game:    median {out['turns_median']}, max {out['turns_max']}; "
        f"{out['ended_by_round_limit']} ended at the {args.round_limit}-round limit"
        + (f", {out['ended_by_stalemate']} in a stalemate" if args.stalemate else "")
    )
    print(f"  speed:             {out['games_per_second']} games/s ({out['seconds']} s)")
    return 0
