"""`Machine.displaces` and `refused` evidence judge "its author's own fault" with one function (`Machine.own_fault`,
issue 34): a peer posts `refused` only where every peer's `_refused_entry` takes it. Before, `displaces` called any
evidence whose verdict named its poster a self-accusation, while `refused` looked only at the accused entry's author;
and a peer posted `refused` for evidence judged late on a log whose entry on top of the accused one had since been
set aside. Both made the peer's own `refused` entry fail ("own evidence ... does not verify: ... neither against its
author nor late", seen in the coalition benchmark), and that seat went unnamed at the head."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from _zoo import Table
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.machine import Machine, ProtocolError, Verdict
from adp2p.p2p.peer.evidence import Proofs
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Kind
from test_zoo_results_final import CHEATER, TABLE, evidence, folds

HONEST = 0


@pytest.fixture(scope="module")
def honest() -> tuple[list[Machine], Table]:
    return folds(Table(3, **TABLE).run())


def refused_verifies(m: Machine, raw: bytes) -> bool:
    """Whether `{what: refused, raw}` posted at the head of fold `m` by an honest seat is valid there."""
    try:
        m.snapshot().apply(HONEST, Kind.EVIDENCE, {"what": "refused", "raw": raw}, prev=bytes(32))
    except ProtocolError:
        return False
    return True


def posts_refused(why: str | None) -> bool:
    """Whether a peer that got this reason from `displaces` keeps the evidence for a `refused` post (`_weigh`)."""
    return why is not None and (why.startswith("late") or why.startswith("evidence against its own"))


def test_displaces_calls_evidence_its_authors_fault_exactly_where_refused_names_it(honest: Any) -> None:
    """Every case, on folds before and after the end: `displaces` sends a piece of evidence to a `refused` post iff
    that `refused` entry verifies on the same fold. The case where they disagreed: evidence about another seat's
    entry whose verdict names the poster itself (e.g. the faces it shows convict its own earlier entry). The log
    alone cannot show that; `displaces` keeps it from its seq without a `refused` post that every peer would refuse."""
    ms, t = honest
    end = ms[-1]
    authors = [decode_entry(r).author for r in t.raws]
    s = next(k for k in range(40, end.entries - 5) if authors[k] != CHEATER and CHEATER in authors[k + 1 : k + 3])
    about_other = evidence(t, CHEATER, s, {"what": "entry", "raw": t.raws[s], "reason": "x"})
    cases = [  # (fold, evidence, its verdict on the fold before its seq)
        (ms[s + 3], about_other, Verdict(authors[s], "entry", "a lie")),  # late
        (ms[s + 1], about_other, Verdict(authors[s], "entry", "a lie")),  # timely: takes the seq
        (ms[s + 1], about_other, Verdict(CHEATER, "entry", "its own earlier entry")),  # the one that disagreed
        (end, about_other, Verdict(CHEATER, "entry", "its own earlier entry")),
    ]
    for fold, raw, verdict in cases:
        why = fold.displaces(decode_entry(raw), verdict)
        assert posts_refused(why) == refused_verifies(fold, raw), (fold.entries, verdict, why)
    fold, raw, verdict = cases[2]
    why = fold.displaces(decode_entry(raw), verdict)
    assert why is not None and "names its own poster" in why, why  # still erases nothing


def test_an_ending_entry_is_not_set_aside_by_evidence_about_it_whose_verdict_names_another_seat(honest: Any) -> None:
    """Evidence about the entry that ended the game takes its seq only if it proves *that* entry invalid (its verdict
    names that entry's author); evidence about it whose verdict names another seat (an earlier entry broken under the
    faces it shows) would erase the result for a lie elsewhere: the result is final."""
    ms, t = honest
    end = ms[-1].snapshot()  # the fold up to the end, and the entry after it (the first `secrets`): it holds entry w
    end.apply_entry(decode_entry(t.raws[end.entries]))
    w = end.ended_at
    assert w is not None and end.id_at(w) == decode_entry(t.raws[w]).id
    ender = decode_entry(t.raws[w]).author
    poster = next(p for p in range(3) if p != ender and end.signed_after(p, w) is None)
    other = next(p for p in range(3) if p not in (ender, poster))
    raw = evidence(t, poster, w, {"what": "entry", "raw": t.raws[w], "reason": "x"})
    assert end.displaces(decode_entry(raw), Verdict(ender, "entry", "the ending entry is a lie")) is None
    why = end.displaces(decode_entry(raw), Verdict(other, "entry", "an earlier entry of another seat"))
    assert why is not None and "result is final" in why, why

def test_a_peer_does_not_post_refused_for_evidence_its_log_no_longer_shows_late(honest: Any) -> None:
    """Evidence judged late while the log held the accuser's entry on top of the accused one; then evidence at an
    earlier seq set that entry aside. The log now shows nothing late: the peer drops it instead of posting a
    `refused` entry that fails at every peer (and logging 'own evidence ... does not verify')."""
    ms, t = honest
    authors = [decode_entry(r).author for r in t.raws]
    end = ms[-1]
    s = next(k for k in range(40, end.entries - 5) if authors[k] != CHEATER and CHEATER in authors[k + 1 : k + 3])
    raw = evidence(t, CHEATER, s, {"what": "entry", "raw": t.raws[s], "reason": "held back"})
    late, now = ms[s + 3], ms[s + 1]
    assert posts_refused(late.displaces(decode_entry(raw), Verdict(authors[s], "entry", "a lie")))
    posted: list[dict[str, Any]] = []

    def peer(m: Machine) -> Proofs:
        """The peer's evidence (p2p/peer/evidence.py) alone, on a fold of plain values; what it posts is recorded."""
        m = m.snapshot()
        m.seat = HONEST  # (an observer's fold, seated for the peer's check)
        log = SeatLog(lambda g, s: m)
        log.machine, log.store = m, [None] * m.entries  # type: ignore[assignment]
        book = SimpleNamespace(refused_raws={decode_entry(raw).id: raw})
        p = Proofs(log, book, None, [], ended=lambda: None, **dict.fromkeys(  # type: ignore[arg-type]
            ("me", "take_over", "stop_deciding", "news", "queue", "wire", "timing", "say_verdict", "tell", "who",
             "detail"), None))
        p.post = lambda at, body: posted.append(body) or True  # type: ignore[method-assign]
        return p

    peer(now).post_pending()
    assert posted == [], posted
    peer(late).post_pending()
    assert posted == [{"what": "refused", "raw": raw}] and refused_verifies(late, raw)
