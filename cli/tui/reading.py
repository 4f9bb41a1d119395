"""Reading a player's lines and printing them, for every game's prompt: lines from a terminal with a timeout and a
countdown (`LineReader`, one per file descriptor: `reader_for`), what was typed ahead forgotten, words wrapped at the
terminal's width (`say_wrapped`)."""

from __future__ import annotations

import os
import select
import shutil
import textwrap
import time
from collections.abc import Callable
from typing import Any


class LineReader:
    """Lines from a file descriptor with an optional timeout (select + os.read, own buffer), or from any
    file-like object without one (tests pass StringIO)."""

    def __init__(self, inp: Any) -> None:
        self.inp = inp
        self.buf = b""
        try:
            self.fd: int | None = inp.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def discard_typed_ahead(self) -> None:
        """Forget what was typed before the question it would answer was asked (keys pressed while the others
        moved land on no later prompt). Only a terminal types ahead; a pipe or a file is a script, kept whole."""
        if self.fd is None or not os.isatty(self.fd):
            return
        self.buf = b""
        while select.select([self.fd], [], [], 0)[0]:
            if not os.read(self.fd, 4096):
                break

    def readline(self, timeout: float | None = None, tick: Callable[[float], None] | None = None,
                 poll: Callable[[], None] | None = None) -> str | None:
        """One line ('' at end of input) or None when `timeout` seconds pass first; `tick(seconds_left)` is
        called about once a second while waiting, `poll()` about twice a second (e.g. to redraw after a resize)."""
        if self.fd is None:
            return self.inp.readline()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            wait = None if poll is None else 0.5
            if poll is not None:
                poll()
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                if tick is not None:
                    tick(left)
                wait = min(wait or 1.0, left)
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                line, self.buf = self.buf, b""
                return line.decode(errors="replace")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace") + "\n"


_READERS: dict[int, LineReader] = {}


def reader_for(inp: Any) -> LineReader:
    r = LineReader(inp)
    if r.fd is None:
        return r
    return _READERS.setdefault(r.fd, r)


def say_wrapped(text: str, out: Any) -> None:
    """Print `text` wrapped at words to the terminal's width (a line the terminal wrapped would break a word);
    to a pipe or a file, as it is."""
    if not getattr(out, "isatty", lambda: False)():
        print(text, file=out, flush=True)
        return
    width = max(20, terminal_width(out) - 1)
    for line in text.split("\n"):
        indent = " " * (len(line) - len(line.lstrip(" ")))
        print(textwrap.fill(line, width, subsequent_indent=indent + "  ", break_long_words=False,
                            break_on_hyphens=False) if len(line) > width else line, file=out, flush=True)


def terminal_width(out: Any) -> int:
    try:
        if out.isatty():
            return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    return shutil.get_terminal_size((100, 24)).columns
