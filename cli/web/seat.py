"""A person's seat played from the page: the table's chooser (`choose(seen, seat, options)`), game-neutral.

The peer calls the chooser in a worker thread with its engine view and the legal events, as it calls the terminal's;
the seat asks the game's page module (cli/access_denied/web.py, cli/hacker/web.py) how to show the view and the
decision, publishes a snapshot (JSON) to the page (cli/web/server.py), and waits for the page's clicks: each click
picks one choice of the shown stage, and the event returned is one of the engine's legal events. The peer's lines
(`say`: the account, the table's notices and faults) are the page's log; `end(...)` shows the end and asks for
another game. A new decision, or the peer moving on, sets an unanswered one aside.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

from adp2p.cli.web.menu import Ask
from adp2p.cli.web.server import PageServer
from adp2p.cli.web.words import page_words, word
from adp2p.crypto.identity import open_bundle

Event = dict[str, Any]
LOG_KEPT = 2000  # the page's log keeps the latest lines (a long game's account stays scrollable, bounded)
END_WAIT = 3600.0  # seconds the end screen waits for "another game?" before the command ends
END_UNSEEN = 120.0  # ... or this long with no page open (the player closed it: no)
PUBLISH_EVERY = 0.05  # seconds: a burst of the peer's lines is one snapshot
LAST_WORDS = 10.0  # seconds the end or a fault waits to reach the page before the command may end
log = logging.getLogger(__name__)


class Choices:
    """A decision of a few fixed choices, each an answer (the roster's start / decline): `cli/web/menu.py`'s Stages."""

    def __init__(self, items: list[tuple[str, Event]]) -> None:
        self.items = items

    def choices(self) -> list[dict[str, Any]]:
        return [{"label": label} for label, _ in self.items]

    def pick(self, n: int) -> Event | None:
        return self.items[n][1] if 0 <= n < len(self.items) else None

    def back(self) -> bool:
        return False

    def can_back(self) -> bool:
        return False

    def head(self) -> str:
        return ""


class WebSeat:
    def __init__(self, game: Any, lang: str, *, react_seconds: float = 15.0, react_to: str = "mine",
                 out: Any = None, open_browser: bool | None = None, launcher_dir: Path | None = None) -> None:
        self.game, self.lang = game, lang  # `game`: the game's page module
        self.react_seconds, self.react_to = react_seconds, react_to
        self.out = out or sys.stdout
        self.server = PageServer(self.on_message)
        self.peer: Any = None
        self.lines: list[str] = []
        self.notes: list[str] = []  # choices taken without asking, said on the page until the player chooses
        self.fault: str | None = None
        self.gone: str | None = None  # the table was left (the button, Ctrl-C): how to resume, shown on the page
        self.ended: dict[str, Any] | None = None
        self.board: dict[str, Any] | None = None
        self.roster: list[str] | None = None  # the roster our person is asked to confirm (in the lobby)
        self._board_of: Any = None
        self._lock = threading.RLock()
        self._gen = 0
        self._current: tuple[int, queue.Queue[dict[str, Any] | None], Ask, float | None] | None = None
        self._answers: queue.Queue[bool] = queue.Queue()
        self._follow = threading.Event()
        self._dirty = threading.Event()
        self.url = self.server.start()
        self._tell_url(open_browser, launcher_dir)
        threading.Thread(target=self._follow_lobby, name="adp2p-page-lobby", daemon=True).start()
        threading.Thread(target=self._publisher, name="adp2p-page-publish", daemon=True).start()

    # -- the page's address --------------------------------------------------------------------------------
    def _tell_url(self, open_browser: bool | None, launcher_dir: Path | None) -> None:
        print(word("url", self.lang, url=self.url), file=self.out, flush=True)
        if open_browser is None:
            open_browser = not os.environ.get("ADP2P_NO_BROWSER") and bool(
                os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32"))
        if not open_browser:
            return
        # the browser gets a file only we can read that leads to the page: the token never shows in a process list
        where = launcher_dir or Path.home()
        try:
            where.mkdir(parents=True, exist_ok=True)
            launcher = where / "page.html"
            fd = os.open(launcher, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(f'<!doctype html><meta http-equiv="refresh" content="0;url={self.url}">'
                         f'<meta name="referrer" content="no-referrer">')
            webbrowser.open(launcher.as_uri())
        except (OSError, webbrowser.Error):
            pass  # the URL is printed: the player opens it

    # -- the table's chooser ---------------------------------------------------------------------------------
    def attach(self, peer: Any) -> None:
        with self._lock:
            self.peer = peer
            self.lines, self.notes, self.fault, self.ended, self.board = [], [], None, None, None
            self.gone = None
            self._board_of = None
        self._follow.set()
        self.publish()

    def say(self, line: str) -> None:
        """A line of the peer's (the account, a notice, a fault): to the page's log; the board drawn anew."""
        with self._lock:
            self.lines.append(line)
            del self.lines[:-LOG_KEPT]
            self._draw()
        self.publish()

    def _machine(self) -> Any:
        return self.peer.machine if self.peer is not None else None

    def _names(self) -> list[str] | None:
        m = self._machine()
        return list(m.names) if m is not None else None

    def _draw(self, seen: Any = None, options: list[Event] | None = None) -> None:
        m = self._machine()
        if m is None or m.seat is None:
            return
        if seen is None:
            if m.state is self._board_of:
                return
            self._board_of = m.state
            seen = m.game.view(m.state, m.seat)
        events = list(m.events) if hasattr(m, "events") else None
        self.board = self.game.board(seen, m.seat, list(m.names), self.lang, events, options)

    def __call__(self, seen: Any, seat: int, options: list[Event]) -> Event:
        asked = self.game.ask(seen, seat, options, self._names(), self.lang, react_seconds=self.react_seconds,
                              react_to=self.react_to)
        if not isinstance(asked, Ask):
            note = getattr(self.game, "taken_note", None)
            if note is not None:
                with self._lock:
                    self.notes = note(seen, seat, options, asked, self.lang, self.notes)
            return asked
        return self._ask(asked, seen, options)

    def ask_roster(self, text: str) -> bool:
        """The question before the game begins (p2p/peer/agreeing.py calls it in a worker thread, as it calls the
        terminal's): the roster's lines (names, key fingerprints, "(you)", whether the table has a word) in the
        lobby, and two buttons, start or decline (decline: the table is left, as in the terminal). `leave` leaves
        the table as Ctrl-C does."""
        menu = Choices([(word("roster_yes", self.lang), {"yes": True}), (word("roster_no", self.lang), {"yes": False})])
        with self._lock:
            self.roster = [line for line in text.split("\n") if line.strip()]
        try:
            return self._ask(Ask(word("roster_q", self.lang), menu)).get("yes") is True
        finally:
            with self._lock:
                self.roster = None
            self.publish()

    def _ask(self, asked: Ask, seen: Any = None, options: list[Event] | None = None) -> Event:
        q: queue.Queue[dict[str, Any] | None] = queue.Queue()
        deadline = time.monotonic() + asked.seconds if asked.seconds is not None else None
        with self._lock:
            self._gen += 1
            gen = self._gen
            old, self._current = self._current, (gen, q, asked, deadline)
            if seen is not None:
                self._draw(seen, options)
        if old is not None:
            old[1].put(None)
        self.publish()
        try:
            return self._wait(gen, q, asked, deadline)
        finally:
            with self._lock:
                if self._current is not None and self._current[0] == gen:
                    self._current = None
            self.publish()

    def _wait(self, gen: int, q: queue.Queue[dict[str, Any] | None], asked: Ask, deadline: float | None) -> Event:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                message = q.get(timeout=left)
            except queue.Empty:
                assert asked.timeout is not None
                self.say(word("auto_pass", self.lang))
                return asked.timeout
            if message is None:  # set aside: the peer went on without this decision (its answer is not used)
                return asked.timeout or {}
            if message.get("t") == "leave":
                raise KeyboardInterrupt  # leave the table as Ctrl-C does: the game can be resumed
            if message.get("t") == "back":
                asked.menu.back()
            elif message.get("t") == "pick" and isinstance(message.get("n"), int):
                ev = asked.menu.pick(message["n"])
                if ev is not None:
                    with self._lock:
                        self.notes = []
                    return ev
            self.publish()

    # -- the page's messages (the server's thread) ----------------------------------------------------------
    def on_message(self, message: dict[str, Any]) -> None:
        t = message.get("t")
        if t == "again":
            self._answers.put(bool(message.get("yes")))
            return
        with self._lock:
            cur = self._current
        if cur is not None and message.get("id") == cur[0] and t in ("pick", "back", "leave"):
            cur[1].put(message)

    # -- the end, faults ----------------------------------------------------------------------------------------
    def end(self, peer: Any, outcome: Any, complete: bool, rematch: bool = True) -> bool:
        """The end screen (the outcome, every player's audit result, the standings) and, after a complete game, the
        question "another game?" answered on the page (False: no, or nobody answered within END_WAIT)."""
        from adp2p.cli.verdicts import player_verdicts

        m = peer.machine
        verdicts = [{"name": v.name, "short": v.short(self.lang), "state": v.state, "details": v.details}
                    for v in (player_verdicts(m, self.lang) if m is not None else [])]
        with self._lock:
            self._board_of = None
            self._draw()
            self.ended = {
                "line": outcome.said or outcome.line,
                "summary": list(outcome.summary),
                "verdicts": verdicts,
                "log": str(outcome.log_path) if outcome.log_path else None,
                "rematch": bool(complete and rematch),
            }
        self.server.wait_delivered(self.server.publish(self.snapshot()), LAST_WORDS)
        if not (complete and rematch):
            return False
        while not self._answers.empty():
            self._answers.get_nowait()
        deadline, unseen = time.monotonic() + END_WAIT, 0.0
        while time.monotonic() < deadline and unseen < END_UNSEEN:
            try:
                return self._answers.get(timeout=1.0)
            except queue.Empty:
                unseen = unseen + 1.0 if self.server.pages == 0 else 0.0
        return False

    def fail(self, text: str) -> None:
        """A fault that ends the command (the table could not start or go on): on the page, as in the terminal."""
        with self._lock:
            self.fault = text
        self.server.wait_delivered(self.server.publish(self.snapshot()), LAST_WORDS)

    def left_table(self, text: str) -> None:
        """The table was left (the page's button or Ctrl-C): the page says so with the command that resumes the game
        (the terminal prints the same line), and asks nothing more."""
        with self._lock:
            self.gone = text
            self._current = None
        self.server.wait_delivered(self.server.publish(self.snapshot()), LAST_WORDS)

    def close(self) -> None:
        self.server.stop()

    # -- what the page shows ----------------------------------------------------------------------------------------
    def _follow_lobby(self) -> None:
        """The lobby as it fills (nobody says a line when a player arrives): a look twice a second until the game
        has begun."""
        last = None
        while True:
            self._follow.wait()
            peer = self.peer
            if peer is None or peer.machine is not None:
                self._follow.clear()
                continue
            here = self._here()
            if here != last:
                last = here
                self.publish()
            time.sleep(0.5)

    def _here(self) -> list[str]:
        peer = self.peer
        if peer is None:
            return []
        out = []
        for b in list(peer.bundles.values()):
            try:
                out.append(open_bundle(b)[1])
            except Exception:  # (a bundle was checked when it came; never let the page break on one)
                continue
        return sorted(out)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            peer, m = self.peer, self._machine()
            snap: dict[str, Any] = {
                "game": self.game.NAME,
                "lang": self.lang,
                "words": page_words(self.lang),
                "log": list(self.lines),
                "notes": list(self.notes) + (list(peer.private_notes[-6:]) if peer is not None else []),
                "fault": self.fault,
                "left": self.gone,
                "end": self.ended,
                "board": self.board,
                "ask": None,
            }
            if m is None:
                want = peer.cfg.want if peer is not None else 0
                here = self._here()
                snap["stage"] = "lobby"
                snap["lobby"] = {"table": peer.cfg.table if peer is not None else "", "want": want, "here": here,
                                 "missing": max(0, (want or 0) - len(here)), "roster": self.roster}
            else:
                snap["stage"] = "end" if self.ended else ("play" if m.game.started(m.state) else "setup")
                snap["names"] = list(m.names)
                snap["me"] = m.seat
            cur = self._current
            if cur is not None and not self.ended and not self.gone:
                gen, _q, asked, deadline = cur
                snap["ask"] = {
                    "id": gen,
                    "question": asked.question,
                    "head": asked.menu.head(),
                    "choices": asked.menu.choices(),
                    "back": asked.menu.can_back(),
                    "seconds": None if deadline is None else max(0.0, deadline - time.monotonic()),
                }
            return snap

    def publish(self) -> None:
        """A new snapshot soon (the publisher thread builds it: the peer's thread never waits for JSON)."""
        self._dirty.set()

    def _publisher(self) -> None:
        while True:
            self._dirty.wait()
            time.sleep(PUBLISH_EVERY)
            self._dirty.clear()
            try:
                self.server.publish(self.snapshot())
            except Exception:  # a snapshot that cannot be built (a fold mid-change): the next one will do
                log.debug("snapshot", exc_info=True)
                self._dirty.set()
                time.sleep(0.2)
