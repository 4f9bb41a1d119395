"""Intake alone (p2p/peer/intake.py): entries coming in, on a real signed log on disk (p2p/logstore.py) with a fold of
plain values (it records what it was handed, and names an entry whose body says so); evidence, abandons, the table's
branch and the peer's callbacks are recorders. No network, no peer, no game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from adp2p.crypto.entries import GENESIS_PREV, decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.logstore import LogStore
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.intake import Intake
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.pipeline import Arrival, frame
from adp2p.p2p.protocol import Kind, ProtocolError, encode_body

KEYS = [SecretIdentity.from_seeds(bytes([i]) * 32, bytes([i + 50]) * 32) for i in range(3)]
IDS = [k.public for k in KEYS]
GAME = bytes(range(16))
ME = 0


class Fold:
    """The fold as plain values: our seat, the roster; what it folded; an entry whose body holds "bad" breaks a rule."""

    def __init__(self, folded: list[Arrival] | None = None) -> None:
        self.seat, self.n, self.ids, self.game_id, self.names = ME, 3, IDS, GAME, ["a", "b", "c"]
        self.folded = list(folded or [])
        self.evidence_seen: list[Any] = []
        self.abandoned = self.verdict = self.ended_at = None

    def fold(self, a: Arrival) -> None:
        if a.body is not None and a.body.get("bad"):
            raise ProtocolError(a.author, "a bad entry", rule="entry")
        self.folded.append(a)

    def snapshot(self) -> Fold:
        return Fold(self.folded)

    def evidence_for_entry(self, raw: bytes, exc: Any) -> dict[str, Any]:
        return {"what": "entry", "raw": raw}


class Folds:
    """Refolds as plain values: a fold of the log before a seq is a fold that saw nothing."""

    def fold(self, at: int, entries: Any, current: Any = None) -> Fold:
        return Fold()

    def after_append(self, length: int, m: Any) -> None: ...

    def before(self, seq: int, m: Any) -> None: ...

    def cut(self, at: int) -> None: ...


class Recorder:
    """Any call, recorded by name; `answer` what each returns."""

    def __init__(self, **answer: Any) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.answer = answer

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any, **_kw: Any) -> Any:
            self.calls.append((name, args))
            return self.answer.get(name)

        return call


def sign(seq: int, prev: bytes, author: int, body: dict[str, Any], kind: Kind = Kind.EVENT) -> bytes:
    return encode_entry(KEYS[author], GAME, seq, prev, author, int(kind), encode_body(body))


@pytest.fixture
def table(tmp_path: Path) -> Any:
    """Intake over our log holding the genesis, and what it did through its collaborators."""
    log = SeatLog(lambda g, s: Fold())  # type: ignore[arg-type,return-value]
    log.store = LogStore.open(tmp_path / "log", IDS, GAME)
    log.store.append(sign(0, GENESIS_PREV, 0, {}, Kind.GENESIS))
    log.machine = Fold()  # type: ignore[assignment]
    log.folds = Folds()  # type: ignore[assignment]
    log.secrets = object()  # type: ignore[assignment]  (not read: the folds are plain)
    said: list[str] = []
    did: dict[str, list[Any]] = {"taken": [], "news": [], "queued": [], "verdict": []}
    keep = {"own": True}
    proofs, abandoning, protest = Recorder(post=True, weigh=False), Recorder(weigh=False), Recorder()
    shared: list[tuple[bytes, bytes]] = []
    intake = Intake(
        log, EvidenceBook(), Abandonment(Patience(30.0)), Narrator("en", said.append), proofs, abandoning, protest,
        cfg=PeerConfig(name="a", data_dir=tmp_path), to_share=shared,
        keeps_own_entry=lambda raw: keep["own"],
        entry_taken=lambda raw, **k: did["taken"].append((raw, k)), ended=lambda: None,
        end_verdict=lambda text, said: did["verdict"].append(text), stop_deciding=lambda: None,
        news=lambda: did["news"].append(1), queue=did["queued"].append, timing=lambda *f: None,
    )
    yield intake, log, did, keep, proofs, abandoning, protest, said, shared
    log.store.close()


def test_an_entry_at_the_next_seq_is_checked_folded_once_and_written(table: Any) -> None:
    intake, log, did, *_ = table
    raw = sign(1, log.store.head_id, 1, {"ev": {"t": "pass"}})
    intake.take(frame(raw), sender="b")
    assert len(log.store) == 2 and log.store[1].raw == raw
    [a] = log.machine.folded
    assert a.raw == raw and a.body == {"ev": {"t": "pass"}}  # the arrival the fold got: its body decoded
    assert did["taken"] == [(raw, {"own": False, "appended": True})] and did["news"]
    intake.take(frame(raw), sender="b")  # the same entry again: a duplicate, nothing folded
    assert len(log.machine.folded) == 1 and len(did["taken"]) == 2 and did["taken"][1][1]["appended"] is False


def test_our_own_entry_goes_in_only_if_the_peer_keeps_it(table: Any) -> None:
    intake, log, did, keep, *_ = table
    raw = sign(1, log.store.head_id, ME, {"ev": {}})
    keep["own"] = False  # (a cheater holding back a lie its own fold rejects)
    intake.accept(frame(raw), own=True)
    assert len(log.store) == 1 and did["taken"] == [(raw, {"own": True, "appended": False})]
    keep["own"] = True
    intake.accept(frame(raw), own=True)
    assert len(log.store) == 2 and did["taken"][-1] == (raw, {"own": True, "appended": True})


def test_an_entry_that_breaks_a_rule_is_answered_with_evidence_in_its_place(table: Any) -> None:
    intake, log, did, _keep, proofs, _ab, protest, said, _sh = table
    raw = sign(1, log.store.head_id, 2, {"bad": True})
    intake.take(frame(raw), sender="c")
    assert len(log.store) == 1  # never written
    assert ("post", (1, {"what": "entry", "raw": raw})) in proofs.calls
    assert protest.calls == [("rejected", (raw,))]
    assert any("broke the rules" in s for s in said) and not did["verdict"]


def test_two_entries_one_seat_signed_for_one_seq_are_an_equivocation_shown_and_posted(table: Any) -> None:
    intake, log, _did, _keep, proofs, _ab, _pr, said, shared = table
    prev = log.store.head_id
    a, b = sign(1, prev, 1, {"ev": 1}), sign(1, prev, 1, {"ev": 2})
    intake.take(frame(a))
    intake.accept(frame(b), sender="b")
    assert shared == [(a, b)] and len(log.store) == 2 and log.store[1].raw == a
    assert [c for c in proofs.calls if c[0] == "post"] == [("post", (1, {"what": "equivocation", "a": a, "b": b}))]
    assert any("signed two different entries" in s for s in said)


def test_entries_held_ahead_are_taken_in_order_and_an_abandon_from_another_seat_is_held(table: Any) -> None:
    intake, log, _did, _keep, _pr, abandoning, *_ = table
    one = sign(1, log.store.head_id, 1, {"ev": {}})
    two = sign(2, decode_entry(one).id, 2, {"ev": {}})
    log.arrivals.hold(2, frame(two))
    log.arrivals.hold(1, frame(one))
    intake.drain()
    assert [e.raw for e in log.store.since(1)] == [one, two] and not len(log.arrivals)
    gone = sign(3, decode_entry(two).id, 1, {"silent": 2, "seq": 3}, Kind.ABANDON)
    intake.take(frame(gone), sender="b")
    assert abandoning.calls == [("hold", (gone, "b"))] and len(log.store) == 3  # weighed by our own clock first
