"""No false accusation, and audit speed: N honest in-process games (signed entries, mixed profiles and 2-6
players, small round limits) must end with no verdict and a clean audit; then the offline audit
(`ad-p2p audit`) of a whole 6-player game log is timed.

    .venv/bin/python benchmarks/bench_audit.py [GAMES]   (default 200)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

for sub in ("adversaries", "support"):  # the zoo's in-process table and the seeded secrets it draws
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / sub))
from _zoo import Table  # noqa: E402
from adp2p.p2p.audit import audit_log  # noqa: E402

SETUPS = [("classic", n) for n in (3, 4, 5, 6)] + [("retro2013", n) for n in (3, 4, 6)] + [("two-player", 2)]


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    bad = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        for k in range(games):
            profile, n = SETUPS[k % len(SETUPS)]
            t = Table(n, profile=profile, round_limit=3 + k % 4, seed=1000 + k, bots="deduction,random").run()
            res = audit_log(t.write_log(Path(d) / "log"))
            if t.verdict_seats() or t.abandoned is not None or not res.ok:
                bad += 1
                print(f"game {k} ({profile}, {n}): {res.text()}")
        played = time.perf_counter() - t0
        print(f"honest games: {games}, with a verdict or violation: {bad} ({played:.1f} s)")
        t = Table(6, round_limit=10, seed=7).run()
        log = t.write_log(Path(d) / "six")
        t1 = time.perf_counter()
        res = audit_log(log)
        print(f"audit of a 6-player game log ({len(t.raws)} entries, {log.stat().st_size} bytes): "
              f"{time.perf_counter() - t1:.2f} s, ok={res.ok}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
