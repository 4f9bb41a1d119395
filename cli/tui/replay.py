"""`ad-p2p replay GAME_LOG`: step through a finished (or interrupted) game turn by turn.

The log is read and verified with `adp2p.p2p.logstore` and folded by an observer machine
(`Machine(genesis, None)`): exactly what any onlooker of the signed log may know, plus the faces shown
publicly. Each turn is shown on the game screen with what happened in it; the end shows the result and the
audit (when every seat revealed its secrets).
"""

from __future__ import annotations

import argparse
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adp2p.cli.tui.prompt import Prompt, reader_for
from adp2p.cli.tui.screen import name_line
from adp2p.cli.words import history_line, msg
from adp2p.engine.access_denied.api import result
from adp2p.engine.access_denied.state import GameState


def _first_record(path: Path) -> bytes:
    with open(path, "rb") as fh:
        head = fh.read(4)
        if len(head) < 4:
            raise ValueError("the log is empty")
        (n,) = struct.unpack(">I", head)
        raw = fh.read(n)
        if len(raw) != n:
            raise ValueError("the log's first record is torn")
        return raw


def fold_log(path: Path, step: Any = None) -> tuple[Any, list[Any]]:
    """The observer machine after the whole log, and the state at the start of every step (and the end): a step
    is a turn (`state.turn_no`), or for a game without turns a stretch of its account up to the next item the
    game calls a turn start (`Game.is_turn_start`: Hacker's rounds)."""
    from adp2p.crypto.entries import decode_entry
    from adp2p.p2p.logstore import LogStore
    from adp2p.p2p.machine import Machine
    from adp2p.p2p.protocol import AUDITABLE_VERSIONS, Genesis, decode_body

    first = decode_entry(_first_record(path))
    g = Genesis.from_body(decode_body(first.body), versions=AUDITABLE_VERSIONS)
    store = LogStore.open(path, g.identities(), g.game_id)
    try:
        m = Machine(g, None)
        key = step or _step_of(m)
        steps: list[Any] = []
        prev, at = m.state, key(m.state)
        for entry in store.entries()[1:]:
            m.apply_entry(entry)
            now = key(m.state)
            if now != at:
                steps.append(prev)  # the end of the setup or of the previous step
                at = now
            prev = m.state
        steps.append(m.state)
    finally:
        store.close()
    return m, steps


def _step_of(m: Any) -> Any:
    """What changes when a new step begins: the turn number, else the count of turn starts in the account."""
    if hasattr(m.state, "turn_no"):
        return lambda st: st.turn_no
    counted = [0, 0]  # history items looked at, turn starts among them (the account only grows)

    def key(st: Any) -> int:
        hist = st.history
        for item in hist[counted[0] :]:
            counted[1] += m.game.is_turn_start(item)
        counted[0] = len(hist)
        return counted[1]

    return key


def unfinished(m: Any, path: Path, lang: str) -> str | None:
    """Why the log has no end to show (None: it has one): it stops before the game ended, was decided or was
    abandoned (a log cut short, or a game still going on)."""
    if m.state.over or m.verdict is not None or getattr(m, "abandoned", None) is not None:
        return None
    return msg("replay_unfinished", lang, path=path, n=m.entries)


def walk(last: int, interactive: bool, show: Callable[[int], None], ask: Callable[[int, int], str]) -> bool:
    """Show steps 0..last: each in turn, or at a terminal as the keys say (Enter: on, b: one back, a number: that
    step, a: all the rest, q: quit). False if the player quit before the last."""
    i = 0
    while i <= last:
        show(i)
        if not interactive or i == last:
            i += 1
            continue
        key = ask(i, last).strip().lower()
        if key == "q":
            return False
        if key == "a":
            interactive = False
        if key == "b":
            i = max(0, i - 1)
        elif key.isdigit():
            i = min(last, int(key))
        else:
            i += 1
    return True


def run_replay(args: argparse.Namespace, out: Any = None, inp: Any = None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    lang = args.lang
    from adp2p.cli.log_file import game_log

    path = game_log(args.log)  # (a file that is no game log: one line, cli/log_file.py)
    try:
        m, turns = fold_log(path)
    except Exception as exc:  # a locked or damaged log: say so, no traceback
        print(f"ad-p2p replay: {msg('replay_unreadable', lang, path=path, why=exc)}", file=sys.stderr)
        return 2
    if m.game.name == "hacker":  # Hacker's own pages, round by round
        from adp2p.cli.hacker.replay import show_replay

        return show_replay(args, m, turns, out, inp)
    if not isinstance(m.state, GameState):
        print(f"ad-p2p replay: no replay screen for the game {m.game.name!r} of {path}", file=sys.stderr)
        return 2
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
