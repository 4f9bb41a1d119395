"""The human seat of a Hacker game: draws the page for a decision and reads lines until the menu gives a legal
event. What a table (or the local game) calls: `Human.choose(view, seat, decision, options)` returns one of
`options` (for a sealing decision the intent with its `secret`: the caller seals it with `split_secret`).

A decision with a single legal event (turning a sealed choice over, the controller's true answer, opening the pad,
laying nothing when nothing can be laid, discarding an unplayable card, being thrown out) is no choice, nor is the
order of discarding cards none of which can be played: it is taken
without asking, and the next page says so, with the rules' reason where they give one (cli/hacker/forced.py); every
such note since the player's last own choice stays on the page until the player chooses.

The account's lines since the player's last decision are shown on the decision's page when they fit there (older
lines dimmed); only when they do not, the ones that do not fit come first on pages of their own (Enter for more)."""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any, TextIO

from adp2p.cli.hacker import account, forced, reference
from adp2p.cli.hacker.menu import Menu
from adp2p.cli.hacker.page import account_room, compose, menu_rows, note_lines
from adp2p.cli.hacker.words import say, seat_name
from adp2p.cli.tui.reading import reader_for
from adp2p.engine.hacker.api import Decision, pending
from adp2p.engine.hacker.state import HState
from rich.console import Console

Event = dict[str, Any]
NOTES_MAX = 6  # lines of notes of moves done for the player: the oldest go first beyond them


def last_round(v: HState) -> list[Any]:
    """The account of the last round: after its "--- round N ---" line (the whole account in round 1)."""
    marks = [i for i, e in enumerate(v.history) if isinstance(e, dict) and e.get("k") == "round"]
    return list(v.history[marks[-1] + 1 if marks else 0 :])


class Quit(Exception):
    """The player typed q (or the input ended)."""


class Human:
    def __init__(self, lang: str = "en", inp: TextIO | None = None, out: TextIO | None = None,
                 size: tuple[int, int] | None = None, names: list[str] | None = None) -> None:
        self.lang, self.names, self.fixed = lang, names, size
        self.inp, self.out = inp or sys.stdin, out or sys.stdout
        self.reader = reader_for(self.inp)
        self.notes: list[str] = []
        self.forced: list[tuple[tuple[str, str], list[str]]] = []  # the notes' moves by (kind, reason)
        self.menu: Menu | None = None  # the menu being asked (for a driver that types like a person)
        self.seen = 0  # account lines this player has been shown
        self.fresh: int | None = None  # how many of the account's lines on the page are new to the player
        self.con = Console(file=self.out, force_terminal=self.out.isatty(), highlight=False,
                           color_system="auto" if self.out.isatty() else None, soft_wrap=True)

    def size(self) -> tuple[int, int]:
        if self.fixed:
            return self.fixed
        try:
            s = os.get_terminal_size(self.out.fileno())
            return s.columns, s.lines
        except (AttributeError, OSError, ValueError):
            return shutil.get_terminal_size((80, 24))

    def draw(self, v: HState, me: int, stage: Any, status: str = "", prompt: bool = True) -> None:
        cols, rows = self.size()
        picking = self.menu.picked if self.menu is not None and stage is not None else ()
        lines = compose(v, me, self.lang, stage, cols, rows, self.names, self.notes, picking, self.fresh)
        if self.out.isatty():
            self.out.write("\x1b[H\x1b[2J")
        for t in lines:
            self.con.print(t, end="\n", overflow="crop", no_wrap=True)
        ask = say("prompt", self.lang) if prompt else ""
        if status:  # why the last line was no choice, on the prompt's line (within the terminal's width)
            ask = "> " if prompt else ""
            status = status if len(status) + 2 + len(ask) < cols else status[: cols - 4 - len(ask)] + "…"
        self.out.write((status + "  " if status else "") + ask)
        self.out.flush()

    def choose(self, v: HState, me: int, d: Decision, options: list[Event]) -> Event:
        if not options:
            raise ValueError(f"no legal event for seat {me} at a {d.kind} decision")
        menu = Menu(v, me, d.kind, d.info, options, self.lang, self.names)
        only_discards = all(ev["t"] == "discard" for ev in options)  # which one first is no choice (H-UNPLAYABLE)
        if not menu.pad and (len(menu.shown) == 1 or only_discards):  # or copies the player cannot tell apart
            what = menu.paths[menu.shown[0]][-1]
            if d.kind == "answer":  # the controller's answers, square by square
                what = f"{d.info.get('sq', '?')} {what}"
            if d.kind == "unseal" and d.info.get("what") == "lay":  # the cards are on the page (laid face down)
                what = say("unsealed_lay", self.lang)
            why = forced.reason(v, me, d.kind, d.info, options, self.lang) or ""
            if self.forced and self.forced[-1][0] == (d.kind, why) and self.notes:  # the same again: one note
                self.forced[-1][1].append(what)
                self.notes.pop()
            else:
                self.forced.append(((d.kind, why), [what]))
            whats = ", ".join(self.forced[-1][1])
            self.notes.append(say("auto_why", self.lang, what=whats, why=why) if why else
                              say("auto", self.lang, what=whats))  # all of them until the player chooses
            while len(self.notes) > 1 and len(note_lines(self.notes, self.size()[0])) > NOTES_MAX:
                self.notes.pop(0)  # (only where the player has had no choice for a long time)
            return options[menu.shown[0]]
        cols, rows = self.size()
        menu.fit(menu_rows(v, me, self.lang, cols, rows, self.names, self.notes), cols)
        fresh = len(v.history) - min(self.seen, len(v.history))
        self.news(v, me, account_room(v, me, self.lang, menu.stage(), cols, rows, self.names, self.notes, fresh))
        self.menu = menu
        status = ""
        drawn = [(cols, rows)]

        def redraw_if_resized() -> None:  # the window dragged while the question waits: its page at the new size
            now = self.size()
            if now != drawn[0]:
                drawn[0] = now
                menu.fit(menu_rows(v, me, self.lang, now[0], now[1], self.names, self.notes), now[0])
                self.draw(v, me, menu.stage(), status)

        while True:
            self.draw(v, me, menu.stage(), status)
            tty = getattr(self.reader, "fd", None) is not None  # (a test's scripted typist: no window to resize)
            line = self.reader.readline(poll=redraw_if_resized) if tty else self.reader.readline()
            if line is None or line == "" or line.strip().lower() in ("q", "quit"):
                raise Quit
            page = reference.page_for(line, v.profile, v.n, self.lang)  # ?, help, rules, cards: then this question
            if page is not None:
                self.page(page)
                status = ""
                continue
            ev = menu.pick(line)
            status = menu.error
            if ev is not None:
                self.notes, self.forced = [], []
                return ev

    def watch(self, v: HState, me: int) -> None:
        """The page while another seat decides (a table calls it when the game moves on without this player)."""
        d = pending(v)
        who = seat_name(d.actor, me, self.lang, self.names) if d is not None and d.actor is not None else None
        self.seen = min(self.seen, len(v.history))
        self.fresh = len(v.history) - self.seen
        self.draw(v, me, None, say("waiting", self.lang, who=who) if who else "", prompt=False)  # (CHANCE: none)

    def news(self, v: HState, me: int, room: int) -> None:
        """What happened since this player's last decision: the page shows the latest `room` lines of the account;
        the new ones before them, if any, come first on pages of their own, Enter for the next."""
        new = v.history[self.seen:]
        self.seen = len(v.history)
        self.fresh = len(new)
        ahead = new[: max(0, len(new) - room)]
        if not ahead:
            return
        self.menu = None
        cols, rows = self.size()
        per = rows - 2
        for i in range(0, len(ahead), per):
            if self.out.isatty():
                self.out.write("\x1b[H\x1b[2J")
            self.con.print(say("news", self.lang, k=len(new), r=len(new) - len(ahead)), style="bold", no_wrap=True,
                           overflow="crop", markup=False)
            for e in ahead[i : i + per]:  # plain text: a player named "[/x]" is no markup (it raised MarkupError)
                self.con.print("· " + account.line(e, me, self.lang, self.names)[: cols - 3], no_wrap=True,
                               overflow="crop", markup=False)
            self.out.write(say("press_enter_more", self.lang))
            self.out.flush()
            line = self.reader.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                raise Quit

    def page(self, lines: list[str]) -> None:
        """A reference page (cli/hacker/reference.py), wrapped at words to the terminal, a screenful at a time."""
        import textwrap

        cols, rows = self.size()
        wrapped = [part for line in lines
                   for part in textwrap.wrap(line, max(20, cols - 1), subsequent_indent="    ") or [""]]
        per = max(1, rows - 1)
        for i in range(0, len(wrapped), per):
            if self.out.isatty():
                self.out.write("\x1b[H\x1b[2J")
            for part in wrapped[i : i + per]:
                self.con.print(part, no_wrap=True, overflow="crop", markup=False)
            self.out.write(say("press_enter_more", self.lang))
            self.out.flush()
            line = self.reader.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                return

    def finish(self, v: HState, me: int, text: str, wait: bool = True) -> None:
        self.notes = [text]
        self.fresh = len(v.history) - self.seen
        self.draw(v, me, None, say("press_enter", self.lang) if wait else "", prompt=wait)
        if wait:
            self.reader.readline()
        self.out.write("\n")
        cols, rows = self.size()
        last = last_round(v)
        if len(last) > account_room(v, me, self.lang, None, cols, rows, self.names, self.notes, self.fresh):
            # the last round did not fit the page: all of it below, in the terminal's scrollback
            self.con.print(say("last_round", self.lang, no=v.round_no), style="bold", markup=False)
            for e in last:
                self.con.print("· " + account.line(e, me, self.lang, self.names), markup=False)
        self.out.flush()
