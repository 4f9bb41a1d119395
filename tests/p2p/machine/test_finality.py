"""`Finality` (p2p/machine/finality.py) alone, on a plain log state: what it records of each entry (who signed what on
which entry, where the game ended) and the judgements it makes from that record alone (evidence that is its own
author's fault, the precedence of evidence at a seq already held, the seats named, the result that stands). Real
signed entries, no machine, no game: the fold is a few plain values."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.crypto.entries import Entry, decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.machine.common import AuditReport, Verdict
from adp2p.p2p.machine.finality import Finality
from adp2p.p2p.protocol import Kind, encode_body

GAME = bytes(range(16))
SEATS = [SecretIdentity.generate() for _ in range(3)]


def _entry(seq: int, prev: bytes, author: int, kind: Kind, body: dict[str, Any]) -> Entry:
    return decode_entry(encode_entry(SEATS[author], GAME, seq, prev, author, int(kind), encode_body(body)))


def _log(authors: list[int], tokens: list[int], over_at: int | None) -> tuple[Finality, Any, list[Entry]]:
    """Entries 1..k by `authors` (each carrying the pass tokens of the seats in `tokens`), recorded as the fold applies
    them; the game over from seq `over_at` on."""
    fold = SimpleNamespace(entries=1, state=SimpleNamespace(over=False, winners=[]), game_id=GAME,
                           evidence_seen=[], verdict=None, audit_report=None)
    fin, entries, prev = Finality(), [], bytes(32)
    for seq, (author, mask) in enumerate(zip(authors, tokens, strict=True), 1):
        e = _entry(seq, prev, author, Kind.EVENT, {"ev": {"t": "x", "n": seq}})
        fold.state.over = over_at is not None and seq >= over_at
        fold.entries += 1  # (the fold counts the entry, then Finality records it: Machine.apply)
        fin.record(fold, author, prev, mask)
        entries.append(e)
        prev = e.id
    return fin, fold, entries


def test_the_record_says_who_signed_what_where_and_where_the_game_ended() -> None:
    fin, fold, es = _log([0, 1, 2, 0, 1], [0, 0b100, 0, 0, 0b001], over_at=4)
    assert fin.ended_at == 4  # the first entry after which the game was over
    assert [fin.prev_at(fold, s) for s in range(1, 6)] == [bytes(32)] + [e.id for e in es[:4]]
    assert fin.id_at(fold, 2) == es[1].id and fin.id_at(fold, 5) is None  # (known once an entry builds on it)
    assert fin.prev_at(fold, 0) is None and fin.prev_at(fold, 6) is None
    assert fin.signed_after(fold, 2, 1) == 2  # seat 3's pass token rides on entry 2
    assert fin.signed_after(fold, 2, 2) == 3 and fin.signed_after(fold, 2, 3) is None
    assert fin.signed_after(fold, 0, 3) == 4 and fin.signed_after(fold, 0, 4) == 5  # a token in entry 5


def test_evidence_against_its_own_author_or_held_back_is_its_author_s_fault() -> None:
    fin, fold, es = _log([0, 1, 2, 0], [0, 0, 0, 0], over_at=None)
    own = _entry(2, es[0].id, 1, Kind.EVIDENCE, {"what": "entry", "raw": encode_entry(
        SEATS[1], GAME, 2, es[0].id, 1, int(Kind.EVENT), encode_body({"ev": {}}))})
    assert fin.own_fault(fold, own)[0] == "self_accusation"  # type: ignore[index]
    accused = encode_entry(SEATS[1], GAME, 2, es[0].id, 1, int(Kind.EVENT), encode_body({"ev": {"t": "x", "n": 2}}))
    assert decode_entry(accused).id == es[1].id  # the very entry the log holds at seq 2
    late = _entry(2, es[0].id, 2, Kind.EVIDENCE, {"what": "entry", "raw": accused})  # seat 3 signed entry 3 on it
    rule, why = fin.own_fault(fold, late)  # type: ignore[misc]
    assert rule == "late_evidence" and "entry 3" in why
    also_late = _entry(2, es[0].id, 0, Kind.EVIDENCE, {"what": "entry", "raw": accused})  # seat 1 signed entry 4
    assert fin.own_fault(fold, _entry(2, es[0].id, 0, Kind.EVIDENCE, {"what": "other"})) is None
    assert fin.own_fault(fold, also_late)[0] == "late_evidence"  # type: ignore[index]
    fresh, fold2, es2 = _log([0, 1], [0, 0], over_at=None)  # nobody built on entry 2 yet: in time
    accused2 = encode_entry(SEATS[1], GAME, 2, es2[0].id, 1, int(Kind.EVENT), encode_body({"ev": {"t": "x", "n": 2}}))
    assert fresh.own_fault(fold2, _entry(2, es2[0].id, 0, Kind.EVIDENCE, {"what": "entry", "raw": accused2})) is None


def test_no_evidence_takes_a_seq_before_the_end() -> None:
    fin, fold, es = _log([0, 1, 2, 0], [0, 0, 0, 0], over_at=3)
    about_1 = encode_entry(SEATS[1], GAME, 2, es[0].id, 1, int(Kind.EVENT), encode_body({"ev": {"t": "x", "n": 2}}))
    e = _entry(2, es[0].id, 0, Kind.EVIDENCE, {"what": "pass", "raw": about_1})
    assert fin.displaces(fold, e, Verdict(1, "equivocation", "")) == "the game ended at entry 3: its result is final"
    fin.ended_at = None
    assert fin.displaces(fold, e, Verdict(1, "equivocation", "")) is None
    assert "its own poster" in fin.displaces(fold, e, Verdict(0, "x", ""))  # type: ignore[operator]


def test_the_result_that_stands_leaves_out_every_seat_named() -> None:
    fin, fold, _ = _log([0, 1], [0, 0], over_at=None)
    fold.state.winners = [0, 2]
    assert fin.standing_winners(fold) == []  # not over: nobody's result yet
    fold.state.over = True
    assert fin.standing_winners(fold) == [0, 2]
    fold.evidence_seen.append((5, 1, Verdict(2, "equivocation", "")))
    fold.audit_report = AuditReport([Verdict(1, "shuffle", ""), Verdict(0, "secrets_missing", "")])
    assert fin.named(fold) == {1, 2}  # (a seat that did not reveal at the end is not named by that alone)
    assert fin.standing_winners(fold) == [0] and fin.standing_winners(fold, extra={0}) == []
