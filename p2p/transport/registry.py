"""The connection registry: one live connection per peer (a duplicate retired by a fixed rule), handed over on a
restart, unregistered with its reason.

One part of `Mesh` (p2p/transport/mesh.py): its methods work on its shared state."""

from __future__ import annotations

import trio
from adp2p.p2p.transport.common import (
    _DUP,
    _PING,
    PeerDown,
    PeerUp,
    _Conn,
    log,
    prefer_new,
)


class RegistryPart:
    """The connection registry."""

    def _register(self, conn: _Conn) -> None:
        fp = conn.peer.fingerprint
        self._conns.add(conn)
        old = self._active.get(fp)
        if old is None:
            self._activate(conn)
            return
        if prefer_new(conn.initiator, conn.peer.session, old.initiator, old.peer.session):
            if conn.peer.session != old.peer.session:
                old.close("replaced by a new session of the peer (it restarted)")
                del self._active[fp]
                self._emit(PeerDown(old.peer, "the peer restarted (new session)"))
                self._down.pop(fp).set()
                self._activate(conn)
                return
            self._active[fp] = conn
            self._retire(old)
            log.debug("duplicate connection to %s: keeping %s", conn.label, conn.initiator)
        else:
            self._retire(conn)
            log.debug("duplicate connection to %s: keeping %s", conn.label, old.initiator)
        self._notify()

    def _activate(self, conn: _Conn) -> None:
        fp = conn.peer.fingerprint
        self._active[fp] = conn
        self._down[fp] = trio.Event()
        log.info("peer up: %s", conn.label)
        self._emit(PeerUp(conn.peer, conn.address))
        self._notify()

    def _hand_over(self, conn: _Conn) -> None:
        """Frames still queued on a connection closed as a duplicate go out on the one kept (else they were lost:
        a lobby message sent at the moment two connections met was never seen)."""
        keep = self._active.get(conn.peer.fingerprint)
        if keep is None or keep is conn:
            return
        while True:
            try:
                data = conn.queue_recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if data is not _PING and data is not _DUP:
                keep.enqueue(data)

    def _retire(self, conn: _Conn) -> None:
        conn.retired_at = trio.current_time()
        conn.enqueue(_DUP)

    def _unregister(self, conn: _Conn) -> None:
        self._conns.discard(conn)
        fp = conn.peer.fingerprint
        reason = conn.reason or "connection closed"
        if self._active.get(fp) is conn:
            del self._active[fp]
            (log.warning if conn.bad_input else log.info)("peer down: %s: %s", conn.label, reason)
            self._emit(PeerDown(conn.peer, reason))
            self._down.pop(fp).set()
            self._notify()
        else:
            (log.warning if conn.bad_input else log.debug)("closed connection %s: %s", conn.label, reason)
