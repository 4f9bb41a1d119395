"""A whole local Hacker game (cli/hacker/local.py) driven by keystrokes in process: the human seat reads typed lines
(random numbers, squares, `0`, nonsense) through its page and menu until the game ends; every page drawn fits
80x24; quitting with `q` ends the game cleanly."""

from __future__ import annotations

import io
import random

import pytest
from adp2p.cli.hacker.human import Human
from adp2p.cli.hacker.labels import path
from adp2p.cli.hacker.local import play_local
from adp2p.cli.hacker.menu import every_choice
from adp2p.engine.hacker.bots import make_bot


class Keys(io.StringIO):
    """Typed lines: mostly small numbers, sometimes a square, `0` or a typo; counts what it typed."""

    def __init__(self, seed: int, quit_after: int | None = None) -> None:
        super().__init__()
        self.rng, self.typed, self.quit_after = random.Random(seed), 0, quit_after

    def readline(self, *_: object) -> str:
        self.typed += 1
        if self.quit_after is not None and self.typed > self.quit_after:
            return "q\n"
        r = self.rng.random()
        if r < 0.7:
            return f"{self.rng.randint(1, 6)}\n"
        if r < 0.85:
            return self.rng.choice("abcde") + self.rng.choice("12345") + "\n"
        return self.rng.choice(["0", "13", "x", ""]) + "\n"


class PlannerKeys(io.StringIO):
    """Types what the planner bot would choose, key by key through the menu on the screen (the pad's checks by
    their squares' names), as a person following the bot's advice would."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.bot, self.human, self.queue, self.typed = make_bot("planner", seed), None, [], 0
        self.menu = None

    def readline(self, *_: object) -> str:
        self.typed += 1
        m = self.human.menu
        if m is None:  # a page of news: Enter
            return "\n"
        if m is not self.menu:
            self.menu = m
            ev = self.bot(m.v, m.me, m.options)
            if m.pad:
                self.queue = list(ev["secret"])
            else:
                want = path(m.v, m.me, ev, m.lang)
                self.queue = next(k for k, e in every_choice(m) if path(m.v, m.me, e, m.lang) == want)
        return self.queue.pop(0) + "\n"


@pytest.mark.parametrize(("lang", "seed"), [("en", 11), ("de", 12)])
def test_whole_game_to_a_win_by_codes(lang: str, seed: int) -> None:
    keys, out = PlannerKeys(seed), io.StringIO()
    human = Human(lang, inp=keys, out=out, size=(80, 24))
    keys.human = human
    res, st = play_local(human, seat=0, players=3, seed=seed, wait_at_end=False)
    assert res is not None and res.reason == "codes" and st.over
    assert max(res.codes) >= st.profile.codes_to_win(3)
    assert keys.typed > 50


@pytest.mark.parametrize(("lang", "seed"), [("en", 5), ("de", 6)])
def test_whole_game_by_keystrokes(lang: str, seed: int) -> None:
    keys, out = Keys(seed), io.StringIO()
    human = Human(lang, inp=keys, out=out, size=(80, 24))
    res, st = play_local(human, seat=1, players=4, seed=seed, round_limit=8, wait_at_end=False)
    assert res is not None and st.over and res.winners
    assert keys.typed > 20
    pages = out.getvalue().split("> ")
    assert len(pages) >= keys.typed
    for page in pages[1:-1]:
        lines = page.split("\n")
        assert len(lines) <= 24 and all(len(x) <= 80 for x in lines)
    last = pages[-1]
    assert ("Winners" if lang == "en" else "Sieger") in last


def test_quit() -> None:
    keys = Keys(1, quit_after=3)
    res, st = play_local(Human("en", inp=keys, out=io.StringIO(), size=(80, 24)), seed=3, wait_at_end=False)
    assert res is None and not st.over


def test_watch_page_while_another_seat_decides() -> None:
    from _hcli_games import positions
    from adp2p.engine.hacker.api import pending, view

    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.actor not in (None, 0))
    out = io.StringIO()
    Human("de", inp=io.StringIO(), out=out, size=(80, 24)).watch(view(st, 0), 0)
    text = out.getvalue()
    assert f"S{pending(st).actor + 1} entscheidet" in text and text.count("\n") == 23
