"""The human seat of a Classified Information game: draws the page for a decision (the screen, cli/classified/
screen.py, with the menu's current stage, fitted into the terminal's rows) and reads lines until the menu gives a
legal event. `Human.choose(view, seat, decision, options)` returns one of `options`. A decision with a single
legal event (the true answer to a question about your own cards, the Big Reveal) is no choice: it is taken without
asking, and the next page says so."""

from __future__ import annotations

import math
import os
import shutil
import sys
import textwrap
from typing import Any, TextIO

from adp2p.cli.classified import reference, screen
from adp2p.cli.classified.menu import Menu
from adp2p.cli.classified.words import say
from adp2p.cli.tui.reading import reader_for
from adp2p.engine.classified.api import Decision
from adp2p.engine.classified.state import CState

Event = dict[str, Any]
MIN_ACCOUNT = 1


class Quit(Exception):
    """The player typed q (or the input ended)."""


def menu_block(stage: tuple[str, list[str], str | None], width: int, room: int) -> list[str]:
    """The menu's lines: its question (wrapped), then its choices in one column, or two or three where one would
    not fit `room` lines."""
    head, body, back = stage
    title = textwrap.wrap(head + (f"   {back}" if back else ""), width - 1) or [""]
    cols = 1
    while cols < 3 and len(title) + math.ceil(len(body) / cols) > room:
        cols += 1
    if cols == 1:
        wrapped = [part for x in body for part in textwrap.wrap(x, width - 1, subsequent_indent="    ")[:2]]
        if len(title) + len(wrapped) <= room:  # a long choice goes on in a second line where there is room
            return title + wrapped
        return title + [x if len(x) < width else x[: width - 2] + "…" for x in body]
    per = math.ceil(len(body) / cols)
    cw = (width - 1) // cols
    out = list(title)
    for r in range(per):
        cells = [body[c * per + r] for c in range(cols) if c * per + r < len(body)]
        out.append("".join((x if len(x) < cw else x[: cw - 2] + "…").ljust(cw) for x in cells).rstrip())
    return out


def compose(v: CState, me: int, lang: str, stage: Any, cols: int, rows: int, notes: list[str]) -> list[str]:
    """One page: the screen with as many account lines as fit, the notes, the menu; exactly rows - 1 lines."""
    fixed = screen.lines(v, me, lang, cols, account_lines=0)
    note = [part for n in notes for part in textwrap.wrap(n, cols - 1)][-3:]
    room = rows - 1 - len(fixed) - len(note)
    menu = menu_block(stage, cols, max(3, room - MIN_ACCOUNT)) if stage is not None else []
    acc = max(0, room - len(menu))
    page = screen.lines(v, me, lang, cols, account_lines=acc)
    gap = [""] * max(0, rows - 1 - len(page) - len(note) - len(menu))  # the menu stays just above the prompt
    return (page + gap + note + menu)[-(rows - 1):]


class Human:
    def __init__(self, lang: str = "en", inp: TextIO | None = None, out: TextIO | None = None,
                 size: tuple[int, int] | None = None) -> None:
        self.lang, self.fixed = lang, size
        self.inp, self.out = inp or sys.stdin, out or sys.stdout
        self.reader = reader_for(self.inp)
        self.notes: list[str] = []
        self.menu: Menu | None = None  # the menu being asked (for a driver typing like a person)
        self.pages: list[list[str]] = []  # every page drawn (tests look at them)
        self.names = None

    def size(self) -> tuple[int, int]:
        if self.fixed:
            return self.fixed
        try:
            s = os.get_terminal_size(self.out.fileno())
            return s.columns, s.lines
        except (AttributeError, OSError, ValueError):
            return shutil.get_terminal_size((80, 24))

    def _show(self, lines: list[str], ask: str) -> None:
        self.pages.append(lines)
        del self.pages[:-3]
        if self.out.isatty():
            self.out.write("\x1b[H\x1b[2J")
        self.out.write("\n".join(lines) + "\n" + ask)
        self.out.flush()

    def draw(self, v: CState, me: int, stage: Any, status: str = "") -> None:
        cols, rows = self.size()
        lines = compose(v, me, self.lang, stage, cols, rows, self.notes)
        ask = (status[: cols - 6] + "  " if status else "") + say("prompt", self.lang)
        self._show(lines, ask)

    def _readline(self) -> str:
        line = self.reader.readline()
        if line is None or line == "" or line.strip().lower() in ("q", "quit"):
            raise Quit
        return str(line)

    def choose(self, v: CState, me: int, d: Decision, options: list[Event]) -> Event:
        if not options:
            raise ValueError(f"no legal event for seat {me} at a {d.kind} decision")
        menu = Menu(v, me, d.kind, d.info, options, self.lang)
        if menu.single:
            what = menu.paths[menu.shown[0]][-1]
            if d.kind == "answer":
                what = f"{menu.title.split(': ', 1)[-1]} {what}"
            self.notes.append(say("auto", self.lang, what=what))
            self.notes = self.notes[-3:]
            return options[menu.shown[0]]
        self.menu = menu
        status = ""
        while True:
            self.draw(v, me, menu.stage(), status)
            line = self._readline()
            page = reference.page_for(line, self.lang, v.profile.name)
            if page is not None:
                self.page(page)
                status = ""
                continue
            ev = menu.pick(line)
            status = menu.error
            if ev is not None:
                self.notes = []
                self.menu = None
                return ev

    def page(self, lines: list[str]) -> None:
        """A reference page, wrapped at words, a screenful at a time."""
        cols, rows = self.size()
        wrapped = [part for line in lines for part in textwrap.wrap(line, cols - 1, subsequent_indent="    ") or [""]]
        per = max(1, rows - 1)
        for i in range(0, len(wrapped), per):
            self._show(wrapped[i: i + per], say("press_enter_more", self.lang))
            line = self.reader.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                return

    def finish(self, v: CState, me: int, text: str = "", wait: bool = True) -> None:
        """The end screen: the board as it ended, then the Big Reveal (each side's cards, the Unguarded Match
        explained, the result)."""
        cols, rows = self.size()
        end = screen.end_lines(v, me, self.lang, cols)
        top = screen.lines(v, me, self.lang, cols, account_lines=0)
        room = rows - 1 - len(top) - len(end)
        page = screen.lines(v, me, self.lang, cols, account_lines=max(0, room)) + end
        page = page[-(rows - 1):]
        self._show(page, (say("press_enter", self.lang) + " ") if wait else "")
        if wait:
            self.reader.readline()
        self.out.write("\n")
        self.out.flush()
