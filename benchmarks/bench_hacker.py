"""Hacker's engine: 1,000 in-process bot games at 3 and at 6 players (random and planner bots rotated around the
table, then planner-only tables): rounds per game, win rates per bot, games per second, and whether every game
ended (by codes or at the round limit, H-LIMIT).

Run: ./dev bench hacker [games]   (figures, not a test)
"""

from __future__ import annotations

import sys

from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.sim import simulate


def main(games: int) -> None:
    prof = get_profile("basic")
    for players in (3, 6):
        for bots in (["random", "planner"], ["planner"]):
            out = simulate(prof, players, games, bots, seed=1)
            print(f"{players}p {','.join(bots):<15} {games} games: rounds mean {out['rounds_mean']:5.1f} "
                  f"median {out['rounds_median']:4} max {out['rounds_max']:3}; win rate per seat "
                  f"{out['win_rate_per_seat_by_strategy']}; {out['games_per_second']:6.1f} games/s; "
                  f"ended {games - out['unfinished']}/{games} ({out['ended_by_round_limit']} at the "
                  f"{prof.round_limit}-round limit)", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
