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

import secrets
from collections.abc import Collection, Iterable
from contextlib import AsyncExitStack
from typing import Any

import trio
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.framing import DEFAULT_MAX_FRAME, encode_frame
from adp2p.p2p.handshake import (
    DEFAULT_TIMEOUT,
    PeerInfo,
)
from adp2p.p2p.transport.common import (
    FD_RESERVE,
    STRANGER_INFLIGHT,
    MeshEvent,
    PeerNotConnected,
    _Inbox,
    log,
)
from adp2p.p2p.transport.dialing import Dialer, Doorway, Greeter
from adp2p.p2p.transport.registry import Registry
from adp2p.p2p.transport.streams import Streams


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
        stranger_frame: int | None = None,
        word_key: bytes | None = None,
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
        self.registry = Registry(self._emit)  # the live connections, one active per peer
        self.max_pending_handshakes = max_pending_handshakes
        self.max_pending_per_host = max_pending_per_host
        # strangers (peers not in `seated`) get frames of at most `stranger_frame` bytes and share
        # STRANGER_INFLIGHT slots for their decoded messages (None: every peer is treated alike)
        self.stranger_frame = stranger_frame
        self.word_key = word_key  # the key of the table's shared word (p2p/table_word.py), None if it has none
        self.seated: set[str] = set()
        self._stranger_slots = trio.CapacityLimiter(STRANGER_INFLIGHT)
        self.max_connections = max_connections
        self.fd_reserve = fd_reserve
        self.sent: dict[str, int] = {}  # messages queued, by their "k" (one per connection they went to)
        self._inbox_send, inbox = trio.open_memory_channel[tuple[PeerInfo, dict[str, Any], object | None]](inbox_size)
        self.inbox = _Inbox(inbox, self._stranger_slots)
        self._events_send, self.events = trio.open_memory_channel[MeshEvent](events_size)
        self.streams = Streams(  # runs each connection (reader, writer, watchdog)
            self.registry, self._inbox_send, self._stranger_slots, lambda fp: fp in self.seated,
            stranger_frame=stranger_frame, max_frame=max_frame, heartbeat=heartbeat, dead_after=self.dead_after,
            dup_grace=dup_grace,
        )  # fmt: skip
        def who_may() -> set[str] | None:  # who may connect now (restrict() decides from then on)
            return self.allowed

        self.greeter = Greeter(  # the handshake with our identity, on every new connection
            secret, name, table, game=game, session=self.session, allowed=who_may, word_key=word_key,
            timeout=handshake_timeout, emit=self._emit,
        )  # fmt: skip
        self.doorway = Doorway(  # connections accepted
            self.greeter, self.streams, self.registry, allowed=who_may, me=self.fingerprint, send_queue=send_queue,
            max_frame=max_frame, max_connections=max_connections, fd_reserve=fd_reserve,
            max_pending_handshakes=max_pending_handshakes, max_pending_per_host=max_pending_per_host,
        )  # fmt: skip
        self.dialer = Dialer(  # connections dialed
            self.greeter, self.streams, self.registry, me=self.fingerprint, send_queue=send_queue, max_frame=max_frame,
            fd_reserve=fd_reserve, handshake_timeout=handshake_timeout, dead_after=self.dead_after,
            backoff_initial=backoff_initial, backoff_max=backoff_max,
        )  # fmt: skip
        self._stack: AsyncExitStack | None = None
        self._nursery: trio.Nursery | None = None

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

    def add_peer(self, host: str, port: int, fingerprint: str | None = None) -> None:
        """Dial *host:port* (and redial it whenever the peer there drops) until :meth:`remove_peer`.

        *fingerprint* is an optional hint (e.g. from discovery): the handshake then insists on it.
        Adding a known address only updates its hint.
        """
        if self._nursery is None and (host, int(port)) not in self.dialer.targets:
            raise RuntimeError("add_peer needs an entered Mesh (use `async with Mesh(...)`)")
        self.dialer.add(self._nursery, host, port, fingerprint)  # type: ignore[arg-type]

    def remove_peer(self, host: str, port: int) -> None:
        """Stop dialing *host:port* (an existing connection stays up)."""
        self.dialer.remove(host, port)

    def restrict(self, fingerprints: Collection[str]) -> None:
        """From now on only these identities may connect (e.g. the seated players once a game has begun); live
        connections of anyone else are closed. They are seated: no longer strangers."""
        self.allowed = set(fingerprints)
        self.seated = set(fingerprints)
        self.registry.notify()  # a reader holding a large frame of a player until it is seated reads it now
        for conn in list(self.registry.conns):
            if conn.peer.fingerprint not in self.allowed:
                conn.close("not seated at this game")

    @property
    def peers(self) -> dict[str, PeerInfo]:
        """Connected peers by fingerprint."""
        return self.registry.peers

    def connections(self) -> list[tuple[str, bool, bool]]:
        """Every live connection as ``(fingerprint, outbound, active)`` (retired duplicates included)."""
        return self.registry.connections()

    async def wait_peers(self, fingerprints: Collection[str] | int) -> None:
        """Wait until the given peers (or at least that many) are connected."""
        await self.registry.wait_peers(fingerprints)

    def _emit(self, event: MeshEvent) -> None:
        try:
            self._events_send.send_nowait(event)
        except trio.WouldBlock:
            log.warning("events channel full (nobody reads mesh.events?); dropped %s", type(event).__name__)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # nobody listens any more

    async def send(self, fingerprint: str, msg: dict[str, Any]) -> None:
        """Queue *msg* (a map) for one peer; raise :class:`PeerNotConnected` if it is not connected.

        Raises framing's :class:`~adp2p.p2p.framing.FrameEncodeError` / ``FrameTooLarge`` for a
        message that cannot be sent.  Returns once queued (not delivered).
        """
        data = self._encode(msg)
        await trio.lowlevel.checkpoint()
        conn = self.registry.active.get(fingerprint)
        if conn is None:
            raise PeerNotConnected(f"peer {fingerprint} is not connected")
        if not conn.enqueue(data):
            raise PeerNotConnected(f"peer {conn.label} dropped: {conn.reason}")
        self._count(msg, 1)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        """Queue *msg* for every connected peer; return the fingerprints it was queued for."""
        data = self._encode(msg)
        await trio.lowlevel.checkpoint()
        sent = [fp for fp, conn in list(self.registry.active.items()) if conn.enqueue(data)]
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

    async def _serve(self, listeners: list[trio.SocketListener]) -> None:
        async with trio.open_nursery() as nursery:
            for listener in listeners:
                nursery.start_soon(self.doorway.accept_loop, listener, nursery)

