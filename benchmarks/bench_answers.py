"""What an answer costs every peer on its way, in CPU: a script, not a test.

Run: ./dev bench answers   (or .venv/bin/python benchmarks/bench_answers.py [--players 3,6] [--games 3])

In-process tables (p2p/local.py: every entry signed, and checked and folded by every seat's machine, as a peer does
on arrival) of bots; for every controller's answer, the CPU time (process time) each seat's machine took to check
and fold it — signature, the engine, the link proof and the other seats' shares it carries with the first answer
about a password, the answer proofs at the attempter — and of the controller to author it. Printed apart for first
answers (with their link) and the others: the median and p90 over answers of the SLOWEST peer's check (what the
last peer to take the answer adds on the path, with a machine of its own), and of the author's. No network, no
waiting: the CPU on the path, which wall time on a loaded machine hides. The load average beside every line.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from adp2p.crypto import card_link, deck, passes
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind, decode_body


class TimedTable(LocalTable):
    """A table that times each machine's fold of each answer entry, and each answer's authoring."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.folds: dict[int, list[float]] = {}  # seq -> CPU of each machine's fold
        self.authored: dict[int, float] = {}
        self.first: set[int] = set()

    @staticmethod
    def fold(m: Machine, raw: bytes) -> None:
        e = decode_entry(raw)
        answer = e.kind == Kind.EVENT and decode_body(e.body)["ev"].get("t") == "answer"
        if m.seat != e.author:  # a peer remembers the checks it made itself only, never another machine's here
            card_link.forget_verified()
            passes.forget_verified()
            deck.forget_made_shares()
        t0 = time.process_time()
        LocalTable.fold(m, raw)
        if answer:
            TimedTable.current.folds.setdefault(e.seq, []).append(time.process_time() - t0)
            if "code_link" in decode_body(e.body):
                TimedTable.current.first.add(e.seq)

    current: TimedTable

    def post(self, seat: int, kind: Kind, body: dict[str, Any], *, author_seconds: float = 0.0) -> bool:
        if kind == Kind.EVENT and body["ev"].get("t") == "answer":
            self.authored[len(self.raws)] = author_seconds
        return super().post(seat, kind, body, author_seconds=author_seconds)


def author_timed(t: TimedTable) -> None:
    """Play, timing each authoring in CPU; every seat not on duty makes its work ahead first, as a waiting peer."""
    while True:
        d = t.ms[t.referee].duty()
        if d is None:
            return
        for m in t.ms:
            if m.seat != d.seat:
                m.prepare_ahead()
        found = t.evidence()
        if found is not None:
            t.post_evidence(*found)
            continue
        t0 = time.process_time()
        out = t.ms[d.seat].author_next(t.bots[d.seat])
        took = time.process_time() - t0
        if out is None:
            raise SystemExit("a machine authored nothing")
        t.post(d.seat, out[0], out[1], author_seconds=took)


def pct(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))] * 1e3 if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3,6")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--round-limit", type=int, default=20)
    args = ap.parse_args()
    print("CPU ms per answer entry (process time): the slowest peer's check and fold, and the author's making")
    for n in (int(x) for x in args.players.split(",")):
        first_slow, other_slow, first_med, other_med, first_auth, other_auth = [], [], [], [], [], []
        for g in range(args.games):
            t = TimedTable(n, round_limit=args.round_limit, seed=100 * n + g, bots="deduction")
            TimedTable.current = t
            author_timed(t)
            for seq, times in t.folds.items():
                first = seq in t.first
                (first_slow if first else other_slow).append(max(times))
                (first_med if first else other_med).append(statistics.median(times))
                (first_auth if first else other_auth).append(t.authored.get(seq, 0.0))
        load = "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
        for name, slow, med, auth in (
            ("first answers", first_slow, first_med, first_auth),
            ("other answers", other_slow, other_med, other_auth),
        ):
            print(
                f"  {n} peers, {name} ({len(slow)}): slowest peer median {pct(slow, 0.5):.1f}, "
                f"p90 {pct(slow, 0.9):.1f}; median peer {pct(med, 0.5):.1f}; author median {pct(auth, 0.5):.1f}, "
                f"p90 {pct(auth, 0.9):.1f}   {load}",
                flush=True,
            )


if __name__ == "__main__":
    main()
