"""Whole games between 3..6 game machines in one process (`p2p.local.LocalTable`: signed entries, real
mental-poker crypto, every seat's checks and end-of-game audit, no sockets).

For each table size: setup time (joins, the beacon picks for sectors and first player, the first shuffle by
every seat, the deal and passwords with their reveal rounds), whole-game wall time and the part of it spent
on the end-of-game audits (folding the SECRETS entries), engine events, log entries and bytes, shuffled piles,
decryption shares authored and sealed boxes, the time per event with crypto (audits left out) against the
same events run through the same N engine states without crypto (faces handed over directly, the deciding
seat still enumerating its legal events), and where the time goes per entry kind (authoring and every
seat's folding).

Secrets, shuffles and bots are seeded (tests/support/seeds.py): the same games on every run.

Run: .venv/bin/python benchmarks/bench_local.py [games per size]   (figures, not a test; default 3)
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))  # the seeded secrets
from adp2p.engine.access_denied.api import apply, learn, legal, new_game, pending, view
from adp2p.engine.access_denied.profiles import Profile, get_profile
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Event, Machine
from adp2p.p2p.protocol import Kind
from seeds import draw, seeded

PROFILE, ROUND_LIMIT, BOTS = "classic", 30, "random"
PHASES = (Kind.SHUFFLE, Kind.SHARES, Kind.EVENT, Kind.SECRETS)


def engine_only(profile: Profile, n: int, events: list[Event], faces: dict[int, int]) -> float:
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


def play(n: int, seed: int) -> LocalTable:
    s = draw(n, seed)
    t = LocalTable(
        n,
        profile=PROFILE,
        round_limit=ROUND_LIMIT,
        bots=BOTS,
        seed=seed,
        secrets=s.secrets,
        game_id=s.game_id,
        machine=seeded(Machine, s.rng),
    )
    return t.run()


def bench(n: int, games: int) -> None:
    prof = get_profile(PROFILE, round_limit=ROUND_LIMIT)
    done = [play(n, seed) for seed in range(games)]

    def mean(f: Callable[[LocalTable], float]) -> float:
        return statistics.mean(f(t) for t in done)

    def kind_seconds(t: LocalTable, k: Kind) -> float:
        return t.stats.kinds[k].author_seconds + t.stats.kinds[k].fold_seconds

    def audit(t: LocalTable) -> float:
        return t.stats.kinds[Kind.SECRETS].fold_seconds

    def faces(t: LocalTable) -> dict[int, int]:
        rep = t.ms[0].audit_report
        assert rep is not None
        return rep.faces

    per_crypto = mean(lambda t: (t.stats.seconds - audit(t)) / len(t.events))
    per_plain = mean(lambda t: engine_only(prof, n, t.events, faces(t)) / len(t.events))
    total = mean(lambda t: t.stats.seconds)
    split = "  ".join(
        f"{k.name.lower()} {statistics.mean(kind_seconds(t, k) for t in done) / total:4.0%}" for k in PHASES
    )
    print(
        f"{n} peers ({len(done)} games): setup {mean(lambda t: t.stats.setup_seconds) * 1e3:5.0f} ms  "
        f"game {total:5.2f} s (audits {mean(audit) * 1e3:4.0f} ms)  {mean(lambda t: len(t.events)):5.0f} events  "
        f"{mean(lambda t: t.stats.entries):5.0f} entries ({mean(lambda t: t.stats.bytes) / 1024:5.0f} KiB)  "
        f"{mean(lambda t: len(t.ms[0].hmap.piles)):.1f} piles  shares {mean(lambda t: t.stats.shares):5.0f} "
        f"({mean(lambda t: t.stats.sealed_boxes):4.0f} sealed boxes)\n"
        f"    per event {per_crypto * 1e3:5.2f} ms with crypto vs {per_plain * 1e3:5.3f} ms engine only "
        f"(x{per_crypto / per_plain:.0f});  time by kind (authoring and folding): {split}"
    )


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{PROFILE}, {ROUND_LIMIT}-round limit, {BOTS} bots, N machines in one process, one core")
    for n in (3, 4, 5, 6):
        bench(n, games)
