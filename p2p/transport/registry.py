"""The connection registry: one live connection per peer (a duplicate retired by a fixed rule), handed over on a
restart, unregistered with its reason.

`Registry` holds the connections and nothing else: what it has to say (a peer up, a peer down) goes to the `emit`
function it is given (the mesh's event channel); it never reads or writes a socket."""

from __future__ import annotations

from collections.abc import Callable, Collection

import trio
from adp2p.p2p.handshake import PeerInfo
from adp2p.p2p.transport.common import (
    _DUP,
    _PING,
    MeshEvent,
    PeerDown,
    PeerUp,
    _Conn,
    log,
    prefer_new,
)


class Registry:
    """Every live connection, and the one active connection per peer."""

    def __init__(self, emit: Callable[[MeshEvent], None]) -> None:
        self.emit = emit
        self.active: dict[str, _Conn] = {}  # fingerprint -> the connection used for it
        self.conns: set[_Conn] = set()  # every live connection (retired duplicates included)
        self._down: dict[str, trio.Event] = {}  # fingerprint -> set when its active connection goes
        self._changed = trio.Event()

    @property
    def peers(self) -> dict[str, PeerInfo]:
        """Connected peers by fingerprint."""
        return {fp: c.peer for fp, c in self.active.items()}

    def connections(self) -> list[tuple[str, bool, bool]]:
        """Every live connection as ``(fingerprint, outbound, active)`` (retired duplicates included)."""
        return sorted((c.peer.fingerprint, c.outbound, self.active.get(c.peer.fingerprint) is c) for c in self.conns)

    async def wait_peers(self, fingerprints: Collection[str] | int) -> None:
        """Wait until the given peers (or at least that many) are connected."""
        while True:
            if isinstance(fingerprints, int):
                if len(self.active) >= fingerprints:
                    return
            elif all(fp in self.active for fp in fingerprints):
                return
            await self._changed.wait()

    async def wait_changed(self) -> None:
        """Wait until a connection comes, goes or changes (or `notify` is called)."""
        await self._changed.wait()

    async def wait_down(self, fp: str) -> None:
        """Wait while `fp` has an active connection (at once if it has none)."""
        down = self._down.get(fp)
        if fp in self.active and down is not None:
            await down.wait()

    def notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def register(self, conn: _Conn) -> None:
        fp = conn.peer.fingerprint
        self.conns.add(conn)
        old = self.active.get(fp)
        if old is None:
            self._activate(conn)
            return
        if prefer_new(conn.initiator, conn.peer.session, old.initiator, old.peer.session):
            if conn.peer.session != old.peer.session:
                old.close("replaced by a new session of the peer (it restarted)")
                del self.active[fp]
                self.emit(PeerDown(old.peer, "the peer restarted (new session)"))
                self._down.pop(fp).set()
                self._activate(conn)
                return
            self.active[fp] = conn
            self._retire(old)
            log.debug("duplicate connection to %s: keeping %s", conn.label, conn.initiator)
        else:
            self._retire(conn)
            log.debug("duplicate connection to %s: keeping %s", conn.label, old.initiator)
        self.notify()

    def _activate(self, conn: _Conn) -> None:
        fp = conn.peer.fingerprint
        self.active[fp] = conn
        self._down[fp] = trio.Event()
        log.info("peer up: %s", conn.label)
        self.emit(PeerUp(conn.peer, conn.address))
        self.notify()

    def hand_over(self, conn: _Conn) -> None:
        """Frames still queued on a connection closed as a duplicate go out on the one kept (else they were lost:
        a lobby message sent at the moment two connections met was never seen)."""
        keep = self.active.get(conn.peer.fingerprint)
        if keep is None or keep is conn:
            return
        while True:
            try:
                data = conn.queue_recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if data is not _PING and data is not _DUP:
                keep.enqueue(data)

    @staticmethod
    def _retire(conn: _Conn) -> None:
        conn.retired_at = trio.current_time()
        conn.enqueue(_DUP)

    def unregister(self, conn: _Conn) -> None:
        self.conns.discard(conn)
        fp = conn.peer.fingerprint
        reason = conn.reason or "connection closed"
        if self.active.get(fp) is conn:
            del self.active[fp]
            (log.warning if conn.bad_input else log.info)("peer down: %s: %s", conn.label, reason)
            self.emit(PeerDown(conn.peer, reason))
            self._down.pop(fp).set()
            self.notify()
        else:
            (log.warning if conn.bad_input else log.debug)("closed connection %s: %s", conn.label, reason)
