"""The end of a game inside the full screen: who won and why, the standings with the audit's verdict on each player
(honest, or the violations naming that player, listed under them), every password revealed, and how to replay the
game, then one question at the input line (another game?, or Enter to leave).

`EndLayout` draws a frame whose `end` is set (cli/access_denied/panes.py's `Frame`): the header, the standings, the
passwords and the verdict always; the board above them when the terminal has room. `end_on_screen` shows it and
reads the answer; the caller then leaves the full screen and prints the same facts as lines, so they stay in the
terminal.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.panes import Frame, Layout
from adp2p.cli.access_denied.screen import compact_board, header, who_text
from adp2p.cli.access_denied.words import card_label, player_name, sector_name
from adp2p.cli.tui.drawing import Line, fit, lines_of, text_lines
from adp2p.cli.verdicts import PlayerVerdict
from adp2p.engine.access_denied.api import result
from adp2p.engine.access_denied.state import GameState
from rich.console import Group
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from adp2p.cli.access_denied.prompt import Prompt

BOARD_ROWS = 7  # the compact board: six sectors and the piles


def password_lines(st: GameState, faces: dict[int, int], names: list[str] | None, lang: str) -> list[str]:
    """Every sector's password with its owner, from the faces revealed at the end (the audit's, or an offline game's
    own); a password with a face not revealed is left out."""
    out = []
    for s in range(6):
        owner, hs = st.controller[s], st.passwords.get(s, [])
        if owner is None or not hs or any(h not in faces for h in hs):
            continue
        cards = ", ".join(card_label(faces[h], lang) for h in hs)
        out.append(msg("end.password", lang, sector=sector_name(s, lang), who=player_name(st, owner, names),
                       cards=cards))
    return out


def standings_table(
    st: GameState, names: list[str] | None, lang: str, audit: list[PlayerVerdict] | None = None
) -> Table:
    """One row per player: Roots, Opers, Users, the winners marked, and the audit's verdict on each player when
    there is one (honest, or VIOLATION: the violations are listed under the table). No rule under the headings:
    at 80x24 with four players every line counts."""
    res = result(st)
    tb = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), show_header=True,
               header_style="bold underline")
    tb.add_column(Text(msg("end.standings", lang)), no_wrap=True)
    for level in ("Root", "Oper", "User"):
        tb.add_column(level, justify="right")
    tb.add_column("", no_wrap=True)
    if audit:
        tb.add_column(msg("audit.col", lang), no_wrap=True)
    for p, (r, o, u) in enumerate(res.standings):
        won = p in res.winners
        mark = Text(msg("end.winner", lang), style="bold green") if won else Text("")
        row = [who_text(st, p, names), str(r), str(o), str(u), mark]
        if audit:
            v = audit[p] if p < len(audit) else None
            style = "green" if v is not None and v.state == "honest" else "bold red"
            row.append(Text(v.short(lang), style=style) if v is not None else Text(""))
        tb.add_row(*row)
    return tb


class EndLayout(Layout):
    """The end screen at one size: the header, (the board), the standings, the passwords, the verdict, (the log)."""

    def __init__(self, frame: Frame, cols: int, rows: int, secret: bool) -> None:  # (no Tab at the end)
        from io import StringIO

        from rich.console import Console

        self.frame, self.cols, self.rows, self.wide, self.board_rows = frame, cols, rows, False, 0
        self.con = con = Console(width=cols, file=StringIO(), force_terminal=True, color_system="standard",
                                 highlight=False, legacy_windows=False)
        f = frame
        head = lines_of(con, header(f.st, f.me, f.lang, f.names), cols)
        table = [line for line in lines_of(con, standings_table(f.st, f.names, f.lang, f.audit), cols)
                 if "".join(seg.text for seg in line).strip()]
        facts = text_lines(con, [msg("end.passwords", f.lang), *(f.end or [])], cols)
        essential = [*head, *table, *facts]
        room = rows - 1 - len(essential)  # the input line (a question too long for it is among the facts)
        board: list[Line] = []
        if room >= BOARD_ROWS:  # the final board where there is room (a blank line under it if that fits too)
            board = lines_of(con, Group(*compact_board(f.st, f.lang, f.names, one_line=True)), cols)
            board = fit(board, BOARD_ROWS, cols) + (text_lines(con, [""], cols) if room > BOARD_ROWS else [])
        top = [*head, *board, *table, *facts] if len(essential) <= rows - 1 else fit(essential, rows - 1, cols)
        self.top = top
        self.mid_left = []
        self.log_width = cols
        self.log_rows = 0  # no log: its last lines are the table's own account of this end (the same facts again)


def layout_for(frame: Frame, cols: int, rows: int, secret: bool) -> Layout:
    """Access Denied's layout of a frame for the full screen (cli/tui/fullscreen.py): the game's panes, or its end."""
    return (Layout if frame.end is None else EndLayout)(frame, cols, rows, secret)


SETTLE = 0.25  # seconds the end is shown before its question listens: a key meant for the last decision never answers


def end_on_screen(prompt: Prompt, st: GameState, me: int | None, lines: list[str], question: str,
                  audit: list[PlayerVerdict] | None = None) -> str:
    """Show the end on the prompt's full screen (`audit`: the verdict per player, in the standings) and read one
    answer to `question` (typed-ahead keys never answer it); returns the line typed ('' at the end of input or
    Ctrl-C). The caller leaves the full screen afterwards."""
    ui = prompt.ui
    assert ui is not None
    if len(question) >= ui.cols() - 8:  # too long for the input line: the last of the facts, the keys at the line
        lines, question = [*lines, question.rstrip()], msg("confirm_keys", prompt.lang)
    ui.show(Frame(st, me, prompt.lang, None, None, prompt.names, end=lines, audit=audit))
    time.sleep(SETTLE)  # keys still on their way from the terminal when the end appeared are typed ahead too
    ui.discard_typed_ahead()
    line = ui.readline(question)
    ui.done()
    return "" if line is None or line.startswith("\x03") else line
