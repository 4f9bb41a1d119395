"""The human prompt: shows the screen, offers only the engine's legal events (numbered, in groups), reads a
choice. Reactions get a visible countdown and pass by themselves when time runs out; what cannot be undone
asks for a confirmation; `help`, `cards`, `rules` and `b` (board) work at every prompt; `q`, end of input
or Ctrl-C leave (KeyboardInterrupt, which the commands turn into a clean exit). The menu itself, its groups
and stages, is cli/access_denied/menu.py.

Two faces, one logic: with a `FullScreen` (cli/tui/fullscreen.py, a real terminal) the screen is a fixed
layout of panes and the menu goes to its choices pane; without one (pipes, files, `--ui lines`) the screen
and the menu are printed as lines and the choice is read from a line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from adp2p.cli.access_denied.menu import Menu
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.panes import Frame
from adp2p.cli.access_denied.reference import card_lines, rules_lines
from adp2p.cli.access_denied.screen import HISTORY_LINES, screen
from adp2p.cli.access_denied.words import card_label, describe, history_line
from adp2p.cli.tui.drawing import render_text
from adp2p.cli.tui.follow import Follower
from adp2p.cli.tui.fullscreen import INTERRUPT, FullScreen, Prefix
from adp2p.cli.tui.reading import reader_for, terminal_width
from adp2p.engine.access_denied.api import pending
from adp2p.engine.access_denied.catalog import cards
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.state import GameState
from rich.console import Console

Event = dict[str, Any]
DEFAULT_REACT_SECONDS = 15.0


def irreversible(ev: Event) -> bool:
    """Choices that give cards away or replace the password: confirmed before they are sent."""
    t = ev["t"]
    if t in ("trade", "give"):
        return True
    if t in ("spam_give",) or (t == "trade_reply" and ev.get("accept")):
        return bool(ev.get("cards"))
    return t == "play" and "new" in ev


class Prompt:
    """A person's seat: `ask(view, seat, options)` returns one of `options`."""

    def __init__(
        self,
        lang: str = "en",
        out: Any = None,
        inp: Any = None,
        *,
        react_seconds: float = DEFAULT_REACT_SECONDS,
        events: Callable[[], list[Event]] | None = None,
        names: Callable[[], list[str] | None] | list[str] | None = None,
        width: int | None = None,
        history: int = HISTORY_LINES,
        react_to: str = "mine",
        ui: FullScreen | None = None,
    ) -> None:
        self.lang = lang
        self.react_to = react_to  # "mine": ask only when it matters (react_worth_asking); "all": every window
        self.notes: Callable[[], list[str]] | None = None  # what the table told us privately (TablePeer)
        self._notes_seen = 0
        self.out = out or sys.stdout
        self.reader = reader_for(inp or sys.stdin)
        self.react_seconds = react_seconds
        self.events = events
        self._names = names
        self.width = width
        self.history = history
        self.shown = 0  # history lines already on a screen
        self.ui = ui  # the full-screen client, or None: lines
        self._follow = Follower(self._draw_followed)

    # -- output ------------------------------------------------------------------------------------
    @property
    def names(self) -> list[str] | None:
        return self._names() if callable(self._names) else self._names

    def cols(self) -> int:
        if self.ui is not None:
            return self.ui.cols()
        return self.width or terminal_width(self.out)

    def close(self) -> None:
        """Leave the full screen (what follows is printed as lines)."""
        if self.ui is not None:
            self.ui.stop()
            self.ui = None

    def watch(self, st: GameState, me: int | None) -> None:
        """The game moved on while nothing is asked: the full screen shows it, at most twice a second, and always
        its latest state (cli/tui/follow.py: the hand dealt amid a burst of setup lines stayed hidden until the next
        line came)."""
        if self.ui is None or self.ui.reading:
            return
        self._follow(st, me)

    def _draw_followed(self, st: GameState, me: int | None) -> None:
        if self.ui is not None:
            cl = self.checklist(st, me) if me is not None else None
            self.ui.update(Frame(st, me, self.lang, None, cl, self.names))

    def log(self, line: str) -> None:
        """A line of the game's account or a notice: the log pane of the full screen, else printed."""
        if self.ui is not None:
            self.ui.start()
            self.ui.log(line)
        else:
            self.say(line)

    def read(
        self, prefix: Prefix, timeout: float | None = None, tick: Callable[[float], None] | None = None
    ) -> str | None:
        """A line typed after `prefix` (see LineReader.readline); Ctrl-C in the full screen raises KeyboardInterrupt."""
        if self.ui is not None:
            line = self.ui.readline(prefix, timeout)
            if line == INTERRUPT:
                raise KeyboardInterrupt
            return line
        self.say(prefix if isinstance(prefix, str) else prefix(), end="")
        return self.reader.readline(timeout, tick)

    def discard_typed_ahead(self) -> None:
        if self.ui is not None:
            self.ui.discard_typed_ahead()
        else:
            self.reader.discard_typed_ahead()

    def console(self) -> Console:
        w = self.cols()
        tty = bool(getattr(self.out, "isatty", lambda: False)())
        return Console(
            file=self.out, width=w, highlight=False, force_terminal=tty or None, color_system="auto" if tty else None
        )

    def say(self, text: str = "", end: str = "\n") -> None:
        if self.ui is not None:
            self.ui.say(text)
            return
        print(text, end=end, file=self.out, flush=True)

    def checklist(self, st: GameState, me: int) -> Checklist:
        evs = self.events() if self.events else None
        if evs:
            try:
                return Checklist.rebuild(st, me, list(evs))
            except Exception:  # a partial log must never break the prompt: fall back to the view alone
                pass
        cl = Checklist(me)
        cl.sync(st)
        return cl

    def show(self, st: GameState, me: int | None, options: list[Event] | None = None) -> None:
        lines = max(self.history, min(30, len(st.history) - self.shown))
        self.shown = len(st.history)
        cl = self.checklist(st, me) if me is not None else None
        if self.ui is not None:
            self.ui.start()
            self.ui.show(Frame(st, me, self.lang, options, cl, self.names))
            self._notes_seen = len(self.notes() if self.notes is not None else [])  # they stay in the log pane
            return
        con = self.console()
        con.print(
            screen(st, me, self.lang, checklist=cl, options=options, names=self.names, width=con.width, history=lines)
        )
        self.say_notes()

    def say_notes(self) -> None:
        notes = self.notes() if self.notes is not None else []
        for line in notes[self._notes_seen :]:  # what we were shown privately since the last screen, near the prompt
            self.say(line)
        self._notes_seen = len(notes)

    def text(self, st: GameState, me: int | None, options: list[Event] | None = None, width: int = 100) -> str:
        cl = self.checklist(st, me) if me is not None else None
        return render_text(
            screen(st, me, self.lang, checklist=cl, options=options, names=self.names, width=width), width
        )

    # -- the menu ----------------------------------------------------------------------------------
    def menu(self, st: GameState, me: int, options: list[Event]) -> tuple[list[int], dict[str, list[int]]]:
        """Print the grouped menu; returns the display order (option indexes) and the groups."""
        m = Menu(self, st, me, options)
        m.show()
        return m.order, m.groups

    # -- commands at the prompt --------------------------------------------------------------------
    def show_cards(self, st: GameState, me: int, everything: bool = False) -> None:
        for line in card_lines(st, me, self.lang, everything):
            self.say(line)

    def show_rules(self, st: GameState) -> None:
        for line in rules_lines(st, self.lang, max(40, self.cols() - 1)):
            self.say(line)

    # -- asking ------------------------------------------------------------------------------------
    def ask(self, st: GameState, me: int, options: list[Event]) -> Event:
        try:
            return self._ask(st, me, options)
        finally:
            if self.ui is not None:
                self.ui.done()

    def _ask(self, st: GameState, me: int, options: list[Event]) -> Event:
        if not options:
            raise ValueError("no legal choice to offer")
        if len(options) == 1:
            return options[0]
        d = pending(st)
        if d is not None and d.kind == "window":
            return self.react(st, me, options)
        self.discard_typed_ahead()  # a key meant for an earlier prompt never answers this one
        self.show(st, me, options)
        menu = Menu(self, st, me, options)
        menu.show()
        order, done = menu.order, menu.groups["done"]
        while True:
            line = self.read(msg("prompt", self.lang))
            if not line:
                raise KeyboardInterrupt  # end of input: leave
            key = line.strip().lower()
            if not key:
                continue
            if key in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if key in ("?", "h", "help", "hilfe"):
                self.say_help()
                continue
            if key in ("cards", "karten", "cards all", "karten alle"):
                self.show_cards(st, me, everything=key.endswith(("all", "alle")))
                continue
            if key in ("rules", "regeln"):
                self.show_rules(st)
                continue
            if key in ("b", "board"):
                self.show(st, me, options)
                menu.show()
                continue
            if key in ("d", "done", "pass", "e"):
                if not done:
                    self.tell(msg("no_done", self.lang))
                    continue
                return options[done[0]]
            picked: int | None = None
            if menu.stage(key):  # a group, a sector, a card's plays, a card of a password...
                picked, menu.chosen = menu.chosen, None
                if picked is None:
                    continue
            elif key.isdigit() and 1 <= int(key) <= len(order):
                picked = order[int(key) - 1]
            if picked is not None:
                ev = options[picked]
                if irreversible(ev) and not self.confirm(describe(st, ev, me, self.lang, self.names)):
                    if menu.carded is not None and menu.picked:  # cards picked to it: the stage again, from none
                        menu.pick_card(menu.carded, None)
                    self.tell(msg("cancelled", self.lang))
                    continue
                return ev
            self.tell(msg("bad_key", self.lang, key=line.strip()[:20], n=len(order)))

    def tell(self, text: str) -> None:
        """A short answer to a key (a wrong key, nothing to end): the full screen shows the latest one in place
        under the choices; as lines, it is printed."""
        if self.ui is not None:
            self.ui.status(text)
        else:
            self.say(text)

    def say_help(self) -> None:
        self.say(msg("help", self.lang) + ("\n" + msg("help_full", self.lang) if self.ui is not None else ""))

    def confirm(self, what: str) -> bool:
        if self.ui is not None:  # the question in the choices pane, its keys at the input line
            self.say(msg("confirm_full", self.lang, what=what))
            line = self.read(msg("confirm_keys", self.lang))
        else:
            line = self.read(msg("confirm", self.lang, what=what))
        if not line:
            raise KeyboardInterrupt
        return line.strip().lower() in msg("yes_keys", self.lang).split()

    def react(self, st: GameState, me: int, options: list[Event]) -> Event:
        """A reaction window: pass, or play one of the fitting reactions, before the countdown ends."""
        passing = next(ev for ev in options if ev["t"] == "pass")
        if self.react_seconds <= 0:
            return passing
        if self.react_to != "all" and not react_worth_asking(st, me, options):
            return passing  # only "at any time" cards fit, on something not about us: play them on your turn
        self.discard_typed_ahead()
        self.show(st, me, options)
        about = window_cause(st)
        if about is not None:  # what the window is about, in one line, right above the choices
            self.say(msg("react_about", self.lang, what=history_line(about, self.lang, self.names)))
        order = list(range(len(options)))
        for n, i in enumerate(order, 1):
            self.say(f"    {n:>3}. {describe(st, options[i], me, self.lang, self.names)}")
        deadline = time.monotonic() + self.react_seconds

        def countdown() -> str:  # the full screen redraws its input line in place, with the seconds left
            return msg("prompt_react", self.lang, secs=max(0, int(deadline - time.monotonic() + 0.999)))

        # As lines, the prompt is printed once and warned once near the end, never redrawn with "\r": a redraw
        # would wipe what the player is typing (the terminal echoes it; we only see it after Enter).
        warned = self.react_seconds <= 5

        def tick(left: float) -> None:
            nonlocal warned
            if not warned and left <= 5:
                warned = True
                self.say("\n" + msg("prompt_react", self.lang, secs=int(left + 0.999)), end="")

        first = True
        while True:
            left = deadline - time.monotonic()
            prefix: Prefix = countdown if self.ui is not None else (countdown() if first else "")
            first = False
            line = self.read(prefix, timeout=max(0.0, left), tick=tick) if left > 0 else None
            if line is None:
                if self.ui is not None:
                    self.ui.log(msg("auto_pass", self.lang))
                else:
                    self.say("\n" + msg("auto_pass", self.lang))
                return passing
            if not line:
                raise KeyboardInterrupt
            key = line.strip().lower()
            if key in ("", "d", "pass", "p"):
                return passing
            if key in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if key in ("?", "h", "help", "hilfe"):
                self.say_help()
                continue
            if key in ("cards", "karten"):
                self.show_cards(st, me)
                continue
            if key.isdigit() and 1 <= int(key) <= len(order):
                return options[order[int(key) - 1]]
            self.tell(msg("bad_key", self.lang, key=line.strip()[:20], n=len(order)))


ANY_TIME = frozenset(c.id for c in cards() if c.trigger == "anytime")  # WinZap, No eTaxes, CopyBot


def window_cause(st: GameState) -> Happening | None:
    """The happening a reaction window answers: the latest attempt or card played in the account."""
    for h in reversed(st.history):
        if h.key in ("attempt", "buys_access", "plays"):
            return h
        if h.key == "turn":
            break
    return None


def react_worth_asking(st: GameState, me: int, options: list[Event]) -> bool:
    """Is this reaction window worth a countdown? Yes when it is about us (our sector attacked or targeted, a card
    played against us) or when a reaction made for this moment fits; not when only "at any time" cards fit
    something that is not about us (those are as good on our own turn: asking at every move stalled the game)."""
    if any(ev["t"] == "play" and ev.get("face") not in ANY_TIME for ev in options):
        return True
    d = pending(st)
    ctx = (d.info.get("ctx") if d is not None else None) or {}
    s = ctx.get("s")
    return ctx.get("q") == me or (isinstance(s, int) and st.controller[s] == me)


def describe_hand(st: GameState, me: int, lang: str) -> str:
    return ", ".join(card_label(st.face(h, me), lang) for h in st.hands[me])
