"""The fixed layout of the full-screen client: which pane goes where at a terminal size, and each pane's lines.

A `Frame` is what one decision shows (a player's view, the legal events, the checklist); `compose` turns a
frame, the log, the choices and the terminal size into exactly `rows` lines of ANSI text, every pane drawn by
the reusable rich renderables of `screen.py` at the pane's width (rich wraps at words), each pane keeping
its last column blank: nothing ever reaches an edge, so nothing is cut there. Two layouts:

- wide (at least `WIDE_COLS` x `WIDE_ROWS`): header; sectors | password, checklist, piles and players;
  hand | log; choices.
- compact (anything smaller, e.g. 80x24): header in two lines; board (or, toggled with Tab, password and
  checklist); the log at the whole width; your hand, card by card; your password; choices.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.screen import (
    RIGHT_MIN,
    checklist_table,
    compact_board,
    compact_checklist,
    compact_hand,
    hand_table,
    header,
    natural_width,
    password_text,
    piles_line,
    players_lines,
    sectors_table,
    short_header,
)
from adp2p.cli.tui.drawing import (
    Line,
    Scroll,
    beside,
    choices_top,
    fit,
    lines_of,
    solid,
    text_lines,
    text_lines_plain,
    to_ansi,
    window,
)
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.state import GameState
from rich.console import Console, Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

WIDE_COLS = 110
WIDE_ROWS = 36
MIN_CHOICES = 5  # the choices pane never has fewer lines (else the compact layout is used)
EFFECTS = ("no_attempts_next", "no_actions_next", "lose_actions_next", "no_draw_next", "extra_actions_next",
           "etaxes_next", "ignore_limit", "sol", "beta")


@dataclass
class Frame:
    """What a decision shows: `me`'s view, the legal events, the checklist, the players' names."""

    st: GameState
    me: int | None
    lang: str
    options: list[dict[str, Any]] | None = None
    checklist: Checklist | None = None
    names: list[str] | None = None
    end: list[str] | None = None  # the game is over: the passwords, the verdict, the log (ending.py)
    audit: list[Any] | None = None  # at the end: the audit's verdict per player (cli/verdicts.py's PlayerVerdict)


EFFECT_FORMS = ("effect", "effect_short", "effect_tiny")  # the words for the effects on you, longest first


def effect_words(st: GameState, me: int, lang: str, form: str = "effect") -> list[str]:
    """The lasting effects on `me` (public facts of the state), in words (`form`: one of EFFECT_FORMS)."""
    if me >= len(st.status):
        return []
    status = st.status[me]
    return [msg(f"{form}.{key}", lang, n=value) for key in EFFECTS if (value := getattr(status, key))]


def effects_text(st: GameState, me: int, lang: str) -> Text | None:
    """The lasting effects on `me`, one line; None when there are none."""
    words = effect_words(st, me, lang)
    return Text(msg("on_you", lang, effects=", ".join(words)), style="bold yellow") if words else None


def effects_parts(st: GameState, me: int, lang: str, form: str = "effect") -> list[Text]:
    """The same, a piece per effect (the first saying whom they are on), for a header that places them one by one."""
    words = effect_words(st, me, lang, form)
    return [Text(msg("on_you", lang, effects=w) if not i else w, style="bold yellow") for i, w in enumerate(words)]


class Layout:
    """The static panes of a frame at one size, cached (the log and the choices change between redraws)."""

    def __init__(self, frame: Frame, cols: int, rows: int, secret: bool) -> None:
        self.frame, self.cols, self.rows = frame, cols, rows
        self.con = Console(width=cols, file=io.StringIO(), force_terminal=True, color_system="standard",
                           highlight=False, legacy_windows=False)
        self.wide = cols >= WIDE_COLS and rows >= WIDE_ROWS and frame.me is not None
        self.top: list[Line] = []
        self.log_width = cols
        self.log_rows = 0
        self.board_rows = 0  # compact: the board's lines, which the log takes while it is scrolled back
        if self.wide:
            self._wide()
            if rows - 1 - len(self.top) - self.log_rows < MIN_CHOICES:  # the choices would not fit: compact
                self.wide = False
        if not self.wide:
            self.top = []
            self._compact(secret)

    def _head(self, secret: bool | None, short: bool = False) -> list[Line]:
        """The header: turn, whose turn, step, actions left, your decision, the effects on you, the keys (with
        what Tab shows instead, in the compact layout: `secret` says which pane is up; None: no Tab). `short`: in
        at most two lines (screen.short_header)."""
        f = self.frame
        asked = f.options is not None  # a frame that only follows the game asks nothing
        head = header(f.st, f.me, f.lang, f.names, asked)
        if secret is None:
            keys = msg("keys_wide", f.lang)
        else:
            keys = msg("keys_full", f.lang, pane=msg("pane.board" if secret else "pane.secret", f.lang))
        fx = effects_text(f.st, f.me, f.lang) if f.me is not None else None
        if short:
            # the effects on you as one group ("On you: a, b"), in longer then shorter words; split over both lines
            # in the shortest words only when even that group fits on neither
            parts = [effects_parts(f.st, f.me, f.lang, form) if f.me is not None else [] for form in EFFECT_FORMS]
            forms = [[Text(", ").join(p)] if p else [] for p in parts] + parts[-1:]
            lines = short_header(f.st, f.me, f.lang, f.names, self.cols - 1, forms, keys.split(" · "), asked)
            return lines_of(self.con, Group(*lines), self.cols)
        last = head.plain.split("\n")[-1]
        head.append("   " if len(last) + 3 + len(keys) < self.cols else "\n")  # on the decision's line when it fits
        head.append(keys, style="dim")
        parts: list[RenderableType] = [head]
        if fx is not None:
            parts.append(fx)
        return lines_of(self.con, Group(*parts), self.cols)

    def _wide(self) -> None:
        f, con, cols = self.frame, self.con, self.cols
        assert f.me is not None
        sectors = sectors_table(f.st, f.lang, f.names, lean=True)
        checklist = checklist_table(f.st, f.checklist, f.lang, f.names, lean=True) if f.checklist is not None else None
        right_need = natural_width(checklist, cols) + 2 if isinstance(checklist, Table) else 0
        # the right pane as wide as the checklist needs (its headers whole), the left one the rest, at least half
        left_w = max((cols - 1) // 2, min(natural_width(sectors, cols) + 2, cols - 1 - max(RIGHT_MIN, right_need)))
        right_w = cols - 1 - left_w
        board = lines_of(con, sectors, left_w)
        secret_parts: list[RenderableType] = [password_text(f.st, f.me, f.lang)]
        if checklist is not None:
            secret_parts.append(checklist)
            if isinstance(checklist, Table):
                secret_parts.append(Text(msg("checklist_legend", f.lang), style="dim"))
        # the piles and the players under the checklist, where the right pane has room (the board is the taller)
        secret_parts += [Text(""), piles_line(f.st, f.lang), players_lines(f.st, f.lang, f.names)]
        secret = lines_of(con, Group(*secret_parts), right_w)
        h1 = max(len(board), len(secret))
        hand = lines_of(con, hand_table(f.st, f.me, f.options, f.lang, text_width=max(12, left_w - 60)), left_w)
        head = self._head(None)
        spare = self.rows - 1 - len(head) - h1 - max(len(hand), 6) - 2 * MIN_CHOICES  # room for a longer log
        h2 = max(len(hand), 6) + max(0, spare)
        self.top = [*head, *beside(fit(board, h1, left_w), fit(secret, h1, right_w))]
        self.mid_left = fit(hand, h2, left_w)
        self.log_width, self.log_rows = right_w, h2

    def _compact(self, secret: bool) -> None:
        f, con, cols = self.frame, self.con, self.cols
        head = self._head(secret if f.me is not None else None, short=True)
        if f.me is None:
            self.top = [*head, *lines_of(con, Group(*compact_board(f.st, f.lang, f.names, one_line=True)), cols)]
            self.mid_left = []
            self.log_width, self.log_rows = cols, max(3, (self.rows - len(self.top)) // 2)
            return
        if secret:  # the checklist as a table when it fits the board's place, else in short lines
            pw = password_text(f.st, f.me, f.lang)
            board = lines_of(con, pw, cols)
            if f.checklist is not None:
                table = solid(lines_of(con, Group(pw, checklist_table(f.st, f.checklist, f.lang, f.names)), cols))
                short = lines_of(con, Group(pw, *compact_checklist(f.st, f.checklist, f.lang)), cols)
                board = table if len(table) <= 7 else short
        else:
            board = lines_of(con, Group(*compact_board(f.st, f.lang, f.names, one_line=True)), cols)
        board = fit(board, 7, cols)  # the board's height: 6 sectors and the piles
        password = [] if secret else lines_of(con, password_text(f.st, f.me, f.lang), cols)
        # the log under the board at the whole width (its lines whole), then the hand card by card, the password
        room = max(4, self.rows - len(head) - len(board) - len(password) - 1 - MIN_CHOICES)
        hand = self._hand(room - 3)
        hand_rows = max(2, min(len(hand), room - 3))  # the log keeps 3 lines when there is room
        log_rows = max(2, min(room - hand_rows, max(3, 6 - hand_rows)))  # the rest goes to the choices
        extra = len(hand) - hand_rows
        self.top = [*head, *board]
        self.board_rows = len(board)
        self.mid_left = []
        self.after_mid = [*fit(hand, hand_rows, cols, msg("more_cards", f.lang, n=extra + 1)), *password]
        self.log_width, self.log_rows = cols, log_rows

    def _hand(self, rows: int) -> list[Line]:
        """The hand at the whole width, a card a line; in two columns when it has more cards than `rows` - 1 (a
        reason too long for its column shortened with "…")."""
        f, con, cols = self.frame, self.con, self.cols
        assert f.me is not None
        group = compact_hand(f.st, f.me, f.options, f.lang, one_line=True, names=f.names)
        assert isinstance(group, Group)
        title, *cards = group.renderables
        if len(cards) + 1 <= rows or len(cards) < 2:
            return lines_of(con, group, cols)
        half = (len(cards) + 1) // 2
        left = lines_of(con, Group(*cards[:half]), cols // 2)
        right = fit(lines_of(con, Group(*cards[half:]), cols - cols // 2), len(left), cols - cols // 2)
        return [*lines_of(con, title, cols), *([*a, *b] for a, b in zip(left, right, strict=True))]

    @property
    def page_rows(self) -> int:
        """The log's lines while it is scrolled back (PageUp/PageDown move by about this many)."""
        return self.log_rows + self.board_rows

    def page_back(self, back: int) -> int:
        """How far back the log is after PageUp from `back` lines back: the first page ends just above the lines
        shown at the newest (so none is skipped), each next one a page further with one line seen before; a page
        shows `page_rows` - 1 lines of the log (its last line says how many are newer)."""
        first = max(1, self.log_rows - 1)
        return first if back < first else back + max(1, self.page_rows - 2)

    def page_forward(self, back: int) -> int:
        """PageDown: a page nearer the newest line; at the first page, the newest (0)."""
        first = max(1, self.log_rows - 1)
        return 0 if back <= first else max(first, back - max(1, self.page_rows - 2))

    def compose(self, sc: Scroll) -> str:
        """The whole screen but the input line: exactly rows - 1 lines. In the compact layout a log scrolled back
        (PageUp) takes the board's place too, until PageDown brings it back to its newest line."""
        lang = self.frame.lang
        log = text_lines(self.con, sc.log or [msg("nothing_yet", lang)], self.log_width)
        back = max(0, min(sc.log_back, len(log) - self.log_rows))
        sc.log_back = back
        rows = self.page_rows if back else self.log_rows
        top = self.top[: len(self.top) - self.board_rows] if back else self.top
        after = getattr(self, "after_mid", [])
        if self.board_rows and not back:  # compact: the log gives lines (down to 2) to choices that would not fit
            free = self.rows - 1 - len(top) - len(after) - rows - (1 if sc.status else 0)
            need = len(text_lines(self.con, sc.choices, self.cols))
            rows = max(min(rows, 2), rows - max(0, need - free))
        shown = log[max(0, len(log) - rows - back) : len(log) - back]
        if back and shown:
            shown = shown[:-1] + text_lines_plain(msg("log_scrolled", lang, n=back + 1), self.log_width)
        log_pane = fit(shown, rows, self.log_width)
        mid = beside(self.mid_left, log_pane) if self.mid_left else log_pane
        lines = [*top, *mid, *after]
        height = max(1, self.rows - 1 - len(lines))
        status = text_lines(self.con, [sc.status], self.cols)[:1] if sc.status else []
        if status:
            status = [[Segment(seg.text, Style(bold=True)) for seg in status[0]]]
        height -= len(status)
        choices = text_lines(self.con, sc.choices, self.cols)
        block = len(text_lines(self.con, sc.choices[: sc.block], self.cols)) if sc.block else 0
        top = sc.shown_top = choices_top(sc, block, len(choices), height)
        lines += window(choices, height, top, self.cols, lang) + status
        return to_ansi(lines[: self.rows - 1])
