"""Entries held ahead of the log (p2p/peer/arrivals.py), alone: bounds, order, what is kept when full."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.p2p.peer.arrivals import Arrivals


def e(raw: bytes) -> Any:
    """An entry as a plain value: its bytes."""
    return SimpleNamespace(raw=raw)


def test_held_entries_come_back_once_in_seq_order() -> None:
    a = Arrivals()
    assert a.hold(7, e(b"seven")) and a.hold(5, e(b"five"))
    assert not a.hold(5, e(b"again"))  # one entry per seq: the first stays
    assert list(a) == [5, 7] and a.size == 9
    assert a.take(6) is None
    assert a.take(5).raw == b"five" and a.take(5) is None
    assert 7 in a and len(a) == 1 and a.size == 5
    assert a.take(7).raw == b"seven" and a.size == 0 and not a


def test_when_full_the_seqs_nearest_the_log_are_kept() -> None:
    a = Arrivals(max_entries=3, max_bytes=1000)
    for seq in (10, 30, 20):
        assert a.hold(seq, e(b"x"))
    assert not a.hold(40, e(b"x"))  # further than everything held: refused
    assert a.hold(15, e(b"x"))  # nearer: the furthest (30) makes room
    assert list(a) == [10, 15, 20]


def test_the_byte_bound_holds_whatever_the_sizes() -> None:
    a = Arrivals(max_entries=100, max_bytes=10)
    assert a.hold(3, e(b"123456"))
    assert not a.hold(4, e(b"12345"))  # 11 bytes, and 4 is further than 3
    assert a.hold(2, e(b"12345"))  # nearer: 3 goes
    assert list(a) == [2] and a.size == 5
    a.clear()
    assert not a and a.size == 0
