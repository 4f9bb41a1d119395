"""What a peer knows of the others' heads (p2p/peer/heads.py) and its catch-up rulings (p2p/peer/stalls.py), alone:
heads are plain (length, id) pairs, the clock a number."""

from __future__ import annotations

import trio
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.stalls import CatchUp

A, B, C = "a", "b", "c"
IDS = [bytes([i]) * 32 for i in range(10)]  # our log: entry i has id IDS[i]


def test_a_told_head_is_the_last_word_an_implied_one_only_if_no_longer_one_was_told() -> None:
    h = Heads()
    assert not h.heard_from(A)
    h.implied(A, 5, IDS[4])
    assert h.last[A] == (5, IDS[4]) and h.heard_from(A)
    h.told(A, 7, IDS[6])
    h.implied(A, 6, IDS[5])  # an older entry of its own arriving late says nothing new
    assert h.last[A] == (7, IDS[6])
    h.told(A, 3, IDS[2])  # it went back (evidence set its tail aside): the last word counts, the longest stays
    assert h.last[A] == (3, IDS[2]) and h.longest[A] == 7
    h.told(B, 3, IDS[2])
    assert h.all_hold([A, B], (3, IDS[2])) and not h.all_hold([A, B, C], (3, IDS[2]))


async def test_our_head_is_sent_once_per_change() -> None:
    h = Heads()
    assert h.to_send((1, IDS[0])) and not h.to_send((1, IDS[0])) and h.to_send((2, IDS[1]))
    h.news()
    with trio.fail_after(1):
        await h.wait_news()
    with trio.move_on_after(0.05) as waited:
        await h.wait_news()  # taken: no news until the next one
    assert waited.cancelled_caught


def test_caught_up_when_every_other_seat_answers_with_a_head_we_agree_with() -> None:
    c = CatchUp()
    c.begin(now=100.0)
    assert not c.told(A, (4, IDS[3]), b"not our nonce")
    assert c.told(A, (4, IDS[3]), c.nonce)
    at = IDS.__getitem__
    assert not c.caught_up({A, B}, 3, 5, at, set(), now=100.0, period=10.0)
    c.told(B, (5, IDS[4]), c.nonce)
    assert c.caught_up({A, B}, 3, 5, at, set(), now=100.0, period=10.0)
    c.told(B, (6, b"x" * 32), c.nonce)  # it holds an entry we lack (perhaps our own, lost by our disk)
    assert not c.caught_up({A, B}, 3, 5, at, set(), now=100.0, period=10.0)
    assert c.caught_up({A, B}, 3, 5, at, {b"x" * 32}, now=100.0, period=10.0)  # ... an abandon naming us: ours beats it
    c.told(B, (5, b"y" * 32), c.nonce)  # another entry where we hold one
    assert not c.caught_up({A, B}, 3, 5, at, set(), now=100.0, period=10.0)


def test_after_half_a_period_a_strict_majority_is_enough() -> None:
    c = CatchUp()
    c.begin(now=0.0)
    c.told(A, (5, IDS[4]), c.nonce)  # B claims entries it never sends, or is gone
    at = IDS.__getitem__
    assert not c.caught_up({A, B}, 3, 5, at, set(), now=4.9, period=10.0)
    assert c.caught_up({A, B}, 3, 5, at, set(), now=5.0, period=10.0)  # A and we: 2 of 3
    assert not c.caught_up({A, B, C}, 4, 5, at, set(), now=50.0, period=10.0)  # 2 of 4 is no majority
    assert not c.given_up(19.9, 10.0) and c.given_up(20.0, 10.0)


def test_the_table_is_asked_once_per_heartbeat_and_a_new_catch_up_starts_afresh() -> None:
    c = CatchUp()
    c.begin(now=0.0)
    assert c.ask_now(0.0, 1.0) and not c.ask_now(0.5, 1.0) and c.ask_now(1.0, 1.0)
    nonce = c.nonce
    c.told(A, (5, IDS[4]), nonce)
    c.begin(now=3.0)
    assert c.nonce != nonce and c.fresh == {} and c.ask_now(3.0, 1.0)
    assert not c.told(A, (5, IDS[4]), nonce)  # an answer to the ask before: not fresh
    c.active = False
    assert not c.told(A, (5, IDS[4]), c.nonce)
