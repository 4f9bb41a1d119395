"""The page's menus give exactly the engine's legal events (no rule twice, nothing more, nothing less): every
stage of every decision walked, in both games, from fixed-seed games; the page's words in both languages."""

from __future__ import annotations

import string
from types import SimpleNamespace
from typing import Any

import pytest
from _games import moments
from _hcli_games import positions
from adp2p.cli.access_denied import web as access_denied
from adp2p.cli.hacker import web as hacker
from adp2p.cli.web.menu import Ask
from adp2p.cli.web.words import WORDS
from adp2p.games.hacker.table_events import to_log


def reachable(menu: Any) -> list[dict[str, Any]]:
    """Every event the menu gives, each stage walked (choice n, then back)."""
    out: list[dict[str, Any]] = []

    def walk(depth: int) -> None:
        assert depth < 12
        assert menu.can_back() == (depth > 0)  # a way back exactly where a stage was opened
        for n in range(len(menu.choices())):
            ev = menu.pick(n)
            if ev is not None:
                out.append(ev)
                continue
            walk(depth + 1)
            assert menu.back()

    walk(0)
    return out


def same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def test_access_denied_menus_give_exactly_the_legal_events() -> None:
    asked = 0
    for m in moments(seed=5, rounds=6):
        if m.decision is None or len(m.options) < 2:
            continue
        got = access_denied.ask(m.view, 0, m.options, None, "en", react_seconds=15, react_to="all")
        if not isinstance(got, Ask):
            assert got in m.options  # a window not worth asking: its pass
            continue
        asked += 1
        evs = reachable(got.menu)
        assert same(evs, m.options)
        assert all(any(e is o for o in m.options) for e in evs)  # the very events the engine offered
        for c in got.menu.choices():
            mine = set(m.view.hands[0]) | {h for s in m.view.sectors_of(0) for h in m.view.passwords.get(s, [])}
            assert {h for h in c.get("cards") or [] if isinstance(h, int)} <= mine
    assert asked > 20


@pytest.mark.parametrize("seed", [2, 9])
def test_hacker_menus_give_exactly_the_legal_events(seed: int) -> None:
    from adp2p.engine.hacker.api import legal, pending, view

    asked = 0
    for st in positions(seed, players=3, every=60):
        d = pending(st)
        if d is None or d.actor is None:
            continue
        v = view(st, d.actor)
        options = [to_log(ev) for ev in legal(v, d.actor)]  # as the table hands them to the seat
        if len(options) > 400:  # (a whole hack pad: walked in test_hcli_menu; here its first squares)
            continue
        got = hacker.ask(SimpleNamespace(eng=v), d.actor, options, None, "de")
        if not isinstance(got, Ask):
            assert any(got is o for o in options)
            continue
        asked += 1
        evs = reachable(got.menu)
        assert all(any(e is o for o in options) for e in evs)
        distinct = {repr(got.menu.menu.paths[i]) for i in got.menu.menu.shown}  # copies of a card: one choice
        assert len({repr(e) for e in evs}) >= len(distinct) or got.menu.menu.pad
    assert asked > 5


def test_the_pages_words_have_both_languages_with_the_same_fields() -> None:
    fields = string.Formatter()
    for key, row in WORDS.items():
        assert set(row) == {"en", "de"}, key
        assert {f for _, f, _, _ in fields.parse(row["en"]) if f} == {f for _, f, _, _ in fields.parse(row["de"])
                                                                       if f}, key
