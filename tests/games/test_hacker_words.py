"""Hacker's words at the table (games/hacker/words.py): seats by name, departments counted from 1, the reasons."""

from __future__ import annotations

from adp2p.games.hacker import GAME

NAMES = ["ann", "bob", "cy"]


def test_the_account_names_seats_and_departments() -> None:
    assert GAME.narrate({"k": "hack", "p": 1, "ctrl": 2, "d": 0}, names=NAMES) == "bob: hack (ctrl cy, d department 1)"
    assert GAME.narrate({"k": "place", "p": 0, "to": 6}, names=NAMES) == "ann: place (to cafeteria)"
    assert GAME.narrate("round_limit") == "the round limit is reached"


def test_a_physical_card_has_its_kind_s_title() -> None:
    titles = {GAME.face_title(f) for f in range(GAME.deck_size)}
    assert len(titles) > 10 and all(t and not t.startswith("card ") for t in titles)
