"""A square the menu cannot take says why, in the player's language (before: "No such choice: b2" for a square
that is not on the outer ring, with no word of the rule): not on the outer ring at a hack's start, not next to
where the hack stands, found clear already; and a number outside the menu says the menu's range."""

from __future__ import annotations

import pytest
from adp2p.cli.hacker.menu import Menu
from adp2p.engine.hacker import api
from adp2p.engine.hacker.scenario import Scene


def probing() -> Scene:
    """Seat 0 hacks department 1; the controller (seat 1) has rolled and sealed its pad."""
    s = Scene(3, hands={0: ["query", "hack", "hack"]})
    s.lay({0: ["query", "hack", "hack"]}).start(0)
    s.do({"t": "hack", "p": 0})
    s.do({"t": "private_roll", "p": 1, "c": "r", "secret": [3, 4]})
    s.do({"t": "seal", "p": 1, "what": "pad", "c": "pad", "secret": ["A1", "A2", "B2"]})
    return s


def menu(s: Scene, lang: str) -> Menu:
    d = s.pending
    assert d.kind == "probe" and d.actor == 0
    v = api.view(s.st, 0)
    return Menu(v, 0, d.kind, d.info, api.legal(v, 0), lang)


@pytest.mark.parametrize(("lang", "outer", "not_next", "clear"), [
    ("en", "B2: a hack begins on one of the 16 outer squares",
     "C3 is not next to E5: the hack moves one square at a time", "E5 was found clear already"),
    ("de", "B2: ein Hack beginnt auf einem der 16 äußeren Felder",
     "C3 liegt nicht neben E5: der Hack geht Feld für Feld", "E5 ist schon als frei bekannt"),
])
def test_a_square_the_hack_cannot_take_says_which_rule(lang: str, outer: str, not_next: str, clear: str) -> None:
    s = probing()
    m = menu(s, lang)
    assert m.pick("b2") is None and m.error.startswith(outer)
    assert m.pick("99") is None and "1.." in m.error  # the menu's range
    assert m.pick("e5") == {"t": "probe", "p": 0, "sq": "E5"}
    s.do({"t": "probe", "p": 0, "sq": "E5"}).do({"t": "answer", "p": 1, "check": False})
    m = menu(s, lang)
    assert m.pick("c3") is None and m.error.startswith(not_next)
    assert m.pick("E5") is None and m.error.startswith(clear)
    assert m.pick("d4") == {"t": "probe", "p": 0, "sq": "D4"}
