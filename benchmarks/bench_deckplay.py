"""The lockstep table core: whole games between 3..6 in-process peers with real mental-poker crypto.

For each table size: setup time (keys, beacon heads, sectors/first from the beacon, the first shuffle by
every peer, the deal and passwords with their share reveals), whole-game wall time (audit included), events,
shares posted per game and their bytes, and the time per event with crypto against the same events run
through the same N engine states without crypto (faces handed over directly, the deciding peer still
enumerating its legal events).

Some seeds end early with a lockstep error (a known engine problem, see tests/p2p/test_deckplay.py); they
are counted and skipped.

Run: .venv/bin/python benchmarks/bench_deckplay.py [games per size]   (figures, not a test)
"""

from __future__ import annotations

import statistics
import sys
import time

from adp2p.engine.api import apply, learn, legal, new_game, pending, view
from adp2p.engine.profiles import Profile, get_profile
from adp2p.p2p.deckplay import DeckPlayError, LockstepTable, TableResult


def engine_only(profile: Profile, n: int, events: list[dict], faces: dict[int, int]) -> float:
    """Seconds to run the events through n engine states, learning reveals straight from the face map."""
    t0 = time.perf_counter()
    states = [new_game(profile, n) for _ in range(n)]
    for ev in events:
        d = pending(states[0])
        if d is not None and d.actor is not None:
            legal(view(states[d.actor], d.actor), d.actor)
        for i in range(n):
            states[i] = apply(states[i], ev, inplace=True)
            got = {h: faces[h] for h, m in states[i].reveals if m >> i & 1}
            if got:
                learn(states[i], got, inplace=True)
    return time.perf_counter() - t0


def bench(n: int, games: int, max_seeds: int = 60) -> None:
    prof = get_profile("classic", round_limit=30)
    done: list[TableResult] = []
    broken = 0
    seed = 0
    while len(done) < games and seed < max_seeds:
        try:
            done.append(LockstepTable(prof, n, seed, check_every_event=False).run())
        except DeckPlayError:
            broken += 1
        seed += 1
    if not done:
        print(f"{n} peers: no finished game in {seed} seeds")
        return
    setup = statistics.mean(r.counts.setup_seconds for r in done)
    wall = statistics.mean(r.counts.seconds for r in done)
    audit = statistics.mean(r.counts.audit_seconds for r in done)
    events = statistics.mean(r.counts.events for r in done)
    shares = statistics.mean(r.counts.shares_sent for r in done)
    verified = statistics.mean(r.counts.shares_verified for r in done)
    nbytes = statistics.mean(r.counts.share_bytes for r in done)
    entries = statistics.mean(r.counts.entries for r in done)
    piles = statistics.mean(r.counts.piles for r in done)
    per_crypto = statistics.mean((r.counts.seconds - r.counts.audit_seconds) / r.counts.events for r in done)
    per_plain = statistics.mean(engine_only(prof, n, r.events, r.faces) / r.counts.events for r in done)
    print(f"{n} peers ({len(done)} games, {broken} seeds broke lockstep): setup {setup * 1e3:6.0f} ms  "
          f"game {wall:5.2f} s (audit {audit * 1e3:4.0f} ms)  {events:5.0f} events  {entries:5.0f} entries  "
          f"{piles:.1f} piles  shares {shares:5.0f} ({nbytes / 1024:5.1f} KiB, {verified:5.0f} verified)  "
          f"per event {per_crypto * 1e3:5.2f} ms with crypto vs {per_plain * 1e3:5.3f} ms engine only "
          f"(x{per_crypto / per_plain:.0f})")


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print("classic, 30-round limit, random bots, N in-process peers, one core")
    for n in (3, 4, 5, 6):
        bench(n, games)
