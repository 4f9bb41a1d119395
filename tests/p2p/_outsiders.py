"""Outsiders for the tests and benchmarks that attack a peer from the LAN: idle connections that hold handshake slots
(`flood`), and signed-in strangers (each its own key, at the peer's table) that announce a large frame and hold it
(`signed_in_outsiders`)."""

from __future__ import annotations

import socket
import struct
import threading
import time

import trio

OUTSIDERS = [f"127.0.0.{k}" for k in range(2, 10)]


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


def flood(
    port: int, stop: threading.Event, held: list[int], count: int = 64, sources: list[str] = OUTSIDERS
) -> None:
    """Keep up to `count` idle connections to 127.0.0.1:port open, from `sources` in turn; `held[0]`: the most
    held at once."""
    socks: list[socket.socket] = []
    k = 0
    while not stop.is_set():
        alive = []
        for s in socks:  # a socket the peer closed reads as EOF: drop it
            try:
                s.setblocking(False)
                gone = s.recv(1, socket.MSG_PEEK) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                s.close()
            else:
                alive.append(s)
        socks = alive
        while len(socks) < count:
            s = socket.socket()
            try:
                s.bind((sources[k % len(sources)], 0))
                s.settimeout(1.0)
                s.connect(("127.0.0.1", port))
            except OSError:
                s.close()
                break
            k += 1
            socks.append(s)
        held[0] = max(held[0], len(socks))
        time.sleep(0.05)
    for s in socks:
        s.close()
