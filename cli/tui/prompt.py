"""The human prompt: shows the screen, offers only the engine's legal events (numbered, in groups), reads a
choice. Reactions get a visible countdown and pass by themselves when time runs out; what cannot be undone
asks for a confirmation; `help`, `cards`, `rules` and `b` (board) work at every prompt; `q`, end of input
or Ctrl-C leave (KeyboardInterrupt, which the commands turn into a clean exit). A password among many is
picked card by card (c1, c2, ...).

Two faces, one logic: with a `FullScreen` (cli/tui/fullscreen.py, a real terminal) the screen is a fixed
layout of panes and the menu goes to its choices pane; without one (pipes, files, `--ui lines`) the screen
and the menu are printed as lines and the choice is read from a line.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

from adp2p.cli.tui.fullscreen import INTERRUPT, FullScreen, Prefix
from adp2p.cli.tui.panes import Frame
from adp2p.cli.tui.screen import HISTORY_LINES, bonus_names, render_text, screen
from adp2p.cli.words import LEVEL_NAMES, card_label, describe, history_line, msg, sector_name
from adp2p.engine.api import pending
from adp2p.engine.catalog import CODES, card, cards
from adp2p.engine.checklist import Checklist
from adp2p.engine.narration import Happening
from adp2p.engine.rules import requirement_of
from adp2p.engine.state import GameState
from rich.console import Console

Event = dict[str, Any]
GROUPS = ("done", "attempts", "plays", "trades", "other")
GROUP_KEYS = {"attempts": "a", "plays": "p", "trades": "t", "other": "o"}
GROUP_OF = {
    "done": "done",
    "pass": "done",
    "attempt": "attempts",
    "univ": "attempts",
    "play": "plays",
    "tele_action": "plays",
    "trade": "trades",
    "trade_reply": "trades",
}
FOLD = 12  # groups with more choices than this are folded to one line (its key lists them)
FOLD_FULL = 4  # the same in the full screen, whose choices pane is short
SECTOR_KEY = re.compile(r"a([1-6])")  # the attempts on one sector (a1 = Banking ... a6 = Universities)
PLAY_KEY = re.compile(r"p([1-9])")  # the plays of one card: p1, p2, ... (the card first, then its targets)
CARD_KEY = re.compile(r"c(\d{1,2})?")  # a password card by card: c1, c2, ... (c alone: start again)
STAGED = frozenset({"password", "discard", "give", "spam_give"})  # kinds of choices picked card by card
STAGE = 4  # more passwords than this to choose from: picked card by card
DEFAULT_REACT_SECONDS = 15.0


def group_of(ev: Event) -> str:
    if ev["t"] in ("discard", "spam_give") and not ev.get("cards"):
        return "done"  # giving up nothing ends the step: d does it, as everywhere
    return GROUP_OF.get(ev["t"], "other")


def irreversible(ev: Event) -> bool:
    """Choices that give cards away or replace the password: confirmed before they are sent."""
    t = ev["t"]
    if t in ("trade", "give"):
        return True
    if t in ("spam_give",) or (t == "trade_reply" and ev.get("accept")):
        return bool(ev.get("cards"))
    return t == "play" and "new" in ev


class LineReader:
    """Lines from a file descriptor with an optional timeout (select + os.read, own buffer), or from any
    file-like object without one (tests pass StringIO)."""

    def __init__(self, inp: Any) -> None:
        self.inp = inp
        self.buf = b""
        try:
            self.fd: int | None = inp.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def discard_typed_ahead(self) -> None:
        """Forget what was typed before the question it would answer was asked (keys pressed while the others
        moved land on no later prompt). Only a terminal types ahead; a pipe or a file is a script, kept whole."""
        if self.fd is None or not os.isatty(self.fd):
            return
        self.buf = b""
        while select.select([self.fd], [], [], 0)[0]:
            if not os.read(self.fd, 4096):
                break

    def readline(self, timeout: float | None = None, tick: Callable[[float], None] | None = None) -> str | None:
        """One line ('' at end of input) or None when `timeout` seconds pass first; `tick(seconds_left)` is
        called about once a second while waiting."""
        if self.fd is None:
            return self.inp.readline()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            wait = None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if tick is not None:
                    tick(left)
                wait = min(1.0, left)
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                line, self.buf = self.buf, b""
                return line.decode(errors="replace")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace") + "\n"


_READERS: dict[int, LineReader] = {}


def reader_for(inp: Any) -> LineReader:
    r = LineReader(inp)
    if r.fd is None:
        return r
    return _READERS.setdefault(r.fd, r)


def terminal_width(out: Any) -> int:
    try:
        if out.isatty():
            return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    return shutil.get_terminal_size((100, 24)).columns


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
        self.picked: list[int] = []  # the password cards picked so far (staged choice)

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
        """The game moved on while nothing is asked: the full screen shows it (at most twice a second)."""
        if self.ui is None or self.ui.reading or time.monotonic() - self._watched < 0.5:
            return
        self._watched = time.monotonic()
        cl = self.checklist(st, me) if me is not None else None
        self.ui.update(Frame(st, me, self.lang, None, cl, self.names))

    _watched = 0.0

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
        groups: dict[str, list[int]] = {g: [] for g in GROUPS}
        for i, ev in enumerate(options):
            groups[group_of(ev)].append(i)
        order = [i for g in GROUPS for i in groups[g]]
        shown_groups = [g for g in GROUPS if groups[g]]
        if self.ui is None:
            self.say()
        fold = FOLD if self.ui is None else FOLD_FULL
        for g in shown_groups:
            idx = groups[g]
            title = f"  {msg('group.' + g, self.lang)}:"
            if len(idx) > fold and len(shown_groups) > 1 and not self.staged(options, idx):
                first = order.index(idx[0]) + 1
                line = f"{first}-{first + len(idx) - 1}: " + msg(
                    "group.collapsed", self.lang, n=len(idx), key=GROUP_KEYS.get(g, "o")
                )
                if self.ui is not None:  # the full screen: a folded group is one line, its title in front
                    self.say(f"{title} {line}")
                else:
                    self.say(title)
                    self.say("    " + line)
                continue
            if self.ui is None or len(shown_groups) > 1:  # (the full screen has no room for a lone group's title)
                self.say(title)
            if self.staged(options, idx):
                self.list_stage(st, me, options, order, idx)
                continue
            self.list_items(st, me, options, order, idx)
        return order, groups

    def new_stage(self) -> None:
        """A stage of the menu replaces what the full screen's choices pane showed (as lines, it follows it)."""
        if self.ui is not None:
            self.ui.clear_choices()

    @staticmethod
    def staged(options: list[Event], idx: list[int]) -> bool:
        """Are these choices sets of cards of one kind (passwords, discards, cards given), too many for one list?
        Then they are picked card by card."""
        kinds = {options[i]["t"] for i in idx}
        return (
            len(idx) > STAGE and len(kinds) == 1 and kinds <= STAGED and all(options[i].get("cards") for i in idx)
        )

    def list_stage(self, st: GameState, me: int, options: list[Event], order: list[int], idx: list[int]) -> None:
        """The choices (passwords, discards, ...) that hold every card picked so far: listed when few are left,
        else the cards that can come next (c1, c2, ...), each with how many of those choices hold it. Only the
        engine's legal events are ever offered: a stage only narrows their list."""
        left = [i for i in idx if set(self.picked) <= set(options[i]["cards"])]
        if len(left) <= STAGE and not self.picked:
            self.list_items(st, me, options, order, left)
            return
        password = options[left[0]]["t"] == "password"
        if len(left) <= STAGE and not password:
            self.list_items(st, me, options, order, left)
            return
        if len(left) <= STAGE:  # the passwords left, by their cards alone (the sector is said above them)
            sector = sector_name(options[left[0]]["s"], self.lang)
            self.say("    " + msg("ev.password", self.lang, sector=sector, cards="").rstrip())
            for i in left:
                labels = ", ".join(card_label(st.face(h, me), self.lang) for h in options[i]["cards"])
                self.say(f"    {order.index(i) + 1:>3}. {labels}")
            return
        picked = ", ".join(card_label(st.face(h, me), self.lang) for h in self.picked)
        self.say("    " + msg("stage.password" if password else "stage.cards", self.lang, n=len(left),
                              picked=msg("stage.picked", self.lang, cards=picked) if picked else ""))
        items = []
        for k, h in enumerate(self.stage_cards(options, left), 1):
            n = sum(1 for i in left if h in options[i]["cards"])
            items.append(msg("stage.card", self.lang, key=f"c{k}", card=card_label(st.face(h, me), self.lang), n=n))
        width = max(40, self.cols() - 1)
        for line in stage_rows(items, width - 6):
            self.say("      " + line)

    def stage_cards(self, options: list[Event], left: list[int]) -> list[int]:
        """The cards the passwords left hold besides those picked, in hand order."""
        out: list[int] = []
        for i in left:
            out += [h for h in options[i]["cards"] if h not in out and h not in self.picked]
        return out

    def pick_card(self, st: GameState, me: int, options: list[Event], order: list[int], idx: list[int],
                  number: str | None) -> None:
        """`c<k>`: the k-th card of the stage is picked; `c`: start again."""
        if number is None:
            self.picked = []
        else:
            left = [i for i in idx if set(self.picked) <= set(options[i]["cards"])]
            cards_now = self.stage_cards(options, left) if len(left) > STAGE else []
            k = int(number)
            if not 1 <= k <= len(cards_now):
                self.tell(msg("stage.none", self.lang))
                return
            self.picked.append(cards_now[k - 1])
        self.list_stage(st, me, options, order, idx)

    def list_play_cards(self, st: GameState, me: int, options: list[Event], order: list[int], idx: list[int]) -> None:
        """The cards that can be played, one line each with how many ways (targets) it has (p1, p2, ...); what
        is not a card's play (TeleComm's action) listed as it is."""
        for k, h in enumerate(play_cards(options, idx), 1):
            n = sum(1 for i in idx if options[i].get("card") == h)
            line = msg("group.card", self.lang, key=f"p{k}", card=card_label(st.face(h, me), self.lang), n=n)
            self.say("    " + line)
        rest = [i for i in idx if "card" not in options[i]]
        if rest:
            self.list_items(st, me, options, order, rest)

    def list_sectors(self, options: list[Event], idx: list[int]) -> None:
        """The attempts, one line per sector ("a3: Micronopoly — 6 choices"): a stage of at most six lines."""
        for s in range(6):
            n = sum(1 for i in idx if options[i].get("s") == s)
            if n:
                line = msg("group.sector", self.lang, key=f"a{s + 1}", sector=sector_name(s, self.lang), n=n)
                self.say("    " + line)

    def list_items(self, st: GameState, me: int, options: list[Event], order: list[int], idx: list[int]) -> None:
        width = max(40, self.cols() - 1)
        cl: Checklist | None = None
        for i in idx:
            text = describe(st, options[i], me, self.lang, self.names)
            ev = options[i]
            if ev["t"] == "attempt" and st.controller[ev["s"]] not in (None, me):
                cl = cl or self.checklist(st, me)
                text += doomed_words(st, me, cl, ev, self.lang)
            head = f"    {order.index(i) + 1:>3}. "
            # wrapped at words with a hanging indent: a choice never breaks mid-word on a narrow terminal
            self.say(textwrap.fill(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                                   break_long_words=False, break_on_hyphens=False))

    # -- commands at the prompt --------------------------------------------------------------------
    def show_cards(self, st: GameState, me: int, everything: bool = False) -> None:
        faces = (
            [c.id for c in cards()] if everything else [f for h in st.hands[me] if (f := st.face(h, me)) is not None]
        )
        if not faces:
            self.say(msg("no_cards", self.lang))
        for f in faces:
            c = card(f)
            req = requirement_of(c, st)
            line = f"[{CODES[c.code]}] {c.display_title(self.lang)}"
            if req is not None:
                line += (
                    "  ("
                    + msg("requires", self.lang, level=LEVEL_NAMES[req[1]], sector=sector_name(req[0], self.lang))
                    + ")"
                )
            self.say(line)
            text = c.text_de if self.lang == "de" else c.text
            for para in text.split("\n\n"):
                self.say("    " + para.replace("\n", " "))

    def show_rules(self, st: GameState) -> None:
        prof = st.profile
        self.say(msg("rules_text", self.lang, profile=prof.name, goal=prof.goal))
        for name, bonus in bonus_names(self.lang, prof.bonuses):
            self.say(f"  {name:<14} {bonus}")

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
        self.picked = []
        self.show(st, me, options)
        order, groups = self.menu(st, me, options)
        done = groups["done"]
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
                self.menu(st, me, options)
                continue
            if key in ("d", "done", "pass", "e"):
                if not done:
                    self.tell(msg("no_done", self.lang))
                    continue
                return options[done[0]]
            folded = {v: g for g, v in GROUP_KEYS.items()}
            if key in folded and groups[folded[key]]:
                idx = groups[folded[key]]
                self.new_stage()
                if folded[key] == "attempts" and len(idx) > FOLD:
                    self.list_sectors(options, idx)  # one more stage: the sector first, then its choices
                elif folded[key] == "plays" and len(idx) > STAGE and len(play_cards(options, idx)) < len(idx):
                    self.list_play_cards(st, me, options, order, idx)  # the card first, then its targets
                else:
                    self.list_items(st, me, options, order, idx)
                continue
            stage = CARD_KEY.fullmatch(key)
            if stage and self.staged(options, groups["other"]):
                self.new_stage()
                self.pick_card(st, me, options, order, groups["other"], stage.group(1))
                continue
            play = PLAY_KEY.fullmatch(key)
            cards_played = play_cards(options, groups["plays"])
            if play and 1 <= int(play.group(1)) <= len(cards_played):
                h = cards_played[int(play.group(1)) - 1]
                self.new_stage()
                self.list_items(st, me, options, order, [i for i in groups["plays"] if options[i].get("card") == h])
                continue
            sector = SECTOR_KEY.fullmatch(key)
            if sector and groups["attempts"]:
                s = int(sector.group(1)) - 1
                idx = [i for i in groups["attempts"] if options[i].get("s") == s]
                if idx:
                    self.new_stage()
                    self.list_items(st, me, options, order, idx)
                    continue
            if key.isdigit() and 1 <= int(key) <= len(order):
                ev = options[order[int(key) - 1]]
                if irreversible(ev) and not self.confirm(describe(st, ev, me, self.lang, self.names)):
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


def play_cards(options: list[Event], idx: list[int]) -> list[int]:
    """The cards the plays among `idx` play, each once, in menu order (at most 9: p1..p9)."""
    out: list[int] = []
    for i in idx:
        h = options[i].get("card")
        if options[i]["t"] == "play" and h is not None and h not in out:
            out.append(h)
    return out[:9]


def stage_rows(items: list[str], width: int) -> list[str]:
    """Short items several to a line, each item whole: in two columns when two fit, else as many as fit."""
    col = max(len(x) for x in items) + 3
    if 2 * col - 3 <= width:
        rows = (len(items) + 1) // 2
        pairs = [(items[r], items[r + rows] if r + rows < len(items) else "") for r in range(rows)]
        return [(a.ljust(col) + b).rstrip() for a, b in pairs]
    out: list[str] = []
    for item in items:
        if out and len(out[-1]) + 3 + len(item) <= width:
            out[-1] += "   " + item
        else:
            out.append(item)
    return out


def doomed_words(st: GameState, me: int, cl: Checklist, ev: Event, lang: str) -> str:
    """" — fails for sure: C not in the password" where the checklist shows a code of the attempt OUT (else "")."""
    out = cl.status(ev["s"])[1]
    faces = [st.face(h, me) for h in ev["cards"]]
    doomed = sorted({card(f).code for f in faces if f is not None and card(f).code in out})
    return " " + msg("doomed", lang, codes=", ".join(CODES[c] for c in doomed)) if doomed else ""


def describe_hand(st: GameState, me: int, lang: str) -> str:
    return ", ".join(card_label(st.face(h, me), lang) for h in st.hands[me])
