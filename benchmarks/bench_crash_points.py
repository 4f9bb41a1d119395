"""A crash at every write boundary of a whole game: three in-process `TablePeer`s on loopback (round limit 2,
seeded), the victim dies right after its k-th write (a log entry appended, or its secrets file rewritten) for
every k from its first write to the last one of the game, then resumes from its directory. Every run must
complete with one log everywhere, a clean audit and nobody named. The suite runs 15 of these points
(tests/p2p/test_crash_secrets.py); this runs them all and prints the failures.

    .venv/bin/python benchmarks/bench_crash_points.py [--from K] [--to K]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "p2p"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from test_crash_secrets import crash_and_resume, crashing_at_write


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # write 1 is the secrets file written before the genesis: a crash there leaves no game to resume (the lobby)
    ap.add_argument("--from", dest="start", type=int, default=2)
    ap.add_argument("--to", dest="stop", type=int, default=10_000)
    args = ap.parse_args()
    ok, failed, t0 = 0, [], time.monotonic()
    k = args.start
    while k <= args.stop:
        t1 = time.monotonic()
        with tempfile.TemporaryDirectory() as d:
            try:
                trio.run(crash_and_resume, Path(d), crashing_at_write(k))
            except AssertionError as exc:
                if "never crashed" in str(exc):
                    break  # past the victim's last write: every boundary of the game was tried
                failed.append(k)
                print(f"write {k}: FAILED\n{traceback.format_exc()[-1500:]}", flush=True)
            except Exception:  # a figure-printing script reports every failure and goes on
                failed.append(k)
                print(f"write {k}: FAILED\n{traceback.format_exc()[-1500:]}", flush=True)
            else:
                ok += 1
                print(f"write {k}: resumed, completed, nobody named ({time.monotonic() - t1:.1f} s)", flush=True)
        k += 1
    print(
        f"crash points {args.start}..{k - 1}: {ok} resumed and completed with nobody named, {len(failed)} failed "
        f"{failed if failed else ''}({time.monotonic() - t0:.0f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
