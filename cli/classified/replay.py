"""`ad-p2p replay` of a Classified Information game: its log folded by an onlooker's machine (cli/tui/replay.py
`fold_log`: what anyone holding the signed log may know, plus the faces shown publicly), shown step by step on the
page from no seat (cli/classified/screen.py: both sides' Guard spots, the piles; no hand and no wheel), each with its
step's account; at the end the Big Reveal, the result and the audit."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

from adp2p.cli.classified import account, screen
from adp2p.cli.classified.seat import engine_view
from adp2p.cli.classified.words import say
from adp2p.cli.tui.replay import unfinished, walk


def show_replay(args: argparse.Namespace, m: Any, steps: list[Any], out: Any = None, inp: Any = None) -> int:
    """Each step on the page; Enter, b, a number, a (all) and q as the other games' replay."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    lang = args.lang
    width = getattr(args, "width", None) or 80

    def line(text: str) -> None:
        for part in textwrap.wrap(text, width - 1, subsequent_indent="    ") or [""]:
            print(part, file=out)

    v0 = engine_view(m.state)
    line(say("replay.head", lang, game=m.game_id.hex()[:8], profile=getattr(v0.profile, "name", "?"),
             names=", ".join(m.names)))
    interactive = not getattr(args, "all", False) and bool(getattr(inp, "isatty", lambda: False)())

    def show(i: int) -> None:
        v = engine_view(steps[i])
        print("-" * (width - 1), file=out)
        for t in screen.lines(v, None, lang, width, account_lines=0):
            print(t, file=out)
        shown = len(engine_view(steps[i - 1]).history) if i > 0 else 0
        for e in v.history[shown:]:
            line("· " + account.line(v, e, None, lang))

    def ask(i: int, last: int) -> str:
        print(say("replay.prompt", lang, at=i, last=last), end="", file=out, flush=True)
        return str(inp.readline() or "q")

    if not walk(len(steps) - 1, interactive, show, ask):
        return 0
    if (cut := unfinished(m, Path(args.log), lang)) is not None:
        print(f"ad-p2p replay: {cut}", file=sys.stderr)
        return 1
    _end(m, lang, line)
    return 0


def _end(m: Any, lang: str, line: Any) -> None:
    """The Big Reveal (or what stopped the game) and the audit."""
    from adp2p.cli.words import msg

    v = engine_view(m.state)
    if getattr(m, "verdict", None) is None and v.over:
        for text in screen.end_lines(v, None, lang, 200):
            line(text)
    else:
        line(m.result_line())
    rep = getattr(m, "audit_report", None)
    if rep is not None and rep.ok:
        line(msg("audit_ok", lang, checked=m.game.checked_words(lang, brief=True)) + " "
             + msg("audit_entries", lang, n=m.entries))
    elif rep is not None:
        line(msg("audit_bad", lang))
        for x in rep.violations:
            line(f"  {msg('seat_n', lang, n=x.seat + 1)}: {x.rule}: {x.msg}")
    else:
        line(msg("audit_none", lang, line=m.result_line()))
