"""Catching up before signing (p2p/peer/catchup.py), alone: the log is a list of plain entries, the fold its seats and
keys, the clock a number; what it does through the peer (ask the table, wait, answer a held abandon, leave) is
recorded. No network, no peer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import trio
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.catchup import CatchingUp
from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.stalls import CatchUp

IDS = [SecretIdentity.generate().public for _ in range(3)]
FPS = [i.fingerprint() for i in IDS]
HEADS = [bytes([i]) * 32 for i in range(1, 6)]  # our log: entry i has id HEADS[i]


class Clock(Patience):
    """The awake clock, set by the test."""

    t = 0.0

    def now(self) -> float:
        return self.t


class Store(list):  # type: ignore[type-arg]
    """Our log, as plain entries."""

    @property
    def head_id(self) -> bytes:
        return self[-1].id


def catching_up(tmp_path: Any) -> tuple[CatchingUp, dict[str, list[Any]], Clock]:
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    log.store = Store(SimpleNamespace(id=h) for h in HEADS)  # type: ignore[assignment]
    log.machine = SimpleNamespace(ids=IDS, n=3, seat=0)  # type: ignore[assignment]
    clock = Clock(10.0)
    did: dict[str, list[Any]] = {"asked": [], "lost": [], "held": []}

    async def ask(msg: dict[str, Any]) -> None:
        did["asked"].append(msg)

    async def wait() -> None:
        await trio.sleep_forever()

    up = CatchingUp(
        log, CatchUp(), clock, Abandonment(clock), cfg=PeerConfig(name="p0", data_dir=tmp_path, abandon_after=10.0,
                                                                   heartbeat=0.01),
        ended=lambda: False, ask=ask, wait=wait, answer_held=did["held"].append,
        lose_contact=lambda: did["lost"].append(True),
    )
    return up, did, clock


async def test_nothing_is_signed_until_the_others_tell_heads_we_agree_with(tmp_path: Any) -> None:
    up, did, _clock = catching_up(tmp_path)
    up.begin()
    assert up.catch_up.active and not await up.gate()
    ask = did["asked"][-1]
    assert ask["k"] == "ask" and ask["seq"] == 5 and ask["id"] == HEADS[-1]
    up.catch_up.told(FPS[1], (5, HEADS[4]), ask["nonce"])
    assert not await up.gate()  # one seat of two answered, and not half a period has passed
    up.catch_up.told(FPS[2], (5, HEADS[4]), ask["nonce"])
    assert await up.gate() and not up.catch_up.active
    assert did["lost"] == []


async def test_a_seat_that_holds_more_is_outvoted_after_half_a_period_and_a_silent_table_is_left(tmp_path: Any) -> None:
    up, did, clock = catching_up(tmp_path)
    up.begin()
    await up.gate()
    nonce = did["asked"][-1]["nonce"]
    up.catch_up.told(FPS[1], (5, HEADS[4]), nonce)
    up.catch_up.told(FPS[2], (7, bytes(32)), nonce)  # it holds entries we lack (or claims to)
    clock.t = 4.9
    assert not await up.gate()
    clock.t = 5.0  # half a period: a strict majority (seat 1 and we) is enough
    assert await up.gate() and did["lost"] == []
    up, did, clock = catching_up(tmp_path)  # nobody answers at all
    up.begin()
    clock.t = 19.9
    assert not await up.gate() and did["lost"] == []
    clock.t = 20.0  # two periods: the table is gone
    assert not await up.gate() and did["lost"] == [True]


def test_a_stall_begins_a_catch_up(tmp_path: Any) -> None:
    up, _did, _clock = catching_up(tmp_path)
    up.catch_up.idle = lambda: up.stall_limit() - 0.1  # type: ignore[method-assign]
    up.note_stall()
    assert not up.catch_up.active
    up.catch_up.idle = lambda: up.stall_limit() + 0.1  # type: ignore[method-assign]
    up.note_stall()
    assert up.catch_up.active and up.stall_limit() == 5.0
