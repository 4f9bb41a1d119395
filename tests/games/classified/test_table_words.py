"""Classified Information's words at the table (games/classified/words.py): the account the table tells every player
(the page's log, a watcher) and the end lines — every kind of item the rules append, in English and German, in the
words of the game's screens, public facts only. Found by playing over the table: the page said "Ana encrypt",
"Bot-1 deploy: Lockvogel", "end" in German, and "Wache(n)" where the screens say "Wächter"."""

from __future__ import annotations

import re

import pytest
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.sim import play_game
from adp2p.games.classified.words import NARRATION, end_line, narrate

NAMES = ["Ana", "Bot-1"]
ENGLISH_IN_GERMAN = re.compile(r"\b(deploy|encrypt|enlist|turn|answers|end|the|Guard|Wache)\b")


def items() -> list[dict]:
    out = []
    for seed in range(12):
        rec = play_game([make_bot("random", seed), make_bot("random", seed + 100)], seed)
        out += [e for e in rec.state.history if isinstance(e, dict)]
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_item_of_seeded_games_is_told_in_words(lang: str) -> None:
    seen = items()
    kinds = {e["k"] for e in seen}
    assert {"turn", "encrypt", "guard", "deploy", "answer", "big_reveal", "reveal", "end"} <= kinds
    assert kinds <= set(NARRATION), kinds - set(NARRATION)
    for e in seen:
        line = narrate(e, lang, NAMES)
        assert line and "{" not in line and line != e["k"], (e, line)
        if lang == "de":
            assert not ENGLISH_IN_GERMAN.search(line), (e, line)
        if e["k"] in ("encrypt", "guard"):  # a card put face down is not named to the table
            assert not re.search(r"\d", line.replace("Bot-1", "")), (e, line)


def test_the_end_lines_use_the_screens_words() -> None:
    assert end_line("Ana", 2.5, True, "de") == "Ana: 2,5 Wächter, ein ungeschützter Treffer"
    assert end_line("Ana", 1, False, "en") == "Ana: 1 Guard, no Unguarded Match"
    assert end_line("Bot-1", 0, True, "en") == "Bot-1: 0 Guards, an Unguarded Match"
    assert narrate("guards", "de") == "mehr Wächter"


def test_a_players_own_number_is_told_without_a_gender() -> None:
    """Found on the page in German: "Ana nennt 5: nicht seine Koffernummer" — the table names players, who may be
    anyone: "die eigene Koffernummer" in German, "their" (not "its") in English."""
    named = {"k": "named", "p": 0, "n": 5}
    assert narrate(named, "de", NAMES) == "Ana nennt 5: nicht die eigene Koffernummer"
    assert narrate(named, "en", NAMES) == "Ana names 5: not their Suitcase Number"
    told = [narrate({"k": "answer", "p": 1, "yes": True, "question": {"q": q, "n": 4}}, lang, NAMES)
            for q in ("near", "in_code", "equal", "touch") for lang in ("en", "de")]
    assert not [x for x in told if re.search(r"\b(its|seine[rmns]?)\b", x)], told
    assert "Bot-1 antwortet ja: ist 4 im eigenen Code?" in told


def test_an_answer_about_a_guard_shone_upon_says_its_number() -> None:
    """Found on the page: after Shine Spotlights the table's log said only "Bot-1 antwortet nein"; the Guard is face
    up, so its number is public and the question is told with it."""
    from adp2p.engine.classified.scenario import Scene

    s = Scene(hands={0: [9, 1], 1: [2, 5]}, suitcases={0: 6, 1: 7}, deck=[4, 3, 8, 8], start=1)
    s.guard(1, 2)
    s.deploy(0, 9, guards=[s.h(1, 2, "guard")])
    s.answer()
    item = next(x for x in reversed(s.st.history) if x["k"] == "answer")
    assert narrate(item, "de", NAMES) == "Bot-1 antwortet nein: ist 2 im eigenen Code?"
    assert narrate(item, "en", NAMES) == "Bot-1 answers no: is 2 in their Code?"
