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
