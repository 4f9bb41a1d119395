"""Catching up before signing: after a resume (whatever the state of our log: torn, cut at a record boundary,
repaired, intact) and after this process was stalled (SIGSTOP, a frozen machine), the peer signs nothing — no
entry, no abandon, no pass token — until fresh heads from the table show that we hold everything it holds. An
entry of ours that the disk lost after we sent it is then fetched back from the table (it verifies like anyone
else's) instead of being signed a second time, which every peer would take for an equivocation; and a peer that
wakes after the table gave up on it learns so before it writes anything (docs/protocol.md, "Abandonment and
resume").

A stall: between two ticks of `_watch_stalls` (or the check right before we sign), wall time less the process's
CPU time (our own work blocking the loop, a shuffle proof, is not one) longer than `_stall_limit`. The waits here
are on the awake clock of `patience.py`.

`CatchingUp` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), its catch-up state
(stalls.py), the awake clock, the abandonment's held entries, and what it does through the peer (whether the game
ended for us, ask the table for heads, wait for news, answer an abandon held, leave having lost contact). The peer
wires it (p2p/peer/table_peer.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import PeerConfig, log
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.stalls import CatchUp

STALL_TICK = 0.25  # seconds between two ticks of the stall watcher


class CatchingUp:
    """Catching up before signing."""

    def __init__(
        self,
        log: SeatLog,
        catch_up: CatchUp,
        patience: Patience,
        abandonment: Abandonment,
        *,
        cfg: PeerConfig,
        ended: Callable[[], bool],
        ask: Callable[[dict[str, Any]], Awaitable[Any]],
        wait: Callable[[], Awaitable[None]],
        answer_held: Callable[[bytes], None],
        lose_contact: Callable[[], None],
    ) -> None:
        """`cfg`: the patience (abandon_after) and heartbeat; `ended()`: the game is over for us; `ask(msg)`: to every
        seat; `wait()`: for news (progress); `answer_held(raw)`: an abandon held, weighed again once caught up;
        `lose_contact()`: leave naming nobody and writing nothing (the table did not answer)."""
        self.log, self.catch_up, self.patience, self.abandonment = log, catch_up, patience, abandonment
        self.cfg = cfg
        self.ended, self.ask, self.wait = ended, ask, wait
        self.answer_held, self.lose_contact = answer_held, lose_contact

    def stall_limit(self) -> float:
        """Seconds between two ticks during which this process did not run (wall time less CPU time: our own work
        blocking the loop, a shuffle proof, is not a stall) beyond which we catch up before signing."""
        return max(1.0, min(10.0, self.cfg.abandon_after / 2))

    def note_stall(self) -> None:
        """Called where it matters (right before we sign) and by `watch_stalls`: if the process did not run for a
        while since the last call, we catch up from the table before signing anything."""
        idle = self.catch_up.idle()
        if idle > self.stall_limit() and self.log.machine is not None and not self.ended():
            log.info("this process did not run for %.1f s: catching up from the table before signing", idle)
            self.begin()

    async def watch_stalls(self) -> None:
        while True:
            self.note_stall()
            await trio.sleep(STALL_TICK)

    def begin(self) -> None:
        """Sign nothing until fresh heads show we hold all the table holds (`gate`)."""
        self.catch_up.begin(self.patience.now())

    def caught_up(self) -> bool:
        """Whether the heads told since we asked show we hold all the table holds (`CatchUp.caught_up`)."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        others = {i.fingerprint() for s, i in enumerate(m.ids) if s != m.seat}
        answers = self.abandonment.answers(len(store), m.seat)
        return self.catch_up.caught_up(
            others, m.n, len(store), lambda seq: store[seq].id, answers, self.patience.now(), self.cfg.abandon_after
        )

    def note_table_abandoned_us(self) -> None:
        """Caught up: an abandon naming us that we hold, and that another seat than its author told us is its head,
        stood at the table; our own entry now sets it aside. Its author may have left on it (rule 7 of
        "Abandonment")."""
        m = self.log.machine
        assert m is not None
        for author, raw in self.abandonment.held.items():
            e = decode_entry(raw)
            if e.id not in self.abandonment.answers(e.seq, m.seat):
                continue
            by = m.ids[author].fingerprint()
            if any(hid == e.id and fp != by for fp, (_seq, hid) in self.catch_up.fresh.items()):
                self.abandonment.stood_here(raw)

    async def gate(self) -> bool:
        """The gate of the play loop: True once we may sign again. Until then ask every seat for its head (each
        heartbeat) and wait; if the table does not answer within two periods of ours (everyone left while we
        were away), leave naming nobody and writing nothing (exit 6: a resume learns the end)."""
        store = self.log.store
        assert store is not None
        if self.caught_up():
            self.catch_up.active = False
            self.note_table_abandoned_us()
            for raw in list(self.abandonment.held.values()):  # one naming us where we passed: our pass, as an entry
                self.answer_held(raw)
            return True
        now = self.patience.now()
        if self.catch_up.given_up(now, self.cfg.abandon_after):
            self.lose_contact()
            return False
        if self.catch_up.ask_now(now, self.cfg.heartbeat):
            await self.ask({"k": "ask", "seq": len(store), "id": store.head_id, "nonce": self.catch_up.nonce})
        with trio.move_on_after(self.cfg.heartbeat):
            await self.wait()
        return False
