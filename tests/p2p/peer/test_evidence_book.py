"""What a peer remembers about evidence (p2p/peer/evidence_book.py), alone: entries are plain records."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from adp2p.p2p.peer.evidence_book import MAX_EVIDENCE_BYTES, MAX_FALSE, EvidenceBook


def entry(i: int, author: int) -> SimpleNamespace:
    return SimpleNamespace(id=bytes([i]) * 32, author=author)


def test_false_evidence_is_never_weighed_again_and_a_seat_that_keeps_sending_it_is_not_heard() -> None:
    book = EvidenceBook()
    first = entry(1, author=2)
    assert not book.dismissed(first)
    book.found_false(first)
    assert book.dismissed(first) and book.false_by == {2: 1}
    assert not book.dismissed(entry(2, author=2))  # one false entry: its next evidence is still weighed
    for i in range(2, MAX_FALSE + 1):
        book.found_false(entry(i, author=2))
    assert book.dismissed(entry(99, author=2))  # MAX_FALSE of them: nothing more of that seat's is refolded
    assert not book.dismissed(entry(99, author=1))  # (another seat's is)


def test_an_entry_judged_once_is_not_counted_against_its_author() -> None:
    book = EvidenceBook()
    e = entry(7, author=0)
    book.judged(e)
    assert e.id in book.judged_false and book.false_by == {}


def test_the_evidence_file_holds_each_rejected_entry_and_why_and_stays_bounded(tmp_path: Path) -> None:
    book = EvidenceBook()
    book.keep(b"raw", "no game yet")  # no file before a game seats us: nothing written, nothing raised
    book.path = tmp_path / "evidence"
    book.keep(b"\x01\x02", "bad")
    assert book.path.read_bytes() == b"\x00\x00\x00\x02\x01\x02bad\n"
    big = bytes(1024 * 1024)
    for _ in range(10):
        book.keep(big, "x" * 5000)  # (a reason is cut to 1000 bytes)
    size = book.path.stat().st_size
    assert size <= MAX_EVIDENCE_BYTES and size == book.written
    assert size > MAX_EVIDENCE_BYTES - len(big) - 1100  # it filled up to the bound, then refused
