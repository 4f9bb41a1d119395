"""Following the game on the full screen while nothing is asked: at most every `WATCH_EVERY` seconds, and always to
its latest state (the last move of a burst is drawn once the interval is over, never dropped)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

WATCH_EVERY = 0.5  # seconds: the full screen follows the game at most this often while nothing is asked

State = Any  # a game's state (any game's: the follower only hands it on)
Draw = Callable[[State, int | None], None]


class Follower:
    """Calls `draw(st, me)` with the newest state it was given: at once when the last draw is `WATCH_EVERY` old,
    else once that interval is over (a timer thread), with whatever state is newest then."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw
        self.lock = threading.Lock()
        self.drawn = 0.0  # monotonic time of the last draw
        self.latest: tuple[State, int | None] | None = None
        self.timer: threading.Timer | None = None

    def __call__(self, st: State, me: int | None) -> None:
        with self.lock:
            self.latest = (st, me)
            wait = WATCH_EVERY - (time.monotonic() - self.drawn)
            if wait > 0:
                if self.timer is None:
                    self.timer = threading.Timer(wait, self.draw_latest)
                    self.timer.daemon = True
                    self.timer.start()
                return
        self.draw_latest()

    def draw_latest(self) -> None:
        with self.lock:
            self.timer = None
            latest, self.latest = self.latest, None
            if latest is None:
                return
            self.drawn = time.monotonic()
        self.draw(*latest)
