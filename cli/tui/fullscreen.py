"""The full-screen client, any game's: a prompt_toolkit `Application` showing the game's fixed layout of a frame
(its panes, e.g. cli/access_denied/panes.py, drawn with cli/tui/drawing.py), run in a thread of its own for the whole
game, and a line-reading interface the game's prompt (e.g. cli/access_denied/prompt.py) uses from its own thread.

The app owns the terminal (alternate screen, raw keys): Enter hands the typed line to whoever waits in
`readline`; PageUp/PageDown scroll the log, the arrows the choices, Tab toggles the secret pane (Access Denied's
password and checklist) in a compact layout; Ctrl-C interrupts the waiting reader (or, when nothing is asked, the
main thread, as SIGINT would); Ctrl-D on an empty line is the end of input. The prompt's line (with a reaction's
countdown) is redrawn in place twice a second. Everything else is thread-safe calls: `show` (a new frame),
`say` (choices text), `log` (the game's account and notices).
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from adp2p.cli.tui.drawing import Scroll
from adp2p.cli.words import msg
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import ANSI, FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout import Layout as PtLayout
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput

INTERRUPT = "\x03"  # what a reader gets for Ctrl-C
QUIT = ("q", "quit", "exit")  # typed while nothing is asked: leave (the game can be resumed)
MIN_COLS, MIN_ROWS = 60, 20  # the smallest terminal whose layout shows the header, board, hand and choices at once


def wanted(mode: str, inp: object, out: object) -> bool:
    """Full screen or lines? `full`/`lines` as said; `auto`: full when both ends are a terminal that can draw it."""
    if mode != "auto":
        return mode == "full"
    try:
        tty = bool(inp.isatty()) and bool(out.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False
    return tty and os.environ.get("TERM", "") not in ("", "dumb")


Prefix = str | Callable[[], str]
Frame = Any  # what one decision shows: the game's own (e.g. cli/access_denied/panes.py's `Frame`)


class Drawn(Protocol):
    """A frame laid out at one terminal size: the whole screen as ANSI text, the panes as `Scroll` says."""

    def compose(self, sc: Scroll) -> str: ...


LayoutOf = Callable[[Frame, int, int, bool], Drawn]  # (frame, cols, rows, secret pane shown) -> its layout


class FullScreen:
    """One full-screen client per process: `start()`, then `show`/`say`/`log`/`readline` from any thread, `stop()`."""

    def __init__(self, layout: LayoutOf, lang: str = "en") -> None:
        self.layout = layout  # the game's layout of a frame (its panes: cli/<game>/)
        self.lang = lang
        self.sc = Scroll()
        self.frame: Frame | None = None
        self.lock = threading.RLock()
        self.lines: queue.Queue[str] = queue.Queue()
        self.reading = False
        self.asking = False  # a decision's frame is up (from `show` to `done`): the game's updates wait
        self.prefix: Prefix = ""
        self._layout: tuple[tuple[int, int, int, bool], Drawn] | None = None
        self._version = 0  # counts the frames shown (the drawn layout is kept for one frame and one size)
        self.buffer = Buffer(multiline=False)
        self.app: Application[None] | None = None
        self.thread: threading.Thread | None = None
        self.ready = threading.Event()
        self._since = 0  # the choices said before the last line was read (what comes after is the newest block)

    # -- the app ---------------------------------------------------------------------------------------
    def start(self) -> None:
        if self.thread is not None:
            return
        kb = self._keys()
        top = Window(FormattedTextControl(self._screen, focusable=False), wrap_lines=False)
        line = Window(BufferControl(self.buffer, input_processors=[BeforeInput(self._prefix)]), height=1)
        self.app = Application(layout=PtLayout(HSplit([top, line]), focused_element=line), key_bindings=kb,
                               full_screen=True, refresh_interval=0.5, mouse_support=False)
        self.thread = threading.Thread(target=self._run, name="full-screen", daemon=True)
        self.thread.start()
        self.ready.wait(10)

    def _run(self) -> None:
        assert self.app is not None
        try:
            self.app.run(pre_run=self.ready.set, handle_sigint=False)
        except Exception:  # the terminal went away: readers see the end of input, never a traceback
            self.lines.put("")
        finally:
            self.ready.set()

    def stop(self) -> None:
        """Leave the full screen (the terminal as it was); the caller prints what follows as plain lines."""
        app, thread = self.app, self.thread
        if app is None or thread is None:
            return
        with contextlib.suppress(Exception):
            if app.is_running and app.loop is not None:
                app.loop.call_soon_threadsafe(lambda: app.exit() if app.is_running else None)
        thread.join(5)
        self.app = self.thread = None

    @property
    def running(self) -> bool:
        return self.app is not None and self.thread is not None and self.thread.is_alive()

    def size(self) -> tuple[int, int]:
        if self.app is not None:
            with contextlib.suppress(Exception):
                s = self.app.output.get_size()
                return s.columns, s.rows
        return 80, 24

    def cols(self) -> int:
        """The width the choices are wrapped to (the last column stays blank)."""
        return self.size()[0] - 1

    def _redraw(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    def _screen(self) -> ANSI | FormattedText:
        cols, rows = self.size()
        with self.lock:
            frame = self.frame
            if frame is None:  # before the game's first screen (the lobby, the setup): the table's lines
                wrapped = [part for line in self.sc.log + self.sc.choices
                           for part in textwrap.wrap(line, cols - 1, subsequent_indent="  ") or [""]]
                return FormattedText([("", "\n".join(wrapped[-(rows - 1) :]))])
            if cols < MIN_COLS or rows < MIN_ROWS:  # the panes would hide the choices: say so, not half a game
                text = msg("too_small", self.lang, cols=cols, rows=rows, min_cols=MIN_COLS, min_rows=MIN_ROWS)
                return FormattedText([("bold", "\n".join(textwrap.wrap(text, max(10, cols - 1))))])
            key = (self._version, cols, rows, self.sc.secret)
            try:
                if self._layout is None or self._layout[0] != key:
                    self._layout = (key, self.layout(frame, cols, rows, self.sc.secret))
                return ANSI(self._layout[1].compose(self.sc))
            except Exception as exc:  # a screen that cannot be drawn says so in one line, never a traceback
                return FormattedText([("", f"{type(exc).__name__}: {exc}"[: cols - 1])])

    def _prefix(self) -> FormattedText:
        if not self.reading and not self.asking:  # nothing asked (the lobby, a wait): say so, and how to leave
            return FormattedText([("italic", msg("prompt_wait", self.lang))])
        p = self.prefix() if callable(self.prefix) else self.prefix
        return FormattedText([("bold", p)])

    def _keys(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add("enter", eager=True)
        def _enter(event: KeyPressEvent) -> None:
            text = self.buffer.text
            self.buffer.reset()
            if not self.reading and not self.asking and text.strip().lower() in QUIT:
                os.kill(os.getpid(), signal.SIGINT)  # nothing is asked (a wait): q leaves as Ctrl-C does
                return
            self.lines.put(text + "\n")

        @kb.add("c-c", eager=True)
        def _interrupt(event: KeyPressEvent) -> None:
            if self.reading:
                self.lines.put(INTERRUPT)
            else:  # nothing is asked: leave as a Ctrl-C in a plain terminal would
                os.kill(os.getpid(), signal.SIGINT)

        @kb.add("c-d", eager=True)
        def _eof(event: KeyPressEvent) -> None:  # on an empty line: the end of input (leaving, as Ctrl-C)
            if self.buffer.text:
                return
            if self.reading:
                self.lines.put("")
            else:
                _interrupt(event)

        @kb.add("pageup", eager=True)
        def _log_back(event: KeyPressEvent) -> None:
            with self.lock:
                if self._layout is not None:
                    self.sc.log_back = self._layout[1].page_back(self.sc.log_back)
                else:  # (before the game's first screen: the table's lines, a page is the screen)
                    self.sc.log_back += max(1, self.size()[1] - 2)

        @kb.add("pagedown", eager=True)
        def _log_forward(event: KeyPressEvent) -> None:
            with self.lock:
                if self._layout is not None:
                    self.sc.log_back = self._layout[1].page_forward(self.sc.log_back)
                else:
                    self.sc.log_back = max(0, self.sc.log_back - max(1, self.size()[1] - 2))

        @kb.add("up", eager=True)
        def _choices_up(event: KeyPressEvent) -> None:
            self._scroll_choices(-1)

        @kb.add("down", eager=True)
        def _choices_down(event: KeyPressEvent) -> None:
            self._scroll_choices(1)

        @kb.add("tab", eager=True)
        def _toggle(event: KeyPressEvent) -> None:
            with self.lock:
                self.sc.secret = not self.sc.secret

        return kb

    def _scroll_choices(self, by: int) -> None:
        with self.lock:
            sc = self.sc
            current = sc.choices_top if sc.choices_top is not None else sc.shown_top
            sc.choices_top = max(0, current + by)  # (kept inside the choices when drawn)

    # -- what the prompt calls (any thread) -------------------------------------------------------------
    def show(self, frame: Frame) -> None:
        """A new frame: its board, hand and header; the choices pane starts empty."""
        with self.lock:
            self.asking = True
            self.frame = frame
            self._version += 1
            self.sc.status = ""
            self.sc.choices = []
            self.sc.block = self._since = 0
            self.sc.choices_top = None
        self._redraw()

    def done(self) -> None:
        """The decision is made: its choices go, the game's updates show again."""
        with self.lock:
            self.asking = False
        self.clear_choices()

    def status(self, text: str) -> None:
        """The answer to the last key, in place under the choices (replaced by the next, gone with the frame)."""
        with self.lock:
            self.sc.status = text
        self._redraw()

    def clear_choices(self) -> None:
        with self.lock:
            self.sc.status = ""
            self.sc.choices = []
            self.sc.block = self._since = 0
            self.sc.choices_top = None
        self._redraw()

    def update(self, frame: Frame) -> None:
        """The board moved on while nothing is asked: the new frame, the choices pane as it was."""
        with self.lock:
            if self.reading or self.asking:
                return
            self.frame = frame
            self._version += 1
        self._redraw()

    def say(self, text: str) -> None:
        with self.lock:
            self.sc.status = ""
            self.sc.choices.extend(text.split("\n"))
        self._redraw()

    def log(self, line: str) -> None:
        """A line of the account (or a notice) at the bottom of the log; a log scrolled back stays where it is."""
        with self.lock:
            new = line.split("\n")
            self.sc.log.extend(new)
            if self.sc.log_back:
                self.sc.log_back += len(new)
            del self.sc.log[:-2000]
        self._redraw()

    def discard_typed_ahead(self) -> None:
        """Forget what was typed before the question it would answer: the lines entered, the half-typed one, and
        the keys the terminal holds that the app has not read yet (done on the app's loop, waited for)."""
        app = self.app
        dropped = threading.Event()

        def drop() -> None:
            with contextlib.suppress(Exception):
                if app is not None:
                    app.input.read_keys()  # (non-blocking: what has come in and was not handled yet)
                    app.input.flush_keys()
            self.buffer.reset()
            self._drain()
            dropped.set()

        if app is not None and app.loop is not None and self.running:
            with contextlib.suppress(RuntimeError):
                app.loop.call_soon_threadsafe(drop)
                dropped.wait(2)
        self._drain()

    def _drain(self) -> None:
        while True:
            try:
                self.lines.get_nowait()
            except queue.Empty:
                break

    def readline(self, prefix: Prefix, timeout: float | None = None) -> str | None:
        """The next line typed (with its newline), '' at the end of input, `INTERRUPT` for Ctrl-C, None when
        `timeout` seconds pass first. The choices said since the last line read are the newest block."""
        with self.lock:
            self.sc.block = min(self._since, len(self.sc.choices))
            self.sc.choices_top = None
            self.prefix = prefix
            self.reading = True
        self._redraw()
        try:
            if not self.running:
                return ""
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                wait = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
                if wait <= 0:
                    return None
                try:
                    return self.lines.get(timeout=wait)
                except queue.Empty:
                    if not self.running:
                        return ""
        finally:
            with self.lock:
                self.reading = False
                self.prefix = ""
                self._since = len(self.sc.choices)
            self._redraw()
