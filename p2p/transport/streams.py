"""Running a connection: its reader (frames checked against their limits), its writer (a bounded queue), and the
watchdog that ends a silent one.

`Streams` runs connections and nothing else: it is given the registry it (un)registers them with, the inbox the
messages go to, the strangers' slots, whether a peer is seated (a function: the mesh decides), and its timing and
limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from adp2p.p2p.framing import FrameError, PeerClosed, decode_payload
from adp2p.p2p.handshake import PeerInfo
from adp2p.p2p.transport.common import (
    _PING,
    _Conn,
)
from adp2p.p2p.transport.registry import Registry


class Streams:
    """Runs each connection: reader, writer, watchdog."""

    def __init__(
        self,
        registry: Registry,
        inbox: trio.MemorySendChannel[tuple[PeerInfo, dict[str, Any], object | None]],
        stranger_slots: trio.CapacityLimiter,
        seated: Callable[[str], bool],
        *,
        stranger_frame: int | None,
        max_frame: int,
        heartbeat: float,
        dead_after: float,
        dup_grace: float,
    ) -> None:
        self.registry = registry
        self._inbox_send = inbox
        self._stranger_slots = stranger_slots
        self.seated = seated  # whether a fingerprint is a seated player's (no longer a stranger)
        self.stranger_frame = stranger_frame  # a stranger's frames at most (None: every peer alike)
        self.max_frame = max_frame
        self.heartbeat = heartbeat
        self.dead_after = dead_after
        self.dup_grace = dup_grace

    async def run(self, conn: _Conn) -> None:
        """Register `conn`, run it until it closes, unregister it."""
        self.registry.register(conn)
        try:
            with conn.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._reader, conn)
                    nursery.start_soon(self._writer, conn)
                    nursery.start_soon(self._watchdog, conn)
        finally:
            conn.close("mesh closing")
            self.registry.unregister(conn)
            await trio.aclose_forcefully(conn.framed.stream)

    def _stranger(self, conn: _Conn) -> bool:
        return self.stranger_frame is not None and not self.seated(conn.peer.fingerprint)

    async def _next_frame(self, conn: _Conn) -> tuple[Any, object | None]:
        """The next frame of `conn`, and the strangers' slot it holds (None for a seated player's). A stranger's
        frame is at most `stranger_frame` bytes; one announced larger is not read until its sender is seated (a
        seated player's first entry can overtake the genesis that seats it here): a stranger's is never read,
        and the watchdog closes that connection, silent meanwhile, after `dead_after`."""
        if not self._stranger(conn):
            conn.framed.max_size = self.max_frame
            return await conn.framed.receive(), None
        assert self.stranger_frame is not None
        while await conn.framed.peek_length() > self.stranger_frame and self._stranger(conn):
            await self.registry.wait_changed()
        if not self._stranger(conn):
            return await self._next_frame(conn)
        conn.framed.max_size = self.stranger_frame
        payload = await conn.framed.receive_payload()
        conn.last_rx = trio.current_time()
        token = object()
        conn.delivering = True  # (waiting for the table to take other strangers' messages is not silence)
        try:
            await self._stranger_slots.acquire_on_behalf_of(token)
        finally:
            conn.delivering = False
        try:
            return decode_payload(payload, expect=conn.framed.expect), token
        except BaseException:
            self._stranger_slots.release_on_behalf_of(token)
            raise

    async def _reader(self, conn: _Conn) -> None:
        try:
            while True:
                msg, token = await self._next_frame(conn)
                conn.last_rx = trio.current_time()
                kind = msg.get("t")
                if kind == "m":
                    body = msg.get("m")
                    if not isinstance(body, dict) or len(msg) != 2:
                        if token is not None:
                            self._stranger_slots.release_on_behalf_of(token)
                        conn.close("malformed message frame (expected {t: 'm', m: <map>})", bad_input=True)
                        return
                    conn.delivering = True
                    try:
                        await self._inbox_send.send((conn.peer, body, token))
                        token = None  # the inbox releases it when the table takes the message
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass  # nobody reads the inbox any more
                    finally:
                        if token is not None:
                            self._stranger_slots.release_on_behalf_of(token)
                        conn.delivering = False
                        conn.last_rx = trio.current_time()
                    continue
                if token is not None:
                    self._stranger_slots.release_on_behalf_of(token)
                if kind == "ping":
                    pass
                elif kind == "dup":
                    conn.close(
                        "duplicate connection closed"
                        if conn.retired_at is not None
                        else "the peer closed this connection as a duplicate"
                    )
                    self.registry.hand_over(conn)
                    return
                else:
                    shown = repr(kind)[:40]
                    conn.close(f"unknown frame type {shown}", bad_input=True)
                    return
        except PeerClosed:
            conn.close("the peer closed the connection")
        except FrameError as exc:
            conn.close(f"bad frame: {exc}", bad_input=True)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            conn.close(f"connection lost: {exc}")

    async def _writer(self, conn: _Conn) -> None:
        try:
            while True:
                data = _PING
                with trio.move_on_after(self.heartbeat):
                    data = await conn.queue_recv.receive()
                with trio.fail_after(self.dead_after):
                    await conn.framed.stream.send_all(data)
        except trio.TooSlowError:
            conn.close(f"the peer has not read for {self.dead_after:g} s")
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            conn.close(f"send failed: {exc}")

    async def _watchdog(self, conn: _Conn) -> None:
        step = min(self.heartbeat, self.dead_after / 4, self.dup_grace / 2)
        last = trio.current_time()
        while True:
            await trio.sleep(step)
            now = trio.current_time()
            late, last = now - last - step, now
            if late > step:  # our own process stalled (a busy machine, SIGSTOP): we could not hear the peer then
                conn.last_rx += late
            if not conn.delivering and now - conn.last_rx > self.dead_after:
                conn.close(f"silent for more than {self.dead_after:g} s")
                return
            if conn.retired_at is not None and now - conn.retired_at > self.dup_grace:
                conn.close("duplicate connection closed (grace period over)")
                return
