"""`join`'s question before the game begins (cli/cmd_join.py `roster_asker`): a person at a terminal reads who would
sit at the table and answers yes (y/j) or no; a script (input or output not a terminal) is not asked."""

from __future__ import annotations

import io

import pytest
from adp2p.cli.cmd_join import roster_asker


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


TEXT = "At table 't' these 3 players would start the game, in seat order:\n  1. Ann  key 0000-1111-2222-3333  (you)"


@pytest.mark.parametrize("lang, answer, agreed", [("en", "y\n", True), ("de", "j\n", True), ("de", "n\n", False),
                                                  ("en", "\n", False)])
def test_the_person_reads_the_roster_and_answers(lang: str, answer: str, agreed: bool) -> None:
    out = Tty()
    ask = roster_asker(object(), lang, inp=Tty(answer), out=out)
    assert ask is not None
    assert ask(TEXT) is agreed
    shown = out.getvalue()
    assert "1. Ann  key 0000-1111-2222-3333  (you)" in shown
    assert ("Spiel mit ihnen beginnen? [j/N]" if lang == "de" else "Start the game with them? [y/N]") in shown


def test_end_of_input_leaves_and_a_script_is_not_asked() -> None:
    ask = roster_asker(object(), "en", inp=Tty(""), out=Tty())
    assert ask is not None
    with pytest.raises(KeyboardInterrupt):
        ask(TEXT)
    assert roster_asker(object(), "en", inp=io.StringIO("y\n"), out=Tty()) is None


@pytest.mark.parametrize("game", ["hacker", "classified"])
@pytest.mark.parametrize("lang, answer, agreed", [("en", "y\n", True), ("de", "j\n", True), ("de", "n\n", False)])
def test_hacker_and_classified_ask_on_a_page_of_their_own(game: str, lang: str, answer: str, agreed: bool) -> None:
    """Every game asks on its own screen (Access Denied: its full screen's choices pane), never as plain lines: the
    screen cleared, the roster at the top, the question just above the prompt line, the page 80x24 at most."""
    import importlib

    human_mod = importlib.import_module(f"adp2p.cli.{game}.human")
    seat_mod = importlib.import_module(f"adp2p.cli.{game}.seat")
    out = Tty()
    human = human_mod.Human(lang, inp=Tty(answer), out=out, size=(80, 24))
    choose = seat_mod.table_chooser(lang, human)
    ask = roster_asker(choose, lang, inp=Tty(), out=Tty())
    assert ask is choose.ask_roster
    assert ask(TEXT) is agreed
    shown = out.getvalue()
    assert shown.startswith("\x1b[H\x1b[2J")  # a page of its own, as the game's pages are drawn
    page = shown[len("\x1b[H\x1b[2J"):].split("\n")
    assert "  1. Ann  key 0000-1111-2222-3333  (you)" in page
    question = "Spiel mit ihnen beginnen? (nein: Tisch verlassen)" if lang == "de" else "Start the game with them?"
    assert any(line.startswith(question) for line in page[-4:])
    assert len(page) <= 24 and all(len(line) <= 80 for line in page)
    assert page[-1] == ("[j/N] " if lang == "de" else "[y/N] ")  # the prompt line, the 24th


def test_the_page_question_leaves_at_the_end_of_input() -> None:
    from adp2p.cli.classified.human import Human
    from adp2p.cli.classified.seat import table_chooser

    choose = table_chooser("en", Human("en", inp=Tty(""), out=Tty(), size=(80, 24)))
    with pytest.raises(KeyboardInterrupt):
        choose.ask_roster(TEXT)
