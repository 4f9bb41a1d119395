"""Helpers for the table tests that run every peer as its own OS process (`ad-p2p join --bot ...`).

Peers listen on 127.0.0.1 only; every process gets the address of the first peer (a fixed port), the lobby
exchanges the rest. Output goes to files under the test's tmp_path (never a pipe that could fill up), and
`Table` kills whatever is still running when the test ends, pass or fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from netns import NetnsLab

_LEN = struct.Struct(">I")
LAB_PORT = 7311  # every peer's port in a lab: each host has a network namespace of its own
WAIT_FLOOR = 600.0  # s: the least time a table is given to end (Table.wait)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def log_records(path: Path) -> list[bytes]:
    """The raw entries of a log file (a torn last record, as a crash can leave it, is left out)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    out: list[bytes] = []
    off = 0
    while off + 4 <= len(data):
        (n,) = _LEN.unpack_from(data, off)
        if n == 0 or off + 4 + n > len(data):
            break
        out.append(data[off + 4 : off + 4 + n])
        off += 4 + n
    return out


def _limit_fds(n: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


@dataclass
class Peer:
    index: int
    name: str
    port: int
    data_dir: Path
    result: Path
    out: Path
    proc: subprocess.Popen[bytes] | None = None
    runs: list[int] = field(default_factory=list)  # exit codes of earlier runs (before a restart)

    def game_dir(self) -> Path | None:
        root = self.data_dir / "games"
        dirs = sorted(root.iterdir()) if root.is_dir() else []
        return dirs[0] if dirs else None

    def log_path(self) -> Path | None:
        g = self.game_dir()
        return g / "log" if g is not None else None

    def entries(self) -> int:
        p = self.log_path()
        return len(log_records(p)) if p is not None else 0

    def outcome(self) -> dict[str, Any]:
        return json.loads(self.result.read_text())

    def output(self) -> str:
        return self.out.read_text(errors="replace") if self.out.exists() else ""


class Table:
    """n bot peers as OS processes on loopback. Use as a context manager (kills leftovers on exit)."""

    def __init__(
        self,
        root: Path,
        n: int,
        *,
        round_limit: int = 20,
        abandon_after: float = 60.0,
        think: float = 0.0,
        seed: int = 1,
        table: str = "t",
        quiet: bool = False,  # the peers' narration helps when a test fails
        lab: NetnsLab | None = None,  # peer i runs in the lab's host i, on its address, instead of on loopback
        addresses: list[str] | None = None,  # in the lab, peer i's address (default: the lab's own, on its bridge)
        game: str = "access-denied",  # or "hacker" (its planner bot plays)
        extra: list[str] | None = None,  # more `join` options for every peer (e.g. a table word)
        players: int | None = None,  # the players each peer waits for (default: n)
    ) -> None:
        self.game = game
        self.root = root
        self.n = n
        self.round_limit = round_limit
        self.abandon_after = abandon_after
        self.think = think
        self.seed = seed
        self.table = table
        self.quiet = quiet
        self.extra = list(extra or [])
        self.players = players or n
        self.lab = lab
        self.addresses = addresses or (lab.addresses if lab is not None else None)
        self.hub_port = LAB_PORT if lab is not None else free_port()
        self.peers: list[Peer] = []
        for i in range(n):
            self.peers.append(
                Peer(
                    i,
                    f"bot{i}",
                    self.hub_port if i == 0 or lab is not None else free_port(),
                    root / f"peer{i}",
                    root / f"peer{i}.json",
                    root / f"peer{i}.out",
                )
            )

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill_all()

    def host(self, i: int) -> str:
        return self.addresses[i] if self.addresses is not None else "127.0.0.1"

    def command(self, p: Peer, *, resume: Path | None = None, peer_addr: int | None = None) -> list[str]:
        which = ["--bot", "deduction", "--rules", "classic"] if self.game == "access-denied" else [
            "--game", self.game, "--bot", "planner",
        ]
        cmd = [
            sys.executable, "-m", "adp2p.cli", "join", *which,
            "--table", self.table, "--players", str(self.players), "--no-mdns", "--host", self.host(p.index),
            "--port", str(p.port), "--data-dir", str(p.data_dir), "--name", p.name,
            "--round-limit", str(self.round_limit), "--think", str(self.think),
            "--seed", str(self.seed * 100 + p.index), "--abandon-after", str(self.abandon_after),
            "--result-json", str(p.result),
        ]  # fmt: skip
        if self.quiet:
            cmd.append("--quiet")
        cmd += self.extra
        hub = peer_addr if peer_addr is not None else self.hub_port
        if self.lab is not None and p.index != 0:
            cmd += ["--peer", f"{self.host(0)}:{hub}"]
        elif self.lab is None and hub != p.port:
            cmd += ["--peer", f"127.0.0.1:{hub}"]
        if resume is not None:
            cmd += ["--resume", str(resume)]
        return cmd

    def start(
        self, p: Peer, *, resume: Path | None = None, peer_addr: int | None = None, nofile: int | None = None
    ) -> None:
        """Start (or restart) p; `nofile`: its descriptor limit (RLIMIT_NOFILE, soft and hard)."""
        if p.proc is not None:
            p.runs.append(p.proc.wait(timeout=10))
        # ADP2P_LOG=info: the mesh's log (connections made and lost, and why) goes into the diagnostics
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1", "ADP2P_LOG": "info"}
        with open(p.out, "ab") as fh:
            fh.write(f"==== run {len(p.runs) + 1}{' (resume)' if resume else ''}\n".encode())
            fh.flush()
            cmd = self.command(p, resume=resume, peer_addr=peer_addr)
            p.proc = subprocess.Popen(
                self.lab.argv(p.index, cmd) if self.lab is not None else cmd,
                stdout=fh,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                preexec_fn=None if nofile is None else lambda: _limit_fds(nofile),
            )

    def start_all(self) -> None:
        for p in self.peers:
            self.start(p)

    def wait(self, peers: list[Peer] | None = None, timeout: float = 60.0) -> list[int]:
        """Exit codes of the given peers (all by default); any still running at the deadline is killed and
        reported as None so the assertion names it. The deadline is at least WAIT_FLOOR s away: it only ends a broken
        run (a game that takes 20 s on an idle machine has taken over 140 s on a busy one), never a margin a test
        needs."""
        deadline = time.monotonic() + max(timeout, WAIT_FLOOR)
        codes: list[Any] = []
        for p in peers if peers is not None else self.peers:
            assert p.proc is not None
            try:
                codes.append(p.proc.wait(timeout=max(0.1, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                p.proc.kill()
                p.proc.wait(timeout=10)
                codes.append(None)
        return codes

    def wait_entries(self, p: Peer, count: int, timeout: float = 240.0) -> int:
        """Poll p's log until it holds at least `count` entries; return how many it holds. The timeout only bounds a
        broken run (a loaded machine may take minutes to start four peers and shuffle): never a margin a test needs."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = p.entries()
            if got >= count:
                return got
            assert p.proc is not None
            if p.proc.poll() is not None:
                raise AssertionError(f"{p.name} exited ({p.proc.returncode}) at {got} entries:\n{p.output()}")
            time.sleep(0.01)
        raise AssertionError(f"{p.name} did not reach {count} entries within {timeout} s:\n{p.output()}")

    def signal(self, p: Peer, sig: int = signal.SIGKILL) -> int:
        assert p.proc is not None
        p.proc.send_signal(sig)
        return p.proc.wait(timeout=20)

    def signal_nowait(self, p: Peer, sig: int) -> None:
        assert p.proc is not None
        p.proc.send_signal(sig)

    def kill_all(self) -> None:
        for p in self.peers:
            if p.proc is not None and p.proc.poll() is None:
                with contextlib.suppress(OSError):
                    p.proc.send_signal(signal.SIGCONT)  # a stopped process dies of SIGKILL too; be sure
                p.proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    p.proc.wait(timeout=10)

    def diagnostics(self) -> str:
        return "\n".join(f"--- {p.name} (port {p.port})\n{p.output()[-3000:]}" for p in self.peers)
