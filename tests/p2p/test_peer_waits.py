"""How long a peer waits for a silent seat before giving up on it (`Net.wait_awake`): only time this
process was running counts, so a peer that was stalled (a busy machine, SIGSTOP) and wakes up does not give up at
once on a seat whose entries still wait in its buffers (before: it named that honest seat as the abandoner)."""

from __future__ import annotations

import time
from pathlib import Path

import trio
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.peer import PeerConfig, TablePeer


def peer(tmp_path: Path) -> TablePeer:
    return TablePeer(PeerConfig(name="a", data_dir=tmp_path), make_bot("random", 1), say=lambda _: None)


async def test_a_stall_does_not_count_as_waiting(tmp_path: Path) -> None:
    p = peer(tmp_path)
    got: list[bool] = []

    async def wait() -> None:
        got.append(await p.net.wait_awake(1.0))

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
    assert await p.net.wait_awake(0.5) is False
    assert trio.current_time() - t0 >= 0.5


# -- patience per decision (p2p/peer/patience.py) ------------------------------------------------------------------


def test_a_decisions_clock_is_set_once_and_nothing_but_a_new_decision_moves_it() -> None:
    """A decision (seq, prev, j) becomes due once: asking again (a message came, an entry ahead of the log, a token
    on another branch) never restarts it; the next decision at the same seq has its own clock; a later seq forgets
    the earlier ones (bounded)."""
    from adp2p.p2p.peer.patience import Patience

    p = Patience(1.0)
    prev = bytes(32)
    first = p.due(5, prev, 0)
    time.sleep(0.2)
    p.now()
    assert p.due(5, prev, 0) == first and p.waited(5, prev, 0) >= 0.15
    second = p.due(5, prev, 1)
    assert second > first and p.waited(5, prev, 1) < p.waited(5, prev, 0)
    assert p.known(5, prev, 0) and not p.known(5, b"\x01" * 32, 0)
    p.due(6, prev, 0)
    assert not p.known(5, prev, 0) and not p.known(5, prev, 1)


def test_a_stall_is_no_patience_spent() -> None:
    """Time the process was not running counts as two clock steps at most, so a peer that wakes up does not give up
    at once on a seat whose answer waits in its buffers."""
    from adp2p.p2p.peer.patience import Patience

    p = Patience(2.0)  # a step of 0.25 s
    p.due(1, bytes(32), 0)
    time.sleep(1.5)  # stopped for most of a period
    assert p.waited(1, bytes(32), 0) <= 2 * p.step + 0.05
    assert p.rounds(1, bytes(32), 0, 4) == 0
    assert Patience(0.0).rounds(1, bytes(32), 0, 4) == 4  # no patience at all: every seat may give up at once
