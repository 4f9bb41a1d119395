"""Malformed signed bodies against the game machine, many more than the suite's hypothesis budget: at every kind of
duty of seeded games, the honest body with one field replaced by a random value (or removed, or an extra field),
out-of-turn authors, and evidence of every kind with random fields. Prints inputs tried, accepted, rejected, and
every failure of the contract (an exception other than ProtocolError, or an honest other seat named), by kind.

    .venv/bin/python benchmarks/bench_fuzz.py [INPUTS]   (default 20000)
"""

from __future__ import annotations

import collections
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind, ProtocolError, decode_body, encode_body
from seeds import seeded_table

EVIDENCE = ["entry", "equivocation", "nocard", "duplicate", "promise", "answer", "answers", "opening", "x"]
FIELDS = ["raw", "a", "b", "certs", "seq", "h", "ha", "hb", "code", "salt", "box_secret", "reason"]


def value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth < 3 and r < 0.15:
        return [value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if depth < 3 and r < 0.25:
        return {rng.choice(["t", "p", "s", "x", "cards", "match"]): value(rng, depth + 1) for _ in range(3)}
    return rng.choice(
        [None, True, False, 0, 1, -1, 2**63, rng.randrange(-1000, 1000), rng.randbytes(rng.choice([0, 16, 32, 64])),
         "", "a" * rng.randrange(40)]
    )  # fmt: skip


def positions(seed: int) -> list[tuple[Machine, int, int, dict[str, Any]]]:
    t = seeded_table(3 + seed % 2, seed, round_limit=3, bots="random")
    out = []
    while (d := t.ms[0].duty()) is not None:
        if random.Random(seed * 7919 + t.ms[0].entries).random() < 0.15:
            got = t.ms[d.seat].snapshot().author_next(t.bots[d.seat])
            if got is not None:
                judge = t.ms[(d.seat + 1) % t.n].snapshot()
                out.append((judge, d.seat, int(d.kind), decode_body(encode_body(got[1]))))
        t.step()
    return out


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = random.Random(20261124)
    pos = [p for seed in range(1, 5) for p in positions(seed)]
    tally: collections.Counter[str] = collections.Counter()
    failures: collections.Counter[str] = collections.Counter()
    t0 = time.perf_counter()
    for _ in range(n):
        judge, seat, kind, body = rng.choice(pos)
        author = seat if rng.random() < 0.8 else (seat + 1) % judge.n
        if rng.random() < 0.2:
            kind, body = (
                Kind.EVIDENCE,
                {"what": rng.choice(EVIDENCE), **{rng.choice(FIELDS): value(rng) for _ in range(4)}},
            )
        else:
            body = dict(body)
            key = rng.choice([*body, "extra"])
            if rng.random() < 0.2:
                body.pop(key, None)
            else:
                body[key] = value(rng)
        m = judge.snapshot()
        try:
            m.apply(author, kind, body)
            tally["accepted"] += 1
        except ProtocolError as exc:
            tally["rejected"] += 1
            if exc.seat not in (author, None):
                failures[f"honest seat named: {exc}"[:120]] += 1
        except Exception as exc:  # the contract is broken: where?
            where = traceback.extract_tb(exc.__traceback__)[-1]
            failures[f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"] += 1
    secs = time.perf_counter() - t0
    print(f"inputs tried: {n} at {len(pos)} positions of 4 seeded games ({secs:.1f} s, {n / secs:.0f}/s)")
    print(f"accepted: {tally['accepted']}, rejected naming the author: {tally['rejected']}")
    print(f"contract failures (crashes or honest seats named): {sum(failures.values())}")
    for what, k in failures.most_common():
        print(f"  {k:6d}  {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
