"""The namespace harness builds a working LAN and always removes all of it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netns import (
    NetnsLab,
    cleanup_stale,
    list_namespaces,
    netns_available,
    netns_unavailable_reason,
)

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(not netns_available(), reason=f"netns unavailable: {netns_unavailable_reason()}"),
]

UDP_RECV = """
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 9999)); s.settimeout(5)
print("ready", flush=True)
data, addr = s.recvfrom(100)
print(data.decode(), addr[0], flush=True)
"""
UDP_SEND = "import socket, sys; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'ping', (sys.argv[1], 9999))"


def root_links() -> str:
    return subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True, check=True).stdout


def gone(lab: NetnsLab) -> bool:
    present = set(list_namespaces())
    return not present.intersection([lab.hub, *lab.names])


def test_lab_builds_lan_and_cleans_up() -> None:
    links_before = root_links()
    with NetnsLab(2) as lab:
        assert set([lab.hub, *lab.names]) <= set(list_namespaces())
        assert str(os.getpid()) in lab.tag
        for i in range(2):
            addr = lab.run(i, ["ip", "-4", "-o", "addr", "show", "dev", lab.ifname]).stdout
            assert f"{lab.addresses[i]}/24" in addr
            routes = lab.run(i, ["ip", "route", "show"]).stdout
            assert "224.0.0.0/4 dev eth0" in routes
            assert "UP" in lab.run(i, ["ip", "-o", "link", "show", "lo"]).stdout
        # Host 1 -> host 0 over the bridge.
        recv = lab.popen(0, [sys.executable, "-c", UDP_RECV, lab.addresses[0]], stdout=subprocess.PIPE, text=True)
        assert recv.stdout is not None
        assert recv.stdout.readline().strip() == "ready"
        lab.run(1, [sys.executable, "-c", UDP_SEND, lab.addresses[0]], timeout=10)
        out, _ = recv.communicate(timeout=10)
        assert out.strip() == f"ping {lab.addresses[1]}"
        # The lab added nothing to our own namespace.
        assert root_links() == links_before
    assert gone(lab)
    assert root_links() == links_before


def test_lab_cleans_up_when_body_raises_and_kills_processes() -> None:
    links_before = root_links()
    with pytest.raises(RuntimeError, match="boom"), NetnsLab(3) as lab:
        sleeper = lab.popen(2, ["sleep", "60"])
        raise RuntimeError("boom")
    assert gone(lab)
    assert sleeper.poll() is not None
    assert root_links() == links_before


def test_teardown_is_idempotent_and_popen_after_teardown_refused() -> None:
    lab = NetnsLab(1).setup()
    lab.teardown()
    lab.teardown()
    assert gone(lab)
    with pytest.raises(RuntimeError):
        lab.popen(0, ["true"])


def test_lab_kills_stray_grandchildren() -> None:
    """A process that double-forks inside a host is still removed at teardown."""
    with NetnsLab(1) as lab:
        lab.run(0, ["sh", "-c", "sleep 60 >/dev/null 2>&1 &"])
        deadline = time.monotonic() + 5
        while not (pids := ns_pids(lab.names[0])):
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert gone(lab)
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, f"stray processes survived teardown: {pids}"
        time.sleep(0.05)


def ns_pids(ns: str) -> list[int]:
    out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout
    return [int(tok) for tok in out.split()]


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting for its reaper)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_bad_subnet_rejected() -> None:
    with pytest.raises(ValueError):
        NetnsLab(2, subnet="8.8.8.0/24")
    with pytest.raises(ValueError):
        NetnsLab(5, subnet="10.231.0.0/30")


LAB_SCRIPT = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[1] / "support")!r})
from netns import NetnsLab
lab = NetnsLab(2).setup()
print(" ".join([lab.hub, *lab.names]), flush=True)
if sys.argv[1] == "hang":
    import time
    time.sleep(60)
"""


def test_atexit_tears_down_forgotten_lab() -> None:
    out = subprocess.run(
        [sys.executable, "-c", LAB_SCRIPT, "exit"], capture_output=True, text=True, timeout=30, check=True
    ).stdout
    names = out.split()
    assert len(names) == 3
    assert not set(names) & set(list_namespaces())


def test_cleanup_stale_removes_namespaces_of_dead_runs() -> None:
    proc = subprocess.Popen([sys.executable, "-c", LAB_SCRIPT, "hang"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        names = proc.stdout.readline().split()
        assert len(names) == 3 and set(names) <= set(list_namespaces())
    finally:
        proc.kill()  # SIGKILL: no atexit, the namespaces stay behind
        proc.wait(timeout=10)
    # (A concurrent test run's lab setup may already have reclaimed them: only the outcome is checked.)
    cleanup_stale()
    assert not set(names) & set(list_namespaces())


def _reaches(lab: NetnsLab, src: int, dst: int) -> bool:
    """A UDP datagram from host src arrives at host dst within a second."""
    recv = lab.popen(dst, [sys.executable, "-c", UDP_RECV, lab.addresses[dst]], stdout=subprocess.PIPE, text=True)
    assert recv.stdout is not None and recv.stdout.readline().strip() == "ready"
    lab.run(src, [sys.executable, "-c", UDP_SEND, lab.addresses[dst]], timeout=10)
    try:
        out, _ = recv.communicate(timeout=1.5)
    except subprocess.TimeoutExpired:
        recv.kill()
        recv.communicate()
        return False
    return out.strip() == f"ping {lab.addresses[src]}"


def test_split_partitions_the_lan_and_heal_joins_it_again() -> None:
    with NetnsLab(4) as lab:
        lab.split([[0, 1], [2, 3]])
        assert _reaches(lab, 0, 1) and _reaches(lab, 3, 2)
        assert not _reaches(lab, 1, 2) and not _reaches(lab, 3, 0)
        lab.heal()
        assert _reaches(lab, 1, 2) and _reaches(lab, 3, 0)
        with pytest.raises(ValueError):
            lab.split([[0, 1], [1, 2]])
