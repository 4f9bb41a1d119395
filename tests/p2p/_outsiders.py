"""Outsiders for the tests and benchmarks that attack a peer from the LAN: signed-in strangers (each its own key, at
the peer's table) that announce a large frame and hold it."""

from __future__ import annotations

import struct

import trio


async def signed_in_outsiders(port: int, count: int, hold: float, held: list[int], table: str = "t") -> None:
    """`count` outsiders sign in at `table` on 127.0.0.1:port (from 127.0.0.2-9, in waves of 16), each announces a
    1,000,000-byte frame, sends all of it but 1,000 bytes and holds it for `hold` seconds; `held[0]` counts those
    that signed in."""
    from adp2p.crypto.identity import SecretIdentity
    from adp2p.p2p.framing import FramedStream
    from adp2p.p2p.handshake import handshake

    async def one(k: int) -> None:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=f"127.0.0.{2 + k % 8}")
        except OSError:
            return
        framed = FramedStream(stream)
        try:
            await handshake(framed, SecretIdentity.generate(), f"outsider{k}", table, timeout=20)
            held[0] += 1
            size = 1_000_000
            await stream.send_all(struct.pack(">I", size) + b"\x81" + b"\x00" * (size - 1001))
            await trio.sleep(hold)
        except Exception:  # refused or closed by the peer: that outsider is done
            pass
        finally:
            await trio.aclose_forcefully(stream)

    async with trio.open_nursery() as nursery:
        for k in range(count):
            nursery.start_soon(one, k)
            if k % 16 == 15:
                await trio.sleep(0.5)  # in waves: handshakes in progress are bounded, live connections less so
