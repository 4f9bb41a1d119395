"""The mesh's connection registry (p2p/transport/registry.py), alone: connections over memory streams, events into a
list."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.framing import FramedStream
from adp2p.p2p.handshake import PeerInfo
from adp2p.p2p.transport import PeerDown, PeerUp, _Conn
from adp2p.p2p.transport.registry import Registry

ME, THEM = (SecretIdentity.from_seeds(bytes([i]) * 32, bytes([i + 9]) * 32) for i in range(2))


def conn(session: bytes, *, outbound: bool) -> _Conn:
    left, _right = trio.testing.memory_stream_pair()
    peer = PeerInfo(THEM.public, "them", THEM.public.fingerprint(), session)
    return _Conn(FramedStream(left), peer, outbound=outbound, address="x", me=ME.public.fingerprint(), queue=8)


async def test_one_active_connection_per_peer_and_the_duplicate_rule_on_both_sides() -> None:
    events: list[Any] = []
    reg = Registry(events.append)
    fp = THEM.public.fingerprint()
    first = conn(b"s1", outbound=True)
    reg.register(first)
    assert reg.active[fp] is first and [type(e) for e in events] == [PeerUp]
    second = conn(b"s1", outbound=False)  # the same session, dialed by the other side
    reg.register(second)
    lower_dialed = ME.public.fingerprint() < fp  # the one dialed by the lower fingerprint is kept, on both sides
    assert reg.active[fp] is (first if lower_dialed else second)
    retired = second if lower_dialed else first
    assert retired.retired_at is not None and len(events) == 1  # a duplicate is no news
    reg.unregister(retired)
    assert fp in reg.peers and len(events) == 1
    reg.unregister(reg.active[fp])
    assert fp not in reg.peers and isinstance(events[-1], PeerDown)


async def test_a_restarted_peer_replaces_its_old_connection() -> None:
    events: list[Any] = []
    reg = Registry(events.append)
    old, new = conn(b"old", outbound=True), conn(b"new", outbound=True)
    reg.register(old)
    reg.register(new)
    assert old.reason is not None and "restarted" in old.reason
    assert [type(e) for e in events] == [PeerUp, PeerDown, PeerUp] and reg.active[THEM.public.fingerprint()] is new
    with trio.move_on_after(1) as scope:
        await reg.wait_peers(1)
    assert not scope.cancelled_caught
