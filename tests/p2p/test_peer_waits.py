"""How long a peer waits for a silent seat before giving up on it (`TablePeer._wait_awake`): only time this
process was running counts, so a peer that was stalled (a busy machine, SIGSTOP) and wakes up does not give up at
once on a seat whose entries still wait in its buffers (before: it named that honest seat as the abandoner)."""

from __future__ import annotations

import time
from pathlib import Path

import trio
from adp2p.engine.bots import make_bot
from adp2p.p2p.peer import PeerConfig, TablePeer


def peer(tmp_path: Path) -> TablePeer:
    return TablePeer(PeerConfig(name="a", data_dir=tmp_path), make_bot("random", 1), say=lambda _: None)


async def test_a_stall_does_not_count_as_waiting(tmp_path: Path) -> None:
    p = peer(tmp_path)
    got: list[bool] = []

    async def wait() -> None:
        got.append(await p._wait_awake(1.0))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait)
        await trio.sleep(0.1)
        time.sleep(3.0)  # the whole process stalls for three times the period
        await trio.sleep(0.3)  # awake again: what was buffered arrives
        p.progress.set()
    assert got == [True]


async def test_silence_while_awake_ends_the_wait(tmp_path: Path) -> None:
    p = peer(tmp_path)
    t0 = trio.current_time()
    assert await p._wait_awake(0.5) is False
    assert trio.current_time() - t0 >= 0.5
