"""Length-prefixed msgpack frames over a :class:`trio.abc.Stream`.

Wire format of one frame::

    +----------------------+------------------------------+
    | length: u32, big-end | payload: `length` bytes      |
    +----------------------+------------------------------+

The payload is one msgpack object (by default it must be a map, the shape of every
protocol message).  Peers are untrusted, so receiving is defensive:

* the announced length is checked against a hard limit *before* a single byte of the
  body is read or buffered (:class:`FrameTooLarge`);
* a peer closing the connection in the middle of a frame is :class:`FrameTruncated`,
  a clean close between two frames is :class:`PeerClosed`;
* the body is decoded with strict msgpack limits (``max_buffer_size``, ``strict_map_key``,
  no ext types, ``raw=False`` so msgpack str becomes :class:`str` while bin stays
  :class:`bytes`); anything undecodable is :class:`FrameMalformed`;
* a well-formed body of the wrong top-level type is :class:`FrameWrongType`.

All of these derive from :class:`FrameError`.  After :class:`FrameMalformed` or
:class:`FrameWrongType` the body has been consumed completely, so the stream is still
in sync and the next frame can be read.  After :class:`FrameTooLarge` or
:class:`FrameTruncated` it is not: :class:`FramedStream` refuses further receives
(:class:`FrameDesync`) and the caller should close the connection.

Two APIs are offered:

* :func:`send_frame` / :func:`recv_frame`: stateless functions over any stream.
  ``recv_frame`` never reads past the end of the frame (it asks the stream for
  exactly the bytes it still needs), so it can be mixed with other readers.
* :class:`FramedStream`: wraps a stream, buffers reads (fewer syscalls for small
  frames), serialises concurrent senders with a lock and remembers desync.
"""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from typing import Any, Final

import msgpack
import trio

__all__ = [
    "DEFAULT_MAX_FRAME",
    "HEADER_SIZE",
    "MAX_DEPTH",
    "FrameDesync",
    "FrameEncodeError",
    "FrameError",
    "FrameMalformed",
    "FrameTooLarge",
    "FrameTruncated",
    "FrameWrongType",
    "FramedStream",
    "PeerClosed",
    "decode_payload",
    "encode_frame",
    "recv_frame",
    "send_frame",
]

HEADER_SIZE: Final = 4
DEFAULT_MAX_FRAME: Final = 1 << 20  # 1 MiB of payload
MAX_DEPTH: Final = 64  # nesting depth accepted in a decoded frame
_HEADER = struct.Struct(">I")
_ABSOLUTE_MAX: Final = (1 << 32) - 1
_RECV_CHUNK: Final = 64 * 1024

_ALLOWED_SCALARS = (type(None), bool, int, float, str, bytes)


class FrameError(Exception):
    """Base class of every framing failure."""


class FrameTooLarge(FrameError):
    """A frame (announced or about to be sent) exceeds the size limit."""

    def __init__(self, size: int, limit: int, *, sending: bool = False) -> None:
        self.size = size
        self.limit = limit
        what = "outgoing frame" if sending else "peer announced a frame"
        super().__init__(f"{what} of {size} bytes, over the limit of {limit} bytes")


class FrameTruncated(FrameError):
    """The peer closed the stream in the middle of a frame."""

    def __init__(self, got: int, expected: int, part: str) -> None:
        self.got = got
        self.expected = expected
        self.part = part
        super().__init__(f"peer closed the stream mid-frame: got {got} of {expected} bytes of the {part}")


class PeerClosed(FrameError):
    """The peer closed the stream cleanly, between two frames."""

    def __init__(self) -> None:
        super().__init__("peer closed the stream (no more frames)")


class FrameMalformed(FrameError):
    """The payload is not one acceptable msgpack object."""


class FrameWrongType(FrameError):
    """The payload decoded fine but its top-level type is not the expected one."""

    def __init__(self, got: type, expected: tuple[type, ...]) -> None:
        self.got = got
        self.expected = expected
        names = " or ".join(t.__name__ for t in expected)
        super().__init__(f"frame top-level type is {got.__name__}, expected {names}")


class FrameEncodeError(FrameError):
    """The object to send cannot be encoded as a frame."""


class FrameDesync(FrameError):
    """A previous error left the stream mid-frame; no further frame can be read."""


def _reject_ext(code: int, data: bytes) -> Any:
    raise FrameMalformed(f"msgpack ext type {code} is not allowed ({len(data)} bytes)")


def _check_tree(obj: Any, depth: int = 0) -> None:
    """Only plain msgpack types (no ext, no Timestamp) and a bounded nesting depth."""
    if depth > MAX_DEPTH:
        raise FrameMalformed(f"frame nested deeper than {MAX_DEPTH} levels")
    if isinstance(obj, _ALLOWED_SCALARS):
        return
    if isinstance(obj, list):
        for item in obj:
            _check_tree(item, depth + 1)
        return
    if isinstance(obj, dict):
        for value in obj.values():
            # strict_map_key already limits keys to str/bytes.
            _check_tree(value, depth + 1)
        return
    raise FrameMalformed(f"msgpack value of type {type(obj).__name__} is not allowed")


def encode_frame(obj: Any, *, max_size: int = DEFAULT_MAX_FRAME) -> bytes:
    """Return header + msgpack payload for *obj*; raise :class:`FrameEncodeError`/:class:`FrameTooLarge`."""
    try:
        payload = msgpack.packb(obj, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise FrameEncodeError(f"cannot encode {type(obj).__name__} as msgpack: {exc}") from exc
    if len(payload) > min(max_size, _ABSOLUTE_MAX):
        raise FrameTooLarge(len(payload), max_size, sending=True)
    return _HEADER.pack(len(payload)) + payload


def decode_payload(payload: bytes, *, expect: tuple[type, ...] | None = (dict,)) -> Any:
    """Decode one frame body with strict limits; *expect* = allowed top-level types (None: any)."""
    limit = max(len(payload), 1)
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        use_list=True,
        ext_hook=_reject_ext,
        timestamp=0,
        max_buffer_size=limit,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
        max_ext_len=limit,
    )
    try:
        unpacker.feed(payload)
        obj = unpacker.unpack()
    except FrameMalformed:
        raise
    except msgpack.OutOfData as exc:
        raise FrameMalformed("frame body ends in the middle of a msgpack object") from exc
    except Exception as exc:  # msgpack raises a zoo: ValueError, TypeError, UnpackValueError, ...
        raise FrameMalformed(f"undecodable msgpack payload ({type(exc).__name__}: {exc})") from exc
    if unpacker.tell() != len(payload):
        raise FrameMalformed(f"{len(payload) - unpacker.tell()} trailing bytes after the msgpack object")
    _check_tree(obj)
    if expect is not None and not isinstance(obj, expect):
        raise FrameWrongType(type(obj), expect)
    return obj


def _check_limit(max_size: int) -> None:
    if not 0 < max_size <= _ABSOLUTE_MAX:
        raise ValueError(f"max_size must be in 1..{_ABSOLUTE_MAX}, got {max_size}")


async def send_frame(stream: trio.abc.SendStream, obj: Any, *, max_size: int = DEFAULT_MAX_FRAME) -> None:
    """Encode *obj* and send it as one frame (a single ``send_all``)."""
    _check_limit(max_size)
    await stream.send_all(encode_frame(obj, max_size=max_size))


async def _recv_exactly(stream: trio.abc.ReceiveStream, n: int, part: str, *, at_boundary: bool) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = await stream.receive_some(min(n - len(buf), _RECV_CHUNK))
        if not chunk:
            if at_boundary and not buf:
                raise PeerClosed()
            raise FrameTruncated(len(buf), n, part)
        buf += chunk
    return bytes(buf)


async def recv_frame(
    stream: trio.abc.ReceiveStream,
    *,
    max_size: int = DEFAULT_MAX_FRAME,
    expect: tuple[type, ...] | None = (dict,),
) -> Any:
    """Receive one frame and return the decoded object.

    Reads exactly one frame and nothing more.  Raises a :class:`FrameError` subclass on
    failure; :class:`PeerClosed` when the peer closed cleanly before a new frame.
    """
    _check_limit(max_size)
    header = await _recv_exactly(stream, HEADER_SIZE, "header", at_boundary=True)
    (length,) = _HEADER.unpack(header)
    if length > max_size:
        raise FrameTooLarge(length, max_size)
    payload = await _recv_exactly(stream, length, "body", at_boundary=False)
    return decode_payload(payload, expect=expect)


class FramedStream:
    """A stream of msgpack frames on top of a :class:`trio.abc.Stream`.

    ``send`` is safe to call from several tasks (a lock keeps frames whole);
    ``receive`` is for one consumer at a time (a second concurrent receiver waits).
    ``async for msg in framed`` yields frames until the peer closes cleanly.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        max_size: int = DEFAULT_MAX_FRAME,
        expect: tuple[type, ...] | None = (dict,),
    ) -> None:
        _check_limit(max_size)
        self.stream = stream
        self.max_size = max_size
        self.expect = expect
        self._send_lock = trio.Lock()
        self._recv_lock = trio.Lock()
        self._buf = bytearray()
        self._eof = False
        self._desync: FrameError | None = None

    async def send(self, obj: Any) -> None:
        """Send *obj* as one frame; frames from concurrent senders never interleave."""
        data = encode_frame(obj, max_size=self.max_size)
        async with self._send_lock:
            await self.stream.send_all(data)

    async def _fill(self, n: int, part: str) -> None:
        while len(self._buf) < n:
            if self._eof:
                raise FrameTruncated(len(self._buf), n, part)
            # (a small frame limit reads in small chunks: a stranger's connection never buffers much past it)
            step = min(_RECV_CHUNK, self.max_size + HEADER_SIZE)
            chunk = await self.stream.receive_some(max(step, n - len(self._buf)))
            if not chunk:
                self._eof = True
                if part == "header" and not self._buf:
                    raise PeerClosed()
                raise FrameTruncated(len(self._buf), n, part)
            self._buf += chunk

    async def receive(self) -> Any:
        """Receive and decode the next frame (see :func:`recv_frame` for the errors)."""
        return decode_payload(await self.receive_payload(), expect=self.expect)

    async def peek_length(self) -> int:
        """The length the next frame announces, read from its header without consuming anything (a reader can
        decide whether it will take a frame that large before a byte of its body is buffered)."""
        async with self._recv_lock:
            if self._desync is not None:
                raise FrameDesync(f"stream unusable after an earlier error: {self._desync}")
            if self._eof and not self._buf:
                raise PeerClosed()
            try:
                await self._fill(HEADER_SIZE, "header")
            except FrameTruncated as exc:
                self._desync = exc
                raise
            return int(_HEADER.unpack_from(self._buf)[0])

    async def receive_payload(self) -> bytes:
        """The next frame's body, not decoded (:func:`decode_payload` decodes it)."""
        async with self._recv_lock:
            if self._desync is not None:
                raise FrameDesync(f"stream unusable after an earlier error: {self._desync}")
            try:
                if self._eof and not self._buf:
                    raise PeerClosed()
                await self._fill(HEADER_SIZE, "header")
                (length,) = _HEADER.unpack_from(self._buf)
                if length > self.max_size:
                    raise FrameTooLarge(length, self.max_size)
                # Clamp reads to the announced (bounded) length: never buffer more than one frame + chunk.
                end = HEADER_SIZE + length
                await self._fill(end, "body")
            except (FrameTooLarge, FrameTruncated) as exc:
                self._desync = exc
                raise
            payload = bytes(self._buf[HEADER_SIZE:end])
            del self._buf[:end]
        return payload

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        while True:
            try:
                yield await self.receive()
            except PeerClosed:
                return

    async def send_eof(self) -> None:
        """Half-close if the underlying stream supports it (``trio.abc.HalfCloseableStream``)."""
        async with self._send_lock:
            send_eof = getattr(self.stream, "send_eof", None)
            if send_eof is None:
                raise TypeError(f"{type(self.stream).__name__} cannot half-close")
            await send_eof()

    async def aclose(self) -> None:
        """Close the underlying stream."""
        await self.stream.aclose()

    async def __aenter__(self) -> FramedStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
