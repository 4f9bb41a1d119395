"""Malformed messages against live peers for a whole game: N honest bot `TablePeer`s and one seated player that
plays honestly while it floods every peer with malformed variants of real messages (tests/support/junk_messages.py:
fields replaced, removed, added, bytes bent, unknown kinds), paced so that a peer that keeps up never has to drop
the connection. Prints per game: messages sent, entries, seconds, whether every honest peer finished normally with
identical logs and a clean audit, and lines of "could not be handled" (an exception the schema let through).

    .venv/bin/python benchmarks/bench_fuzz_net.py [GAMES] [PLAYERS] [ROUND_LIMIT]   (default 3 4 0 = no limit)
    FUZZ_PAUSE=0 ... floods unpaced: connections that cannot keep up are dropped and must be re-dialled
"""

from __future__ import annotations

import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

for sub in ("adversaries", "support"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / sub))
import _net  # noqa: E402
from _net import ZooPeer, net_game  # noqa: E402
from adp2p.p2p.machine import Machine  # noqa: E402
from adp2p.p2p.transport import Mesh  # noqa: E402
from junk_messages import junk  # noqa: E402

BATCH = 16  # messages per batch
PAUSE = float(os.environ.get("FUZZ_PAUSE", "0.005"))  # seconds between batches (0: as fast as the flooder can)


class Flooder(ZooPeer):
    """A seated peer (a 'cheater' only in that nobody requires its outcome) that floods while it plays: a side task
    beside the play loop (the peer's seam `tasks()`), from the game's start at its seat until its game is over."""

    sent = 0

    def tasks(self) -> list[Callable[[], Awaitable[Any]]]:
        return [*super().tasks(), self.flood]

    def playing(self) -> bool:
        """Whether this peer's game is on (the play loop's own test for its end)."""
        m = self.machine
        return m is not None and not (self.ended or m.complete or m.abandoned is not None)

    async def flood(self) -> None:
        while self.machine is None:  # (the seat is known once the game begins)
            await trio.sleep(0.05)
        if self.machine.seat not in self.seeds.cheaters:  # type: ignore[attr-defined]
            return
        rng = random.Random(7)
        assert self.mesh is not None and self.store is not None
        while self.playing():
            last = self.store.entries()[-3:]
            real: list[dict[str, Any]] = [self.lobby.message(), self.net.head_msg()]
            real += [{"k": "get", "from": len(self.store)}]
            real += [{"k": "entry", "raw": e.raw} for e in last]
            gen = junk(rng, real)
            for _ in range(BATCH):  # past ZooPeer's broadcast (it reads the entries it sends)
                await Mesh.broadcast(self.mesh, next(gen))
                Flooder.sent += 1
            await trio.sleep(PAUSE)


async def main(games: int, n: int, round_limit: int | None) -> int:
    _net.GAME_TIMEOUT = 1800.0
    logging.getLogger("adp2p").setLevel(logging.ERROR)  # one warning per malformed message otherwise
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for k in range(games):
            Flooder.sent = 0
            t0 = time.perf_counter()
            g = await net_game(
                Path(d) / str(k), n, 7000 + k, {n - 1: Machine}, round_limit=round_limit, bots="random",
                peer_class=Flooder, abandon_after=30.0,
            )  # fmt: skip
            secs = time.perf_counter() - t0
            logs = g.honest_logs()
            normal = all(
                o is not None and o.audit_ok is True and o.verdict is None and o.abandoned_by is None
                for o in (g.outcomes[i] for i in g.honest)
            )
            unhandled = sum(g.heard(i).count("could not be handled") for i in g.honest)
            same = all(log == logs[0] for log in logs)
            ok = normal and same and unhandled == 0
            failures += not ok
            entries = len(g.peers[g.honest[0]].store or [])
            print(
                f"game {k}: {n} players, {Flooder.sent} malformed messages, {entries} entries, {secs:.1f} s; "
                f"finished normally: {normal}, identical logs: {same}, unhandled: {unhandled}"
            )
    print(f"networked fuzz: {games} games, failures {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    a = [int(x) for x in sys.argv[1:]]
    games, players, limit = (a + [3, 4, 0][len(a) :])[:3]
    raise SystemExit(trio.run(main, games, players, limit or None))
