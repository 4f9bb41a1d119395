"""A table over a bad network: bot peers (`ad-p2p join`, each in a network namespace of its own) joined by the
userspace lossy switch of tests/support/lossy_lan.py. Prints, per setting, whether the game completed with one
log and nobody named, its length, entries per second, the connections lost (peer down lines) and the packets the
switch forwarded and dropped.

    .venv/bin/python benchmarks/bench_lossy.py [--players 3] [--round-limit 1] [--patience 60]
                                               [--net LOSS:DELAY:JITTER ...]   (default 0.1:0.2:0.1 0.3:0.5:0.2)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "p2p"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from _table_procs import Table
from lossy_lan import LossyLan
from netns import NetnsLab, netns_unavailable_reason


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--round-limit", type=int, default=1)
    ap.add_argument("--patience", type=float, default=60.0)
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--net", nargs="*", default=["0.1:0.2:0.1", "0.3:0.5:0.2"])
    args = ap.parse_args()
    if (why := netns_unavailable_reason()) is not None:
        raise SystemExit(f"bench_lossy: {why}")
    print("loss  delay jitter  outcome                 entries  entries/s  peers-down  forwarded  dropped")
    bad = 0
    for spec in args.net:
        loss, delay, jitter = (float(x) for x in spec.split(":"))
        with tempfile.TemporaryDirectory() as d, NetnsLab(args.players) as lab:
            with (
                LossyLan(lab, loss=loss, delay=delay, jitter=jitter, seed=1) as lan,
                Table(
                    Path(d), args.players, round_limit=args.round_limit, abandon_after=args.patience, seed=2,
                    lab=lab, addresses=lan.addresses,
                ) as table,
            ):  # fmt: skip
                t0 = time.monotonic()
                table.start_all()
                codes = table.wait(timeout=args.timeout)
                wall = time.monotonic() - t0
                outs = []
                for p in table.peers:
                    try:
                        outs.append(p.outcome())
                    except (OSError, ValueError):
                        outs.append({})
                logs = {p.log_path().read_bytes() for p in table.peers if p.log_path() is not None}  # type: ignore[union-attr]
                downs = sum(p.output().count("peer down:") for p in table.peers)
            entries = max((o.get("entries", 0) for o in outs), default=0)
            named = {o.get("abandoned_by") for o in outs} - {None}
            if codes == [0] * args.players and len(logs) == 1:
                outcome = "completed, one log"
            else:
                outcome = f"exit {codes}, {len(logs)} logs" + (f", named {sorted(named)}" if named else "")
                bad += 1
            print(
                f"{loss:4.2f} {delay:6.2f} {jitter:6.2f}  {outcome:<22} {entries:8d} {entries / wall:10.2f} "
                f"{downs:11d} {lan.stats.get('forwarded', 0):10d} {lan.stats.get('dropped', 0):8d}",
                flush=True,
            )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
