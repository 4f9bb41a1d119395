"""Patience per decision: when each decision a seat owes became due *at this peer*, on a clock that counts only the
time this process was running (docs/protocol.md, "Abandonment and resume", rule 2).

A decision is a point of the log and a place in the run of pass tokens there: `(seq, prev, j)`, the j-th decision
after entry `prev` (the entry at `seq` being next). It becomes due here the moment this peer first holds the log up to
`prev` and the tokens of decisions 0..j-1 after it (or an abandon that carries them): the entry, token or window close
that made it due was seen then, never earlier. So a seat's patience is never spent while another seat was on duty
(a withheld pass token, released inside an abandon, starts the next seat's clock only then), and nothing else a
seat sends (entries far ahead of the log, tokens on made-up branches, heads) moves it. It also notes when each pass
token for the next point first came (`heard`): a token that came only after an abandon naming its seat was due here is
no answer to that abandon (rule 3).

The clock: seconds this process was awake. A stall (a busy machine, SIGSTOP) counts as at most two steps, so a peer
that wakes up reads what waits in its buffers before it gives up on anyone. It advances when read (`now`), and a
peer reads it at least every step (`tick`, and its waits)."""

from __future__ import annotations

import time

import trio

Decision = tuple[int, bytes, int]  # (seq, prev, j)
MAX_HEARD = 4096  # pass tokens whose arrival time is kept (the pass pool's own bounds keep far fewer)


class Patience:
    """The awake clock and, per decision, when it became due here (only for the next seq: bounded)."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.step = max(0.05, min(0.5, period / 8)) if period > 0 else 0.05
        self.awake = 0.0
        self._last = time.monotonic()
        self._since: dict[Decision, float] = {}
        self._heard: dict[tuple[int, bytes, int, int], float] = {}  # (seq, prev, j, seat) -> when its token came

    def now(self) -> float:
        """Seconds this process was awake (a gap longer than two steps counts as two)."""
        t = time.monotonic()
        self.awake += min(max(0.0, t - self._last), 2 * self.step)
        self._last = t
        return self.awake

    async def tick(self) -> None:
        """Read the clock every step, so that awake time between other reads is counted."""
        while True:
            await trio.sleep(self.step)
            self.now()

    def due(self, seq: int, prev: bytes, j: int) -> float:
        """When decision `(seq, prev, j)` became due here: now, if this is the first time we see it due."""
        if any(s < seq for s, _, _ in self._since):
            self._since = {k: v for k, v in self._since.items() if k[0] >= seq}
            self._heard = {k: v for k, v in self._heard.items() if k[0] >= seq}
        return self._since.setdefault((seq, prev, j), self.now())

    def heard(self, seq: int, prev: bytes, j: int, seat: int) -> None:
        """`seat`'s pass token for decision `(seq, prev, j)` reached us now (only its first arrival counts)."""
        if len(self._heard) < MAX_HEARD:
            self._heard.setdefault((seq, prev, j, seat), self.now())

    def heard_at(self, seq: int, prev: bytes, j: int, seat: int) -> float | None:
        """When `seat`'s pass token for that decision first reached us (None if we did not see it come)."""
        return self._heard.get((seq, prev, j, seat))

    def restart(self, seq: int, prev: bytes, j: int) -> None:
        """That decision becomes due here again now (its seat could not have seen it due yet: join_grace.py)."""
        self._since[(seq, prev, j)] = self.now()

    def known(self, seq: int, prev: bytes, j: int) -> bool:
        """Whether that decision has been due here before."""
        return (seq, prev, j) in self._since

    def waited(self, seq: int, prev: bytes, j: int) -> float:
        """How long that decision has been due here (0 if it became due just now)."""
        return self.now() - self.due(seq, prev, j)

    def rounds(self, seq: int, prev: bytes, j: int, n: int) -> int:
        """Whole periods that decision has been due here (`n`, every seat, with no patience at all)."""
        return int(self.waited(seq, prev, j) // self.period) if self.period > 0 else n
