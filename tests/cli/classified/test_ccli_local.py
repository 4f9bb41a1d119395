"""Whole offline Classified Information games driven through the client's input: random typing (numbers, 0,
nonsense, empty lines), a typist who follows the deduction bot's advice key by key through the staged menu, `q`
to leave, and the command `play --game classified --offline` itself; every page fits 80x24."""

from __future__ import annotations

import io
import random

import pytest
from adp2p.cli.classified.human import Human
from adp2p.cli.classified.labels import path
from adp2p.cli.classified.local import play_local
from adp2p.cli.classified.menu import every_choice
from adp2p.engine.classified.bots import make_bot

SIZE = (80, 24)


class Keys(io.StringIO):
    def __init__(self, seed: int, quit_after: int | None = None) -> None:
        super().__init__()
        self.rng, self.typed, self.quit_after = random.Random(seed), 0, quit_after

    def readline(self, *_: object) -> str:
        self.typed += 1
        if self.quit_after is not None and self.typed > self.quit_after:
            return "q\n"
        return self.rng.choice(["1", "2", "3", "4", "1", "2", "0", "x", "", "?", "17"]) + "\n"


class BotKeys(io.StringIO):
    """Types what the deduction bot would choose, key by key through the menu on the screen."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.bot, self.human, self.queue, self.menu = make_bot("deduction", seed), None, [], None

    def readline(self, *_: object) -> str:
        m = self.human.menu  # type: ignore[attr-defined]
        if m is None:
            return "\n"
        if m is not self.menu:
            self.menu = m
            ev = self.bot(m.v, m.me, m.options)
            want = path(m.v, m.me, ev, m.lang)
            self.queue = next(k for k, e in every_choice(m) if path(m.v, m.me, e, m.lang) == want)
        return self.queue.pop(0) + "\n"


def fits(h: Human) -> None:
    for p in h.pages:
        assert len(p) <= SIZE[1] - 1 and all(len(x) <= SIZE[0] - 1 for x in p), p


@pytest.mark.parametrize("seed, lang", [(1, "en"), (2, "de"), (3, "en"), (4, "de")])
def test_a_whole_game_typed_at_random_ends_and_every_page_fits(seed: int, lang: str) -> None:
    keys, out = Keys(seed), io.StringIO()
    h = Human(lang, keys, out, size=SIZE)
    res, st = play_local(h, seed=seed, wait_at_end=False)
    assert res is not None and st.over
    fits(h)
    assert ("=== The Big Reveal ===" if lang == "en" else "=== Die große Enthüllung ===") in out.getvalue()
    assert keys.typed > 3


@pytest.mark.parametrize("seed", [5, 6])
def test_a_typist_following_the_deduction_bot_plays_a_whole_game(seed: int) -> None:
    keys = BotKeys(seed)
    h = Human("en", keys, io.StringIO(), size=SIZE)
    keys.human = h  # type: ignore[assignment]
    res, st = play_local(h, seed=seed, wait_at_end=False)
    assert res is not None and st.over and st.end_reason in ("unguarded_match", "guards", "tie")
    fits(h)


def test_q_leaves_the_game() -> None:
    h = Human("en", Keys(7, quit_after=2), io.StringIO(), size=SIZE)
    res, st = play_local(h, seed=7)
    assert res is None and not st.over


def test_play_offline_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from adp2p.cli.main import main
    old = sys.stdin
    sys.stdin = Keys(8)  # type: ignore[assignment]
    try:
        rc = main(["play", "--game", "classified", "--offline", "--seed", "8", "--lang", "de"])
    finally:
        sys.stdin = old
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "Geheimsache (standard) gegen den Bot deduction, Startwert 8" in text
    assert "=== Die große Enthüllung ===" in text


def test_a_table_seat_takes_the_tables_view_and_gives_back_the_tables_event() -> None:
    """cli/classified/seat.py: the view as a table state carrying the engine's (`.eng`), events with the table's own
    fields beside the engine's; the person's pick goes back as the table gave it."""
    from types import SimpleNamespace

    from adp2p.cli.classified.seat import table_chooser
    from adp2p.engine.classified.api import legal, view
    from adp2p.engine.classified.scenario import Scene

    s = Scene(hands={0: [1, 5], 1: [3, 8]}, suitcases={0: 6, 1: 2}, deck=[7, 4, 4, 8], start=0)
    v = view(s.st, 0)
    options = [{**ev, "proof": f"p{i}"} for i, ev in enumerate(legal(v, 0))]
    keys = io.StringIO("2\n1\n")  # 5 Scavenge, then Encrypt
    choose = table_chooser("en", Human("en", keys, io.StringIO(), size=SIZE))
    ev = choose(SimpleNamespace(eng=v), 0, options)
    assert ev in options and ev["t"] == "encrypt" and ev["h"] == s.h(0, 5) and ev["proof"].startswith("p")
