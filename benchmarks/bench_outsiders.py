"""Bounded resources against the LAN: a table of bot peers (OS processes on 127.0.0.1, tests/p2p/_table_procs.py)
plays while an outsider on another address (127.0.0.2) keeps opening connections to every peer in waves: some idle,
some sending a handshake frame header and part of its body then stalling, some sending garbage. Samples every
peer's resident memory and open descriptors (/proc) throughout, and prints their peaks against a quiet game's,
the connections tried, and whether the game completed with identical logs.

    .venv/bin/python benchmarks/bench_outsiders.py [PLAYERS] [WAVES]   (default 3 40)
    .venv/bin/python benchmarks/bench_outsiders.py lobby [OUTSIDERS]   (default 60)

`lobby`: one peer waits in the lobby while OUTSIDERS signed-in outsiders (each its own key, at the peer's table)
each announce a 1 MiB frame, send all of it but its last 1,000 bytes and hold it for 8 s, then leave. Prints the
peer's resident memory before, at its peak, and 5 s after they left (issue 35 item 6).
"""

from __future__ import annotations

import os
import random
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "p2p"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from _outsiders import signed_in_outsiders
from _table_procs import Table

PER_WAVE = 60  # connections per peer per wave
OUTSIDER = "127.0.0.2"


def sample(pid: int) -> tuple[int, int]:
    """(resident KiB, open descriptors) of a process, or (0, 0) once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        rss = next(int(x.split()[1]) for x in status if x.startswith("VmRSS"))
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, StopIteration):
        return 0, 0


def watch(table: Table, peaks: list[list[int]], stop: threading.Event) -> None:
    while not stop.is_set():
        for i, p in enumerate(table.peers):
            if p.proc is not None and p.proc.poll() is None:
                rss, fds = sample(p.proc.pid)
                peaks[i][0], peaks[i][1] = max(peaks[i][0], rss), max(peaks[i][1], fds)
        time.sleep(0.1)


async def attack(ports: list[int], waves: int, tried: list[int], until: threading.Event) -> None:
    rng = random.Random(5)
    for _ in range(waves):
        if until.is_set():
            return
        socks = []
        for port in ports:
            for k in range(PER_WAVE):
                s = trio.socket.socket()
                try:
                    await s.bind((OUTSIDER, 0))
                    await s.connect(("127.0.0.1", port))
                    if k % 3 == 1:  # a hello frame announced at the handshake limit, a part of it sent
                        await s.send(struct.pack(">I", 8 * 1024) + b"\x85" + os.urandom(rng.randrange(10, 4000)))
                    elif k % 3 == 2:
                        await s.send(os.urandom(rng.randrange(1, 200)))
                    tried[0] += 1
                    socks.append(s)
                except OSError:
                    s.close()
        await trio.sleep(1.0)
        for s in socks:
            s.close()


def game(root: Path, n: int, waves: int) -> tuple[list[int | None], list[list[int]], int, bool]:
    peaks = [[0, 0] for _ in range(n)]
    tried = [0]
    stop = threading.Event()
    root.mkdir(parents=True)
    with Table(root, n, round_limit=8, abandon_after=20.0, think=0.05, seed=3, quiet=True) as table:
        table.start_all()
        threading.Thread(target=watch, args=(table, peaks, stop), daemon=True).start()
        if waves:
            time.sleep(1.0)
            ports = [p.port for p in table.peers]
            t = threading.Thread(target=lambda: trio.run(attack, ports, waves, tried, stop), daemon=True)
            t.start()
        codes = table.wait(timeout=600)
        stop.set()
        logs = {p.log_path().read_bytes() for p in table.peers if p.log_path() is not None}  # type: ignore[union-attr]
    return codes, peaks, tried[0], len(logs) == 1


def lobby(count: int) -> int:
    with tempfile.TemporaryDirectory() as d, Table(Path(d), 3, abandon_after=120.0, seed=3, quiet=True) as table:
        p = table.peers[0]
        table.start(p)
        while not _listening(p.port):
            time.sleep(0.1)
        time.sleep(1.0)
        assert p.proc is not None
        before = sample(p.proc.pid)[0]
        peak, stop, held = [before, 0], threading.Event(), [0]

        def watch_one() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], sample(p.proc.pid)[0])  # type: ignore[union-attr]
                time.sleep(0.05)

        w = threading.Thread(target=watch_one, daemon=True)
        w.start()
        trio.run(signed_in_outsiders, p.port, count, 8.0, held)
        time.sleep(5.0)
        stop.set()
        w.join()
        after = sample(p.proc.pid)[0]
        alive = p.proc.poll() is None
    load = os.getloadavg()
    print(
        f"lobby, {count} signed-in outsiders holding 1 MiB frames ({held[0]} signed in): peer RSS "
        f"{before / 1024:.0f} MB before, {peak[0] / 1024:.0f} MB peak, {after / 1024:.0f} MB 5 s after they left; "
        f"peer {'still waiting' if alive else 'EXITED'} (load {load[0]:.1f} {load[1]:.1f})"
    )
    return 0 if alive else 1


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def main() -> int:
    if sys.argv[1:2] == ["lobby"]:
        return lobby(int(sys.argv[2]) if len(sys.argv) > 2 else 60)
    n, waves = ([int(x) for x in sys.argv[1:]] + [3, 40][len(sys.argv) - 1 :])[:2]
    with tempfile.TemporaryDirectory() as d:
        t0 = time.monotonic()
        q_codes, quiet, _, q_same = game(Path(d) / "quiet", n, 0)
        q_secs = time.monotonic() - t0
        t0 = time.monotonic()
        codes, peaks, tried, same = game(Path(d) / "attacked", n, waves)
        secs = time.monotonic() - t0
    print(f"quiet game:    exit codes {q_codes}, identical logs {q_same}, {q_secs:.0f} s")
    print(f"attacked game: exit codes {codes}, identical logs {same}, {secs:.0f} s, {tried} outsider connections")
    for i in range(n):
        print(
            f"  peer {i}: peak RSS {quiet[i][0] / 1024:.0f} MB quiet, {peaks[i][0] / 1024:.0f} MB attacked; "
            f"peak descriptors {quiet[i][1]} quiet, {peaks[i][1]} attacked"
        )
    ok = codes == [0] * n and same
    print(f"bounded resources: {'game completed' if ok else 'GAME FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
