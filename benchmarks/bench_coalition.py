"""A coalition of two cheaters at honest tables (issue 34, "Done when", the randomized part): seeded games over the
real protocol (tests/adversaries/_coalition.py: TablePeers on loopback in one trio run), each with two cheating seats
whose levers (held evidence, late lies, self-accusation, withheld tokens, entries ahead of the log, stalls; alone or
paired across the two seats) are armed at random moments. Prints, per lever mix and in all: games played, honest
seats named (must be 0), honest results lost (must be 0), hangs, differing logs, and the load average; every failing
game with its plan (seed, levers) and what each honest peer said. CPU time beside wall time (the machine is shared).
Most of a game is waiting (patience, heartbeats): `--jobs` plays that many games at once, each in its own process.

    ./dev bench coalition [--games N] [--seed S] [--jobs J] [--game access_denied|hacker] [--only SEED ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

root = Path(__file__).resolve().parents[1]
for sub in ("adversaries", "support", ""):
    sys.path.insert(0, str(root / "tests" / sub))
import trio  # noqa: E402
from _coalition import draw_plan, load, play  # noqa: E402


def one(seed: int, game: str | None) -> tuple[str, list[int], str, float]:
    """Plays the game of `seed`: (its lever mix, [honest named, results lost, hang, logs differ, crash], what to
    print, wall seconds)."""
    plan = draw_plan(seed, game)
    tmp = Path(tempfile.mkdtemp(prefix=f"coalition{seed}-"))
    t0 = time.monotonic()
    try:
        g, j = trio.run(play, tmp, plan)
    except Exception as exc:  # a crash of the harness or a peer: counted and shown, the run goes on
        return plan.mix, [0, 0, 0, 0, 1], f"CRASH seed {seed}: {plan}\n  {type(exc).__name__}: {exc}", 0.0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    flags = [int(bool(j.honest_named)), int(bool(j.results_lost)), int(j.hang), int(j.logs_differ), 0]
    text = f"{'ok' if j.ok else 'FAIL'} seed {seed} {plan.mix}: {j.ended}; {'; '.join(j.fired) or 'no lever acted'}"
    if not j.ok:
        text += f"\n  {j}"
        if g is not None:
            text += "".join(f"\n    p{i} said: {g.heard(i)[-700:]!r}" for i in g.honest)
    return plan.mix, flags, text, time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed (games use seed, seed+1, ...)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process")
    ap.add_argument("--game", choices=["access_denied", "hacker"], default=None, help="only this game (default: both)")
    ap.add_argument("--only", type=int, nargs="*", default=None, help="play exactly these seeds")
    a = ap.parse_args()
    seeds = a.only if a.only else list(range(a.seed, a.seed + a.games))
    rows: dict[str, list[int]] = defaultdict(lambda: [0] * 6)  # games, honest named, lost, hangs, logs, crashes
    bad: list[str] = []
    t0 = time.monotonic()
    print(f"coalition: {len(seeds)} games, seeds {seeds[0]}..{seeds[-1]}, {a.jobs} at once, load {load()}", flush=True)
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        futs = [pool.submit(one, s, a.game) for s in seeds]
        for k, fut in enumerate(as_completed(futs)):
            mix, flags, text, wall = fut.result()
            r = rows[mix]
            r[0] += 1
            for i, f in enumerate(flags):
                r[i + 1] += f
            print(f"[{k + 1}/{len(seeds)}] {wall:.0f}s load {load()} {text}", flush=True)
            if any(flags):
                bad.append(text.splitlines()[0])
    wall = time.monotonic() - t0
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    head = ("mix", "games", "honest named", "results lost", "hangs", "logs differ", "crashes")
    print(f"\n{head[0]:40} " + " ".join(f"{h:>12}" for h in head[1:]))
    tot = [0] * 6
    for mix in sorted(rows):
        tot = [x + y for x, y in zip(tot, rows[mix], strict=True)]
        print(f"{mix:40} " + " ".join(f"{x:12}" for x in rows[mix]))
    print(f"{'all':40} " + " ".join(f"{x:12}" for x in tot))
    print(f"wall {wall:.0f} s, CPU {cpu.ru_utime + cpu.ru_stime:.0f} s (all games); load average {load()} ", end="")
    print(f"({os.cpu_count()} cores)")
    for b in bad:
        print("FAILED", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
