"""What every part of the mesh shares: its events (PeerUp, PeerDown, TablePlaying), a connection (`_Conn`), a dial
target, and its limits and helpers."""

from __future__ import annotations

import errno
import logging
import os
import resource
from dataclasses import dataclass, field
from typing import Any, Final

import trio
from adp2p.p2p.framing import FramedStream, encode_frame
from adp2p.p2p.handshake import (
    NOT_SEATED,
    HandshakeAborted,
    HandshakeError,
    HandshakeGameMismatch,
    PeerInfo,
)

log = logging.getLogger("adp2p.p2p.transport")

_PING: Final = encode_frame({"t": "ping"})
_DUP: Final = encode_frame({"t": "dup"})
_ACCEPT_RETRY_ERRNOS: Final = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
FD_RESERVE: Final = 16  # descriptors kept free for the log, the secrets file and the rest of the process
# A stranger is a peer that has not proved a seat of the game (everyone in the lobby, where nobody holds one yet; at a
# playing table nobody else gets past the handshake). What its connections may hold, together (docs/protocol.md,
# "Transport"): frames of at most STRANGER_FRAME bytes (a lobby message or a genesis is a few hundred), and at most
# STRANGER_INFLIGHT of its decoded messages between the reader and the table at a time.
STRANGER_FRAME: Final = 16 * 1024
STRANGER_INFLIGHT: Final = 4
CLAIMS_PER_SEAT: Final = 2  # handshakes in progress whose hello names one seated player, at most


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


@dataclass(frozen=True)
class WordRefused:
    """A handshake failed on the table's word (the peer at `address`, named `who` as far as its hello said, does not
    know ours, or has one where we have none or none where we have one). Untrusted: a stranger causes it at will."""

    address: str
    who: str


MeshEvent = PeerUp | PeerDown | TablePlaying | WordRefused


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



@dataclass
class _Pending:
    """An inbound connection in its handshake: `claim` is the seated player its hello named (None: not yet, or a
    stranger); an unclaimed one is closed first when a new connection needs its slot."""

    host: str
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    claim: str | None = None


class _Inbox:
    """The mesh's inbox: (peer, message) pairs in arrival order. A stranger's message holds one of the strangers'
    slots (STRANGER_INFLIGHT) from the moment it is decoded until the table takes it, so what strangers make the
    peer hold is bounded however slowly the table reads."""

    def __init__(self, recv: trio.MemoryReceiveChannel[tuple[PeerInfo, dict[str, Any], object | None]],
                 slots: trio.CapacityLimiter) -> None:
        self._recv = recv
        self._slots = slots

    async def receive(self) -> tuple[PeerInfo, dict[str, Any]]:
        peer, msg, token = await self._recv.receive()
        if token is not None:
            self._slots.release_on_behalf_of(token)
        return peer, msg

    def __aiter__(self) -> _Inbox:
        return self

    async def __anext__(self) -> tuple[PeerInfo, dict[str, Any]]:
        try:
            return await self.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None
