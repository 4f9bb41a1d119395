"""Where an answer's time goes at the networked table: every step of every answer, at every peer, timed.

Bot peers as OS processes on loopback (as bench_table.py), each under benchmarks/answer_trace_join.py, which stamps
every step an entry takes through it (wall: time.monotonic(), one clock for every process here; CPU: that process's
process time). For every attempt -> SHARES -> answer in the log, the answer's path is cut into segments (median and
p90 over answers, first answers about a password — with their link — apart from the others):

1. the attempter: its attempt logged -> its SHARES entry broadcast (of which: the SHARES fsync);
2. SHARES broadcast -> the last peer has logged it;
3. SHARES broadcast -> the last pass token of the reaction window broadcast (each seat decides, signs, fsyncs);
4. the controller: deciding (the bot, in a worker thread: wall and CPU), making the answer (proofs, box), folding its
   own entry (CPU), the fsync; then its broadcast -> the last peer has logged the answer;
5. the other peers' fold of the answer, CPU (the slowest one, and the median one);
6. the CPU every peer spent between the attempt logged and the answer logged everywhere, summed: on a machine with
   fewer cores than peers, this over the cores bounds the answer's wall time from below.

The load average is printed beside the figures: at a high load, wall times measure the machine.
Run: `./dev bench answer_trace [--players 6] [--games 1] [--round-limit 8] [--keep DIR]`.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from adp2p.crypto.entries import decode_entry
from adp2p.p2p.protocol import Kind, decode_body

HERE = Path(__file__).resolve().parent
Row = tuple[float, float, str, str, str]  # wall, cpu, event, seq, extra


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def records(path: Path) -> list[bytes]:
    data, out, off = path.read_bytes(), [], 0
    while off + 4 <= len(data):
        n = int.from_bytes(data[off : off + 4], "big")
        out.append(data[off + 4 : off + 4 + n])
        off += 4 + n
    return out


def play(root: Path, n: int, seed: int, round_limit: int) -> None:
    hub, procs = free_port(), []
    for i in range(n):
        cmd = [
            sys.executable, str(HERE / "answer_trace_join.py"), "join", "--bot", "deduction", "--table", f"trace{seed}",
            "--players", str(n), "--no-mdns", "--host", "127.0.0.1", "--port", str(hub if i == 0 else 0),
            "--data-dir", str(root / f"p{i}"), "--name", f"bot{i}", "--rules", "classic", "--round-limit",
            str(round_limit), "--think", "0", "--quiet", "--seed", str(seed * 10 + i), "--abandon-after", "30",
        ]  # fmt: skip
        if i:
            cmd += ["--peer", f"127.0.0.1:{hub}"]
        env = dict(os.environ, ADP2P_TRACE=str(root / f"p{i}.trace"))
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    codes = [p.wait(timeout=600) for p in procs]
    if codes != [0] * n:
        raise SystemExit(f"a peer failed: exit codes {codes} (data in {root})")


def read_trace(path: Path) -> list[Row]:
    out = []
    for line in path.read_text().splitlines():
        f = line.split(maxsplit=4)
        out.append((float(f[0]), float(f[1]), f[2], f[3], f[4] if len(f) > 4 else ""))
    return out


def first(rows: list[Row], event: str, seq: str, after: float = 0.0) -> Row:
    return next(r for r in rows if r[2] == event and r[3] == seq and r[0] >= after)


def analyse(root: Path, n: int, seg: dict[tuple[str, str], list[float]]) -> None:
    """Add this game's answers' segments (ms) to `seg`."""
    ents = [decode_entry(r) for r in records(next((root / "p0" / "games").iterdir()) / "log")]
    what: dict[int, str] = {}
    for e in ents:
        if e.kind == Kind.EVENT:
            body = decode_body(e.body)
            what[e.seq] = str(body["ev"].get("t")) + ("+link" if "code_link" in body else "")
    traces = [read_trace(root / f"p{i}.trace") for i in range(n)]

    def owner(seq: int) -> int:  # the peer that appended it durably: its author
        return next(i for i, tr in enumerate(traces) if any(
            r[2] == "append0" and r[3] == str(seq) and "durable=True" in r[4] for r in tr))  # fmt: skip

    for a in sorted(what):
        b = a + 2
        if not what[a].startswith("attempt") or not what.get(b, "").startswith("answer"):
            continue
        kind, s, sb = ("first" if what[b].endswith("+link") else "other"), str(a + 1), str(b)
        try:
            pa, pc = owner(a), owner(b)
            att, ctl = traces[pa], traces[pc]
            t0, bs = first(att, "append1", str(a)), first(att, "bcast", s)
            d0, d1 = first(ctl, "decide0", "-", bs[0]), first(ctl, "decide1", "-", bs[0])
            m0, m1 = first(ctl, "author0", "-", d1[0]), first(ctl, "author1", "-", d1[0])
            f0, f1 = first(ctl, "fold0", sb), first(ctl, "fold1", sb)
            a0, a1, bc = first(ctl, "append0", sb), first(ctl, "append1", sb), first(ctl, "bcast", sb)
            logged = [first(tr, "append1", sb)[0] for tr in traces]
            tokens = [r[0] for i, tr in enumerate(traces) if i != pc for r in tr if r[2:5] == ("bcast", sb, "pass")]
            folds = [(first(tr, "fold1", sb)[1] - first(tr, "fold0", sb)[1]) for i, tr in enumerate(traces) if i != pc]
            shares_in = [first(tr, "append1", s)[0] for i, tr in enumerate(traces) if i != pa]
        except StopIteration:
            continue  # (an answer at the very end, or a step that did not happen this time)
        end = max(logged)
        cpu = sum(
            (rows[-1][1] - rows[0][1]) if rows else 0.0
            for rows in ([r for r in tr if t0[0] <= r[0] <= end] for tr in traces)
        )
        for name, ms in (
            ("1  attempter: attempt logged -> SHARES broadcast", bs[0] - t0[0]),
            ("1a   of which its SHARES fsync", first(att, "append1", s)[0] - first(att, "append0", s)[0]),
            ("2  SHARES broadcast -> logged at the last peer", max(shares_in) - bs[0]),
            ("3  SHARES broadcast -> the last pass token broadcast", max(tokens) - bs[0] if tokens else float("nan")),
            ("4a controller decides (bot thread), wall", d1[0] - d0[0]),
            ("4b controller decides, CPU", d1[1] - d0[1]),
            ("4c controller makes the answer, wall", m1[0] - m0[0]),
            ("4d controller makes the answer, CPU", m1[1] - m0[1]),
            ("4e controller folds its own answer, CPU", f1[1] - f0[1]),
            ("4f controller's fsync of the answer, wall", a1[0] - a0[0]),
            ("4g controller broadcast -> logged at the last peer", end - bc[0]),
            ("5a other peers' fold of the answer, CPU: slowest", max(folds)),
            ("5b other peers' fold of the answer, CPU: median", statistics.median(folds)),
            ("6  CPU of every peer in the span, summed", cpu),
            ("T  attempt logged -> answer logged at every peer", end - t0[0]),
        ):
            if ms == ms:  # (not nan)
                seg[(kind, name)].append(ms * 1000)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--round-limit", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--keep", default=None, help="keep the traces and logs in this directory")
    args = ap.parse_args()
    seg: dict[tuple[str, str], list[float]] = defaultdict(list)
    for g in range(args.games):
        with tempfile.TemporaryDirectory(prefix="bench-trace-") as tmp:
            root = Path(args.keep) / f"g{g}" if args.keep else Path(tmp)
            root.mkdir(parents=True, exist_ok=True)
            play(root, args.players, args.seed + g, args.round_limit)
            analyse(root, args.players, seg)
    load = "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    print(f"{args.players} peers, {args.games} game(s), --round-limit {args.round_limit}; ms, median / p90   {load}")
    for kind, name in sorted(seg):
        xs = sorted(seg[(kind, name)])
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print(f"  {kind:5} {name:55} {statistics.median(xs):8.1f} / {p90:8.1f}   (of {len(xs)})")


if __name__ == "__main__":
    main()
