"""The question before a game begins, on a screen of its own: who would sit at the table (p2p/peer/agreeing.py writes
the text: names, key fingerprints, "(you)", whether the table has a word) and whether to start with them, y/j or no.

Every game's terminal seat asks it the same way: Access Denied in its full screen's choices pane (cli/cmd_join.py
`roster_asker`), Hacker and Classified Information on a page drawn like their game pages (`ask_on_page`: the screen
cleared, the roster at the top, the question and its keys on the prompt line); the page in the browser asks it with
two buttons (cli/web/seat.py). End of input leaves the table, as Ctrl-C does."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from adp2p.cli.words import msg


def roster_page(text: str, lang: str, cols: int, rows: int) -> list[str]:
    """The page's lines (the prompt line not included): the roster wrapped at words, the question at the bottom."""
    width = max(20, cols - 1)
    body = [part for line in text.split("\n")  # a seat's line goes on indented under its name; a sentence does not
            for part in textwrap.wrap(line, width, subsequent_indent="      " if line.startswith(" ") else "")
            or [""]]
    question = textwrap.wrap(msg("roster_ask_full", lang), width) or [""]
    gap = [""] * max(1, rows - 1 - len(body) - len(question))  # the question just above the prompt line
    return (body + gap + question)[-max(1, rows - 1):]


def ask_on_page(text: str, lang: str, out: Any, readline: Callable[[], str | None], size: tuple[int, int],
                forget_typed: Callable[[], None] = lambda: None) -> bool:
    """Draw the roster page on `out` and read the answer; True for yes (y/j), False for anything else.
    KeyboardInterrupt at the end of input (leave the table, as Ctrl-C does)."""
    cols, rows = size
    if getattr(out, "isatty", lambda: False)():
        out.write("\x1b[H\x1b[2J")
    out.write("\n".join(roster_page(text, lang, cols, rows)) + "\n" + msg("confirm_keys", lang))
    out.flush()
    forget_typed()  # keys typed before the question do not answer it
    line = readline()
    if not line:
        raise KeyboardInterrupt
    return line.strip().lower() in msg("yes_keys", lang).split()


def asker_for(human: Any, lang: str) -> Callable[[str], bool]:
    """A game's terminal seat (its `Human`: `out`, `reader`, `size()`) asks the roster on a page of its own."""

    def ask(text: str) -> bool:
        reader = human.reader
        return ask_on_page(text, lang, human.out, lambda: reader.readline(), human.size(),
                           getattr(reader, "discard_typed_ahead", lambda: None))

    return ask
