"""`ad-p2p replay` of a Hacker game: its log folded by an onlooker's machine (cli/tui/replay.py `fold_log`: what
anyone holding the signed log may know, plus the faces shown publicly), shown round by round on the Hacker page
from no seat (cli/hacker/screen.py), each with its round's account; at the end the result and the audit (when every
seat revealed its secrets)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from adp2p.cli.hacker import account, screen
from adp2p.cli.hacker.words import say
from adp2p.cli.tui.replay import unfinished, walk
from rich.console import Console
from rich.text import Text


def _names(m: Any) -> list[str] | None:
    from adp2p.cli.hacker.seat import page_names

    return page_names(list(m.names))


def show_replay(args: argparse.Namespace, m: Any, steps: list[Any], out: Any = None, inp: Any = None) -> int:
    """Each step (the setup, then every round) on the page; Enter, b, a number, a (all) and q as AD's replay."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    lang = args.lang
    width = args.width or Console(file=out).width or 80
    con = Console(file=out, force_terminal=False, width=width - 1, highlight=False, color_system=None)  # as the page
    names = _names(m)
    full = list(m.names)

    def line(text: str | Text) -> None:
        if isinstance(text, Text):  # the page's lines fit the width already
            con.print(text, no_wrap=True, overflow="crop")
        else:  # words, wrapped at the width: plain text (a player's name or a verdict's words are never markup)
            con.print(text, markup=False)

    prof = getattr(m.state.eng.profile, "name", "?")
    line(say("replay.head", lang, game=m.game_id.hex()[:8], profile=prof, names=", ".join(full)))
    interactive = not args.all and bool(getattr(inp, "isatty", lambda: False)())

    def show(i: int) -> None:
        v = steps[i].eng
        line(Text("-" * (width - 1)))
        for t in screen.lines(v, None, lang, names, width, account_lines=0):
            line(t)
        shown = len(steps[i - 1].eng.history) if i > 0 else 0  # this round's lines of the account
        for e in v.history[shown:]:
            line("· " + account.line(e, None, lang, names))

    def ask(i: int, last: int) -> str:
        con.print(say("replay.prompt", lang, at=i, last=last), end="", markup=False)
        return inp.readline() or "q"

    if not walk(len(steps) - 1, interactive, show, ask):
        return 0
    if (cut := unfinished(m, Path(args.log), lang)) is not None:
        print(f"ad-p2p replay: {cut}", file=sys.stderr)
        return 1
    _end(m, lang, line)
    return 0


def _end(m: Any, lang: str, line: Any) -> None:
    """The result (or what stopped the game), the codes of each player, and the audit."""
    from adp2p.cli.words import msg

    st, names = m.state, list(m.names)
    if m.verdict is None and st.over:
        for text in m.game.end_lines(st, st.faces, names, lang):
            line(text)
        res = m.game.result(st)
        who = ", ".join(names[w] for w in res.winners) or "-"
        line(msg("winners", lang, who=who, reason=m.game.narrate(res.reason or "", lang, names)))
    else:
        line(m.result_line())
    rep = m.audit_report
    if rep is not None and rep.ok:
        ok = msg("audit_ok", lang, checked=m.game.checked_words(lang, brief=True))
        line(ok + " " + msg("audit_entries", lang, n=m.entries))
    elif rep is not None:
        line(msg("audit_bad", lang))
        for v in rep.violations:
            line(f"  {msg('seat_n', lang, n=v.seat + 1)}: {v.rule}: {v.msg}")
    else:
        line(msg("audit_none", lang, line=m.result_line()))
