"""Entries held ahead of the log (p2p/peer/arrivals.py), alone: bounds, order, what is kept when full."""

from __future__ import annotations

from adp2p.p2p.peer.arrivals import Arrivals


def test_held_entries_come_back_once_in_seq_order() -> None:
    a = Arrivals()
    assert a.hold(7, b"seven") and a.hold(5, b"five")
    assert not a.hold(5, b"again")  # one entry per seq: the first stays
    assert list(a) == [5, 7] and a.size == 9
    assert a.take(6) is None
    assert a.take(5) == b"five" and a.take(5) is None
    assert 7 in a and len(a) == 1 and a.size == 5
    assert a.take(7) == b"seven" and a.size == 0 and not a


def test_when_full_the_seqs_nearest_the_log_are_kept() -> None:
    a = Arrivals(max_entries=3, max_bytes=1000)
    for seq in (10, 30, 20):
        assert a.hold(seq, b"x")
    assert not a.hold(40, b"x")  # further than everything held: refused
    assert a.hold(15, b"x")  # nearer: the furthest (30) makes room
    assert list(a) == [10, 15, 20]


def test_the_byte_bound_holds_whatever_the_sizes() -> None:
    a = Arrivals(max_entries=100, max_bytes=10)
    assert a.hold(3, b"123456")
    assert not a.hold(4, b"12345")  # 11 bytes, and 4 is further than 3
    assert a.hold(2, b"12345")  # nearer: 3 goes
    assert list(a) == [2] and a.size == 5
    a.clear()
    assert not a and a.size == 0
