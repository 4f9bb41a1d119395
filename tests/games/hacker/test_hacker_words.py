"""Hacker's words at the table (games/hacker/words.py): seats by name, departments counted from 1, the reasons and
the standings, in English and German (the account's templates: engine/hacker/narration.py)."""

from __future__ import annotations

from adp2p.games.hacker import GAME

NAMES = ["ann", "bob", "cy"]


def test_the_account_names_seats_and_departments() -> None:
    assert GAME.narrate({"k": "hack", "p": 1, "ctrl": 2, "d": 0}, names=NAMES) == "bob hacks Dep1 (controller cy)"
    assert GAME.narrate({"k": "place", "p": 0, "to": 6}, names=NAMES) == "ann goes to the cafeteria"
    assert GAME.narrate("round_limit") == "the round limit is reached"


def test_a_german_table_reads_german() -> None:
    assert GAME.narrate({"k": "hack", "p": 1, "ctrl": 2, "d": 0}, "de", NAMES) == "bob hackt Abt1 (Kontrolle cy)"
    laid = {"k": "laid", "p": 2, "chance": 3, "term": 1}
    assert GAME.narrate(laid, "de", NAMES) == "cy legt Karten: 3 Zufall, 1 Terminal"
    assert GAME.narrate("round_limit", "de") == "das Rundenlimit ist erreicht"
    assert GAME.narrate("codes", "de") == "ein Hacker hat genug Codes"


def test_the_standings_count_codes_in_each_language() -> None:
    from adp2p.engine.hacker.profiles import get_profile

    st = GAME.new_game(get_profile("basic"), 3)
    st.eng.code[1][2] = True
    assert GAME.end_lines(st, {}, NAMES, "en") == ["ann: 0 codes", "bob: 1 code", "cy: 0 codes"]
    assert GAME.end_lines(st, {}, NAMES, "de") == ["ann: 0 Codes", "bob: 1 Code", "cy: 0 Codes"]


def test_a_physical_card_has_its_kind_s_title() -> None:
    titles = {GAME.face_title(f) for f in range(GAME.deck_size)}
    assert len(titles) > 10 and all(t and not t.startswith("card ") for t in titles)
