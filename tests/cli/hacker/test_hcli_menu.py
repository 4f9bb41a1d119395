"""Hacker's menu (cli/hacker/menu.py) on seeded decisions in EN and DE: every legal event the player can tell apart
is offered exactly once, each stage has at most 12 numbered choices, typing the keys gives back a legal event
(an intent with its secret for sealing decisions), and the pad's checks reach every pad the roll allows."""

from __future__ import annotations

from collections import Counter

import pytest
from _hcli_games import positions
from adp2p.cli.hacker.labels import path
from adp2p.cli.hacker.menu import STAGE_MAX, Menu, every_choice
from adp2p.engine.hacker.api import legal, pending, view


def decisions(seed: int, players: int = 4, profile: str = "basic", every: int = 40):
    for st in positions(seed, players, profile, every):
        d = pending(st)
        if d is not None and d.actor is not None:
            v = view(st, d.actor)
            yield v, d, legal(v, d.actor)


def replay(menu: Menu, keys: list[str]):
    fresh = Menu(menu.v, menu.me, menu.kind, {}, menu.options, menu.lang)
    got = None
    for k in keys:
        assert len(fresh.choices()) <= STAGE_MAX
        got = fresh.pick(k)
        assert not fresh.error
    return got


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_event_once(seed: int, lang: str) -> None:
    kinds: Counter[str] = Counter()
    for v, d, options in decisions(seed):
        menu = Menu(v, d.actor, d.kind, d.info, options, lang)
        reached = every_choice(menu)
        for i, (keys, ev) in enumerate(reached):
            assert ev in options
            if not menu.pad or i % 37 == 0:  # a pad has hundreds of sets: typing a sample of them is enough
                assert replay(menu, keys) == ev
        if menu.pad:
            pads = Counter(tuple(sorted(ev["secret"])) for _, ev in reached)
            assert set(pads) == {tuple(sorted(ev["secret"])) for ev in options}
            assert set(pads.values()) == {1}
        else:
            labels = Counter(path(v, d.actor, ev, lang) for _, ev in reached)
            assert set(labels) == {path(v, d.actor, ev, lang) for ev in options}
            assert set(labels.values()) == {1}
        kinds[d.kind] += 1
    assert {"seal", "unseal", "play", "probe", "answer", "hack_choice", "pass", "exchange"} <= set(kinds), kinds


def test_advanced_decisions_once() -> None:
    """The Advanced game with SUPERSPY face down: gives, activations, face-down plays, each offered once."""
    kinds: Counter[str] = Counter()
    for v, d, options in decisions(4, 4, "advanced-superspy", 15):  # (a seed whose game has all three)
        menu = Menu(v, d.actor, d.kind, d.info, options, "de")
        reached = every_choice(menu)
        assert all(ev in options for _, ev in reached)
        if not menu.pad:
            labels = Counter(path(v, d.actor, ev, "de") for _, ev in reached)
            assert set(labels) == {path(v, d.actor, ev, "de") for ev in options} and set(labels.values()) == {1}
        kinds[d.kind] += 1
    assert {"give", "activate", "exchange"} <= set(kinds), kinds


def test_square_typed_and_back() -> None:
    for v, d, options in decisions(1):
        menu = Menu(v, d.actor, d.kind, d.info, options)
        if menu.pad:
            sq = sorted(options[0]["secret"])
            assert menu.pick(sq[0].lower()) is None and menu.picked == [sq[0]]
            assert menu.pick("0") is None and menu.picked == []
            got = None
            for s in sq:
                got = menu.pick(s)
            assert got is not None and sorted(got["secret"]) == sq
            assert menu.pick("z9") is None and menu.error
            return
    pytest.fail("no pad decision in seed 1")


def test_bad_number_is_an_error() -> None:
    v, d, options = next(decisions(1))
    menu = Menu(v, d.actor, d.kind, d.info, options, "de")
    assert menu.pick("99") is None and "99" in menu.error


def test_enter_alone_asks_again_without_an_error() -> None:
    v, d, options = next(decisions(1))
    menu = Menu(v, d.actor, d.kind, d.info, options, "de")
    assert menu.pick("") is None and menu.pick("  ") is None and not menu.error


def test_the_checks_picked_so_far_are_on_the_pad() -> None:
    """While the controller sets its checks square by square, its page draws each picked square as # (its own)."""
    from adp2p.cli.hacker.page import compose

    for v, d, options in decisions(1):
        menu = Menu(v, d.actor, d.kind, d.info, options)
        if menu.pad:
            sq = sorted(options[0]["secret"])[0]
            before = "\n".join(t.plain for t in compose(v, d.actor, "en", menu.stage(), 80, 24, picking=[]))
            menu.pick(sq)
            after = "\n".join(t.plain for t in compose(v, d.actor, "en", menu.stage(), 80, 24, picking=menu.picked))
            row = int(sq[1])  # the pad's row of that square: its column's mark turns into #
            col = "ABCDE".index(sq[0])
            line = next(x for x in after.splitlines() if x[56:].startswith(f"{row}  "))
            assert line[56 + 3 + 2 * col] == "#", line
            assert "#" not in next(x for x in before.splitlines() if x[56:].startswith(f"{row}  "))[56:]
            return
    pytest.fail("no pad decision in seed 1")
