"""A throw-away LAN made of Linux network namespaces, for multi-host tests.

``NetnsLab(n)`` builds, with iproute2::

    hub namespace  <name>-hub : bridge br0 (multicast snooping off), ports p0..p{n-1}
    host namespace <name>-h{i}: lo up, eth0 = veth peer of p{i}, address 10.231.0.{i+1}/24,
                                route 224.0.0.0/4 dev eth0 (so mDNS goes out on eth0)

Everything, bridge included, lives in namespaces the lab creates; nothing is added to the
caller's own network namespace, and the test addresses exist only inside the lab.
Deleting the namespaces removes the veths and the bridge with them.  Names carry the pid
(``adp2p-<pid>-<seq>``) so parallel runs never collide, and :func:`cleanup_stale` removes
leftovers of runs whose process died without tearing down.

Usage::

    if not netns_available(): pytest.skip(netns_unavailable_reason())
    with NetnsLab(3) as lab:
        lab.run(0, ["ping", "-c1", lab.addresses[1]], timeout=5)
        proc = lab.popen(2, [sys.executable, "peer.py"], stdout=subprocess.PIPE)
        ...
    # namespaces, veths, bridge and any process still running inside are gone here

``lab.split([[0, 1], [2, 3]])`` partitions the LAN: each group's ports move to a bridge of their own, so
frames (TCP and mDNS alike) no longer cross between groups and nothing tells either side; ``lab.heal()``
puts every port back on the one bridge.

Teardown runs on context exit (also when the body raises) and, as a last resort, from an
``atexit`` hook for labs that were set up but never torn down.  It terminates the
processes started through :meth:`NetnsLab.popen` and any other process still inside the
lab's namespaces (they can only be descendants of what the lab started).
"""

from __future__ import annotations

import atexit
import contextlib
import ipaddress
import itertools
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, Final

__all__ = [
    "NETNS_PREFIX",
    "NetnsError",
    "NetnsLab",
    "cleanup_stale",
    "list_namespaces",
    "netns_available",
    "netns_unavailable_reason",
]

NETNS_PREFIX: Final = "adp2p"
DEFAULT_SUBNET: Final = "10.231.0.0/24"
HOST_IF: Final = "eth0"
BRIDGE: Final = "br0"
_CMD_TIMEOUT: Final = 10.0
_NAME_RE = re.compile(rf"^{NETNS_PREFIX}-(\d+)-\d+-(?:hub|h\d+)$")

_seq = itertools.count()
_live: set[NetnsLab] = set()
_live_lock = threading.Lock()
_available: str | bool | None = False  # False: not probed yet; None: available; str: reason


class NetnsError(RuntimeError):
    """An iproute2 command failed while building or using a lab."""


def _ip(*args: str, check: bool = True, timeout: float = _CMD_TIMEOUT) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=timeout, check=False)
    if check and proc.returncode != 0:
        raise NetnsError(f"`ip {' '.join(args)}` failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def list_namespaces() -> list[str]:
    """Names of the existing network namespaces (``ip netns list``)."""
    out = _ip("netns", "list").stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def netns_unavailable_reason() -> str | None:
    """``None`` if labs can be built here, otherwise why not (probed once, cached)."""
    global _available
    if _available is not False:
        return _available  # type: ignore[return-value]
    reason: str | None = None
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        reason = "network namespaces need root"
    elif shutil.which("ip") is None:
        reason = "iproute2 `ip` command not found"
    else:
        probe = f"{NETNS_PREFIX}-{os.getpid()}-probe"
        try:
            _ip("netns", "add", probe)
            try:
                _ip("-n", probe, "link", "add", BRIDGE, "type", "bridge")
                _ip("-n", probe, "link", "add", "a0", "type", "veth", "peer", "name", "b0")
            finally:
                _ip("netns", "del", probe, check=False)
        except (NetnsError, OSError, subprocess.TimeoutExpired) as exc:
            reason = f"cannot create network namespaces / bridges / veths here: {exc}"
    _available = reason
    return reason


def netns_available() -> bool:
    """True when this process can build a :class:`NetnsLab` (root, iproute2, kernel support)."""
    return netns_unavailable_reason() is None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cleanup_stale() -> list[str]:
    """Delete lab namespaces left behind by processes that no longer exist; return their names."""
    removed = []
    for name in list_namespaces():
        m = _NAME_RE.match(name)
        if m and not _pid_alive(int(m.group(1))):
            _kill_pids_in(name)
            if _ip("netns", "del", name, check=False).returncode == 0:
                removed.append(name)
    return removed


def _kill_pids_in(ns: str) -> None:
    """SIGKILL every process still inside namespace *ns* (all started by the lab)."""
    res = _ip("netns", "pids", ns, check=False)
    for tok in res.stdout.split():
        with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
            os.kill(int(tok), signal.SIGKILL)


class NetnsLab:
    """N hosts (namespaces) on one bridge.  Use as a context manager, or call setup/teardown."""

    def __init__(self, n: int, *, subnet: str = DEFAULT_SUBNET, disable_ipv6: bool = True) -> None:
        if n < 1:
            raise ValueError("a lab needs at least one host")
        net = ipaddress.ip_network(subnet)
        if not net.is_private or net.version != 4:
            raise ValueError(f"lab subnet must be a private IPv4 range, got {subnet}")
        hosts = list(itertools.islice(net.hosts(), n))
        if len(hosts) < n:
            raise ValueError(f"subnet {subnet} too small for {n} hosts")
        self.n = n
        self.prefixlen = net.prefixlen
        self.addresses: list[str] = [str(h) for h in hosts]
        self.tag = f"{NETNS_PREFIX}-{os.getpid()}-{next(_seq)}"
        self.hub = f"{self.tag}-hub"
        self.names: list[str] = [f"{self.tag}-h{i}" for i in range(n)]
        self.ifname = HOST_IF
        self.disable_ipv6 = disable_ipv6
        self._procs: list[subprocess.Popen[Any]] = []
        self._created: list[str] = []
        self._torn_down = False

    # ------------------------------------------------------------------ lifecycle

    def setup(self) -> NetnsLab:
        with contextlib.suppress(Exception):
            cleanup_stale()  # reclaim what killed runs left behind
        with _live_lock:
            _live.add(self)
        try:
            self._add_ns(self.hub)
            _ip("-n", self.hub, "link", "add", BRIDGE, "type", "bridge")
            # Flood all multicast (no IGMP querier here); ignore kernels without the knob.
            _ip("-n", self.hub, "link", "set", BRIDGE, "type", "bridge", "mcast_snooping", "0", check=False)
            _ip("-n", self.hub, "link", "set", BRIDGE, "up")
            for i, ns in enumerate(self.names):
                self._add_ns(ns)
                if self.disable_ipv6:
                    self._sysctl(ns, "net.ipv6.conf.all.disable_ipv6", "1")
                    self._sysctl(ns, "net.ipv6.conf.default.disable_ipv6", "1")
                port = f"p{i}"
                _ip("link", "add", self.ifname, "netns", ns, "type", "veth", "peer", "name", port,
                    "netns", self.hub)  # fmt: skip
                _ip("-n", self.hub, "link", "set", port, "master", BRIDGE)
                _ip("-n", self.hub, "link", "set", port, "up")
                _ip("-n", ns, "addr", "add", f"{self.addresses[i]}/{self.prefixlen}", "dev", self.ifname)
                _ip("-n", ns, "link", "set", self.ifname, "up")
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", self.ifname)
        except BaseException:
            self.teardown()
            raise
        return self

    def _add_ns(self, ns: str) -> None:
        _ip("netns", "add", ns)
        self._created.append(ns)
        _ip("-n", ns, "link", "set", "lo", "up")

    def _sysctl(self, ns: str, key: str, value: str) -> None:
        subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw", f"{key}={value}"],
                       capture_output=True, timeout=_CMD_TIMEOUT, check=False)  # fmt: skip

    def teardown(self) -> None:
        """Stop lab processes and delete every namespace (idempotent, never raises on cleanup)."""
        if self._torn_down:
            return
        self._torn_down = True
        for proc in self._procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.terminate()
        deadline = time.monotonic() + 3.0
        for proc in self._procs:
            try:
                proc.wait(timeout=max(0.05, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        errors = []
        for ns in reversed(self._created):
            with contextlib.suppress(Exception):
                _kill_pids_in(ns)
            try:
                res = _ip("netns", "del", ns, check=False)
                if res.returncode != 0 and ns in list_namespaces():
                    errors.append(f"{ns}: {res.stderr.strip()}")
            except Exception as exc:  # keep going: remove as much as possible
                errors.append(f"{ns}: {exc}")
        self._created.clear()
        with _live_lock:
            _live.discard(self)
        if errors:
            raise NetnsError("lab teardown left namespaces behind: " + "; ".join(errors))

    def __enter__(self) -> NetnsLab:
        return self.setup()

    def __exit__(self, *exc: object) -> None:
        self.teardown()

    # ------------------------------------------------------------------ faults

    def split(self, groups: Sequence[Sequence[int]]) -> None:
        """Partition the LAN: the hosts of each group see each other and nobody else (each group's ports move
        to a bridge of their own; a host in no group is cut off alone). Silent, as a cut cable: frames to the
        other side simply go nowhere."""
        seen = [h for g in groups for h in g]
        if len(seen) != len(set(seen)) or not all(0 <= h < self.n for h in seen):
            raise ValueError(f"groups must name distinct hosts of 0..{self.n - 1}: {groups!r}")
        alone = [[h] for h in range(self.n) if h not in seen]
        for k, group in enumerate([*groups, *alone]):
            bridge = BRIDGE if k == 0 else f"br{k}"
            if k > 0 and _ip("-n", self.hub, "link", "show", bridge, check=False).returncode != 0:
                _ip("-n", self.hub, "link", "add", bridge, "type", "bridge")
                _ip("-n", self.hub, "link", "set", bridge, "type", "bridge", "mcast_snooping", "0", check=False)
                _ip("-n", self.hub, "link", "set", bridge, "up")
            for h in group:
                _ip("-n", self.hub, "link", "set", f"p{h}", "master", bridge)

    def heal(self) -> None:
        """End a :meth:`split`: every port back on the one bridge."""
        for h in range(self.n):
            _ip("-n", self.hub, "link", "set", f"p{h}", "master", BRIDGE)

    # ------------------------------------------------------------------ running things inside

    def argv(self, host: int, cmd: Sequence[str]) -> list[str]:
        """The argv that runs *cmd* inside host *host* (for use with any process API)."""
        return ["ip", "netns", "exec", self.names[host], *cmd]

    def run(
        self, host: int, cmd: Sequence[str], *, timeout: float = _CMD_TIMEOUT, check: bool = True, **kw: Any
    ) -> subprocess.CompletedProcess[str]:
        """Run *cmd* to completion inside host *host*; output captured as text."""
        kw.setdefault("capture_output", True)
        kw.setdefault("text", True)
        proc = subprocess.run(self.argv(host, cmd), timeout=timeout, check=False, **kw)
        if check and proc.returncode != 0:
            raise NetnsError(f"{cmd!r} in {self.names[host]} exited {proc.returncode}: {proc.stderr}")
        return proc

    def popen(
        self,
        host: int,
        cmd: Sequence[str],
        *,
        stdin: int | IO[Any] | None = subprocess.DEVNULL,
        stdout: int | IO[Any] | None = None,
        stderr: int | IO[Any] | None = None,
        **kw: Any,
    ) -> subprocess.Popen[Any]:
        """Start *cmd* inside host *host*; it is terminated at teardown if still running."""
        if self._torn_down:
            raise NetnsError("lab already torn down")
        proc = subprocess.Popen(self.argv(host, cmd), stdin=stdin, stdout=stdout, stderr=stderr, **kw)
        self._procs.append(proc)
        return proc

    def __repr__(self) -> str:
        return f"NetnsLab({self.tag}, hosts={list(zip(self.names, self.addresses, strict=True))})"


@atexit.register
def _teardown_all() -> None:
    with _live_lock:
        labs = list(_live)
    for lab in labs:
        with contextlib.suppress(Exception):
            lab.teardown()
