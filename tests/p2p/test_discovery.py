"""adp2p.p2p.discovery within one process, over mDNS on the loopback interface."""

from __future__ import annotations

import os
import socket
import threading
import time
from functools import cache

import pytest
import trio
from adp2p.p2p.discovery import (
    SERVICE_TYPE,
    PeerGone,
    PeerSeen,
    advertise,
    browse,
    instance_label,
    resolve_interfaces,
    scan,
)

LO = "127.0.0.1"
# Per-process fingerprints: concurrent test runs on the same machine never share instance names.
_RUN = f"{os.getpid():08x}"[-8:]
FP_A = _RUN + "a1" * 12
FP_B = _RUN + "b2" * 12
FP_C = _RUN + "c3" * 12


@cache
def loopback_multicast_reason() -> str | None:
    """None if a multicast datagram sent on 127.0.0.1 comes back to a member socket."""
    group = "224.0.0.251"
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        rx.bind(("", 0))
        port = rx.getsockname()[1]
        rx.setsockopt(
            socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton(group) + socket.inet_aton(LO)
        )
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(LO))
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        tx.sendto(b"adp2p-probe", (group, port))
        rx.settimeout(1.0)
        data, _ = rx.recvfrom(64)
        return None if data == b"adp2p-probe" else "unexpected multicast payload on loopback"
    except OSError as exc:
        return f"no multicast on the loopback interface here: {exc}"
    finally:
        rx.close()
        tx.close()


needs_lo_multicast = pytest.mark.skipif(
    loopback_multicast_reason() is not None, reason=str(loopback_multicast_reason())
)


def zeroconf_threads() -> list[str]:
    return [
        t.name
        for t in threading.enumerate()
        if t.name.startswith("zeroconf") or "_run_loop" in t.name or "ServiceBrowser" in t.name
    ]


async def next_matching(events: trio.MemoryReceiveChannel, pred, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    with trio.fail_after(timeout):
        async for ev in events:
            if pred(ev):
                return ev
    raise AssertionError("event channel closed before the expected event")


@needs_lo_multicast
async def test_advertise_and_browse_see_each_other_on_loopback() -> None:
    before = zeroconf_threads()
    with trio.fail_after(20):
        async with browse(interfaces=LO) as events:
            async with (
                advertise("ann", 40001, "friday", FP_A, seats=3, interfaces=LO, probe=False) as ad_a,
                advertise(
                    "bob", 40002, "friday", FP_B, seats=3, interfaces="lo", extra_txt={"x": "y"}
                ) as ad_b,
            ):
                want = {ad_a.instance, ad_b.instance}
                got: dict[str, PeerSeen] = {}
                while set(got) != want:
                    ev = await next_matching(events, lambda e: isinstance(e, PeerSeen) and e.instance in want)
                    got[ev.instance] = ev
                a, b = got[ad_a.instance], got[ad_b.instance]
                assert a.addresses == (LO,) and a.port == 40001
                assert a.txt == {"v": "1", "table": "friday", "pk": FP_A, "name": "ann", "seats": "3"}
                assert (a.name, a.table, a.fingerprint, a.seats, a.version) == ("ann", "friday", FP_A, 3, "1")
                assert a.label == instance_label("ann", FP_A) == f"ann ({_RUN})"
                assert b.port == 40002 and b.txt["x"] == "y" and b.instance.endswith("." + SERVICE_TYPE)

                # A TXT change is reported as a new PeerSeen for the same instance.
                await ad_b.update(seats="4")
                changed = await next_matching(
                    events, lambda e: isinstance(e, PeerSeen) and e.instance == ad_b.instance
                )
                assert changed.seats == 4

            # Leaving the advertise() context sends goodbyes: both peers are reported gone.
            gone: set[str] = set()
            while gone != want:
                ev = await next_matching(events, lambda e: isinstance(e, PeerGone) and e.instance in want)
                gone.add(ev.instance)
    # Every zeroconf thread (loop threads, browser threads) is gone again.
    deadline = time.monotonic() + 5
    while zeroconf_threads() != before:
        assert time.monotonic() < deadline, f"leaked threads: {zeroconf_threads()}"
        await trio.sleep(0.05)


@needs_lo_multicast
async def test_scan_lists_live_tables() -> None:
    with trio.fail_after(20):
        async with advertise("cyd", 40003, "saturday", FP_C, seats=2, interfaces=LO, probe=False) as ad:
            peers = await scan(1.5, interfaces=LO)
    mine = [p for p in peers if p.instance == ad.instance]
    assert len(mine) == 1 and mine[0].table == "saturday" and mine[0].port == 40003


@needs_lo_multicast
async def test_name_conflict_is_renamed() -> None:
    """Two advertisements with the same label: the one still probing renames itself.

    The probing one starts first so that the other's announcements (multicast, seen by every
    socket) reach it while it probes; replies to probe queries are unicast and, with several
    zeroconf instances sharing port 5353 on one host, may land on another socket.
    """
    names: dict[str, str] = {}
    done = trio.Event()

    async def hold(key: str, port: int, probe: bool, task_status=trio.TASK_STATUS_IGNORED) -> None:  # type: ignore[no-untyped-def]
        async with advertise("dee", port, "t", FP_A, interfaces=LO, probe=probe) as ad:
            names[key] = ad.instance
            task_status.started()
            await done.wait()

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hold, "prober", 40005, True)
            await trio.sleep(0.3)
            await nursery.start(hold, "first", 40004, False)
            while "prober" not in names:
                await trio.sleep(0.05)
            done.set()
    assert names["first"] == f"{instance_label('dee', FP_A)}.{SERVICE_TYPE}"
    assert names["prober"].startswith(instance_label("dee", FP_A) + "-")


async def test_browse_consumer_can_stop_early_and_cancel() -> None:
    """Closing early, cancelling or raising inside browse()/advertise() leaves no zeroconf thread behind."""
    before = zeroconf_threads()
    with trio.fail_after(10):
        async with browse(interfaces=LO) as events:
            await events.aclose()
        with trio.move_on_after(0.2):
            async with browse(interfaces=LO):
                await trio.sleep_forever()
        with pytest.raises(KeyError):
            async with browse(interfaces=LO):
                raise KeyError("body failure propagates")
        with trio.move_on_after(0.1):  # cancelled while registering
            async with advertise("eve", 40006, "t", FP_B, interfaces=LO):
                raise AssertionError("registration takes longer than 0.1 s")
        with trio.move_on_after(0.2):  # cancelled while advertised
            async with advertise("eve", 40006, "t", FP_B, interfaces=LO, probe=False):
                await trio.sleep_forever()
    deadline = time.monotonic() + 5
    while zeroconf_threads() != before:
        assert time.monotonic() < deadline, f"leaked threads: {zeroconf_threads()}"
        await trio.sleep(0.05)


def test_resolve_interfaces() -> None:
    assert resolve_interfaces(None) is None
    assert resolve_interfaces("lo") == [LO]
    assert resolve_interfaces([LO, "lo"]) == [LO]
    with pytest.raises(ValueError, match="unknown network interface"):
        resolve_interfaces("no-such-if0")
    with pytest.raises(ValueError, match="IPv4"):
        resolve_interfaces("::1")
    with pytest.raises(ValueError):
        resolve_interfaces([])


def test_instance_label_is_bounded_and_clean() -> None:
    label = instance_label("é" * 100 + ".x\n", "f" * 64)
    assert len(label.encode()) <= 63 and label.endswith(" (ffffffff)")
    assert "." not in label and "\n" not in label
    assert instance_label("", "") == "player"


async def test_advertise_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="reserved"):
        async with advertise("a", 4000, "t", "fp", interfaces=LO, extra_txt={"pk": "x"}):
            pass
    with pytest.raises(ValueError, match="longer"):
        async with advertise("a", 4000, "t" * 300, "fp", interfaces=LO):
            pass
    with pytest.raises(ValueError, match="port"):
        async with advertise("a", 0, "t", "fp", interfaces=LO):
            pass


def test_peer_events_are_hashable_values() -> None:
    a = PeerSeen("x." + SERVICE_TYPE, ("10.0.0.1",), 1, {"seats": "n/a"})
    assert a == PeerSeen("x." + SERVICE_TYPE, ("10.0.0.1",), 1, {"seats": "n/a"})
    assert len({a, a, PeerGone(a.instance)}) == 2
    assert a.seats is None and a.label == "x" and a.table is None
