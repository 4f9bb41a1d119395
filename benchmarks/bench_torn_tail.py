"""Torn log tails at every byte of the last three records of a victim's log, both games (issue 35, item 1).

For each game (Access Denied, Hacker) and each seed: a table of three bot peers, each its own OS process on
loopback (tests/p2p/_table_procs.py); the victim is killed (SIGKILL) after 25 entries and its log copied.

1. **Every byte, at the log store**: for every byte offset strictly inside each of the last three records, the
   copy cut there reopens (`LogStore.open`, every signature and link re-verified) to exactly the records before
   the cut one: never `LogCorrupt`, never a record too many. Every cut inside one record therefore leaves the very
   same log, so step 2 need run once per record.
2. **Resume, real processes**: for each of the last three records, a fresh game with the same seed is played to
   about the same point, the victim's log is cut at a random byte inside that record, and the victim resumes: the
   game must complete with every exit status 0, one log everywhere, a clean audit and nobody named (before the
   fix: "equivocation", the victim named).

    .venv/bin/python benchmarks/bench_torn_tail.py [--seeds N] [--game access-denied|hacker ...] [--no-resume]
                                                   [--stride N]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "p2p"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from _table_procs import Table, log_records
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.logstore import LogError, LogStore
from adp2p.p2p.protocol import Genesis, decode_body

KILL_AT = 25


def rounds(game: str) -> int:
    return 20 if game == "access-denied" else 3


def killed_log(root: Path, game: str, seed: int) -> tuple[Table, bytes]:
    root.mkdir(parents=True, exist_ok=True)
    table = Table(root, 3, round_limit=rounds(game), think=0.01, abandon_after=60, seed=seed, game=game, quiet=True)
    table.start_all()
    v = table.peers[1]
    table.wait_entries(v, KILL_AT, timeout=60)
    table.signal(v, signal.SIGKILL)
    return table, v.log_path().read_bytes()  # type: ignore[union-attr]


def every_byte(data: bytes, work: Path, stride: int = 1) -> tuple[int, list[str]]:
    """Cut `data` (a log) at every `stride`-th byte inside its last three records (and at each record's first and
    last inner byte); reopen each. (cuts, failures)"""
    path = work / "log"
    path.write_bytes(data)
    records = log_records(path)
    g = Genesis.from_body(decode_body(decode_entry(records[0]).body))
    cuts, bad = 0, []
    for i in range(len(records) - 3, len(records)):
        start = sum(4 + len(r) for r in records[:i])
        for off in sorted({*range(1, 4 + len(records[i]), stride), 3 + len(records[i])}):
            path.write_bytes(data[: start + off])
            cuts += 1
            try:
                with LogStore.open(path, g.identities(), g.game_id) as store:
                    if len(store) != i:
                        bad.append(f"cut at {start + off} (record {i}): {len(store)} entries kept")
            except LogError as exc:
                bad.append(f"cut at {start + off} (record {i}): {exc}")
    return cuts, bad


def resume_after_cut(root: Path, game: str, seed: int, record: int, rng: random.Random) -> str | None:
    """One real-process run: killed, its log cut inside its record `record` from the end (1..3), resumed."""
    table, data = killed_log(root, game, seed)
    with table:
        v = table.peers[1]
        path, gdir = v.log_path(), v.game_dir()
        assert path is not None and gdir is not None
        records = log_records(path)
        i = len(records) - record
        start = sum(4 + len(r) for r in records[:i])
        path.write_bytes(data[: start + rng.randrange(1, 4 + len(records[i]))])
        table.start(v, resume=gdir)
        codes = table.wait(timeout=180)
        if codes != [0, 0, 0]:
            return f"exit codes {codes}"
        outs = [p.outcome() for p in table.peers]
        if any(o["verdict"] or o["abandoned_by"] or o["audit_ok"] is not True for o in outs):
            return f"outcomes {outs}"
        if len({p.log_path().read_bytes() for p in table.peers}) != 1:  # type: ignore[union-attr]
            return "logs differ"
        if any("Traceback" in p.output() for p in table.peers):
            return "traceback"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=2, help="games per kind of game")
    ap.add_argument("--game", nargs="*", default=["access-denied", "hacker"])
    ap.add_argument("--no-resume", action="store_true", help="only step 1 (the log store at every byte)")
    ap.add_argument("--stride", type=int, default=1, help="step 1 at every n-th byte only (default: every byte)")
    args = ap.parse_args()
    logging.getLogger("adp2p.p2p.logstore").setLevel(logging.ERROR)  # (a warning per torn tail dropped)
    failures = 0
    for game in args.game:
        for s in range(args.seeds):
            seed = 40 + s
            with tempfile.TemporaryDirectory() as d:
                table, data = killed_log(Path(d) / "first", game, seed)
                table.kill_all()
                t0, c0 = time.monotonic(), time.process_time()
                cuts, bad = every_byte(data, Path(d), args.stride)
                print(
                    f"{game} seed {seed}: {cuts} cut points in the last 3 records, {len(bad)} reopened wrong "
                    f"({time.process_time() - c0:.1f} s CPU, {time.monotonic() - t0:.1f} s; "
                    f"load {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
                for b in bad[:5]:
                    print(f"    {b}")
                failures += len(bad)
            if args.no_resume:
                continue
            for record in (1, 2, 3):
                with tempfile.TemporaryDirectory() as d:
                    t0 = time.monotonic()
                    why = resume_after_cut(Path(d), game, seed, record, random.Random(seed * 10 + record))
                    failures += why is not None
                    print(
                        f"{game} seed {seed}, cut inside record -{record}: "
                        f"{'resumed, completed, nobody named' if why is None else 'FAILED: ' + why[:300]} "
                        f"({time.monotonic() - t0:.0f} s, load {os.getloadavg()[0]:.1f})",
                        flush=True,
                    )
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
