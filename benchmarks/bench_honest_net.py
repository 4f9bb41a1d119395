"""No false accusation over the real protocol: N honest games of bot `TablePeer`s on 127.0.0.1 (TCP mesh, signed
handshake, fsynced logs, the evidence machinery armed), mixed profiles and 2-6 players, each seeded like the zoo
(tests/support/seeds.py). Every game must end with no verdict, no evidence entry, no entry set aside, the same
log at every peer, and a clean offline audit. Prints the count and the time per game.

    .venv/bin/python benchmarks/bench_honest_net.py [GAMES]   (default 50)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import trio

for sub in ("adversaries", "support"):  # the networked zoo table and the seeded secrets it draws
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / sub))
from _net import net_game  # noqa: E402
from adp2p.crypto.entries import decode_entry  # noqa: E402
from adp2p.p2p.logstore import SUPERSEDED_SUFFIX  # noqa: E402
from adp2p.p2p.protocol import Kind  # noqa: E402

SETUPS = [("classic", n) for n in (3, 4, 5, 6)] + [("retro2013", n) for n in (3, 4, 6)] + [("two-player", 2)]


def records(data: bytes) -> list[bytes]:
    out, pos = [], 0
    while pos < len(data):
        n = int.from_bytes(data[pos : pos + 4], "big")
        out.append(data[pos + 4 : pos + 4 + n])
        pos += 4 + n
    return out


async def main(games: int) -> int:
    bad, times = 0, []
    with tempfile.TemporaryDirectory() as d:
        for k in range(games):
            profile, n = SETUPS[k % len(SETUPS)]
            t0 = time.perf_counter()
            g = await net_game(
                Path(d) / str(k), n, 5000 + k, {}, profile=profile, round_limit=3 + k % 4, bots="deduction,random"
            )
            times.append(time.perf_counter() - t0)
            logs = g.honest_logs()
            kinds = {decode_entry(r).kind for r in records(logs[0])}
            problems = [
                f"peer {i}: {o.verdict or o.abandoned_by or o.violations}"
                for i, o in enumerate(g.outcomes)
                if o is None or o.verdict or o.abandoned_by or o.audit_ok is not True
            ]
            if Kind.EVIDENCE in kinds:
                problems.append("an evidence entry")
            if any(Path(str(g.log(i)) + SUPERSEDED_SUFFIX).exists() for i in g.honest):
                problems.append("entries set aside")
            if any(log != logs[0] for log in logs):
                problems.append("different logs")
            if not g.audit().ok:
                problems.append("the offline audit found violations")
            if problems:
                bad += 1
                print(f"game {k} ({profile}, {n} players): {'; '.join(problems)}")
    print(
        f"honest networked games: {games}, with a verdict, evidence, set-aside entries or a violation: {bad}; "
        f"per game median {statistics.median(times):.2f} s, max {max(times):.2f} s, total {sum(times):.0f} s"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(trio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 50))
