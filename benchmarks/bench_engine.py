"""Engine throughput: in-process bot games and events per CPU second (process time), per profile and player
count, and the cost of one `apply` (with its state copy) against the cost of one `legal` enumeration.

Run: ./dev bench engine   (figures, not a test)
"""

from __future__ import annotations

import statistics
import sys
import time

from adp2p.engine.access_denied.api import apply, legal, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.sim import play_game


def bench(profile: str, players: int, strategy: str, games: int) -> None:
    prof = get_profile(profile, round_limit=200)
    t0 = time.process_time()
    events = 0
    turns = []
    for g in range(games):
        rec = play_game(prof, [make_bot(strategy, g * 10 + i) for i in range(players)], seed=g)
        events += len(rec.events)
        turns.append(rec.state.turn_no)
    dt = time.process_time() - t0
    print(f"{profile:<11} {players}p {strategy:<9} {games / dt:8.1f} games/CPU s {events / dt:9.0f} events/CPU s "
          f"{events / games:7.0f} events/game  turns median {statistics.median(turns):.0f}")


def micro() -> None:
    prof = get_profile("classic", round_limit=200)
    rec = play_game(prof, [make_bot("random", i) for i in range(4)], seed=3)
    # replay the recorded game, timing apply (copying) and legal for each decision
    from adp2p.engine.access_denied.api import new_game

    st = new_game(prof, 4)
    st.faces = dict(rec.faces)
    t_apply = t_legal = t_view = 0.0
    for ev in rec.events:
        p = ev.get("p")
        if isinstance(p, int) and ev["t"] not in ("first",):
            a = time.perf_counter()
            seen = view(st, p)
            b = time.perf_counter()
            legal(seen, p)
            c = time.perf_counter()
            t_view += b - a
            t_legal += c - b
        a = time.perf_counter()
        st = apply(st, ev)
        t_apply += time.perf_counter() - a
    n = len(rec.events)
    print(f"per event: apply {1e6 * t_apply / n:.0f} us, view {1e6 * t_view / n:.0f} us, "
          f"legal {1e6 * t_legal / n:.0f} us  ({n} events)")


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    micro()
    for strategy in ("random", "deduction"):
        for profile, counts in (("classic", (3, 4, 6)), ("retro2013", (3, 6)), ("two-player", (2,))):
            for n in counts:
                bench(profile, n, strategy, games)
