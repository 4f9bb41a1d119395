"""Abandonment's rulings at one peer (p2p/peer/abandonment.py), alone: a clock of plain numbers stands in for the
patience, a dict for the pass tokens held; the abandons are real signed entries."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.crypto.passes import sign_pass
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.protocol import Kind, encode_body

GID = bytes(16)
PREV = bytes(range(32))
IDS = [SecretIdentity.from_seeds(bytes([i]) * 32, bytes([i + 100]) * 32) for i in range(4)]
PUB = [i.public for i in IDS]


class Clock:
    """A stand-in for `Patience`: how long each decision has been due here is set by the test."""

    period = 10.0

    def __init__(self) -> None:
        self.since: dict[Any, float] = {}

    def known(self, *d: Any) -> bool:
        return d in self.since

    def waited(self, *d: Any) -> float:
        return self.since.get(d, 0.0)


class Tokens:
    """A stand-in for `PassPool`: the tokens held, by (seq, prev, j, seat)."""

    def __init__(self, held: set[tuple[int, bytes, int, int]] | None = None) -> None:
        self.held = held or set()

    def get(self, seq: int, prev: bytes, j: int, seat: int) -> bytes | None:
        return b"token" if (seq, prev, j, seat) in self.held else None


def abandon(author: int, silent: int, seq: int = 9, passes: list[bytes] | None = None) -> bytes:
    body: dict[str, Any] = {"silent": silent, "seq": seq}
    if passes is not None:
        body["passes"] = passes
    return encode_entry(IDS[author], GID, seq, PREV, author, int(Kind.ABANDON), encode_body(body))


def event(author: int, seq: int = 9, passes: list[bytes] | None = None) -> Any:
    body: dict[str, Any] = {"ev": {"t": "pass", "p": author}, "passes": passes or []}
    return decode_entry(encode_entry(IDS[author], GID, seq, PREV, author, int(Kind.EVENT), encode_body(body)))


def test_an_abandon_is_due_only_after_its_authors_rank_in_periods_by_our_own_clock() -> None:
    clock = Clock()
    ab = Abandonment(clock)  # type: ignore[arg-type]
    first, second = decode_entry(abandon(0, silent=2)), decode_entry(abandon(1, silent=2))
    assert not ab.due_by_our_clock(first, 4)  # that decision never became due here: never
    clock.since[(9, PREV, 0)] = 10.0
    assert ab.due_by_our_clock(first, 4)  # seat 1 is the first that may give up on seat 3: one period
    assert not ab.due_by_our_clock(second, 4)  # seat 2 only after two
    clock.since[(9, PREV, 0)] = 20.0
    assert ab.due_by_our_clock(second, 4)
    # the tokens an abandon carries make it name a later decision, due here only since we hold them all
    carried = decode_entry(abandon(0, silent=2, passes=[b"t"]))
    assert not ab.due_by_our_clock(carried, 4)


def test_a_held_abandon_naming_a_seat_that_passed_there_names_nobody() -> None:
    ab = Abandonment(Clock())  # type: ignore[arg-type]
    ab.held[0] = abandon(0, silent=2)
    ab.held[1] = abandon(1, silent=2)
    ab.held[3] = abandon(3, silent=1)
    assert ab.held_by({0, 1, 3}, 2, None) == [0, 1]
    assert ab.held_by({1}, 2, None) == [1]  # only the authors allowed now
    assert ab.held_by({0, 1}, 2, Tokens({(9, PREV, 0, 2)})) == []  # seat 3's token is held: it answered
    ab.at(10)
    assert ab.held == {}  # the play loop moved to another seq: held abandons are moot
    ab.held[0] = abandon(0, silent=2, seq=10)
    ab.at(10)
    assert 0 in ab.held  # (the same seq again: kept)


def test_an_abandon_held_for_the_next_seq_before_the_play_loop_reaches_it_stands() -> None:
    """The entry at seq 8 and an abandon for seq 9 arrive in one burst, before the play loop looks at seq 9: the abandon
    is for the seq the loop then reaches and stands (it was dropped, and a truly silent seat was given up on a period
    later). One for another entry at that seq (a branch set aside since) or an earlier seq is dropped."""
    ab = Abandonment(Clock())  # type: ignore[arg-type]
    ab.at(8, bytes(32))
    ab.held[0] = abandon(0, silent=2, seq=9)
    ab.held[1] = abandon(1, silent=2, seq=8)
    ab.at(9, PREV)
    assert set(ab.held) == {0}
    ab.at(9, PREV)
    assert set(ab.held) == {0}
    ab.held[3] = abandon(3, silent=2, seq=10)
    ab.at(10, bytes(32))  # the loop reached seq 10 after another entry than the one the abandon builds on
    assert ab.held == {}


def test_an_abandon_that_names_us_is_answered_by_an_entry_not_a_token() -> None:
    ab = Abandonment(Clock())  # type: ignore[arg-type]
    ab.held[0] = abandon(0, silent=2, passes=[b"a"])
    assert ab.names_me(9, PREV, 1, me=2)
    assert not ab.names_me(9, PREV, 0, me=2)  # another decision of that window
    assert not ab.names_me(9, PREV, 1, me=3) and not ab.names_me(9, PREV, 1, me=None)
    assert ab.answers(9, me=2) == {decode_entry(ab.held[0]).id}
    assert ab.answers(10, me=2) == set()


def test_an_entry_carrying_the_named_seats_token_proves_it_answered() -> None:
    named_at_1 = decode_entry(abandon(0, silent=2, passes=[b"x"]))
    good = sign_pass(IDS[2], GID, 9, PREV, 1)
    assert Abandonment.carries_answer(named_at_1, 2, event(3, passes=[b"x", good]), PUB, GID)
    wrong_decision = sign_pass(IDS[2], GID, 9, PREV, 0)
    assert not Abandonment.carries_answer(named_at_1, 2, event(3, passes=[b"x", wrong_decision]), PUB, GID)
    anothers = sign_pass(IDS[3], GID, 9, PREV, 1)
    assert not Abandonment.carries_answer(named_at_1, 2, event(3, passes=[b"x", anothers]), PUB, GID)
    assert not Abandonment.carries_answer(named_at_1, 2, event(3, passes=[b"x"]), PUB, GID)


def test_a_peer_without_a_majority_behind_it_gives_up_on_nobody() -> None:
    ab = Abandonment(Clock())  # type: ignore[arg-type]
    assert not ab.no_majority(2, silent=1, me=0, connected=set())  # two players: the other may always
    assert ab.no_majority(4, silent=3, me=0, connected=set())  # alone of four
    assert ab.no_majority(4, silent=3, me=0, connected={1})  # two of four: a half, not a majority
    assert not ab.no_majority(4, silent=3, me=0, connected={1, 2})
    assert not ab.no_majority(3, silent=2, me=0, connected={1})
    assert ab.no_majority(3, silent=2, me=0, connected={2})  # the silent seat does not count


def test_silence_acted_on_is_remembered_per_decision() -> None:
    ab = Abandonment(Clock())  # type: ignore[arg-type]
    d = (9, PREV, 0)
    assert ab.acted(d) == 0
    ab.act(d, 2)
    assert ab.acted(d) == 2 and ab.acted((9, PREV, 1)) == 0
