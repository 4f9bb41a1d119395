"""Trio TCP full mesh between the players of one table.

::

    async with Mesh(secret, "ann", "friday", peers=[("192.0.2.7", 4100)]) as mesh:
        mesh.add_peer("192.0.2.8", 4100)              # e.g. fed by discovery
        await mesh.broadcast({"type": "head", ...})
        async for peer, msg in mesh.inbox: ...          # (PeerInfo, dict)
        # mesh.events: PeerUp / PeerDown

Every connection, inbound or outbound, first runs the signed handshake
(:mod:`adp2p.p2p.handshake`); only authenticated peers are ever exposed.  After it, frames
(:mod:`adp2p.p2p.framing`, size-limited to *max_frame*) are maps with a type ``t``:

==========  ====================================================================
``m``       application message ``{t: "m", m: <map>}``, delivered to :attr:`Mesh.inbox`
``ping``    heartbeat, sent after *heartbeat* seconds without other outgoing traffic
``dup``     "I retired this connection as a duplicate"; the other side closes it too
==========  ====================================================================

Anything else (undecodable or oversized frames, another top-level type, an unknown ``t``,
an ``m`` that is not a map) closes that one connection with a logged reason naming the
peer; other connections are unaffected.

**Liveness.** Any frame received counts as a sign of life; a connection silent for
*dead_after* seconds is closed and the peer reported down (time our own process was stalled,
on a busy machine or under SIGSTOP, does not count: we could not have heard the peer).
Sends go through a per-connection queue (*send_queue* frames) drained by a writer task, so one slow peer never blocks
:meth:`Mesh.broadcast`; a peer whose queue overflows, or that does not read for *dead_after*
seconds, is disconnected.

**Reconnects.** Each known address (static list or :meth:`Mesh.add_peer`) has a dialer task:
it connects, hands the connection over, and when the peer goes down dials again with
exponential backoff (*backoff_initial* .. *backoff_max*, with jitter).  While the peer at an
address is connected (either direction) its dialer waits.  An address that turns out to be
ourselves is dropped.

**Duplicates.** Two connections between the same pair (both dialed at once) are resolved the
same way on both sides: if the peer's session id (random per :class:`Mesh`, signed in the
handshake) changed, the peer restarted and the new connection wins; otherwise the one
initiated by the lower fingerprint wins, and between two initiated by the same side the newer
one.  The loser is *retired*: no new sends, a ``dup`` frame, and it is closed once the other
side's ``dup`` arrives (so nothing in flight is lost) or after *dup_grace* seconds.  Messages
received on a retired connection are still delivered.  Known blip: if the winner's handshake
completes on one side before the other, the slower side can receive ``dup`` on its only
connection; it then closes it and reports the peer down, and up again a moment later when the
winning connection completes there.

**Descriptors.** A socket is accepted or dialed only while the process keeps *fd_reserve* descriptors free
under its limit (``RLIMIT_NOFILE``, counted in ``/proc/self/fd``): a flood of connections from the LAN can
never leave the peer unable to open its log or write its secrets.

Only addresses we dial are redialed: a peer that only ever dialed us is reconnected by its
own dialer (each side normally dials every address it knows).

Delivery is at most once and ordered per connection only; the log layer (seq numbers, heads
exchanged on connect) provides catch-up.  Frames are authenticated only by the handshake,
not individually: everything that matters is signed at the log layer.
"""

from __future__ import annotations

import errno
import logging
import os
import random
import resource
import secrets
from collections.abc import Collection, Iterable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any, Final

import trio
from adp2p.crypto.identity import SecretIdentity

from .framing import DEFAULT_MAX_FRAME, FramedStream, FrameError, PeerClosed, encode_frame
from .handshake import (
    DEFAULT_TIMEOUT,
    NOT_SEATED,
    HandshakeAborted,
    HandshakeError,
    HandshakeGameMismatch,
    HandshakeSelf,
    PeerInfo,
    handshake,
)

__all__ = [
    "Mesh",
    "MeshEvent",
    "PeerDown",
    "PeerNotConnected",
    "PeerUp",
]

log = logging.getLogger(__name__)

_PING: Final = encode_frame({"t": "ping"})
_DUP: Final = encode_frame({"t": "dup"})
_ACCEPT_RETRY_ERRNOS: Final = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
FD_RESERVE: Final = 16  # descriptors kept free for the log, the secrets file and the rest of the process


def fds_free() -> int | None:
    """How many more descriptors this process may open (None where it cannot be counted)."""
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft == resource.RLIM_INFINITY:
            return None
        return soft - len(os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return None


def _names_a_game(exc: HandshakeError) -> bool:
    """Did the peer say it is inside a game (its hello named one, or it refused us as not seated there)?"""
    if isinstance(exc, HandshakeGameMismatch):
        return exc.game is not None
    return isinstance(exc, HandshakeAborted) and exc.reason == NOT_SEATED


def _short_of_fds(reserve: int) -> bool:
    free = fds_free()
    return free is not None and free <= reserve


@dataclass(frozen=True)
class PeerUp:
    """An authenticated peer is connected (first connection, or a new session after a restart)."""

    peer: PeerInfo
    address: str


@dataclass(frozen=True)
class PeerDown:
    """A peer is no longer connected; ``reason`` says why."""

    peer: PeerInfo
    reason: str


@dataclass(frozen=True)
class TablePlaying:
    """A peer at our table answered from inside a game while we have none: the table is playing (we are not
    seated there). Untrusted: anyone may say it; the lobby only uses it to tell a lone joiner why nobody comes."""

    address: str


MeshEvent = PeerUp | PeerDown | TablePlaying


class PeerNotConnected(Exception):
    """:meth:`Mesh.send` to a peer that has no live connection."""


class _Conn:
    """One authenticated connection and its tasks' shared state."""

    def __init__(
        self, framed: FramedStream, peer: PeerInfo, *, outbound: bool, address: str, me: str, queue: int
    ):
        self.framed = framed
        self.peer = peer
        self.outbound = outbound
        self.address = address
        self.initiator = me if outbound else peer.fingerprint
        self.queue_send, self.queue_recv = trio.open_memory_channel[bytes](queue)
        now = trio.current_time()
        self.started = now
        self.last_rx = now
        self.delivering = False
        self.retired_at: float | None = None
        self.scope = trio.CancelScope()
        self.reason: str | None = None
        self.bad_input = False

    @property
    def label(self) -> str:
        return f"{self.peer.label} at {self.address}"

    def close(self, reason: str, *, bad_input: bool = False) -> None:
        if self.reason is None:
            self.reason = reason
            self.bad_input = bad_input
        self.scope.cancel()

    def enqueue(self, data: bytes) -> bool:
        try:
            self.queue_send.send_nowait(data)
        except trio.WouldBlock:
            self.close("send queue full: the peer does not keep up")
            return False
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True


def prefer_new(new_initiator: str, new_session: bytes, old_initiator: str, old_session: bytes) -> bool:
    """Duplicate-connection rule (the same on both sides): should the new connection replace the old?"""
    if new_session != old_session:
        return True  # the peer restarted: the old connection is stale
    if new_initiator != old_initiator:
        return new_initiator < old_initiator  # keep the one initiated by the lower fingerprint
    return True  # same initiator: the newer one (the older is probably dead)


@dataclass
class _Target:
    host: str
    port: int
    hint: str | None
    fingerprint: str | None = None
    scope: trio.CancelScope | None = None


class Mesh:
    """Full mesh of authenticated TCP connections to the other players of one table.

    Use as ``async with Mesh(...) as mesh``; everything (listener, dialers, connections) is
    closed on exit and the :attr:`inbox` / :attr:`events` channels end.

    Parameters: *secret*/*name* are ours; *table* (and *game*) must match the peers'; *host*
    and *port* (0 = any free port, see :attr:`port`) where to listen; *peers* a static list of
    ``(host, port)`` to dial; *allowed* restricts who may connect (fingerprints); timing and
    limits as described in the module docstring.
    """

    def __init__(
        self,
        secret: SecretIdentity,
        name: str,
        table: str,
        *,
        game: bytes | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        peers: Iterable[tuple[str, int]] = (),
        allowed: Collection[str] | None = None,
        heartbeat: float = 2.0,
        dead_after: float | None = None,
        handshake_timeout: float = DEFAULT_TIMEOUT,
        backoff_initial: float = 0.2,
        backoff_max: float = 10.0,
        dup_grace: float = 2.0,
        max_frame: int = DEFAULT_MAX_FRAME,
        send_queue: int = 1024,
        inbox_size: int = 1024,
        events_size: int = 1024,
        max_pending_handshakes: int = 32,
        max_pending_per_host: int = 8,  # a whole table of peers on one machine may dial us at once
        max_connections: int = 48,
        fd_reserve: int = FD_RESERVE,
    ) -> None:
        self.secret = secret
        self.name = name
        self.table = table
        self.game = game
        self.host = host
        self._port = port
        self.allowed = set(allowed) if allowed is not None else None
        self.heartbeat = heartbeat
        self.dead_after = dead_after if dead_after is not None else 3 * heartbeat
        if not 0 < heartbeat < self.dead_after:
            raise ValueError("need 0 < heartbeat < dead_after")
        self.handshake_timeout = handshake_timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.dup_grace = dup_grace
        self.max_frame = max_frame
        self.send_queue = send_queue
        self.fingerprint = secret.public.fingerprint()
        self.session = secrets.token_bytes(16)
        self._initial = list(peers)
        self._targets: dict[tuple[str, int], _Target] = {}
        self._active: dict[str, _Conn] = {}
        self._conns: set[_Conn] = set()
        self._down: dict[str, trio.Event] = {}
        self._changed = trio.Event()
        self._pending = trio.CapacityLimiter(max_pending_handshakes)
        self.max_pending_per_host = max_pending_per_host
        self.max_connections = max_connections
        self.fd_reserve = fd_reserve
        self._pending_by_host: dict[str, int] = {}
        self.sent: dict[str, int] = {}  # messages queued, by their "k" (one per connection they went to)
        self._inbox_send, self.inbox = trio.open_memory_channel[tuple[PeerInfo, dict[str, Any]]](inbox_size)
        self._events_send, self.events = trio.open_memory_channel[MeshEvent](events_size)
        self._stack: AsyncExitStack | None = None
        self._nursery: trio.Nursery | None = None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Mesh:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            self._nursery = await stack.enter_async_context(trio.open_nursery())
            listeners = await trio.open_tcp_listeners(self._port, host=self.host)
            self._port = listeners[0].socket.getsockname()[1]
            self._nursery.start_soon(self._serve, listeners)
        except BaseException as exc:
            if self._nursery is not None:
                self._nursery.cancel_scope.cancel()
            await stack.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        self._stack = stack
        log.info("mesh %s (%s) listening on %s:%d", self.name, self.fingerprint, self.host, self._port)
        for host, port in self._initial:
            self.add_peer(host, port)
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        assert self._stack is not None and self._nursery is not None
        self._nursery.cancel_scope.cancel()
        try:
            return await self._stack.__aexit__(*exc_info)
        finally:
            self._inbox_send.close()
            self._events_send.close()
            self._nursery = None

    @property
    def port(self) -> int:
        """The TCP port we listen on (the real one when 0 was asked for)."""
        return self._port

    @property
    def address(self) -> tuple[str, int]:
        return (self.host, self._port)

    # ------------------------------------------------------------------ peers

    def add_peer(self, host: str, port: int, fingerprint: str | None = None) -> None:
        """Dial *host:port* (and redial it whenever the peer there drops) until :meth:`remove_peer`.

        *fingerprint* is an optional hint (e.g. from discovery): the handshake then insists on it.
        Adding a known address only updates its hint.
        """
        key = (host, int(port))
        target = self._targets.get(key)
        if target is not None:
            target.hint = fingerprint
            return
        if self._nursery is None:
            raise RuntimeError("add_peer needs an entered Mesh (use `async with Mesh(...)`)")
        target = _Target(host, int(port), fingerprint)
        self._targets[key] = target
        self._nursery.start_soon(self._dial_loop, target)

    def remove_peer(self, host: str, port: int) -> None:
        """Stop dialing *host:port* (an existing connection stays up)."""
        target = self._targets.pop((host, int(port)), None)
        if target is not None and target.scope is not None:
            target.scope.cancel()

    def restrict(self, fingerprints: Collection[str]) -> None:
        """From now on only these identities may connect (e.g. the seated players once a game has begun); live
        connections of anyone else are closed."""
        self.allowed = set(fingerprints)
        for conn in list(self._conns):
            if conn.peer.fingerprint not in self.allowed:
                conn.close("not seated at this game")

    @property
    def peers(self) -> dict[str, PeerInfo]:
        """Connected peers by fingerprint."""
        return {fp: c.peer for fp, c in self._active.items()}

    def connections(self) -> list[tuple[str, bool, bool]]:
        """Every live connection as ``(fingerprint, outbound, active)`` (retired duplicates included)."""
        return sorted(
            (c.peer.fingerprint, c.outbound, self._active.get(c.peer.fingerprint) is c) for c in self._conns
        )

    async def wait_peers(self, fingerprints: Collection[str] | int) -> None:
        """Wait until the given peers (or at least that many) are connected."""
        while True:
            if isinstance(fingerprints, int):
                if len(self._active) >= fingerprints:
                    return
            elif all(fp in self._active for fp in fingerprints):
                return
            await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _emit(self, event: MeshEvent) -> None:
        try:
            self._events_send.send_nowait(event)
        except trio.WouldBlock:
            log.warning("events channel full (nobody reads mesh.events?); dropped %s", type(event).__name__)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # nobody listens any more

    # ------------------------------------------------------------------ sending

    async def send(self, fingerprint: str, msg: dict[str, Any]) -> None:
        """Queue *msg* (a map) for one peer; raise :class:`PeerNotConnected` if it is not connected.

        Raises framing's :class:`~adp2p.p2p.framing.FrameEncodeError` / ``FrameTooLarge`` for a
        message that cannot be sent.  Returns once queued (not delivered).
        """
        data = self._encode(msg)
        await trio.lowlevel.checkpoint()
        conn = self._active.get(fingerprint)
        if conn is None:
            raise PeerNotConnected(f"peer {fingerprint} is not connected")
        if not conn.enqueue(data):
            raise PeerNotConnected(f"peer {conn.label} dropped: {conn.reason}")
        self._count(msg, 1)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        """Queue *msg* for every connected peer; return the fingerprints it was queued for."""
        data = self._encode(msg)
        await trio.lowlevel.checkpoint()
        sent = [fp for fp, conn in list(self._active.items()) if conn.enqueue(data)]
        self._count(msg, len(sent))
        return sent

    def _count(self, msg: dict[str, Any], copies: int) -> None:
        kind = msg.get("k")
        key = kind if isinstance(kind, str) and len(kind) <= 16 else "?"
        self.sent[key] = self.sent.get(key, 0) + copies

    def _encode(self, msg: dict[str, Any]) -> bytes:
        if not isinstance(msg, dict):
            raise TypeError(f"messages are maps, got {type(msg).__name__}")
        return encode_frame({"t": "m", "m": msg}, max_size=self.max_frame)

    # ------------------------------------------------------------------ accepting and dialing

    async def _serve(self, listeners: list[trio.SocketListener]) -> None:
        async with trio.open_nursery() as nursery:
            for listener in listeners:
                nursery.start_soon(self._accept_loop, listener, nursery)

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
        # bounds against the LAN: live connections in all, handshakes in progress in all and per host (so one
        # host idling in handshakes cannot keep a resuming player out)
        if len(self._conns) >= self.max_connections or self._pending_by_host.get(host, 0) >= self.max_pending_per_host:
            log.warning("refusing connection from %s: too many connections", address)
            await trio.aclose_forcefully(stream)
            return
        if _short_of_fds(self.fd_reserve):
            log.warning("refusing connection from %s: file descriptors kept for the log and secrets", address)
            await trio.aclose_forcefully(stream)
            return
        try:
            self._pending.acquire_nowait()
        except trio.WouldBlock:
            log.warning("refusing connection from %s: too many handshakes in progress", address)
            await trio.aclose_forcefully(stream)
            return
        self._pending_by_host[host] = self._pending_by_host.get(host, 0) + 1
        try:
            framed = FramedStream(stream, max_size=self.max_frame)
            peer = await self._handshake(framed, address, None)
        except HandshakeSelf:
            peer = None
        finally:
            self._pending.release()
            left = self._pending_by_host.get(host, 1) - 1
            if left > 0:
                self._pending_by_host[host] = left
            else:
                self._pending_by_host.pop(host, None)
        if peer is None:
            await trio.aclose_forcefully(stream)
            return
        await self._run(
            _Conn(framed, peer, outbound=False, address=address, me=self.fingerprint, queue=self.send_queue)
        )

    async def _handshake(self, framed: FramedStream, address: str, expected: str | None) -> PeerInfo | None:
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
            )
        except HandshakeSelf:
            log.debug("connection at %s is ourselves", address)
            raise
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
                if fp is not None and fp in self._active:
                    await self._down[fp].wait()
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

    # ------------------------------------------------------------------ one connection

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

    async def _run(self, conn: _Conn) -> None:
        self._register(conn)
        try:
            with conn.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._reader, conn)
                    nursery.start_soon(self._writer, conn)
                    nursery.start_soon(self._watchdog, conn)
        finally:
            conn.close("mesh closing")
            self._unregister(conn)
            await trio.aclose_forcefully(conn.framed.stream)

    async def _reader(self, conn: _Conn) -> None:
        try:
            while True:
                msg = await conn.framed.receive()
                conn.last_rx = trio.current_time()
                kind = msg.get("t")
                if kind == "m":
                    body = msg.get("m")
                    if not isinstance(body, dict) or len(msg) != 2:
                        conn.close("malformed message frame (expected {t: 'm', m: <map>})", bad_input=True)
                        return
                    conn.delivering = True
                    try:
                        await self._inbox_send.send((conn.peer, body))
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass  # nobody reads the inbox any more
                    finally:
                        conn.delivering = False
                        conn.last_rx = trio.current_time()
                elif kind == "ping":
                    pass
                elif kind == "dup":
                    conn.close(
                        "duplicate connection closed"
                        if conn.retired_at is not None
                        else "the peer closed this connection as a duplicate"
                    )
                    self._hand_over(conn)
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
