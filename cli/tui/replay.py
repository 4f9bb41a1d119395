"""`ad-p2p replay GAME_LOG`: step through a finished (or interrupted) game turn by turn, any game.

The log is read and verified with `adp2p.p2p.logstore` and folded by an observer machine
(`Machine(genesis, None)`): exactly what any onlooker of the signed log may know, plus the faces shown
publicly. Each turn is shown on the game's screen (its client's `replay.show_replay`, walking the steps with `walk`)
with what happened in it; the end shows the result and the audit (when every seat revealed its secrets).
"""

from __future__ import annotations

import argparse
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adp2p.cli.clients import client
from adp2p.cli.words import msg


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
    try:  # the game's own screens (its client's replay.py), step by step
        show_replay = client(m.game.name, "replay").show_replay
    except (KeyError, ModuleNotFoundError):
        print(f"ad-p2p replay: no replay screen for the game {m.game.name!r} of {path}", file=sys.stderr)
        return 2
    return int(show_replay(args, m, turns, out, inp))
