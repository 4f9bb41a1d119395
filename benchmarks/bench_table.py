"""The networked table, measured: bot peers as OS processes (`ad-p2p join --bot deduction`) on loopback.

For 3..6 peers, a few games each (medians printed):

* **import**: process spawn -> `TablePeer.run()` starts (Python start-up and imports);
* **genesis**: spawn -> the last peer has logged the genesis (lobby over TCP with signed handshakes);
* **first turn**: spawn -> the last peer has logged the first EVENT entry (joins, links, the mental-poker
  deck shuffle by every seat, password commitments and their reveal rounds all done);
* **attempt -> answer**: an access attempt entry logged by its author -> the controller's answer entry
  logged by the controller (the reveal rounds in between included), median and 90th percentile;
* **answer at every peer** (what players wait for): the attempt logged by its author -> the LAST peer has logged
  the answer (checked every proof on it), median and 90th percentile, the first answer about each password (it
  carries the link proof: made by the controller, checked by every peer) apart from the others;
* **setup per peer**: each peer's CPU (process time) and wall time from its genesis to the first turn, median and
  the slowest peer;
* **game**: spawn -> every process has exited; entries and log bytes per game; time per entry;
* **messages per entry**: every message every peer sent (one per connection it went to), and the heads among them;
* **setup split**: when every peer had logged the genesis, the last key (join), beacon link, shuffle and deal
  (shares) entry before the first move, and the first move.

Timestamps come from `ad-p2p join --timings FILE` (time.monotonic(), one clock for all processes on a
machine). The crypto floors are CPU time (process time) of this process. The load average is printed beside every
line of figures: the machine is shared, and wall times mean little under load.
Run: `.venv/bin/python benchmarks/bench_table.py [--games 3] [--players 3,4,5,6]`.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adp2p.crypto.deck import (
    DeckKey,
    encode_deck,
    forget_made_shares,
    initial_deck,
    joint_key,
    make_masks,
    make_share,
    open_card,
    receive_shuffle,
    shuffle_with,
    verify_deck_key,
)
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.group import CardTable, forget_valid_points
from adp2p.crypto.shuffle_proof import ShuffleContext, forget_verified, prove_shuffle, verify_shuffle_proof
from adp2p.p2p.protocol import Kind, decode_body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def records(path: Path) -> list[bytes]:
    data = path.read_bytes()
    out, off = [], 0
    while off + 4 <= len(data):
        n = int.from_bytes(data[off : off + 4], "big")
        out.append(data[off + 4 : off + 4 + n])
        off += 4 + n
    return out


def read_timings(
    path: Path, sent: dict[str, int] | None = None, cpu: dict[int, float] | None = None
) -> tuple[float, dict[int, tuple[int, float]]]:
    """(start time, seq -> (author, time logged)); the messages the peer sent, by kind, added to `sent`; the
    peer's CPU seconds when it logged each seq, into `cpu`."""
    start, seqs = 0.0, {}
    for line in path.read_text().splitlines():
        f = line.split()
        if f[0] == "start":
            start = float(f[1])
        elif f[0] == "sent":
            for kv in f[1:]:
                if "=" in kv and sent is not None:
                    k, v = kv.split("=")
                    sent[k] = sent.get(k, 0) + int(v)
        else:
            seqs[int(f[0])] = (int(f[2]), float(f[3]))
            if cpu is not None and len(f) > 4:
                cpu[int(f[0])] = float(f[4])
    return start, seqs


def crypto_floor(n: int, deal: int = 6) -> float:
    """Seconds of crypto on the critical path of a setup at n seats, on one core, with no messages, logs or
    engine: one deck key made and all n checked (every peer does this at once); the n shuffles one after the
    other, each proved by its shuffler and its output and proof checked by the next shuffler before it shuffles (its
    re-masking multiplications made ahead, while it waited, as a peer does: `Machine.prepare_shuffle`); one seat's
    proven shares for the cards
    dealt to the others; one learner checking every seat's share of each of its `deal` cards (the seats do this
    in parallel). Entry signatures, sealing and the beacon are left out: a lower bound."""
    gid = secrets.token_bytes(16)
    table = CardTable.linear(gid, [i % 6 for i in range(63)])  # (the deck's points: version 5)
    t0 = clock()
    keys = [DeckKey.generate(gid, s) for s in range(n)]
    keygen = (clock() - t0) / n
    t0 = clock()
    jpk = joint_key(gid, [(k.public, k.proof) for k in keys])
    deck = initial_deck(gid, jpk, table)
    masks = []
    for _ in range(n):  # each shuffler's re-masking is made while it waits (off the critical path)
        t1 = clock()
        masks.append(make_masks(jpk, len(deck)))
        t0 += clock() - t1
    for s in range(n):
        out, w = shuffle_with(deck, masks[s])
        ctx = ShuffleContext(gid, b"initial", s, s + 1)
        proof = prove_shuffle(ctx, jpk, deck, out, w.perm, w.rs)
        received = receive_shuffle(deck, encode_deck(out), s, s, validate=False)  # (as a peer: the proof checks)
        forget()  # the check itself is measured
        verify_shuffle_proof(ctx, jpk, deck, received, proof, trusted=True)
        deck = received
    shuffles = clock() - t0
    t0 = clock()
    for h in range(deal * (n - 1)):  # seat 0's shares of the cards dealt to the others
        make_share(gid, keys[0], h, deck[h])
    dealing = clock() - t0
    shares = [[make_share(gid, k, h, deck[h]) for k in keys] for h in range(deal)]  # (made by every seat)
    forget()
    t0 = clock()
    for h in range(deal):  # seat 1 learns its cards: every share's proof checked, the cards opened
        open_card(gid, h, deck[h], shares[h], [k.public for k in keys], table)
    learning = clock() - t0
    return keygen + shuffles + dealing + learning


def crypto_all(n: int, deal: int = 6) -> float:
    """Seconds of the crypto that all n peers together must do in a setup (summed, not a critical path): every deck
    key made and checked by every other seat; every shuffle's masks and additions and its proof, and its output and
    proof checked by every other seat; every seat's proven shares for the cards dealt to the others; every learner
    checking the shares of its `deal` cards (its own share's proof included). On a machine with fewer cores than
    peers, this divided by the cores bounds the setup's wall time from below, however short the critical path."""
    gid = secrets.token_bytes(16)
    table = CardTable.linear(gid, [i % 6 for i in range(63)])  # (the deck's points: version 5)

    def unit(fn: object, reps: int = 3) -> float:
        t0 = clock()
        for _ in range(reps):
            forget()
            fn()  # type: ignore[operator]
        return (clock() - t0) / reps

    keys = [DeckKey.generate(gid, s) for s in range(n)]
    jpk = joint_key(gid, [(k.public, k.proof) for k in keys])
    deck = initial_deck(gid, jpk, table)
    out, w = shuffle_with(deck, make_masks(jpk, len(deck)))
    raw = encode_deck(out)
    shares = [make_share(gid, k, 0, deck[0]) for k in keys]
    t_key = unit(lambda: DeckKey.generate(gid, 0))
    t_check = unit(lambda: verify_deck_key(gid, 0, keys[0].public, keys[0].proof))
    t_masks = unit(lambda: make_masks(jpk, len(deck)))
    masks_for(jpk, len(deck))
    t_add = unit(lambda: shuffle_with(deck, masks_for(jpk, len(deck))))  # type: ignore[arg-type]
    t_receive = unit(lambda: receive_shuffle(deck, raw, 0, 0))
    ctx = ShuffleContext(gid, b"initial", 0, 1)
    proof = prove_shuffle(ctx, jpk, deck, out, w.perm, w.rs)
    t_prove = unit(lambda: prove_shuffle(ctx, jpk, deck, out, w.perm, w.rs), 1)

    def verify() -> None:
        forget()  # the check itself is measured
        verify_shuffle_proof(ctx, jpk, deck, out, proof, trusted=True)

    t_verify = unit(verify, 1)
    t_share = unit(lambda: make_share(gid, keys[0], 0, deck[0]), 10)
    t_open = unit(lambda: open_card(gid, 0, deck[0], shares, [k.public for k in keys], table), 10)
    return (
        n * t_key
        + n * (n - 1) * t_check
        + n * (t_masks + t_add)
        + n * (n - 1) * t_receive
        + n * t_prove
        + n * (n - 1) * t_verify
        + n * deal * (n - 1) * t_share
        + n * deal * t_open
    )


_MASKS: dict[tuple[bytes, int], object] = {}


def masks_for(jpk: bytes, size: int) -> object:
    """Masks made once (the additions of a shuffle are timed, not the masks again)."""
    if (jpk, size) not in _MASKS:
        _MASKS[(jpk, size)] = make_masks(jpk, size)
    return _MASKS[(jpk, size)]


def one_game(root: Path, n: int, seed: int, round_limit: int, timeout: float) -> dict[str, object]:
    hub = free_port()
    procs = []
    t0 = time.monotonic()
    for i in range(n):
        d = root / f"p{i}"
        cmd = [
            sys.executable, "-m", "adp2p.cli", "join", "--bot", "deduction", "--table", f"bench{seed}",
            "--players", str(n), "--no-mdns", "--host", "127.0.0.1", "--port", str(hub if i == 0 else 0),
            "--data-dir", str(d), "--name", f"bot{i}", "--rules", "classic", "--round-limit", str(round_limit),
            "--think", "0", "--quiet", "--seed", str(seed * 10 + i), "--abandon-after", "30",
            "--timings", str(root / f"p{i}.timings"),
        ]  # fmt: skip
        if i:
            cmd += ["--peer", f"127.0.0.1:{hub}"]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        codes = [p.wait(timeout=max(0.1, t0 + timeout - time.monotonic())) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    wall = time.monotonic() - t0
    if codes != [0] * n:
        raise SystemExit(f"a peer failed: exit codes {codes} (data in {root})")
    logs = sorted((root / "p0" / "games").iterdir())
    logfile = logs[0] / "log"
    raws = records(logfile)
    sent: dict[str, int] = {}
    cpus: list[dict[int, float]] = [{} for _ in range(n)]
    timings = [read_timings(root / f"p{i}.timings", sent, cpus[i]) for i in range(n)]
    kinds = {}
    ev_type = {}
    linked = set()  # answers that carry their password's link proof (the first answer about each password)
    tokens = pass_entries = 0
    for r in raws:
        e = decode_entry(r)
        kinds[e.seq] = e.kind
        if e.kind == Kind.EVENT:
            body = decode_body(e.body)
            ev_type[e.seq] = body["ev"].get("t")
            if "code_link" in body:
                linked.add(e.seq)
            tokens += len(body.get("passes", []))  # window passes carried as tokens (implied passes)
            pass_entries += ev_type[e.seq] == "pass"
    first_event = min(s for s, k in kinds.items() if k == Kind.EVENT)
    first_event = min(s for s, k in kinds.items() if k == Kind.EVENT)
    # the author's own time: the earliest time any peer logged it (the author logs before broadcasting)
    earliest = {s: min(t[1][s][1] for t in timings if s in t[1]) for s in kinds}

    # setup, phase by phase: when every peer had logged the last entry of each kind before the first move
    def all_have(seq: int) -> float:
        return max(t[1][seq][1] for t in timings) - t0

    phases = {"genesis": all_have(0)}
    for name, kind in (("keys", Kind.JOIN), ("links", Kind.LINK), ("shuffles", Kind.SHUFFLE), ("deal", Kind.SHARES)):
        seqs = [q for q, k in kinds.items() if k == kind and q < first_event]
        phases[name] = all_have(max(seqs)) if seqs else float("nan")
    phases["first move"] = all_have(first_event)
    # the passwords (each proved: Pedersen commitments and the proof of distinct codes) and the first turn after them
    turn = min((s for s, t in ev_type.items() if t not in ("password", "password_draw", "pass")), default=None)
    if turn is not None:
        phases["passwords"] = all_have(max(s for s, t in ev_type.items() if s < turn and t.startswith("password")))
        phases["first turn"] = all_have(turn)
    turn_cpu = [c[turn] - c[0] for c in cpus if turn in c and 0 in c] if turn is not None else []
    turn_wall = [t[1][turn][1] - t[1][0][1] for t in timings if turn in t[1]] if turn is not None else []
    # CPU every peer spent between its genesis and the first move: on this machine's cores, a lower bound of the
    # setup's wall time whatever the critical path
    setup_cpu = sum(c[first_event] - c[0] for c in cpus if first_event in c and 0 in c)
    lat, chain, first_lat, reach, first_reach = [], [], [], [], []
    pending = None
    for s in sorted(ev_type):
        if ev_type[s] == "attempt":
            pending = s
        elif ev_type[s] == "answer" and pending is not None:
            lat.append(earliest[s] - earliest[pending])
            everyone = max(t[1][s][1] for t in timings)  # the last peer has logged (and checked) the answer
            (first_reach if s in linked else reach).append(everyone - earliest[pending])
            if s in linked:
                first_lat.append(lat[-1])
            chain.append(s - pending + 1)  # entries in a row, the attempt and the answer included
            pending = None
    return {
        "import": statistics.median(st - t0 for st, _ in timings),
        "genesis": max(t[1][0][1] for t in timings) - t0,
        "first_turn": max(t[1][first_event][1] for t in timings) - t0,
        "latencies": lat,
        "first_latencies": first_lat,
        "wall": wall,
        "entries": len(raws),
        "bytes": logfile.stat().st_size,
        "attempts": len(lat),
        "msgs": sum(sent.values()) / len(raws),
        "msgs_per_step": sum(sent.values()) / (len(raws) + tokens),  # an entry or a pass carried by a token
        "heads": sent.get("head", 0) / len(raws),
        "phases": phases,
        "setup_cpu": setup_cpu,
        "turn_cpu": statistics.median(turn_cpu) if turn_cpu else float("nan"),
        "turn_cpu_max": max(turn_cpu, default=float("nan")),
        "turn_wall": statistics.median(turn_wall) if turn_wall else float("nan"),
        "turn_wall_max": max(turn_wall, default=float("nan")),
        "reach": reach,
        "first_reach": first_reach,
        "chain": statistics.median(chain) if chain else float("nan"),
        "tokens": tokens,
        "pass_entries": pass_entries,
    }


def _ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.1f}" if xs else "-"


def _p90(xs: list[float]) -> str:
    return f"{sorted(xs)[int(0.9 * (len(xs) - 1))] * 1000:.1f}" if xs else "-"


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def clock() -> float:
    """CPU time of this process (the machine is shared: wall time is not the figure)."""
    return time.process_time()


def forget() -> None:
    """No memory of earlier checks (verified proofs of shuffle, validated points): each check is measured."""
    forget_verified()
    forget_valid_points()
    forget_made_shares()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", default="3,4,5,6")
    ap.add_argument("--round-limit", type=int, default=20)
    args = ap.parse_args()
    print(f"bot games over loopback, --think 0, --round-limit {args.round_limit}, {args.games} games each")
    print(
        f"{'peers':>5} {'import':>7} {'genesis':>8} {'1st turn':>9} {'att->ans':>9} {'p90':>7} "
        f"{'game':>7} {'entries':>8} {'KiB':>6} {'ms/entry':>9} {'msg/entry':>9} {'heads':>6}"
    )
    split: list[tuple[int, dict[str, float]]] = []
    passes: list[str] = []
    reached: list[str] = []
    per_peer: list[str] = []
    cpu_setup: list[float] = []
    turn_cpu: list[tuple[float, float]] = []
    for n in [int(x) for x in args.players.split(",")]:
        games = []
        for g in range(args.games):
            with tempfile.TemporaryDirectory(prefix=f"bench-table-{n}-") as tmp:
                games.append(one_game(Path(tmp), n, 1000 * n + g, args.round_limit, timeout=180))
        med = {k: statistics.median(g[k] for g in games) for k in ("import", "genesis", "first_turn", "wall")}
        ents = statistics.median(g["entries"] for g in games)
        kib = statistics.median(g["bytes"] for g in games) / 1024
        lat = sorted(x for g in games for x in g["latencies"])
        p50 = statistics.median(lat) if lat else float("nan")
        p90 = lat[int(0.9 * (len(lat) - 1))] if lat else float("nan")
        shown = ", ".join(f"{g['wall']:.1f}s/{g['entries']}" for g in games)
        per = statistics.median(g["wall"] / g["entries"] for g in games) * 1000
        msgs = statistics.median(g["msgs"] for g in games)
        heads = statistics.median(g["heads"] for g in games)
        chain = statistics.median(g["chain"] for g in games)
        tok, pe = sum(g["tokens"] for g in games), sum(g["pass_entries"] for g in games)
        first = [x for g in games for x in g["first_latencies"]]
        later = [x for g in games for x in g["latencies"] if x not in g["first_latencies"]]
        passes.append(
            f"    {n} peers: attempt -> answer, the first answer about a password (with its link proof): median "
            f"{_ms(first)} ms of {len(first)}; the others: median {_ms(later)} ms of {len(later)}"
        )
        fr = [x for g in games for x in g["first_reach"]]
        rr = [x for g in games for x in g["reach"]]
        reached.append(
            f"    {n} peers: first answers median {_ms(fr)} ms, p90 {_p90(fr)} ms (of {len(fr)}); the others median "
            f"{_ms(rr)} ms, p90 {_p90(rr)} ms (of {len(rr)}); all {_ms(fr + rr)} / {_p90(fr + rr)} ms   {load()}"
        )
        per_peer.append(
            f"    {n} peers: CPU median {statistics.median(g['turn_cpu'] for g in games) * 1000:.0f} ms, slowest peer "
            f"{statistics.median(g['turn_cpu_max'] for g in games) * 1000:.0f} ms; wall median "
            f"{statistics.median(g['turn_wall'] for g in games) * 1000:.0f} ms, slowest "
            f"{statistics.median(g['turn_wall_max'] for g in games) * 1000:.0f} ms   {load()}"
        )
        passes.append(
            f"    {n} peers: entries per attempt (attempt to answer) {chain:.0f}; window passes as tokens {tok}, "
            f"as entries {pe}; messages per step (entry or token) "
            f"{statistics.median(g['msgs_per_step'] for g in games):.1f}; log bytes per entry "
            f"{statistics.median(g['bytes'] / g['entries'] for g in games):.0f}"
        )
        print(
            f"{n:>5} {med['import'] * 1000:>5.0f}ms {med['genesis'] * 1000:>6.0f}ms "
            f"{med['first_turn'] * 1000:>7.0f}ms {p50 * 1000:>7.1f}ms {p90 * 1000:>5.1f}ms "
            f"{med['wall']:>6.1f}s {ents:>8.0f} {kib:>6.0f} {per:>9.1f} {msgs:>9.1f} {heads:>6.1f}"
            f"   ({len(lat)} attempts; games {shown}; {load()})"
        )
        split.append((n, {k: statistics.median(g["phases"][k] for g in games) for k in games[0]["phases"]}))
        cpu_setup.append(statistics.median(g["setup_cpu"] for g in games))
        turn_cpu.append(
            (statistics.median(g["turn_cpu"] for g in games), statistics.median(g["turn_cpu_max"] for g in games))
        )
    print("\nattempt -> the answer logged by EVERY peer (what players wait for):")
    print("\n".join(reached))
    print("\nsetup per peer, genesis -> first turn (every shuffle proved), medians over games:")
    print("\n".join(per_peer))
    print("\nreaction windows and the log:")
    print("\n".join(passes))
    print("\nsetup, ms after spawn when every peer has logged the last entry of each phase (medians), and the")
    print("crypto floor of a setup measured now (crypto_floor); ratio = (first move - genesis) / floor:")
    cores = os.cpu_count() or 1
    for (n, ph), cpu, (tc, tmax) in zip(split, cpu_setup, turn_cpu, strict=True):
        floor = statistics.median(crypto_floor(n) for _ in range(3))
        ratio = (ph["first move"] - ph["genesis"]) / floor
        print(f"{n:>5} peers: " + "  ".join(f"{k} {v * 1000:.0f}" for k, v in ph.items()), end="")
        print(f"  | floor {floor * 1000:.0f} ms CPU, ratio {ratio:.1f}   {load()}")
        need = statistics.median(crypto_all(n) for _ in range(3))
        print(
            f"           CPU of all {n} peers then {cpu * 1000:.0f} ms: on {cores} cores at least "
            f"{cpu / cores * 1000:.0f} ms of wall whatever the critical path ({cpu / cores / floor:.1f}x the floor)"
        )
        print(
            f"           the crypto all {n} peers must do (crypto_all) {need * 1000:.0f} ms: on {cores} cores at "
            f"least {need / cores * 1000:.0f} ms ({need / cores / floor:.1f}x the floor) with no other work at all"
        )
        print(
            f"           CPU of one peer from genesis to the first turn (passwords proved): median {tc * 1000:.0f} ms,"
            f" the busiest {tmax * 1000:.0f} ms (a peer on a machine of its own needs about that much wall time)"
        )


if __name__ == "__main__":
    main()
