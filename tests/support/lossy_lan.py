"""A lossy LAN between the hosts of a `NetnsLab`, without a kernel emulator (this kernel has no netem): every
host gets a TUN device, ``tun0`` with address ``10.232.0.<i+1>/24``, and a userspace switch (this file, run as
its own process) carries each IPv4 packet to the host it is addressed to, dropping a share of them, delaying
the rest and reordering them by a random jitter (seeded: a run can be repeated).

    with NetnsLab(3) as lab, LossyLan(lab, loss=0.1, delay=0.1, jitter=0.05, seed=1) as lan:
        ... run peers in lab hosts on lan.addresses ...
    lan.stats  # {"forwarded": ..., "dropped": ...}

The switch opens each host's TUN device from inside that host's network namespace (``setns``, by ctypes:
Python 3.11 has no ``os.setns``); the devices go away with the lab's namespaces.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import heapq
import json
import os
import random
import select
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SUBNET = (10, 232, 0)
TUN = "tun0"
_CLONE_NEWNET = 0x40000000
_TUNSETIFF = 0x400454CA
_IFF_TUN, _IFF_NO_PI = 0x0001, 0x1000


def tun_unavailable_reason() -> str | None:
    """None if TUN devices can be made in a namespace here, else why not (probed once per process)."""
    global _tun_reason
    if _tun_reason is False:
        probe = f"adp2p-{os.getpid()}-tunprobe"
        reason: str | None = None
        if not os.path.exists("/dev/net/tun"):
            reason = "no /dev/net/tun"
        else:
            try:
                subprocess.run(["ip", "netns", "add", probe], check=True, capture_output=True, timeout=10)
                try:
                    subprocess.run(
                        ["ip", "-n", probe, "tuntap", "add", "dev", TUN, "mode", "tun"],
                        check=True, capture_output=True, timeout=10,
                    )  # fmt: skip
                finally:
                    subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=10)
            except (OSError, subprocess.SubprocessError) as exc:
                reason = f"cannot make a TUN device in a namespace: {exc}"
        _tun_reason = reason
    return _tun_reason  # type: ignore[return-value]


_tun_reason: str | bool | None = False  # False: not probed yet


class LossyLan:
    """The lab's hosts joined by the lossy switch; use as a context manager inside the lab's."""

    def __init__(self, lab: Any, *, loss: float, delay: float, jitter: float = 0.0, seed: int = 1) -> None:
        self.lab = lab
        self.args = ["--loss", str(loss), "--delay", str(delay), "--jitter", str(jitter), "--seed", str(seed)]
        self.addresses = [f"{SUBNET[0]}.{SUBNET[1]}.{SUBNET[2]}.{i + 1}" for i in range(lab.n)]
        self.stats: dict[str, int] = {}
        self._proc: subprocess.Popen[str] | None = None
        self._stats_file: Path | None = None

    def __enter__(self) -> LossyLan:
        for ns, addr in zip(self.lab.names, self.addresses, strict=True):
            for cmd in (
                ["tuntap", "add", "dev", TUN, "mode", "tun"],
                ["addr", "add", f"{addr}/24", "dev", TUN],
                ["link", "set", TUN, "up"],
            ):
                subprocess.run(["ip", "-n", ns, *cmd], check=True, capture_output=True, timeout=10)
        self._stats_file = Path(f"/tmp/lossy-lan-{os.getpid()}-{id(self)}.json")
        self._proc = subprocess.Popen(
            [sys.executable, __file__, "--ns", *self.lab.names, "--stats", str(self._stats_file), *self.args],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        if self._proc.stdout.readline().strip() != "ready":
            self._proc.kill()
            raise RuntimeError("the lossy switch did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            self._proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=10)
            if self._proc.poll() is None:
                self._proc.kill()
        if self._stats_file is not None and self._stats_file.exists():
            self.stats = json.loads(self._stats_file.read_text())
            self._stats_file.unlink()


def _open_tun(libc: Any, ns: str) -> int:
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
    try:
        if libc.setns(there, _CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into {ns}")
        try:
            fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
            fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH", TUN.encode(), _IFF_TUN | _IFF_NO_PI))
        finally:
            if libc.setns(home, _CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back home")
    finally:
        os.close(home)
        os.close(there)
    return fd


def switch(names: list[str], loss: float, delay: float, jitter: float, seed: int, stats_path: Path) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    fds = [_open_tun(libc, ns) for ns in names]
    host_of = {fd: i for i, fd in enumerate(fds)}
    rng = random.Random(seed)
    queue: list[tuple[float, int, int, bytes]] = []  # (due, tie-break, destination host, packet)
    stats = {"forwarded": 0, "dropped": 0}
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    print("ready", flush=True)
    k = 0
    while running[0]:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, j, pkt = heapq.heappop(queue)
            with contextlib.suppress(OSError):
                os.write(fds[j], pkt)
        wait = min(0.5, queue[0][0] - now) if queue else 0.5
        try:
            ready, _, _ = select.select(fds, [], [], max(0.0, wait))
        except InterruptedError:
            continue
        for fd in ready:
            try:
                pkt = os.read(fd, 65536)
            except (BlockingIOError, OSError):
                continue
            if len(pkt) < 20 or pkt[0] >> 4 != 4 or tuple(pkt[16:19]) != SUBNET:
                continue  # not IPv4 to a lab host (IPv6 noise, multicast): this LAN carries none of it
            j = pkt[19] - 1
            if not 0 <= j < len(fds) or j == host_of[fd]:
                continue
            if rng.random() < loss:
                stats["dropped"] += 1
                continue
            stats["forwarded"] += 1
            k += 1
            heapq.heappush(queue, (time.monotonic() + delay + rng.uniform(0.0, jitter), k, j, pkt))
    stats_path.write_text(json.dumps(stats))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ns", nargs="+", required=True)
    ap.add_argument("--loss", type=float, default=0.0)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stats", type=Path, required=True)
    a = ap.parse_args()
    switch(a.ns, a.loss, a.delay, a.jitter, a.seed, a.stats)


if __name__ == "__main__":
    main()
