"""The peer's evidence (p2p/peer/evidence.py), alone: the log is a list of plain entries (real signed ones where one is
decoded), the fold its seat and history; what it does through the peer (cancel a decision, wake the play loop, send,
tell the player) is recorded. No network, no peer. (What evidence proves is the fold's: tests/p2p/machine/.)"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.evidence import Proofs
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Kind, encode_body

KEYS = [SecretIdentity.generate() for _ in range(3)]
GAME = b"g" * 32


def entry(seq: int, prev: bytes, author: int, kind: Kind, body: dict[str, Any]) -> bytes:
    return encode_entry(KEYS[author], GAME, seq, prev, author, int(kind), encode_body(body))


class Store(list):  # type: ignore[type-arg]
    """Our log, as entries: what evidence sets aside goes to `gone`."""

    path = "/nowhere/log"

    def __init__(self, raws: list[bytes]) -> None:
        super().__init__(decode_entry(r) for r in raws)
        self.gone: list[Any] = []

    @property
    def head_id(self) -> bytes:
        return self[-1].id

    def supersede(self, at: int) -> list[Any]:
        gone, self[at:] = self[at:], []
        self.gone += gone
        return gone

    def append(self, raw: Any) -> None:  # type: ignore[override]
        super().append(decode_entry(raw))


class Wire:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        self.sent.append(msg)
        return []


def proofs(seat: int = 0) -> tuple[Proofs, dict[str, list[Any]], SeatLog, Wire]:
    raws = [entry(0, b"\0" * 32, 0, Kind.GENESIS, {})]
    for i in (1, 2, 3):
        raws.append(entry(i, decode_entry(raws[-1]).id, i % 3, Kind.EVENT, {"ev": {}}))
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    log.store = Store(raws)  # type: ignore[assignment]
    log.machine = SimpleNamespace(seat=seat, state=SimpleNamespace(history=list(range(9))))  # type: ignore[assignment]
    did: dict[str, list[Any]] = {k: [] for k in ("told", "stopped", "news", "queued", "timing", "verdict")}
    wire = Wire()
    p = Proofs(
        log, EvidenceBook(), SimpleNamespace(shown=9), [],  # type: ignore[arg-type]
        me=lambda: KEYS[seat], ended=lambda: None, take_over=lambda e: None,
        stop_deciding=lambda: did["stopped"].append(True), news=lambda: did["news"].append(True),
        queue=did["queued"].append, wire=lambda: wire, timing=lambda *f: did["timing"].append(f),
        say_verdict=lambda: did["verdict"].append(True), tell=lambda what, **kw: did["told"].append((what, kw)),
        who=lambda seat, lang=None: f"seat {seat}", detail=str,
    )
    return p, did, log, wire


async def test_both_entries_of_an_equivocation_are_shown_to_every_peer() -> None:
    p, _did, _log, wire = proofs()
    p.to_share.append((b"a", b"b"))
    await p.share()
    assert wire.sent == [{"k": "entry", "raw": b"a"}, {"k": "entry", "raw": b"b"}] and p.to_share == []


def test_no_evidence_is_posted_over_our_own_entry() -> None:
    p, did, log, _wire = proofs(seat=1)  # seat 1 wrote entry 1
    assert not p.post(1, {"what": "entry"})
    assert len(log.store) == 4 and did["queued"] == []  # type: ignore[arg-type]


def test_adopted_evidence_sets_our_tail_aside_and_takes_the_fold() -> None:
    p, did, log, _wire = proofs()
    store = log.store
    assert store is not None
    old = [e.id for e in store[2:]]
    log.arrivals.hold(5, SimpleNamespace(raw=b"ahead"))  # type: ignore[arg-type]
    raw = entry(2, store[1].id, 0, Kind.EVIDENCE, {"what": "entry"})
    trial = SimpleNamespace(state=SimpleNamespace(history=list(range(4))))
    p.adopt(2, raw, trial, SimpleNamespace())  # type: ignore[arg-type]
    assert [e.raw for e in store[2:]] == [raw] and log.machine is trial
    assert log.superseded == set(old) and log.arrivals.take(5) is None
    assert p.narrator.shown == 4  # what the player saw of the fold left behind is shown again from there
    assert [w for w, _ in did["told"]] == ["set_aside"] and did["told"][0][1]["n"] == 2
    assert did["stopped"] and did["news"] and did["verdict"] and did["timing"] == [(2, int(Kind.EVIDENCE), 0)]


def test_an_entry_that_is_not_evidence_over_one_that_is_not_either_is_not_weighed_here() -> None:
    p, did, log, _wire = proofs()
    store = log.store
    assert store is not None
    other = entry(2, store[1].id, 2, Kind.EVENT, {"ev": {"x": 1}})
    assert not p.weigh(other)
    assert len(store) == 4 and did["told"] == [] and did["queued"] == []
