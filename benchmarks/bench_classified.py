"""Classified Information's engine and bots: 1,000 in-process games of the deduction bot against the random bot
(seats and the first player alternating; both decide on their own views), 1,000 random games (every one must end),
and, with `guilds`, the guild assignments tried for ruling C-GUILDS (the spread of the deduction bots' win rate by
their own Suitcase Number). CPU seconds, with the load average beside every figure.

Run: ./dev bench classified [games] [guilds] [lookahead[=N]] [early=E] [sure=K] [seeds=0-3]   (figures, not a test)
seeds: the duel's seed sets; lookahead=N: the deduction bot's determinized look-ahead with N deals a decision
(without: DeductionBot.DEALS, 64, on the final turns only; lookahead=0: the scores alone; bare `lookahead`: 48);
early: it looks ahead with E cards or fewer left to draw (default 0);
sure: the play-outs overrule its score only when they win more than K deals more (default 0)
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections import Counter
from typing import Any

from adp2p.engine.classified import catalog
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.bots.deduction import DeductionBot
from adp2p.engine.classified.sim import play_game, simulate


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


class Timed:
    """A bot whose decisions are counted and timed (CPU)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.calls, self.cpu, self.slowest = bot, 0, 0.0, 0.0
        self.times: list[float] = []  # every decision's CPU seconds

    def __call__(self, *args: Any) -> Any:
        t0 = time.process_time()
        try:
            return self.bot(*args)
        finally:
            dt = time.process_time() - t0
            self.cpu += dt
            self.slowest = max(self.slowest, dt)
            self.calls += 1
            self.times.append(dt)


TIMED = [0, 0.0, 0.0, 0]  # the deduction bot's decisions, their CPU seconds, the slowest one, look-aheads
TIMES: list[float] = []  # every decision's CPU seconds (for the median and the 90th percentile)


def duel(games: int, seed: int = 0) -> tuple[int, int, int]:
    """The deduction bot's wins, ties and losses against the random bot (a tie is not a win)."""
    won = tied = lost = 0
    for g in range(games):
        me = g % 2
        bots: list[Any] = [make_bot("random", seed * 1_000 + g + 99), make_bot("random", 0)]
        bots[me] = timed = Timed(make_bot("deduction", seed * 1_000 + g))
        st = play_game(bots, seed * 100_000 + g, start=(g // 2) % 2).state
        won += st.winners == [me]
        tied += not st.winners
        lost += st.winners == [1 - me]
        TIMED[0] += timed.calls
        TIMED[1] += timed.cpu
        TIMED[2] = max(TIMED[2], timed.slowest)
        TIMED[3] += timed.bot.looked
        TIMES.extend(timed.times)
    return won, tied, lost


ASSIGNMENTS = {
    "G258 A369 S147 (ruled)": ([2, 5, 8], [3, 6, 9], [1, 4, 7]),
    "G348 A157 S269": ([3, 4, 8], [1, 5, 7], [2, 6, 9]),
    "G248 A157 S369": ([2, 4, 8], [1, 5, 7], [3, 6, 9]),
    "G248 A137 S569": ([2, 4, 8], [1, 3, 7], [5, 6, 9]),
    "G478 A136 S259": ([4, 7, 8], [1, 3, 6], [2, 5, 9]),
    "G258 A169 S347": ([2, 5, 8], [1, 6, 9], [3, 4, 7]),
}


def guilds(games: int) -> None:
    original = catalog.cards
    base = original()
    try:
        for name, (g, a, s) in ASSIGNMENTS.items():
            guild = {**dict.fromkeys(g, "guard"), **dict.fromkeys(a, "assassin"), **dict.fromkeys(s, "sentinel")}
            new = tuple(dataclasses.replace(c, guild=guild[c.number]) for c in base)
            catalog.cards = lambda new=new: new  # type: ignore[assignment,misc]
            wins: Counter[int] = Counter()
            seats: Counter[int] = Counter()
            for i in range(games):
                bots = [make_bot("deduction", i), make_bot("deduction", i + 7)]
                st = play_game(bots, 10**6 + i, start=i % 2).state
                for p in (0, 1):
                    n = st.faces[st.suitcase[p]]
                    seats[n] += 1
                    wins[n] += st.winners == [p]
            rates = [wins[n] / seats[n] for n in seats]
            print(f"guilds {name:<24} deduction vs deduction, {games} games: win rate by own Suitcase "
                  f"{min(rates):.2f}..{max(rates):.2f} (spread {max(rates) - min(rates):.2f}); {load()}", flush=True)
    finally:
        catalog.cards = original  # type: ignore[assignment]


def main(games: int, with_guilds: bool, seeds: list[int]) -> None:
    rates = []
    for seed in seeds:
        t0 = time.process_time()
        won, tied, lost = duel(games, seed)
        dt = time.process_time() - t0
        rates.append(won / games)
        print(f"deduction vs random, {games} games (seed {seed}): deduction wins {won / games:.1%} ({won}), ties "
              f"{tied}, random wins {lost}; {dt:.1f} s CPU; {load()}", flush=True)
    if len(seeds) > 1:
        print(f"deduction vs random, {games} games on each of seeds {seeds[0]}-{seeds[-1]}: "
              f"{' / '.join(f'{r:.1%}' for r in rates)}, mean {sum(rates) / len(rates):.2%}, the lowest "
              f"{min(rates):.1%}; {load()}", flush=True)
    ts = sorted(TIMES) or [0.0]
    print(f"deduction bot: {TIMED[0]} decisions ({TIMED[3]} looked ahead) in {games * len(seeds)} games; CPU per "
          f"decision: mean {1000 * TIMED[1] / max(1, TIMED[0]):.2f} ms, median {1000 * ts[len(ts) // 2]:.2f} ms, 90th "
          f"percentile {1000 * ts[len(ts) * 9 // 10]:.2f} ms, the slowest {1000 * TIMED[2]:.1f} ms; {load()}",
          flush=True)
    out = simulate(games, ["random", "random"], seed=1)
    print(f"random vs random, {games} games: ended {games - out['unfinished']}/{games}, reasons {out['reasons']}, "
          f"{out['events_mean']} events a game; {out['cpu_seconds']} s CPU; {load()}", flush=True)
    if with_guilds:
        guilds(max(100, games * 4 // 5))


if __name__ == "__main__":
    # `lookahead` / `lookahead=N`: the deduction bot's look-ahead with N deals a decision (bare: 48; without: DEALS);
    # `early=E`: it looks ahead with E cards or fewer left to draw (default DeductionBot.EARLY)
    look = next((a for a in sys.argv[2:] if a.split("=")[0] == "lookahead"), None)
    if look is not None:
        DeductionBot.DEALS = int(look.partition("=")[2] or 48)
    early = next((a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("early=")), None)
    if early is not None:
        DeductionBot.EARLY = int(early)
    # `sure=K`: the play-outs overrule the score only when they win more than K deals more (default 0)
    DeductionBot.SURE = int(next((a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("sure=")), "0"))
    # `seeds=0-3`: the duel on each of these seed sets (default: seed 0 only)
    spec = next((a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("seeds=")), "0")
    lo, _, hi = spec.partition("-")
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, "guilds" in sys.argv[2:],
         list(range(int(lo), int(hi or lo) + 1)))
