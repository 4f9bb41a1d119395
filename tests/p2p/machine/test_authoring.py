"""The seams for what a seat sends (p2p/machine/authoring.py `Author`, `Machine.author`) and draws (`Machine.dealer`):
an author or dealer set on one fold replaces the class's there only, a snapshot or fork shares them (a seeded
dealer's stream is not copied), and the secrets the game draws are the dealer's. In process, on a seeded table."""

from __future__ import annotations

from typing import Any

from adp2p.p2p.machine import Author, Machine
from adp2p.p2p.protocol import Kind
from seeds import seeded_table


class Quiet(Author):
    """Sends nothing on any duty."""

    def author_next(self, fold: Any, choose: Any = None) -> Any:
        return None


class Renamed(Author):
    """The honest body, one field changed (a cheater's author wraps the honest one so)."""

    def author_next(self, fold: Any, choose: Any = None) -> Any:
        kind, body = super().author_next(fold, choose)
        return kind, {**body, "beacon_head": bytes(32)}


def test_an_author_set_on_a_fold_writes_its_entries_and_no_other_fold_s() -> None:
    t = seeded_table(3, 1)
    m, other = t.ms[0], t.ms[1]
    kind, body = m.author_next()
    assert kind == Kind.JOIN and body["beacon_head"] != bytes(32)  # seat 0's join is due first
    m.author = Renamed()
    assert m.author_next() == (Kind.JOIN, {**body, "beacon_head": bytes(32)})
    m.author = Quiet()
    assert m.author_next() is None and m.fork().author_next() is None
    assert other.author is Machine.author and type(Machine.author) is Author  # the class's and the others' untouched
    del m.author
    assert m.author_next() == (Kind.JOIN, body)


def test_a_snapshot_shares_the_seams_set_on_its_fold() -> None:
    t = seeded_table(3, 1)
    m = t.ms[0]
    m.author = Quiet()
    snap = m.snapshot()
    assert snap.author is m.author and snap.dealer is m.dealer and snap.referee is m.referee
    assert snap.dealer.rng is m.dealer.rng  # type: ignore[attr-defined]  # (one stream of shuffles for the table)
    assert snap.state is not m.state  # (the log's state is copied)


def test_the_secrets_the_game_draws_are_the_dealer_s() -> None:
    t = seeded_table(3, 1, game="hacker", profile="basic", bots="random")
    m = t.ms[2]
    roll = m.draw_secret("roll", 4)
    assert roll is not None and len(roll) == 32 and roll == t.ms[2].snapshot().draw_secret("roll", 4)
    assert roll != m.draw_secret("roll", 6) and roll != t.ms[1].draw_secret("roll", 4)  # per seat and per roll
    assert Machine.dealer.draw_secret(m, "roll", 4) is None  # the honest dealer's: fresh from the OS, at the game's ask
