"""One simulated player, run inside a network namespace by test_discovery_netns.py.

It serves framed hellos on --port, advertises itself over mDNS, browses until it has seen
--expect other players (bounded by --timeout), says hello to each of them over TCP using
adp2p.p2p.framing, prints one JSON line with what it saw, then keeps advertising and
serving until its stdin is closed (so slower peers can still find it) or --linger expires.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import trio
from adp2p.p2p.discovery import PeerSeen, advertise, browse
from adp2p.p2p.framing import FramedStream, FrameError


async def serve(listener: trio.SocketListener, me: dict[str, str]) -> None:
    async def handle(stream: trio.SocketStream) -> None:
        async with FramedStream(stream) as framed:
            try:
                with trio.fail_after(5):
                    msg = await framed.receive()
                    await framed.send({"hello": me["name"], "pk": me["pk"], "you": msg.get("hello")})
            except (FrameError, trio.TooSlowError, trio.BrokenResourceError):
                pass

    await trio.serve_listeners(handle, [listener])


async def say_hello(peer: PeerSeen, me: dict[str, str]) -> dict[str, Any]:
    with trio.fail_after(5):
        stream = await trio.open_tcp_stream(peer.addresses[0], peer.port)
        async with FramedStream(stream) as framed:
            await framed.send({"hello": me["name"]})
            return dict(await framed.receive())


async def wait_stdin_closed() -> None:
    await trio.to_thread.run_sync(sys.stdin.read, abandon_on_cancel=True)


async def main(args: argparse.Namespace) -> int:
    t0 = time.monotonic()
    me = {"name": args.name, "pk": args.fp}
    listener = (await trio.open_tcp_listeners(args.port, host="0.0.0.0"))[0]
    seen: dict[str, PeerSeen] = {}
    first_seen: dict[str, float] = {}
    result: dict[str, Any] = {"name": args.name, "ok": False}
    all_seen = trio.Event()

    async def collect(events: trio.MemoryReceiveChannel) -> None:
        async for ev in events:
            # Our own advertisement shows up too: recognise it by its key fingerprint.
            if isinstance(ev, PeerSeen) and ev.fingerprint != args.fp:
                seen[ev.instance] = ev
                first_seen.setdefault(ev.instance, round(time.monotonic() - t0, 3))
                if len(seen) >= args.expect:
                    all_seen.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(serve, listener, me)
        async with browse(interfaces=args.interface) as events:
            result["browse_started_after"] = round(time.monotonic() - t0, 3)
            nursery.start_soon(collect, events)
            async with advertise(
                args.name,
                args.port,
                args.table,
                args.fp,
                seats=args.seats,
                interfaces=args.interface,
                probe=not args.no_probe,
            ) as ad:
                result["self"] = ad.instance
                result["registered_after"] = round(time.monotonic() - t0, 3)
                with trio.move_on_after(args.timeout):
                    await all_seen.wait()
                result["discovered_after"] = round(time.monotonic() - t0, 3)
                snapshot = list(seen.values())
                result["seen"] = [
                    {
                        "instance": p.instance,
                        "addresses": list(p.addresses),
                        "port": p.port,
                        "txt": dict(p.txt),
                    }
                    for p in snapshot
                ]
                hellos = {}
                for p in snapshot:
                    try:
                        hellos[p.instance] = await say_hello(p, me)
                    except (OSError, FrameError, trio.TooSlowError) as exc:
                        hellos[p.instance] = {"error": repr(exc)}
                result["hellos"] = hellos
                result["first_seen"] = first_seen
                result["ok"] = len(snapshot) >= args.expect
                print(json.dumps(result), flush=True)
                with trio.move_on_after(args.linger):
                    await wait_stdin_closed()
        nursery.cancel_scope.cancel()
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--table", default="lab-table")
    parser.add_argument("--fp", required=True)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--interface", default=None)
    parser.add_argument("--expect", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--linger", type=float, default=30.0)
    parser.add_argument("--no-probe", action="store_true", help="skip the name-conflict probe")
    sys.exit(trio.run(main, parser.parse_args()))
