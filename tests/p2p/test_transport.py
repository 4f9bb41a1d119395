"""Tests for adp2p.p2p.transport: a loopback full mesh, liveness, reconnects, hostile peers, duplicates."""

from __future__ import annotations

import logging
import socket
import struct
from contextlib import AsyncExitStack
from typing import Any

import pytest
import trio
import trio.testing
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.framing import FramedStream, FrameTooLarge, encode_frame
from adp2p.p2p.handshake import PeerInfo, handshake
from adp2p.p2p.transport import Mesh, MeshEvent, PeerDown, PeerNotConnected, PeerUp, prefer_new

FAST: dict[str, Any] = {
    "heartbeat": 0.1,
    "dead_after": 1.0,
    "backoff_initial": 0.05,
    "backoff_max": 0.3,
    "dup_grace": 1.0,
    "handshake_timeout": 2.0,
}
IDS = [SecretIdentity.generate() for _ in range(5)]
FPS = [s.public.fingerprint() for s in IDS]


def mesh(i: int, **kw: Any) -> Mesh:
    return Mesh(IDS[i], f"p{i}", "friday", **(FAST | kw))


async def next_event(m: Mesh, kind: type[MeshEvent], fp: str | None = None) -> Any:
    async for ev in m.events:
        if isinstance(ev, kind) and (fp is None or ev.peer.fingerprint == fp):
            return ev
    raise AssertionError("events channel ended")


async def settle(m: Mesh, n: int) -> None:
    """Wait until m has n peers and no leftover duplicate connections."""
    await m.wait_peers(n)
    while len(m.connections()) != n:
        await trio.sleep(0.02)


async def test_four_meshes_full_mesh_broadcast() -> None:
    with trio.fail_after(20):
        async with AsyncExitStack() as stack:
            meshes = [await stack.enter_async_context(mesh(i)) for i in range(4)]
            for m in meshes:
                for other in meshes:
                    m.add_peer(*other.address)  # including our own address: skipped after one try
            for m in meshes:
                await settle(m, 3)
            for i, m in enumerate(meshes):
                assert set(m.peers) == {FPS[j] for j in range(4) if j != i}
                assert await m.broadcast({"from": i}) != []
            for i, m in enumerate(meshes):
                got = []
                for _ in range(3):
                    peer, msg = await m.inbox.receive()
                    assert peer.fingerprint == FPS[msg["from"]] and peer.name == f"p{msg['from']}"
                    got.append(msg["from"])
                assert sorted(got) == [j for j in range(4) if j != i]
            # point to point
            await meshes[0].send(FPS[3], {"to": 3, "blob": b"\x00" * 1000})
            peer, msg = await meshes[3].inbox.receive()
            assert peer.fingerprint == FPS[0] and msg == {"to": 3, "blob": b"\x00" * 1000}
            for m in meshes:  # the self address was dropped
                assert m.address not in m.dialer.targets


async def test_duplicate_connections_resolved_to_lower_initiator() -> None:
    for _ in range(3):
        with trio.fail_after(10):
            async with mesh(0) as a, mesh(1) as b:
                a.add_peer(*b.address)
                b.add_peer(*a.address)  # both dial: two connections, one must go
                # Both dialers always connect (neither knows the other's fingerprint yet), so two
                # connections are made; the state converges to the one initiated by the lower fingerprint.
                low = min(FPS[0], FPS[1])
                want_a = [(FPS[1], FPS[0] == low, True)]
                want_b = [(FPS[0], FPS[1] == low, True)]
                while a.connections() != want_a or b.connections() != want_b:
                    await trio.sleep(0.02)
                await trio.sleep(0.3)  # and stays there
                assert a.connections() == want_a and b.connections() == want_b
                assert all(not t.scope or not t.scope.cancel_called for t in a.dialer.targets.values())
                await a.send(FPS[1], {"n": 1})
                await b.send(FPS[0], {"n": 2})
                assert (await b.inbox.receive())[1] == {"n": 1}
                assert (await a.inbox.receive())[1] == {"n": 2}


def test_prefer_new_rule_is_symmetric() -> None:
    s = b"s" * 16
    assert prefer_new("aaaa", s, "bbbb", s) is True
    assert prefer_new("bbbb", s, "aaaa", s) is False
    assert prefer_new("aaaa", s, "aaaa", s) is True  # same initiator: newer one
    assert prefer_new("bbbb", b"t" * 16, "aaaa", s) is True  # peer restarted
    # Both sides see the same two connections, possibly in the other order, and agree.
    for x, y in (("aaaa", "bbbb"), ("bbbb", "aaaa")):
        keep_new = prefer_new(x, s, y, s)
        assert (x if keep_new else y) == "aaaa"


async def test_our_own_stall_does_not_count_as_the_peers_silence() -> None:
    """The whole process stalls (a busy machine, SIGSTOP) for twice `dead_after`: afterwards the connection stays
    up, since the time we could not listen is not the peer's silence (before: closed at once, and in a lobby the
    player 'left the table')."""
    import time

    with trio.fail_after(20):
        async with mesh(0) as a, mesh(1) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            await settle(b, 1)
            await trio.sleep(0.3)
            while True:  # the PeerUp events so far
                try:
                    a.events.receive_nowait()
                except trio.WouldBlock:
                    break
            before = a.registry.active[FPS[1]]
            time.sleep(2 * FAST["dead_after"])  # blocks the event loop of both meshes
            await trio.sleep(FAST["dead_after"] / 2)
            assert a.registry.active.get(FPS[1]) is before and before.reason is None
            with pytest.raises(trio.WouldBlock):
                print(a.events.receive_nowait())


async def test_frames_queued_on_a_retired_duplicate_go_out_on_the_kept_connection() -> None:
    """Two connections to one peer met; the peer closed ours as the duplicate while a frame still waited in its
    queue (a lobby message, say): that frame goes out on the connection kept instead of being lost."""
    from adp2p.p2p.transport import _DUP, _PING, _Conn
    from adp2p.p2p.transport.registry import Registry

    events: list[Any] = []
    registry = Registry(events.append)  # alone: no mesh, no socket
    peer = PeerInfo(IDS[1].public, "p1", FPS[1])

    def conn() -> _Conn:
        left, _right = trio.testing.memory_stream_pair()
        return _Conn(FramedStream(left), peer, outbound=True, address="x", me=FPS[0], queue=8)

    kept, dup = conn(), conn()
    registry.active[FPS[1]] = kept
    frame = encode_frame({"t": "m", "m": {"k": "lobby"}})
    for data in (frame, _PING, _DUP):
        assert dup.enqueue(data)
    registry.hand_over(dup)
    assert kept.queue_recv.receive_nowait() == frame
    with pytest.raises(trio.WouldBlock):
        kept.queue_recv.receive_nowait()
    assert events == []


async def test_peer_down_and_reconnect() -> None:
    with trio.fail_after(20):
        async with mesh(0) as a:
            async with mesh(1) as b:
                port_b = b.port
                a.add_peer(*b.address)
                up = await next_event(a, PeerUp, FPS[1])
                assert up.peer.name == "p1"
            down = await next_event(a, PeerDown, FPS[1])
            assert "closed" in down.reason
            assert FPS[1] not in a.peers
            with pytest.raises(PeerNotConnected):
                await a.send(FPS[1], {"x": 1})
            async with mesh(1, port=port_b) as b2:  # comes back on the same address
                await next_event(a, PeerUp, FPS[1])
                await a.send(FPS[1], {"again": True})
                peer, msg = await b2.inbox.receive()
                assert peer.fingerprint == FPS[0] and msg == {"again": True}


async def raw_peer(m: Mesh, i: int) -> tuple[FramedStream, PeerInfo]:
    """An authenticated hand-driven connection to m, as player i."""
    stream = await trio.open_tcp_stream(*m.address)
    framed = FramedStream(stream)
    info = await handshake(framed, IDS[i], f"p{i}", "friday", timeout=2)
    return framed, info


async def test_silent_peer_is_reported_down() -> None:
    with trio.fail_after(10):
        async with mesh(0, dead_after=0.5) as a:
            framed, _ = await raw_peer(a, 4)
            await next_event(a, PeerUp, FPS[4])
            start = trio.current_time()
            down = await next_event(a, PeerDown, FPS[4])  # we never answer, never ping
            assert "silent" in down.reason
            assert 0.4 < trio.current_time() - start < 3
            await framed.aclose()


async def test_heartbeats_keep_an_idle_link_up() -> None:
    with trio.fail_after(10):
        async with mesh(0, dead_after=0.4) as a, mesh(1, dead_after=0.4) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            await trio.sleep(1.5)  # several dead_after periods without application traffic
            assert FPS[1] in a.peers and FPS[0] in b.peers


async def test_unauthenticated_garbage_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    with trio.fail_after(10), caplog.at_level(logging.WARNING, logger="adp2p.p2p.transport"):
        async with mesh(0) as a, mesh(1) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            junk = await trio.open_tcp_stream(*a.address)
            host, port = junk.socket.getsockname()[:2]
            local = f"{host}:{port}"
            await junk.send_all(b"\xff" * 64)
            while await junk.receive_some(4096):  # the mesh answers with an abort frame, then closes
                pass
            await junk.aclose()
            assert local in caplog.text and "bad frame" in caplog.text
            await a.broadcast({"still": "working"})
            assert (await b.inbox.receive())[1] == {"still": "working"}
            assert a.peers.keys() == {FPS[1]}


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1", "bad frame"),
        (struct.pack(">I", 0xFFFFFF00), "over the limit"),
        (encode_frame([1, 2, 3]), "top-level type"),
        (encode_frame({"t": "m", "m": [1]}), "malformed message"),
        (encode_frame({"t": "m"}), "malformed message"),
        (encode_frame({"t": "surprise"}), "unknown frame type"),
    ],
)
async def test_authenticated_peer_sending_bad_frames_is_dropped(
    frame: bytes, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    with trio.fail_after(10), caplog.at_level(logging.WARNING, logger="adp2p.p2p.transport"):
        async with mesh(0) as a, mesh(1) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            framed, _ = await raw_peer(a, 4)
            await next_event(a, PeerUp, FPS[4])
            await framed.stream.send_all(encode_frame({"t": "m", "m": {"ok": 1}}) + frame)
            peer, msg = await a.inbox.receive()
            assert peer.fingerprint == FPS[4] and msg == {"ok": 1}  # good frames before are delivered
            down = await next_event(a, PeerDown, FPS[4])
            assert reason in down.reason
            assert "'p4'" in caplog.text and FPS[4] in caplog.text and reason in caplog.text
            await framed.aclose()
            # the other peer is unaffected
            assert a.peers.keys() == {FPS[1]}
            await b.send(FPS[0], {"fine": True})
            assert (await a.inbox.receive())[1] == {"fine": True}


async def test_wrong_table_never_becomes_a_peer(caplog: pytest.LogCaptureFixture) -> None:
    with trio.fail_after(10), caplog.at_level(logging.WARNING, logger="adp2p.p2p.transport"):
        async with mesh(0) as a, Mesh(IDS[1], "p1", "other-table", **FAST) as b:
            a.add_peer(*b.address)
            with trio.move_on_after(0.5):
                await a.wait_peers(1)
            assert a.peers == {} and b.peers == {}
            assert "table" in caplog.text


async def test_allowed_list_and_fingerprint_hint() -> None:
    with trio.fail_after(10):
        async with mesh(0, allowed={FPS[2]}) as a, mesh(1) as b, mesh(2) as c:
            a.add_peer(*b.address)
            a.add_peer(*c.address, fingerprint=FPS[2])
            await settle(a, 1)
            with trio.move_on_after(0.3):
                await a.wait_peers(2)
            assert set(a.peers) == {FPS[2]}


async def test_send_errors() -> None:
    with trio.fail_after(10):
        async with mesh(0, max_frame=1024) as a, mesh(1) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            with pytest.raises(PeerNotConnected):
                await a.send(FPS[3], {"x": 1})
            with pytest.raises(FrameTooLarge):
                await a.send(FPS[1], {"x": b"\x00" * 2000})
            with pytest.raises(TypeError):
                await a.broadcast([1, 2])  # type: ignore[arg-type]
            assert await a.broadcast({"ok": 1}) == [FPS[1]]


async def test_exit_closes_everything() -> None:
    with trio.fail_after(10):
        async with mesh(0) as a:
            async with mesh(1) as b:
                b.add_peer(*a.address)
                await settle(b, 1)
                addr = b.address
            # b's channels are closed, its port no longer accepts
            async for _ in b.inbox:
                pass
            with pytest.raises(OSError):
                await trio.open_tcp_stream(*addr)
            await next_event(a, PeerDown, FPS[1])


async def test_slow_consumer_does_not_trip_the_heartbeat() -> None:
    """A peer whose inbox is not read for a while is not reported silent."""
    with trio.fail_after(10):
        async with mesh(0, dead_after=0.5, inbox_size=1) as a, mesh(1, dead_after=0.5) as b:
            a.add_peer(*b.address)
            await settle(a, 1)
            for i in range(5):
                await b.send(FPS[0], {"i": i})
            await trio.sleep(1.5)
            got = [(await a.inbox.receive())[1]["i"] for _ in range(5)]
            assert got == list(range(5))
            assert FPS[1] in a.peers


async def test_idle_handshakes_from_one_host_cannot_keep_a_player_out() -> None:
    """40 connections from one host (127.0.0.2) that never finish a handshake: at most `max_pending_per_host`
    of them hold a slot, the rest are closed at once, and a player from another address still connects
    (before: 32 idle connections filled every handshake slot)."""
    async with mesh(0, handshake_timeout=30.0) as a:
        idle = []
        for _ in range(40):
            sock = trio.socket.socket()
            await sock.bind(("127.0.0.2", 0))
            await sock.connect(("127.0.0.1", a.port))
            idle.append(sock)
        await trio.sleep(0.2)
        async with mesh(1, peers=[("127.0.0.1", a.port)]) as b:
            with trio.fail_after(10):
                await b.wait_peers([FPS[0]])
        for sock in idle:
            sock.close()


async def _hold(port: int, sources: list[str], count: int, socks: list[Any], made: list[int]) -> None:
    """Keep `count` idle connections open to 127.0.0.1:port from `sources` in turn, re-opening each one the mesh
    closes (an outsider holding handshake slots); `made[0]` counts the connections made."""
    k = 0
    while True:
        alive = []
        for s in socks:  # (stdlib sockets: a closed one reads as EOF without blocking)
            try:
                gone = s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                s.close()
            else:
                alive.append(s)
        socks[:] = alive
        while len(socks) < count:
            s = socket.socket()
            try:
                s.bind((sources[k % len(sources)], 0))
                await trio.socket.from_stdlib_socket(s).connect(("127.0.0.1", port))
            except OSError:
                s.close()
                break
            k += 1
            made[0] += 1
            socks.append(s)
        await trio.sleep(0.05)


async def test_a_seated_player_gets_in_while_strangers_hold_every_handshake_slot() -> None:
    """Issue 35 item 2: 300 idle connections, re-opened as fast as they are closed, from the player's own address
    (127.0.0.1) and seven others, hold every handshake slot of a playing peer (it allows only its seated players).
    Before, the player was refused for as long as the flood lasted; now the oldest stranger's handshake gives its
    slot to the newest connection, and a connection whose hello names a seated player is not closed for a
    stranger's: the player is in."""
    sources = ["127.0.0.1"] + [f"127.0.0.{k}" for k in range(2, 9)]
    async with mesh(0, handshake_timeout=30.0, allowed={FPS[1]}) as a, trio.open_nursery() as nursery:
        socks: list[Any] = []
        made = [0]
        nursery.start_soon(_hold, a.port, sources, 300, socks, made)
        while len(a.doorway._pending) < a.max_pending_handshakes or made[0] < 300:  # every slot held by the flood
            await trio.sleep(0.05)
        async with mesh(1, peers=[("127.0.0.1", a.port)]) as b:
            with trio.fail_after(20):
                await b.wait_peers([FPS[0]])
        assert len(socks) >= 32  # the flood was still there
        nursery.cancel_scope.cancel()
        for s in socks:
            s.close()


async def test_a_stranger_replaying_a_players_hello_holds_at_most_two_slots() -> None:
    """A hello is public (a stranger can replay a player's): the handshakes claiming one player are at most
    CLAIMS_PER_SEAT; the oldest gives way to a newer one, and none gets past the signature."""
    async with mesh(0, handshake_timeout=30.0, allowed={FPS[1]}) as a:
        from adp2p.crypto.identity import make_bundle

        hello = {"t": "hello", "v": 1, "table": "friday", "name": "p1", "bundle": make_bundle(IDS[1], "p1"),
                 "nonce": b"\x00" * 32}
        streams = []
        for _ in range(6):
            s = await trio.open_tcp_stream(*a.address)
            await s.send_all(encode_frame(hello))
            streams.append(s)
        with trio.fail_after(10):
            while sum(p.claim == FPS[1] for p in a.doorway._pending) != 2 or len(a.doorway._pending) != 2:
                await trio.sleep(0.05)
        assert a.peers == {}
        for s in streams:
            await s.aclose()


async def test_a_strangers_large_frame_is_never_read_and_a_players_waits_for_its_seat() -> None:
    """Issue 35 item 6: with `stranger_frame`, a peer that has not proved a seat may send frames of that size
    only. A larger one is not read until its sender is seated (a player's first entry can overtake the genesis
    that seats it): a stranger's never is, and its silent connection is closed; a player's is delivered once
    `restrict` seats it."""
    with trio.fail_after(15):
        async with mesh(0, stranger_frame=1024, dead_after=0.6) as a:
            big = {"x": b"\x00" * 50_000}
            stranger, _ = await raw_peer(a, 4)
            await stranger.send({"t": "m", "m": {"small": 1}})
            assert (await a.inbox.receive())[1] == {"small": 1}  # small frames of strangers are read
            await stranger.send({"t": "m", "m": big})
            down = await next_event(a, PeerDown, FPS[4])
            assert "silent" in down.reason
            assert a.inbox._recv.statistics().current_buffer_used == 0  # nothing of it was read
            player, _ = await raw_peer(a, 1)
            await player.send({"t": "m", "m": big})
            await trio.sleep(0.2)
            assert a.inbox._recv.statistics().current_buffer_used == 0  # not yet
            a.restrict({FPS[1]})
            peer, msg = await a.inbox.receive()
            assert peer.fingerprint == FPS[1] and msg == big
            await stranger.aclose()
            await player.aclose()
