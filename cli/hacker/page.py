"""One page of the Hacker client: the screen (cli/hacker/screen.py) and the menu's current stage fitted into exactly
the terminal's rows (the last row is the prompt's). The menu gets the rows it needs (its choices in two or three
columns when they would not fit in one), then the notes (moves done for the player, each whole, wrapped), the
account the rows left over (`account_room`: how many); every line stays under the width."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

from adp2p.cli.hacker import account, screen
from adp2p.engine.hacker.state import HState
from rich.text import Text

MAX_ACCOUNT = 12


Stage = tuple[str, list[str], str | None]  # a menu's stage: question, numbered choices, the way back


def menu_block(stage: Stage, width: int, room: int, prefer: int | None = None) -> list[Text]:
    """The menu's lines (question first, then numbered choices) in as few columns as fit `room` lines; more columns
    (up to three) where that keeps them within `prefer` lines and no choice is cut (room for the account's news)."""
    head, body, back = stage
    title = Text(head, style="bold")
    if back:
        title.append("   " + back, style="dim")
    cols = 1
    while cols < 3 and 1 + math.ceil(len(body) / cols) > room:
        cols += 1
    while (prefer is not None and cols < 3 and 1 + math.ceil(len(body) / cols) > prefer
           and max((len(x) for x in body), default=0) <= (width - 1) // (cols + 1) - 2):
        cols += 1
    per = math.ceil(len(body) / cols) if body else 0
    cw = (width - 1) // cols
    out = [title]
    if cols == 1:  # a long choice goes on in a second line, not cut
        for x in body:
            out += [Text(y) for y in textwrap.wrap(x, width - 1, subsequent_indent="    ")[:2]] or [Text()]
        return out
    for r in range(per):
        t = Text()
        for c in range(cols):
            i = c * per + r
            if i < len(body):
                cell = Text(body[i])
                cell.truncate(cw - 1, overflow="ellipsis")
                cell.pad_right(cw - cell.cell_len)
                t.append_text(cell)
        t.rstrip()
        out.append(t)
    return out


def note_lines(notes: Sequence[str], width: int) -> list[str]:
    """The notes, none cut: each wrapped to the width, short ones sharing a line."""
    out: list[str] = []
    packable = False  # the last line holds whole notes only
    for n in notes:
        pieces = textwrap.wrap(n, width - 1) or [""]
        if len(pieces) == 1 and packable and len(out[-1]) + 3 + len(n) <= width - 1:
            out[-1] += "   " + n
        else:
            out += pieces
            packable = len(pieces) == 1
    return out


def menu_rows(v: HState, me: int, lang: str, width: int, height: int, names: list[str] | None = None,
              notes: list[str] | None = None) -> int:
    """How many choices one column of the menu can show under the screen."""
    return height - 2 - len(screen.lines(v, me, lang, names, width, account_lines=0)) - len(note_lines(notes or [],
                                                                                                         width))


def _parts(v: HState, me: int, lang: str, stage: Stage | None, width: int, height: int, names: list[str] | None,
           notes: list[str] | None, picking: Sequence[str], fresh: int | None
           ) -> tuple[list[Text], list[Text], list[Text], int]:
    base = screen.lines(v, me, lang, names, width, account_lines=0, picking=picking)
    room = height - 1 - len(base)
    extra = [Text(n, style="bold yellow") for n in note_lines(notes or [], width)]
    prefer = room - len(extra) - min(fresh or 0, MAX_ACCOUNT)
    menu = menu_block(stage, width, max(2, room - len(extra)), prefer) if stage else []
    left = max(0, room - len(menu) - len(extra))
    return base, extra, menu, min(left, MAX_ACCOUNT)


def account_room(v: HState, me: int, lang: str, stage: Stage | None, width: int, height: int,
                 names: list[str] | None = None, notes: list[str] | None = None, fresh: int | None = None) -> int:
    """How many of the account's latest lines the page composed with these shows."""
    return _parts(v, me, lang, stage, width, height, names, notes, (), fresh)[3]


def compose(v: HState, me: int, lang: str, stage: Stage | None, width: int, height: int,
            names: list[str] | None = None, notes: list[str] | None = None,
            picking: Sequence[str] = (), fresh: int | None = None) -> list[Text]:
    """Exactly `height - 1` lines: the screen, the account's latest lines in the room left, notes, the menu
    (`picking`: the pad's checks picked so far, drawn on the pad; `fresh`: how many of the account's lines are new to
    the player, the older ones dimmed)."""
    base, extra, menu, k = _parts(v, me, lang, stage, width, height, names, notes, picking, fresh)
    said = account.lines(v.history, me, lang, names, k)
    old = len(said) - (len(said) if fresh is None else min(fresh, len(said)))
    hist = [Text("· " + s, style="dim italic" if i < old else "italic") for i, s in enumerate(said)]
    out = base + hist + extra + menu
    for t in out:
        t.truncate(width - 1, overflow="ellipsis")
    out = out[: height - 1]
    return out + [Text()] * (height - 1 - len(out))
