"""Abandonment (p2p/peer/abandon.py), alone: the log is a list of plain entries (real signed ones where a signature is
checked), the fold its seats, keys and names, the clock a number; what it does through the peer (take an entry in,
end the game, tell the player, wake the play loop) is recorded. No network, no peer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.abandon import Abandoning
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import CUT_OFF_ROUNDS, Outcome, PeerConfig
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Kind, encode_body

KEYS = [SecretIdentity.generate() for _ in range(3)]
IDS = [k.public for k in KEYS]
GAME = b"g" * 32


class Store(list):  # type: ignore[type-arg]
    """Our log, as entries."""

    path = "/nowhere/log"

    @property
    def head_id(self) -> bytes:
        return self[-1].id


def entry(seq: int, prev: bytes, author: int, kind: Kind, body: dict[str, Any]) -> bytes:
    return encode_entry(KEYS[author], GAME, seq, prev, author, int(kind), encode_body(body))


def abandoning(tmp_path: Any, *, seat: int = 0, n: int = 3, connected: set[str] | None = None,
               gives_up: bool = True) -> tuple[Abandoning, dict[str, list[Any]], SeatLog]:
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    genesis = decode_entry(entry(0, b"\0" * 32, 0, Kind.GENESIS, {}))
    log.store = Store([genesis])  # type: ignore[assignment]
    log.machine = SimpleNamespace(  # type: ignore[assignment]
        ids=IDS[:n], n=n, seat=seat, game_id=GAME, names=["ann", "bob", "cy"][:n], abandoned=None, left_at=None,
        state=SimpleNamespace(over=False),
    )
    log.gdir = tmp_path
    did: dict[str, list[Any]] = {k: [] for k in ("accepted", "ended", "told", "stopped", "news", "posted", "reopened")}
    outcome = Outcome()
    clock = Patience(10.0)
    mesh = SimpleNamespace(peers=connected if connected is not None else {i.fingerprint() for i in IDS})
    a = Abandoning(
        log, Abandonment(clock), clock, Heads(),
        SimpleNamespace(note_stall=lambda: False, catch_up=SimpleNamespace(active=False)),  # type: ignore[arg-type]
        cfg=PeerConfig(name="p", data_dir=tmp_path, abandon_after=10.0),
        me=lambda: KEYS[seat], gives_up=lambda s: gives_up, weighs_abandon=lambda raw: True,
        accept=lambda raw, **kw: did["accepted"].append((raw, kw)), take_over=lambda e: None,
        send_head=_nothing, wire=lambda: None, mesh=lambda: mesh, nursery=lambda: None, post=did["posted"].append,
        outcome=lambda: outcome, ended=lambda: None, end=lambda what, **kw: did["ended"].append((what, kw)),
        reopen=lambda: did["reopened"].append(True), stop_deciding=lambda: did["stopped"].append(True),
        news=lambda: did["news"].append(True), tell=lambda what, **kw: did["told"].append((what, kw)),
        who=lambda seat, lang=None: f"seat {seat}",
    )
    return a, did, log


async def _nothing() -> None:
    return None


async def test_a_seat_that_may_not_give_up_yet_waits_and_says_so(tmp_path: Any) -> None:
    a, did, _log = abandoning(tmp_path, seat=2)
    await a.abandon(1)  # after one period only seat 0 may give up on seat 1
    assert [w for w, _ in did["told"]] == ["waiting_for"] and did["told"][0][1]["why"] == ""
    assert did["accepted"] == [] and did["ended"] == []


async def test_the_peers_seam_keeps_it_from_giving_up_at_all(tmp_path: Any) -> None:
    a, did, _log = abandoning(tmp_path, seat=2, gives_up=False)
    await a.abandon(1, rounds=3)
    assert all(v == [] for v in did.values())


async def test_alone_it_names_nobody_and_after_enough_periods_leaves(tmp_path: Any) -> None:
    a, did, log = abandoning(tmp_path, seat=0, connected=set())  # nobody connected: no majority behind us
    assert a.no_majority(1)
    await a.abandon(1)
    assert [w for w, _ in did["told"]] == ["waiting_for"] and did["told"][0][1]["why"]  # too few connected
    await a.abandon(1, rounds=CUT_OFF_ROUNDS)
    assert did["accepted"] == [] and [w for w, _ in did["ended"]] == ["lost_contact"]
    assert a._outcome().lost_contact and did["stopped"] and did["news"]
    assert str(log.gdir) in did["ended"][0][1]["resume"]


async def test_with_a_majority_behind_it_the_lowest_other_seat_signs_the_abandon(tmp_path: Any) -> None:
    a, did, log = abandoning(tmp_path, seat=0)
    sent: list[dict[str, Any]] = []

    class Wire:
        async def broadcast(self, msg: dict[str, Any]) -> None:
            sent.append(msg)

    a._wire = lambda: Wire()
    await a.abandon(1)
    (raw, kw), = did["accepted"]
    e = decode_entry(raw)
    assert kw == {"own": True} and e.kind == Kind.ABANDON and e.author == 0 and e.seq == 1
    assert e.prev_hash == log.store.head_id  # type: ignore[union-attr]
    assert sent == [{"k": "entry", "raw": raw}]


def test_an_abandon_in_the_log_ends_the_game_naming_the_silent_seat(tmp_path: Any) -> None:
    a, did, log = abandoning(tmp_path)
    log.machine.abandoned = 1  # type: ignore[union-attr]
    a.abandoned(SimpleNamespace(seq=7, author=0))
    assert a._outcome().abandoned_by == "bob" and did["ended"][0][0] == "abandoned" and did["ended"][0][1]["seq"] == 7
    assert did["stopped"] and did["news"]


def test_an_abandon_over_the_silent_seats_own_entry_is_refused_and_told_once(tmp_path: Any) -> None:
    a, did, log = abandoning(tmp_path)
    store = log.store
    assert store is not None
    own = decode_entry(entry(1, store.head_id, 1, Kind.EVENT, {"ev": {}}))
    store.append(own)  # the seat named answered: its own entry holds seq 1 here
    late = entry(1, store[0].id, 2, Kind.ABANDON, {"silent": 1, "seq": 1})
    assert a.weigh(late) and a.weigh(late)
    assert [w for w, _ in did["told"]] == ["refused_abandon"]
    assert a.abandonment.refused[2][1] == late  # kept: its author may have left on it (rule 7)
    assert did["accepted"] == [] and did["ended"] == [] and did["reopened"] == []
