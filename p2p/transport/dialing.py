"""Connecting: the signed handshake with our identity (`Greeter`), the accept loop for inbound connections, bounded per
address and in all (`Doorway`), and the dial loop with backoff for every known address (`Dialer`).

Each is given what it needs by the mesh (p2p/transport/mesh.py): the greeter, the streams that run a connection, the
registry, who is allowed now (a function: the mesh decides), its limits; none reads another's state."""

from __future__ import annotations

import errno
import random
from collections.abc import Callable, Collection

import trio
from adp2p.crypto.identity import SecretIdentity
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
    MeshEvent,
    TablePlaying,
    WordRefused,
    _Conn,
    _names_a_game,
    _Pending,
    _short_of_fds,
    _Target,
    log,
)
from adp2p.p2p.transport.registry import Registry
from adp2p.p2p.transport.streams import Streams

Allowed = Callable[[], Collection[str] | None]  # who may connect now (None: anyone)


class Greeter:
    """The signed mutual handshake on a new connection, with our identity and the table's terms."""

    def __init__(
        self,
        secret: SecretIdentity,
        name: str,
        table: str,
        *,
        game: bytes | None,
        session: bytes,
        allowed: Allowed,
        word_key: bytes | None,
        timeout: float,
        emit: Callable[[MeshEvent], None],
    ) -> None:
        self.secret, self.name, self.table, self.game, self.session = secret, name, table, game, session
        self.allowed = allowed
        self.word_key = word_key
        self.timeout = timeout
        self.emit = emit

    async def greet(
        self, framed: FramedStream, address: str, expected: str | None, on_hello: Callable[[str], None] | None = None
    ) -> PeerInfo | None:
        """The peer at the other end of `framed`, authenticated (None if the handshake failed: said in the log, and a
        refused table word or a table that is playing told as an event)."""
        try:
            return await handshake(
                framed,
                self.secret,
                self.name,
                self.table,
                game=self.game,
                session=self.session,
                expected_fingerprint=expected,
                allowed=self.allowed(),
                timeout=self.timeout,
                peer_label=address,
                on_hello=on_hello,
                word_key=self.word_key,
            )
        except HandshakeSelf:
            log.debug("connection at %s is ourselves", address)
            raise
        except HandshakeWordMismatch as exc:
            log.warning("dropping connection %s: %s", address, exc)
            self.emit(WordRefused(address, exc.peer))
            return None
        except (HandshakeGameMismatch, HandshakeAborted) as exc:
            log.warning("dropping connection %s: %s", address, exc)
            if self.game is None and self.allowed() is None and _names_a_game(exc):
                self.emit(TablePlaying(address))
            return None
        except HandshakeError as exc:
            log.warning("dropping connection %s: %s", address, exc)
            return None


class Doorway:
    """Inbound connections: accepted within bounds (connections in all, handshakes in progress in all and per host, file
    descriptors kept for the log), greeted, then run."""

    def __init__(
        self,
        greeter: Greeter,
        streams: Streams,
        registry: Registry,
        *,
        allowed: Allowed,
        me: str,
        send_queue: int,
        max_frame: int,
        max_connections: int,
        fd_reserve: int,
        max_pending_handshakes: int,
        max_pending_per_host: int,
    ) -> None:
        self.greeter, self.streams, self.registry = greeter, streams, registry
        self.allowed = allowed
        self.fingerprint = me
        self.send_queue = send_queue
        self.max_frame = max_frame
        self.max_connections = max_connections
        self.fd_reserve = fd_reserve
        self.max_pending_handshakes = max_pending_handshakes
        self.max_pending_per_host = max_pending_per_host
        self._pending: list[_Pending] = []  # inbound handshakes in progress, oldest first
        self._pending_by_host: dict[str, int] = {}

    async def accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
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
                peer = await self.greeter.greet(framed, address, None, lambda fp: self._claim(pending, fp))
            if pending.scope.cancelled_caught:
                log.info("closed connection %s in its handshake: its slot went to a newer one", address)
        except HandshakeSelf:
            peer = None
        finally:
            self._drop_pending(pending)
        if peer is None:
            await trio.aclose_forcefully(stream)
            return
        await self.streams.run(
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
        allowed = self.allowed()
        if allowed is None or fp not in allowed:
            return
        claims = [q for q in self._pending if q.claim == fp]
        if len(claims) >= CLAIMS_PER_SEAT:
            self._drop_pending(claims[0])
            claims[0].scope.cancel()
        pending.claim = fp


class Dialer:
    """Outbound connections: every known address dialed, greeted and run, and dialed again with backoff whenever the
    peer there drops, until it is removed."""

    def __init__(
        self,
        greeter: Greeter,
        streams: Streams,
        registry: Registry,
        *,
        me: str,
        send_queue: int,
        max_frame: int,
        fd_reserve: int,
        handshake_timeout: float,
        dead_after: float,
        backoff_initial: float,
        backoff_max: float,
    ) -> None:
        self.greeter, self.streams, self.registry = greeter, streams, registry
        self.fingerprint = me
        self.send_queue = send_queue
        self.max_frame = max_frame
        self.fd_reserve = fd_reserve
        self.handshake_timeout = handshake_timeout
        self.dead_after = dead_after
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.targets: dict[tuple[str, int], _Target] = {}

    def add(self, nursery: trio.Nursery, host: str, port: int, fingerprint: str | None = None) -> None:
        """Dial `host:port` (in `nursery`) until `remove`; a known address only gets its fingerprint hint updated."""
        key = (host, int(port))
        target = self.targets.get(key)
        if target is not None:
            target.hint = fingerprint
            return
        target = _Target(host, int(port), fingerprint)
        self.targets[key] = target
        nursery.start_soon(self._dial_loop, target)

    def remove(self, host: str, port: int) -> None:
        target = self.targets.pop((host, int(port)), None)
        if target is not None and target.scope is not None:
            target.scope.cancel()

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
                        peer = await self.greeter.greet(framed, address, target.hint)
                    except HandshakeSelf:
                        await trio.aclose_forcefully(stream)
                        log.info("%s is our own address; not dialing it again", address)
                        self.targets.pop((target.host, target.port), None)
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
                    await self.streams.run(conn)
                    if trio.current_time() - conn.started >= 2 * self.dead_after:
                        backoff = self.backoff_initial  # it was a healthy connection
                await trio.sleep(backoff * random.uniform(0.5, 1.0))
                backoff = min(backoff * 2, self.backoff_max)
