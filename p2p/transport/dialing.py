"""Connecting: the accept loop for inbound connections (bounded per address and in all), the signed handshake, and the
dial loop with backoff for every known address.

One part of `Mesh` (p2p/transport/mesh.py): its methods work on its shared state."""

from __future__ import annotations

import errno
import random

import trio
from adp2p.p2p.framing import FramedStream
from adp2p.p2p.handshake import (
    HandshakeAborted,
    HandshakeError,
    HandshakeGameMismatch,
    HandshakeSelf,
    HandshakeWordMismatch,
    PeerInfo,
    handshake,
)
from adp2p.p2p.transport.common import (
    _ACCEPT_RETRY_ERRNOS,
    CLAIMS_PER_SEAT,
    TablePlaying,
    WordRefused,
    _Conn,
    _names_a_game,
    _Pending,
    _short_of_fds,
    _Target,
    log,
)


class DialingPart:
    """Connecting."""

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno in _ACCEPT_RETRY_ERRNOS:
                        log.warning("accept failed (%s); retrying", exc)
                        await trio.sleep(0.1)
                        continue
                    raise
                nursery.start_soon(self._inbound, stream)

    async def _inbound(self, stream: trio.SocketStream) -> None:
        try:
            host, port = stream.socket.getpeername()[:2]
            address = f"{host}:{port}"
        except OSError:
            host, address = "?", "unknown address"
        # bounds against the LAN: live connections in all, handshakes in progress in all and per host. A handshake
        # whose hello has not named a seated player is a stranger's: when a bound is reached, the oldest of those
        # (of this host first) is closed to make room, so strangers holding every slot cannot keep a player out
        # (its hello, sent as it connects, names its seat before many newer connections arrive)
        if len(self.registry.conns) >= self.max_connections:
            log.warning("refusing connection from %s: too many connections", address)
            await trio.aclose_forcefully(stream)
            return
        if _short_of_fds(self.fd_reserve):
            log.warning("refusing connection from %s: file descriptors kept for the log and secrets", address)
            self._evict(None)  # (its descriptor is free once that task closes it: for the next one)
            await trio.aclose_forcefully(stream)
            return
        if self._pending_by_host.get(host, 0) >= self.max_pending_per_host and not self._evict(host):
            log.warning("refusing connection from %s: too many handshakes from its address", address)
            await trio.aclose_forcefully(stream)
            return
        if len(self._pending) >= self.max_pending_handshakes and not self._evict(None):
            log.warning("refusing connection from %s: too many handshakes in progress", address)
            await trio.aclose_forcefully(stream)
            return
        pending = _Pending(host)
        self._pending.append(pending)
        self._pending_by_host[host] = self._pending_by_host.get(host, 0) + 1
        peer: PeerInfo | None = None
        try:
            framed = FramedStream(stream, max_size=self.max_frame)
            with pending.scope:
                peer = await self._handshake(framed, address, None, pending)
            if pending.scope.cancelled_caught:
                log.info("closed connection %s in its handshake: its slot went to a newer one", address)
        except HandshakeSelf:
            peer = None
        finally:
            self._drop_pending(pending)
        if peer is None:
            await trio.aclose_forcefully(stream)
            return
        await self._run(
            _Conn(framed, peer, outbound=False, address=address, me=self.fingerprint, queue=self.send_queue)
        )

    def _drop_pending(self, pending: _Pending) -> None:
        if pending not in self._pending:
            return
        self._pending.remove(pending)
        left = self._pending_by_host.get(pending.host, 1) - 1
        if left > 0:
            self._pending_by_host[pending.host] = left
        else:
            self._pending_by_host.pop(pending.host, None)

    def _evict(self, host: str | None) -> bool:
        """Close the oldest handshake in progress that has not named a seated player (of `host`, if given) and
        free its slot at once; False if there is none (every slot is a player's)."""
        for pending in self._pending:
            if pending.claim is None and (host is None or pending.host == host):
                self._drop_pending(pending)
                pending.scope.cancel()
                return True
        return False

    def _claim(self, pending: _Pending, fp: str) -> None:
        """A hello named `fp`, a player allowed here: its handshake is no longer a stranger's to close first. At
        most CLAIMS_PER_SEAT for one player (a stranger replaying a player's public hello cannot hoard slots: the
        oldest claim for that player gives way; it would fail at the signature anyway)."""
        if self.allowed is None or fp not in self.allowed:
            return
        claims = [q for q in self._pending if q.claim == fp]
        if len(claims) >= CLAIMS_PER_SEAT:
            self._drop_pending(claims[0])
            claims[0].scope.cancel()
        pending.claim = fp

    async def _handshake(
        self, framed: FramedStream, address: str, expected: str | None, pending: _Pending | None = None
    ) -> PeerInfo | None:
        try:
            return await handshake(
                framed,
                self.secret,
                self.name,
                self.table,
                game=self.game,
                session=self.session,
                expected_fingerprint=expected,
                allowed=self.allowed,
                timeout=self.handshake_timeout,
                peer_label=address,
                on_hello=None if pending is None else lambda fp: self._claim(pending, fp),
                word_key=self.word_key,
            )
        except HandshakeSelf:
            log.debug("connection at %s is ourselves", address)
            raise
        except HandshakeWordMismatch as exc:
            log.warning("dropping connection %s: %s", address, exc)
            self._emit(WordRefused(address, exc.peer))
            return None
        except (HandshakeGameMismatch, HandshakeAborted) as exc:
            log.warning("dropping connection %s: %s", address, exc)
            if self.game is None and self.allowed is None and _names_a_game(exc):
                self._emit(TablePlaying(address))
            return None
        except HandshakeError as exc:
            log.warning("dropping connection %s: %s", address, exc)
            return None

    async def _dial_loop(self, target: _Target) -> None:
        address = f"{target.host}:{target.port}"
        target.scope = trio.CancelScope()
        backoff = self.backoff_initial
        with target.scope:
            while True:
                fp = target.fingerprint
                if fp is not None and fp in self.registry.active:
                    await self.registry.wait_down(fp)
                    continue
                peer: PeerInfo | None = None
                try:
                    if _short_of_fds(self.fd_reserve):
                        raise OSError(errno.EMFILE, "file descriptors kept for the log and secrets")
                    with trio.fail_after(self.handshake_timeout):
                        stream = await trio.open_tcp_stream(target.host, target.port)
                except (OSError, trio.TooSlowError) as exc:
                    log.debug("dialing %s failed: %s", address, exc or "timeout")
                else:
                    framed = FramedStream(stream, max_size=self.max_frame)
                    try:
                        peer = await self._handshake(framed, address, target.hint)
                    except HandshakeSelf:
                        await trio.aclose_forcefully(stream)
                        log.info("%s is our own address; not dialing it again", address)
                        self._targets.pop((target.host, target.port), None)
                        return
                    if peer is None:
                        await trio.aclose_forcefully(stream)
                if peer is not None:
                    target.fingerprint = peer.fingerprint
                    conn = _Conn(
                        framed,
                        peer,
                        outbound=True,
                        address=address,
                        me=self.fingerprint,
                        queue=self.send_queue,
                    )
                    await self._run(conn)
                    if trio.current_time() - conn.started >= 2 * self.dead_after:
                        backoff = self.backoff_initial  # it was a healthy connection
                await trio.sleep(backoff * random.uniform(0.5, 1.0))
                backoff = min(backoff * 2, self.backoff_max)
