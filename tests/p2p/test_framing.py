"""Tests for adp2p.p2p.framing: round trips, hostile input, stream health after errors."""

from __future__ import annotations

import struct

import msgpack
import pytest
import trio
import trio.testing
from adp2p.p2p.framing import (
    DEFAULT_MAX_FRAME,
    FrameDesync,
    FramedStream,
    FrameEncodeError,
    FrameError,
    FrameMalformed,
    FrameTooLarge,
    FrameTruncated,
    FrameWrongType,
    PeerClosed,
    decode_payload,
    encode_frame,
    recv_frame,
    send_frame,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MSG = {"type": "hello", "seat": 3, "nonce": b"\x00\xff" * 8, "names": ["ann", "bob"], "opt": None}


def raw_frame(payload: bytes, length: int | None = None) -> bytes:
    return struct.pack(">I", len(payload) if length is None else length) + payload


async def test_round_trip_memory_functions() -> None:
    a, b = trio.testing.memory_stream_pair()
    with trio.fail_after(5):
        await send_frame(a, MSG)
        await send_frame(a, {"n": 2})
        assert await recv_frame(b) == MSG
        assert await recv_frame(b) == {"n": 2}


async def test_round_trip_memory_framed_both_directions() -> None:
    a, b = trio.testing.memory_stream_pair()
    fa, fb = FramedStream(a), FramedStream(b)
    with trio.fail_after(5):
        for i in range(20):
            await fa.send({"i": i, "blob": bytes(range(i))})
        for i in range(20):
            assert await fb.receive() == {"i": i, "blob": bytes(range(i))}
        await fb.send(MSG)
        assert await fa.receive() == MSG


async def test_str_stays_str_and_bytes_stay_bytes() -> None:
    a, b = trio.testing.memory_stream_pair()
    with trio.fail_after(5):
        await send_frame(a, {"s": "héllo", "b": b"h\xc3\xa9llo", b"k": 1})
        got = await recv_frame(b)
    assert got == {"s": "héllo", "b": b"h\xc3\xa9llo", b"k": 1}
    assert isinstance(got["s"], str) and isinstance(got["b"], bytes)


async def test_concurrent_senders_never_interleave() -> None:
    a, b = trio.testing.memory_stream_pair()
    fa, fb = FramedStream(a), FramedStream(b)
    big = b"x" * 50_000
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            for who in range(5):

                async def sender(who: int = who) -> None:
                    for i in range(10):
                        await fa.send({"who": who, "i": i, "pad": big})

                nursery.start_soon(sender)
            seen: dict[int, list[int]] = {w: [] for w in range(5)}
            for _ in range(50):
                msg = await fb.receive()
                assert msg["pad"] == big
                seen[msg["who"]].append(msg["i"])
    assert all(v == list(range(10)) for v in seen.values())


async def test_round_trip_loopback_tcp() -> None:
    received: list[object] = []
    big = {"blob": b"\xab" * (DEFAULT_MAX_FRAME - 64)}
    with trio.fail_after(10):
        listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
        port = listener.socket.getsockname()[1]

        async def server() -> None:
            stream = await listener.accept()
            async with FramedStream(stream) as framed:
                async for msg in framed:
                    received.append(msg)
                    await framed.send({"echo": msg})

        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            client_stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with FramedStream(client_stream) as client:
                for msg in (MSG, big, {"last": True}):
                    await client.send(msg)
                    assert await client.receive() == {"echo": msg}
                await client.send_eof()
                with pytest.raises(PeerClosed):
                    await client.receive()
        await listener.aclose()
    assert received == [MSG, big, {"last": True}]


async def test_loopback_tcp_garbage_does_not_hurt_server() -> None:
    """A client sending garbage gets its connection dropped; the next client is served."""
    errors: list[FrameError] = []
    with trio.fail_after(10):
        listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
        port = listener.socket.getsockname()[1]

        async def handle_one() -> None:
            stream = await listener.accept()
            async with FramedStream(stream) as framed:
                try:
                    msg = await framed.receive()
                    await framed.send({"ok": msg})
                except FrameError as exc:
                    errors.append(exc)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(handle_one)
            bad = await trio.open_tcp_stream("127.0.0.1", port)
            await bad.send_all(struct.pack(">I", 0xFFFFFFFF) + b"junk")
            assert await bad.receive_some(10) == b""  # server closed on us
            await bad.aclose()
        assert isinstance(errors[0], FrameTooLarge)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(handle_one)
            good = FramedStream(await trio.open_tcp_stream("127.0.0.1", port))
            await good.send({"hi": 1})
            assert await good.receive() == {"ok": {"hi": 1}}
            await good.aclose()
        await listener.aclose()


async def test_oversized_rejected_before_reading_body() -> None:
    a, b = trio.testing.memory_stream_pair()
    # Announce 2 MiB but send only the header: an implementation that reads the body first would hang.
    await a.send_all(struct.pack(">I", 2 * DEFAULT_MAX_FRAME))
    framed = FramedStream(b)
    with trio.fail_after(2), pytest.raises(FrameTooLarge, match="over the limit"):
        await framed.receive()
    # The stream is now out of sync: further receives refuse clearly.
    with trio.fail_after(2), pytest.raises(FrameDesync):
        await framed.receive()
    # The other direction still works.
    await framed.send({"bye": True})
    with trio.fail_after(2):
        assert await recv_frame(a) == {"bye": True}


async def test_oversized_function_api_and_custom_limit() -> None:
    a, b = trio.testing.memory_stream_pair()
    await send_frame(a, {"blob": b"x" * 200})
    with trio.fail_after(2), pytest.raises(FrameTooLarge) as info:
        await recv_frame(b, max_size=100)
    assert info.value.limit == 100 and info.value.size > 100


def test_oversized_send_refused() -> None:
    with pytest.raises(FrameTooLarge, match="outgoing"):
        encode_frame({"blob": b"x" * 200}, max_size=100)
    with pytest.raises(ValueError):
        FramedStream(trio.testing.memory_stream_pair()[0], max_size=0)


def test_unencodable_send_refused() -> None:
    with pytest.raises(FrameEncodeError):
        encode_frame({"x": object()})


@pytest.mark.parametrize("mode", ["functions", "framed"])
@pytest.mark.parametrize(
    "cut",
    [2, 4, 10],  # mid-header, right after header, mid-body
)
async def test_truncated_frame(mode: str, cut: int) -> None:
    a, b = trio.testing.memory_stream_pair()
    data = encode_frame(MSG)
    await a.send_all(data[:cut])
    await a.aclose()
    with trio.fail_after(2), pytest.raises(FrameTruncated, match="mid-frame"):
        if mode == "functions":
            await recv_frame(b)
        else:
            await FramedStream(b).receive()


async def test_clean_close_is_peer_closed_and_iteration_stops() -> None:
    a, b = trio.testing.memory_stream_pair()
    await send_frame(a, {"one": 1})
    await a.aclose()
    framed = FramedStream(b)
    with trio.fail_after(2):
        assert [m async for m in framed] == [{"one": 1}]
        with pytest.raises(PeerClosed):
            await framed.receive()
    a2, b2 = trio.testing.memory_stream_pair()
    await a2.aclose()
    with trio.fail_after(2), pytest.raises(PeerClosed):
        await recv_frame(b2)


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",  # never-used msgpack byte
        b"\x92\x01",  # array of 2, only 1 element
        b"\x81\x01\x02",  # int map key: strict_map_key
        b"\xd4\x05\x00",  # fixext 1, type 5
        b"\xd6\xff\x00\x00\x00\x00",  # timestamp ext (-1)
        b"\xa2\xff\xfe",  # invalid utf-8 in str
        b"\x80\x80",  # trailing data after a complete object
        b"\xdd\xff\xff\xff\xff",  # array32 claiming 4 G entries
        b"",  # empty body
    ],
)
async def test_malformed_rejected_and_stream_stays_in_sync(payload: bytes) -> None:
    a, b = trio.testing.memory_stream_pair()
    await a.send_all(raw_frame(payload))
    await send_frame(a, {"after": True})
    framed = FramedStream(b)
    with trio.fail_after(2):
        with pytest.raises(FrameMalformed):
            await framed.receive()
        assert await framed.receive() == {"after": True}


@pytest.mark.parametrize("obj", [[1, 2], 7, "str", b"bytes", None, 1.5])
async def test_wrong_top_level_type(obj: object) -> None:
    a, b = trio.testing.memory_stream_pair()
    await a.send_all(raw_frame(msgpack.packb(obj, use_bin_type=True)))
    await send_frame(a, {"after": True})
    with trio.fail_after(2):
        with pytest.raises(FrameWrongType, match="expected dict"):
            await recv_frame(b)
        assert await recv_frame(b) == {"after": True}


async def test_expect_none_accepts_any_top_level() -> None:
    a, b = trio.testing.memory_stream_pair()
    await send_frame(a, [1, "x"])
    with trio.fail_after(2):
        assert await recv_frame(b, expect=None) == [1, "x"]


def test_too_deep_nesting_rejected() -> None:
    obj: object = 1
    for _ in range(100):
        obj = [obj]
    with pytest.raises(FrameMalformed):
        decode_payload(msgpack.packb({"deep": obj}))


def test_errors_are_frame_errors() -> None:
    for cls in (FrameTooLarge, FrameTruncated, PeerClosed, FrameMalformed, FrameWrongType, FrameDesync):
        assert issubclass(cls, FrameError)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.binary(max_size=64)
    | st.text(max_size=32)
)
trees = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.text(max_size=12) | st.binary(max_size=12), children, max_size=6)
    ),
    max_leaves=40,
)
messages = st.dictionaries(st.text(max_size=12), trees, max_size=8)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(msgs=st.lists(messages, min_size=1, max_size=4), chunk=st.integers(min_value=1, max_value=64))
def test_hypothesis_round_trip(msgs: list[dict], chunk: int) -> None:
    """Nested ints/bytes/str/lists/maps survive, even when the bytes arrive in small chunks."""

    async def main() -> None:
        a, b = trio.testing.memory_stream_pair()
        wire = b"".join(encode_frame(m) for m in msgs)
        for i in range(0, len(wire), chunk):
            await a.send_all(wire[i : i + chunk])
        await a.aclose()
        framed = FramedStream(b)
        with trio.fail_after(5):
            got = [m async for m in framed]
        assert got == msgs

        c, d = trio.testing.memory_stream_pair()
        for m in msgs:
            await send_frame(c, m)
        with trio.fail_after(5):
            assert [await recv_frame(d) for _ in msgs] == msgs

    trio.run(main)
