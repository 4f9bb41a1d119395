"""Benchmark of adp2p.p2p.framing (a script, not a test).

Run: .venv/bin/python benchmarks/bench_framing.py

For a small protocol-like message (~100 B), a medium one (~4 KiB) and a large one (~256 KiB),
prints frames/s and MB/s of a one-way stream of frames, through FramedStream (buffered reads)
and through the stateless send_frame/recv_frame (exact reads), over an in-memory stream pair
and over a loopback TCP connection (127.0.0.1 only).  Each run is bounded in count and time.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import trio
import trio.testing
from adp2p.p2p.framing import FramedStream, encode_frame, recv_frame, send_frame

MESSAGES: dict[str, dict[str, Any]] = {
    "small": {"type": "play", "seat": 2, "card": 17, "sig": b"\x01" * 64},
    "medium": {"type": "shuffle", "proof": [b"\x02" * 32] * 120},
    "large": {"type": "deck", "cards": [b"\x03" * 64] * 4000},
}
BUDGET_S = 1.5  # per measurement, upper bound
MAX_FRAMES = 50_000


async def tcp_pair() -> tuple[trio.abc.Stream, trio.abc.Stream]:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    client = await trio.open_tcp_stream("127.0.0.1", port)
    server = await listener.accept()
    await listener.aclose()
    return client, server


async def memory_pair() -> tuple[trio.abc.Stream, trio.abc.Stream]:
    return trio.testing.memory_stream_pair()


async def measure(
    make_pair: Callable[[], Awaitable[tuple[trio.abc.Stream, trio.abc.Stream]]],
    msg: dict[str, Any],
    framed: bool,
) -> tuple[int, float]:
    a, b = await make_pair()
    count = 0
    start = time.perf_counter()
    deadline = start + BUDGET_S
    # The sender decides how many frames there are; the receiver just counts them.
    async with trio.open_nursery() as nursery:
        n_sent = 0

        async def sender() -> None:
            nonlocal n_sent
            fa = FramedStream(a)
            while n_sent < MAX_FRAMES and time.perf_counter() < deadline:
                if framed:
                    await fa.send(msg)
                else:
                    await send_frame(a, msg)
                n_sent += 1
            await fa.send({"end": True})

        nursery.start_soon(sender)
        fb = FramedStream(b)
        while True:
            got = await fb.receive() if framed else await recv_frame(b)
            if "end" in got:
                break
            count += 1
    elapsed = time.perf_counter() - start
    await a.aclose()
    await b.aclose()
    return count, elapsed


async def main() -> None:
    print(f"{'message':8} {'bytes':>8} {'transport':9} {'api':10} {'frames/s':>10} {'MB/s':>8}")
    for label, msg in MESSAGES.items():
        size = len(encode_frame(msg))
        for transport, make_pair in (("memory", memory_pair), ("tcp", tcp_pair)):
            for framed in (True, False):
                with trio.fail_after(BUDGET_S * 10):
                    count, elapsed = await measure(make_pair, msg, framed)
                rate = count / elapsed
                api = "Framed" if framed else "functions"
                print(f"{label:8} {size:8d} {transport:9} {api:10} {rate:10.0f} {rate * size / 1e6:8.1f}")


if __name__ == "__main__":
    trio.run(main)
