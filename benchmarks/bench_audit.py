"""No false accusation, and audit speed: N honest in-process games (signed entries, mixed profiles and 2-6
players, small round limits) must end with no verdict and a clean audit; then a FRESH `ad-p2p audit` of a whole
6-player game log (3,197 entries) is timed in a new process, as an auditor runs it: nothing remembered from
the game, its wall time and its CPU time (its own and its worker processes', from getrusage, each apart), median of
RUNS, the load average beside each figure.

    .venv/bin/python benchmarks/bench_audit.py [GAMES] [RUNS]   (default 200 games, 5 runs; GAMES 0: timing only)
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

for sub in ("adversaries", "support"):  # the zoo's in-process table and the seeded secrets it draws
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / sub))
from _zoo import Table  # noqa: E402
from adp2p.p2p.audit import audit_log  # noqa: E402

SETUPS = [("classic", n) for n in (3, 4, 5, 6)] + [("retro2013", n) for n in (3, 4, 6)] + [("two-player", 2)]


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


# `ad-p2p audit LOG` as its console script runs it, then this process's own CPU and its workers' (getrusage) on stderr:
# the auditor's process (the fold, the critical path) apart from its worker processes (the proofs)
_AUDIT = """
import resource, sys
from adp2p.cli.main import main
rc = main(["audit", sys.argv[1]])
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"cpu {me.ru_utime + me.ru_stime:.3f} {kids.ru_utime + kids.ru_stime:.3f}", file=sys.stderr)
sys.exit(rc)
"""


def fresh_audit(log: Path) -> tuple[float, float, float, str]:
    """`ad-p2p audit LOG` in a new process: (wall s, CPU s of it and every process it waited for, CPU s of its
    workers alone, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", _AUDIT, str(log)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if res.returncode != 0:
        raise SystemExit(f"the audit failed: {res.stdout}{res.stderr}")
    workers = float(res.stderr.split("cpu ")[-1].split()[1])
    return wall, cpu, workers, res.stdout


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
        t = Table(6, round_limit=60, seed=10, bots="random").run()  # 3,197 entries (protocol version 6)
        log = t.write_log(Path(d) / "six")
        runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
        walls, cpus, workers = [], [], []
        for _ in range(runs):
            wall, cpu, kids, out = fresh_audit(log)
            walls.append(wall)
            cpus.append(cpu)
            workers.append(kids)
            print(f"  fresh audit: {wall:.2f} s wall, {cpu:.2f} s CPU (the auditor's process {cpu - kids:.2f}, "
                  f"its workers {kids:.2f})   load {load()}", flush=True)
        print(f"fresh `ad-p2p audit` of a 6-player game log ({len(t.raws)} entries, {log.stat().st_size} bytes), "
              f"a new process each time, median of {runs}: {statistics.median(walls):.2f} s wall, "
              f"{statistics.median(cpus):.2f} s CPU (with its workers: {statistics.median(workers):.2f}; "
              f"{os.cpu_count()} cores)   load {load()}")
        print("  " + out.strip().splitlines()[-1])
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
