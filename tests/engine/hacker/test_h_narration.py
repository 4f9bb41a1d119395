"""The account's words (engine/hacker/narration.py): the forms that depend on what happened (the cafeteria, one card,
one winner, a dummy's duel won or lost, what a MALFUNCTION's die did, a LOCK put on and opened), in English and German,
each from its own template (nothing left unfilled)."""

from __future__ import annotations

import pytest
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.narration import WORDS, line

NAMES = ["Ana", "Bo", "Cem"]


@pytest.mark.parametrize(
    "entry,en,de",
    [
        ({"k": "place", "p": 0, "to": CAFE}, "Ana goes to the cafeteria", "Ana geht in die Kantine"),
        ({"k": "place", "p": 0, "to": 2}, "Ana goes to Dep3", "Ana geht nach Abt3"),
        ({"k": "boss", "at": CAFE}, "the Boss comes to the cafeteria", "der Boss kommt in die Kantine"),
        ({"k": "cafeteria", "p": 1, "exchanged": 1}, "Bo exchanges 1 card in the cafeteria",
         "Bo tauscht 1 Karte in der Kantine"),
        ({"k": "cafeteria", "p": 1, "exchanged": 2}, "Bo exchanges 2 cards in the cafeteria",
         "Bo tauscht 2 Karten in der Kantine"),
        ({"k": "win", "ps": [2], "codes": 5}, "Cem wins with 5 codes", "Cem gewinnt mit 5 Codes"),
        ({"k": "win", "ps": [0, 2], "codes": 5}, "Ana, Cem win with 5 codes", "Ana, Cem gewinnen mit 5 Codes"),
        ({"k": "duel_dummy", "p": 0, "dice": [3, 3]}, "Ana duels a dummy user: dice 3+3, Ana wins",
         "Ana gegen einen Dummy-User: Würfel 3+3, Ana gewinnt"),
        ({"k": "duel_dummy", "p": 0, "dice": [2, 3]}, "Ana duels a dummy user: dice 2+3, the dummy wins",
         "Ana gegen einen Dummy-User: Würfel 2+3, der Dummy gewinnt"),
        ({"k": "duel", "ps": [0, 1], "dice": [3, 4], "ahead": [1]}, "duel Ana, Bo: dice 3+4, Bo first",
         "Duell Ana, Bo: Würfel 3+4, Bo vorn"),
        ({"k": "duel", "ps": [0, 1], "dice": [4, 4], "ahead": []}, "duel Ana, Bo: dice 4+4, a tie: again",
         "Duell Ana, Bo: Würfel 4+4, Gleichstand: noch einmal"),
        ({"k": "malfunction", "p": 1, "die": 2, "what": "code"}, "MALFUNCTION for Bo: die 2, gives the code",
         "FEHLFUNKTION für Bo: Würfel 2, gibt den Code preis"),
        ({"k": "malfunction", "p": 1, "die": 5, "what": "security"}, "MALFUNCTION for Bo: die 5, acts as SECURITY",
         "FEHLFUNKTION für Bo: Würfel 5, wirkt wie SICHERHEIT"),
        ({"k": "learn", "p": 1, "what": "pwx", "d": 3}, "Bo learns the additional password of Dep4",
         "Bo erfährt das Zusatzpaßwort von Abt4"),
        ({"k": "lock", "p": 2, "d": 0, "locks": 2}, "Cem puts a LOCK on Dep1 (2 there now)",
         "Cem sperrt Abt1 mit einem SCHLOSS (jetzt 2)"),
        ({"k": "unlock", "p": 2, "d": 0, "left": 1}, "Cem's QUERY opens a LOCK of Dep1 (1 left)",
         "ABFRAGE von Cem öffnet ein SCHLOSS von Abt1 (noch 1)"),
        ({"k": "probe", "p": 0, "sq": "A4", "check": False}, "Ana tries A4: clear", "Ana versucht A4: frei"),
        ({"k": "probe", "p": 0, "sq": "B3", "check": True}, "Ana tries B3: CHECK", "Ana versucht B3: CHECK"),
        ({"k": "use_hack", "p": 0, "sq": "B3"}, "Ana turns over a HACK card and passes the check at B3",
         "Ana deckt eine HACK-Karte auf und kommt am Check auf B3 vorbei"),
        ({"k": "abandon", "p": 0, "d": 0}, "Ana abandons the attempt at Dep1", "Ana bricht den Versuch in Abt1 ab"),
    ],
)
def test_the_form_fits_what_happened(entry: dict[str, object], en: str, de: str) -> None:
    assert line(entry, None, "en", NAMES) == en
    assert line(entry, None, "de", NAMES) == de


def test_every_malfunction_result_has_its_words() -> None:
    from adp2p.engine.hacker.catalog import tables

    for what in tables().malfunction.values():
        assert f"mf.{what}" in WORDS, what


def test_a_lock_and_its_query_are_in_the_account() -> None:
    """A LOCK played and a QUERY that opens it instead of giving the code each leave their own line (real events on
    a stacked deck: engine/hacker/scenario.py)."""
    from adp2p.engine.hacker.scenario import Scene
    from test_h_effects import hacked

    hand = ["lock", "query", "query"]
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    hacked(s, 0)
    s.play(0, "lock")
    s.play(0, "query")
    s.play(0, "query")
    said = [line(e, 0, "de") for e in s.st.history[-6:]]
    assert "S1* sperrt Abt1 mit einem SCHLOSS (jetzt 1)" in said
    assert "ABFRAGE von S1* öffnet ein SCHLOSS von Abt1 (noch 0)" in said
    assert said[-1] == "S1* erfährt den Code von Abt1"


def test_protection_names_who_played_it() -> None:
    """SUPERSPY PROTECTION may be played by anyone, not only the one attacked (004:227): the line says who stopped
    whose attack."""
    e = {"k": "protected", "p": 0, "card": "superspy", "attacker": 1}
    assert line(e, None, "en", NAMES) == "Ana stops SUPER SPY of Bo with SUPERSPY PROTECTION"
    assert line(e, None, "de", NAMES) == "Ana verhindert SUPERSPION von Bo mit SUPERSPIONSCHUTZ"


def test_time_and_priority_say_up_or_down() -> None:
    assert line({"k": "play", "p": 0, "card": "priority", "who": 1}, None, "en", NAMES) == "Ana plays PRIORITY → Bo -1"
    assert line({"k": "play", "p": 0, "card": "time", "who": 0}, None, "de", NAMES) == "Ana spielt ZEIT → Ana +1"


def test_a_duel_says_who_goes_first_by_the_rules_own_reckoning() -> None:
    """The engine notes who came out ahead of a duel (PRIO's bonus included, 004:86); seeded games have duels with a
    winner and ties, each said by its template."""
    from _hcli_games import positions

    duels = [e for st in positions(1, 4, "basic", 15)[-1:] for e in st.history if e["k"] == "duel"]
    assert duels and all(set(e["ahead"]) <= set(e["ps"]) and len(e["ahead"]) <= 1 for e in duels)
    for e in duels:
        said = line(e, None, "de")
        assert ("vorn" in said) == bool(e["ahead"]) and "{" not in said
