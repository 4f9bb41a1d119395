"""No stage of a menu offers more than ~12 choices (access_denied/menu.py): over whole games of 3 to 6 players, at every
decision of seat 0, the menu as first shown and every stage a key opens (a, p, t, o, a1..a6, p1..p9, t1..t9, c, c1..)
list at most FOLD numbered choices, as lines and on the full screen (whose menu folds sooner)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from _games import moments
from adp2p.cli.access_denied.menu import FOLD, Menu
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.state import GameState

NUMBERED = re.compile(r"^\s+\d+\. ")
KEYS = ["a", "p", "t", "o", "c", *(f"{k}{i}" for k in "apt" for i in range(1, 10)), *(f"c{i}" for i in range(1, 13))]


class Host:
    """What the menu needs of its prompt: its words go to `lines`."""

    def __init__(self, full: bool) -> None:
        self.lang, self.names, self.lines = "en", None, []  # type: ignore[var-annotated]
        self.ui = self if full else None

    def say(self, text: str = "") -> None:
        self.lines += text.split("\n")

    tell = say

    def cols(self) -> int:
        return 100

    def clear_choices(self) -> None:
        self.lines = []

    def checklist(self, st: GameState, me: int) -> Checklist:
        cl = Checklist(me)
        cl.sync(st)
        return cl


def numbered(host: Host) -> int:
    return sum(bool(NUMBERED.match(line)) for line in host.lines)


@pytest.mark.parametrize("full", [False, True], ids=["lines", "full"])
@pytest.mark.parametrize(("seed", "n"), [(1, 3), (1, 4), (2, 6), (0, 6)])
def test_no_stage_offers_more_than_about_twelve_choices(seed: int, n: int, full: bool) -> None:
    decisions = 0
    for m in moments(seed=seed, n=n, rounds=4):
        if m.decision is None:
            break
        decisions += 1
        host = Host(full)
        menu = Menu(host, m.view, 0, m.options)  # type: ignore[arg-type]
        menu.show()
        assert numbered(host) <= FOLD, (m.decision.kind, host.lines)
        for key in KEYS:
            host.lines, menu.picked = [], []
            menu.carded = None
            menu.show()  # (the stage keys start from the menu as shown)
            host.lines = []
            if menu.stage(key):
                assert numbered(host) <= FOLD, (key, m.decision.kind, host.lines)
    assert decisions > 10


def test_many_trades_come_partner_first_and_many_attempts_card_by_card() -> None:
    """The stages that were too long: t with offers to several players lists the partners (t1..), t<k> the offers
    to one; a sector with more than FOLD attempts (the discards on an uncontrolled sector) is picked card by card."""
    seen: dict[str, Any] = {}
    for m in moments(seed=2, n=6, rounds=4):
        if m.decision is None:
            break
        trades = [e for e in m.options if e["t"] == "trade"]
        if len(trades) > FOLD and "t" not in seen:
            host = Host(False)
            menu = Menu(host, m.view, 0, m.options)  # type: ignore[arg-type]
            menu.show()
            host.lines = []
            assert menu.stage("t")
            seen["t"] = list(host.lines)
    for m in moments(seed=1, n=3, rounds=4):
        if m.decision is None:
            break
        for s in range(6):
            at = [e for e in m.options if e["t"] == "attempt" and e["s"] == s]
            if len(at) > FOLD and "a" not in seen:
                host = Host(False)
                menu = Menu(host, m.view, 0, m.options)  # type: ignore[arg-type]
                menu.show()
                host.lines = []
                assert menu.stage(f"a{s + 1}")
                seen["a"] = list(host.lines)
    assert re.search(r"^    t1: with \S+ — \d+ choices$", "\n".join(seen["t"]), re.M), seen["t"]
    assert "pick card by card (c1, c2" in "\n".join(seen["a"]), seen["a"]


@pytest.mark.parametrize("full", [False, True], ids=["lines", "full"])
def test_the_cards_of_a_password_picked_one_by_one_choose_it(full: bool) -> None:
    """c<k> for each card of a password chooses that password (`Menu.chosen`), also once the passwords left are
    few enough to be listed by number (before, a c<k> there was refused: "no card to pick here")."""
    m = next(m for m in moments(seed=1, n=3, rounds=1) if m.decision is not None)
    assert {e["t"] for e in m.options} == {"password"}, m.options  # the setup: seat 0 sets its password
    host = Host(full)
    menu = Menu(host, m.view, 0, m.options)  # type: ignore[arg-type]
    menu.show()
    assert menu.carded is not None, host.lines  # picked card by card
    keys = menu.card_keys(menu.carded)
    for want, ev in enumerate(m.options):
        menu.pick_card(menu.carded, None)
        for k, h in enumerate(ev["cards"]):
            host.lines = []
            assert menu.stage(f"c{keys[h]}"), host.lines
            assert "no card to pick here" not in host.lines
            assert menu.chosen == (want if k == len(ev["cards"]) - 1 else None), (k, host.lines)
        menu.chosen = None
    host.lines = []
    menu.pick_card(menu.carded, None)
    first = m.options[0]["cards"][0]
    other = next(h for h in keys if all(h not in e["cards"] for e in m.options if first in e["cards"]))
    assert menu.stage(f"c{keys[first]}") and menu.stage(f"c{keys[other]}")  # no password holds both
    assert menu.chosen is None and "no card to pick here" in host.lines
