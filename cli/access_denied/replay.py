"""`ad-p2p replay` of an Access Denied game: its log folded by an onlooker's machine (cli/tui/replay.py `fold_log`),
shown turn by turn on the game screen with each turn's account; at the end the result and the audit (when every seat
revealed its secrets)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from adp2p.cli.access_denied.messages import msg, name_line
from adp2p.cli.access_denied.prompt import Prompt
from adp2p.cli.access_denied.words import history_line
from adp2p.cli.log_file import game_log
from adp2p.cli.tui.reading import reader_for
from adp2p.cli.tui.replay import unfinished, walk
from adp2p.engine.access_denied.api import result


def show_replay(args: argparse.Namespace, m: Any, turns: list[Any], out: Any = None, inp: Any = None) -> int:
    """Each turn on the game screen; Enter, b, a number, a (all) and q (cli/tui/replay.py `walk`)."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    lang = args.lang
    path = game_log(args.log)
    names = list(m.names)
    prompt = Prompt(lang, out, inp, names=names, width=args.width)
    head = msg("replay_head", lang, game=m.game_id.hex()[:8], profile=m.profile.describe(lang), names=", ".join(names))
    prompt.say(head)
    interactive = not args.all and bool(getattr(inp, "isatty", lambda: False)())
    reader = reader_for(inp)

    def show(i: int) -> None:
        st = turns[i]
        shown = len(turns[i - 1].history) if i > 0 else 0  # this turn's lines of the account
        prompt.history = max(1, len(st.history) - shown)
        prompt.shown = shown
        prompt.show(st, None)

    def ask(i: int, last: int) -> str:
        prompt.say(msg("replay_prompt", lang, at=i, last=last), end="")
        return reader.readline() or "q"

    if not walk(len(turns) - 1, interactive, show, ask):
        return 0
    if (cut := unfinished(m, path, lang)) is not None:
        print(f"ad-p2p replay: {cut}", file=sys.stderr)
        return 1
    if m.verdict is None and m.state.over:
        res = result(m.state)
        who = ", ".join(names[w] for w in res.winners) or "-"
        prompt.say(msg("winners", lang, who=who, reason=history_line(res.reason or "", lang, names)))
    else:
        prompt.say(name_line(m.result_line(), names))
    rep = m.audit_report
    if rep is not None and rep.ok:
        ok = msg("audit_ok", lang, checked=m.game.checked_words(lang, brief=True))
        prompt.say(ok + " " + msg("audit_entries", lang, n=m.entries))
    elif rep is not None:
        prompt.say(msg("audit_bad", lang))
        for v in rep.violations:
            prompt.say(f"  {msg('seat_n', lang, n=v.seat + 1)}: {v.rule}: {v.msg}")
    else:
        prompt.say(msg("audit_none", lang, line=m.result_line()))
    return 0
