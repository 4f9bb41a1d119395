"""Catching up before signing, its state and rulings: when this process did not run for a while (a stall), and
whether the heads the table told us since we asked show that we hold all it holds (p2p/peer/catchup.py acts on it;
docs/protocol.md, "Abandonment and resume").

`CatchUp` is given the clocks' readings and the table's answers as arguments; it sends nothing and reads no log."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Collection

Head = tuple[int, bytes]


class CatchUp:
    """Whether we must catch up before signing, and what the table told us since we began."""

    def __init__(self) -> None:
        self.active = False  # sign nothing until fresh heads show we hold all the table holds
        self.fresh: dict[str, Head] = {}  # fingerprint -> the head it told us since then
        self.nonce = b""  # the nonce of our asks while catching up (a `told` must carry it)
        self.since = 0.0  # awake clock when we began catching up
        self.asked_at: float | None = None  # awake clock when we last asked the table for its heads
        self._tick_at, self._tick_cpu = time.monotonic(), time.process_time()  # the last look at the clocks

    def idle(self) -> float:
        """Seconds this process did not run since the last call: wall time less CPU time (our own work blocking the
        loop, a shuffle proof, is not a stall)."""
        now, cpu = time.monotonic(), time.process_time()
        idle = (now - self._tick_at) - (cpu - self._tick_cpu)
        self._tick_at, self._tick_cpu = now, cpu
        return idle

    def begin(self, now: float) -> None:
        """Sign nothing until fresh heads show we hold all the table holds (`caught_up`)."""
        self.active = True
        self.fresh = {}
        self.nonce = secrets.token_bytes(8)
        self.since = now
        self.asked_at = None

    def told(self, fp: str, head: Head, nonce: bytes) -> bool:
        """A `told` answering our ask (with our nonce; a head buffered from before is not): True if it counts."""
        if not self.active or nonce != self.nonce:
            return False
        self.fresh[fp] = head
        return True

    def ask_now(self, now: float, every: float) -> bool:
        """Whether to ask the table for its heads again (every `every` seconds)."""
        if self.asked_at is not None and now - self.asked_at < every:
            return False
        self.asked_at = now
        return True

    def given_up(self, now: float, period: float) -> bool:
        """The table has not answered within two periods of ours (at least 5 s): everyone left while we were away."""
        return now - self.since >= max(2 * period, 5.0)

    def caught_up(
        self,
        others: Collection[str],
        n: int,
        length: int,
        id_at: Callable[[int], bytes],
        answers: Collection[bytes],
        now: float,
        period: float,
    ) -> bool:
        """Every other seat (`others`, of `n`) told us its head in answer to our ask, and none holds an entry we lack or
        another entry where we hold one (our log: `length` entries, `id_at(seq)` their ids; `answers`: ids of held
        abandons naming us at our next seq, which our own entry there beats). Else, after half a `period`: a strict
        majority of the seats (we count) told us heads we agree with — a seat may be gone, and a seat that claims
        entries it does not send us when we `get` them (an honest one sends them at once) cannot hold us back for
        ever."""
        agree = 0
        for fp, (seq, hid) in self.fresh.items():
            if fp not in others:
                continue
            if seq > length + 1 or (seq == length + 1 and hid not in answers):
                continue  # it holds entries we lack (perhaps our own): they are being fetched
            if 0 < seq <= length and id_at(seq - 1) != hid:
                continue  # another entry where we hold one: the exchange settles it
            agree += 1
        if agree == len(others):
            return True
        return 2 * (agree + 1) > n and now - self.since >= period / 2
