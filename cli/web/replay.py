"""`ad-p2p replay LOG --web`: a finished (or interrupted) game stepped through on the page, as the terminal's replay
steps through it (cli/tui/replay.py `fold_log`: an onlooker's fold of the verified log, turn by turn, Hacker's round
by round), served the same way as a seat's page (cli/web/server.py: 127.0.0.1, a token, the Origin checked).

Each step shows the board from no seat (the game's page module, `me` None) and that step's lines of the account;
the last step adds the end: the result and every player's audit verdict. Buttons step on, back, to the first or
the last step, and close the replay (the command ends).
"""

from __future__ import annotations

import argparse
import queue
import sys
from pathlib import Path
from typing import Any

from adp2p.cli.web import page_module
from adp2p.cli.web.server import PageServer
from adp2p.cli.web.words import page_words, word


class ReplayPage:
    def __init__(self, m: Any, steps: list[Any], lang: str, out: Any = None) -> None:
        self.m, self.steps, self.lang = m, steps, lang
        self.game = page_module(m.game.name)
        self.names = list(m.names)
        self.at = 0
        self.clicks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.server = PageServer(self.clicks.put)
        self.url = self.server.start()
        print(word("url", lang, url=self.url), file=out or sys.stdout, flush=True)

    def _lines(self, i: int) -> list[str]:
        before = len(self.steps[i - 1].history) if i > 0 else 0
        hist = self.steps[i].history
        return ["  " + self.m.game.narrate(h, self.lang, self.names) for h in hist[before:]]

    def _end(self) -> dict[str, Any]:
        from adp2p.cli.verdicts import player_verdicts
        from adp2p.cli.words import msg, name_line
        from adp2p.p2p.notices import result_words

        m, lang = self.m, self.lang
        rep = m.audit_report
        if rep is not None and rep.ok:
            audit = msg("audit_ok", lang, checked=m.game.checked_words(lang, brief=True))
        elif rep is not None:
            audit = msg("audit_bad", lang)
        else:
            audit = msg("audit_none", lang, line=m.result_line())
        line = name_line(m.result_line(), self.names)
        if m.verdict is None and m.state.over:  # the result in the player's language
            res = m.game.result(m.state)
            why = m.game.narrate(res.reason, lang, self.names) if res.reason is not None else ""
            line = result_words([self.names[w] for w in res.winners], len(self.names), why, lang)
        return {"line": line, "summary": [audit],
                "verdicts": [{"name": v.name, "short": v.short(lang), "state": v.state, "details": v.details}
                             for v in player_verdicts(m, lang)],
                "log": None, "rematch": False}

    def snapshot(self) -> dict[str, Any]:
        i, last = self.at, len(self.steps) - 1
        w = page_words(self.lang)
        st = self.steps[i]  # (an onlooker's fold: it knows only what every player may see)
        choices = [{"label": w["next"]}, {"label": w["prev"]}, {"label": w["first"]}, {"label": w["last"]},
                   {"label": w["no_again"]}]
        return {
            "game": self.game.NAME, "lang": self.lang, "words": w, "stage": "replay",
            "board": self.game.board(st, None, self.names, self.lang),
            "log": [line for k in range(i + 1) for line in self._lines(k)],
            "notes": [], "fault": None, "names": self.names, "me": None,
            "end": self._end() if i == last else None,
            "ask": {"id": 1, "question": word("replay", self.lang) + " — " + word("step", self.lang, k=i, n=last),
                    "head": "", "choices": choices, "back": False, "seconds": None},
        }

    def run(self) -> int:
        last = len(self.steps) - 1
        self.server.publish(self.snapshot())
        while True:
            click = self.clicks.get()
            n = click.get("n")
            if click.get("t") != "pick" or not isinstance(n, int):
                continue
            if n == 4:
                self.server.stop()
                return 0
            self.at = {0: min(last, self.at + 1), 1: max(0, self.at - 1), 2: 0, 3: last}.get(n, self.at)
            self.server.publish(self.snapshot())


def run_replay_web(args: argparse.Namespace) -> int:
    from adp2p.cli.tui.replay import fold_log

    path = Path(args.log)
    if path.is_dir():
        path = path / "log"
    try:
        m, steps = fold_log(path)
    except Exception as exc:  # a missing, locked or damaged log: say so, no traceback
        print(f"ad-p2p replay: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        return ReplayPage(m, steps, args.lang).run()
    except KeyboardInterrupt:
        return 130
