"""An offline Classified Information game whose person's seat is the page (cli/web/seat.py's `WebSeat` with
cli/classified/web.py): the all-knowing local referee of cli/classified/local.py, the seat's peer a stand-in that
holds the seat's view (no table: the table's part, games/classified/, is not needed to draw the page or take its
clicks). The account goes to the page's log as a table's peer sends it (`say`)."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

from adp2p.cli.classified import account, web
from adp2p.cli.classified.local import play_local
from adp2p.cli.web.seat import WebSeat
from adp2p.engine.classified import api
from adp2p.engine.errors import IllegalEvent
from adp2p.games.classified.game import GAME
from adp2p.p2p.machine.common import AuditReport
from adp2p.p2p.notices import result_words
from adp2p.p2p.peer.common import Outcome


class PageGame:
    def __init__(self, lang: str, seed: int) -> None:
        self.lang, self.seed = lang, seed
        self.seat = WebSeat(web, lang, open_browser=False)
        game = SimpleNamespace(view=lambda st, seat: st, started=lambda st: st.phase != "setup")
        self.machine = SimpleNamespace(seat=0, state=None, names=["You", "Bot"], game=game)
        self.peer = SimpleNamespace(machine=self.machine, private_notes=[], bundles={},
                                    cfg=SimpleNamespace(want=2, table="offline"))
        self.seat.attach(self.peer)
        self.said = 0
        self.events: list[dict[str, Any]] = []
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = threading.Event()

    @property
    def url(self) -> str:
        return str(self.seat.url)

    def _show(self, v: Any) -> None:
        self.machine.state = v
        for e in v.history[self.said:]:
            self.seat.say("  " + account.line(v, e, 0, self.lang))
        self.said = len(v.history)

    def choose(self, v: Any, me: int, d: Any, options: list[dict[str, Any]]) -> dict[str, Any]:
        self._show(v)
        return self.seat(v, me, options)  # type: ignore[no-any-return]

    def finish(self, v: Any, me: int, text: str, wait: bool = True) -> None:
        self._show(v)
        self.seat._board_of = None
        with self.seat._lock:
            self.seat._draw()
        self.seat.publish()

    def end(self, res: Any, st: Any) -> None:
        """The end as `join` shows it: the seat's `end` with the outcome (no rematch offered offline)."""
        names = self.machine.names
        rep = AuditReport(winners=list(res.winners), faces=dict(st.faces))
        try:
            again = api.replay(st.profile, 2, self.events, st.faces, strict=True)
            if api.result(again) != res:
                rep.violation(None, "replay", "the strict replay ends in another result than the game")
        except IllegalEvent as exc:
            rep.violation(None, exc.rule, f"strict replay: {exc.message}")
        self.machine.audit_report = rep
        why = GAME.narrate(res.reason, self.lang, names) if res.reason is not None else ""
        said = result_words([names[w] for w in res.winners], len(names), why, self.lang)
        summary = GAME.end_lines(SimpleNamespace(eng=st), st.faces, names, self.lang)
        self.seat.end(self.peer, Outcome(line=said, said=said, summary=summary, audit_ok=rep.ok), True,
                      rematch=False)

    def start(self) -> None:
        def run() -> None:
            try:
                self.result = play_local(self, seed=self.seed, wait_at_end=False, record=self.events)
                if self.result[0] is not None:
                    self.end(*self.result)
            except BaseException as exc:  # (the test says what went wrong)
                self.error = exc
            finally:
                self.done.set()

        threading.Thread(target=run, daemon=True).start()

    def close(self) -> None:
        self.seat.close()
