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

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

import trio
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer.common import log

STALL_TICK = 0.25  # seconds between two ticks of the stall watcher


class CatchUpPart:
    """Catching up before signing."""

    def _stall_limit(self) -> float:
        """Seconds between two ticks during which this process did not run (wall time less CPU time: our own work
        blocking the loop, a shuffle proof, is not a stall) beyond which we catch up before signing."""
        return max(1.0, min(10.0, self.cfg.abandon_after / 2))

    def _note_stall(self) -> None:
        """Called where it matters (right before we sign) and by `_watch_stalls`: if the process did not run for a
        while since the last call, we catch up from the table before signing anything."""
        idle = self.catch_up.idle()
        if idle > self._stall_limit() and self.machine is not None and not self.ended:
            log.info("this process did not run for %.1f s: catching up from the table before signing", idle)
            self._begin_catch_up()

    async def _watch_stalls(self) -> None:
        while True:
            self._note_stall()
            await trio.sleep(STALL_TICK)

    def _begin_catch_up(self) -> None:
        """Sign nothing until fresh heads show we hold all the table holds (`_catch_up`)."""
        self.catch_up.begin(self.patience.now())

    def _caught_up(self) -> bool:
        """Whether the heads told since we asked show we hold all the table holds (`CatchUp.caught_up`)."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        others = {i.fingerprint() for s, i in enumerate(m.ids) if s != m.seat}
        answers = self.abandonment.answers(len(store), m.seat)
        return self.catch_up.caught_up(
            others, m.n, len(store), lambda seq: store[seq].id, answers, self.patience.now(), self.cfg.abandon_after
        )

    def _note_table_abandoned_us(self) -> None:
        """Caught up: an abandon naming us that we hold, and that another seat than its author told us is its head,
        stood at the table; our own entry now sets it aside. Its author may have left on it (rule 7 of
        "Abandonment")."""
        m = self.machine
        assert m is not None
        for author, raw in self.abandonment.held.items():
            e = decode_entry(raw)
            if e.id not in self.abandonment.answers(e.seq, m.seat):
                continue
            by = m.ids[author].fingerprint()
            if any(hid == e.id and fp != by for fp, (_seq, hid) in self.catch_up.fresh.items()):
                self.abandonment.stood_here(raw)

    async def _catch_up(self) -> bool:
        """The gate of the play loop: True once we may sign again. Until then ask every seat for its head (each
        heartbeat) and wait; if the table does not answer within two periods of ours (everyone left while we
        were away), leave naming nobody and writing nothing (exit 6: a resume learns the end)."""
        assert self.store is not None and self.mesh is not None
        if self._caught_up():
            self.catch_up.active = False
            self._note_table_abandoned_us()
            for raw in list(self.abandonment.held.values()):  # one naming us where we passed: our pass, as an entry
                self._hold_abandon(raw, "a peer")
            return True
        now = self.patience.now()
        if self.catch_up.given_up(now, self.cfg.abandon_after):
            self.outcome.lost_contact = True
            self._end("lost_contact", seq=len(self.store), resume=resume_command(self.gdir, self.cfg.game))
            self.progress.set()
            return False
        if self.catch_up.ask_now(now, self.cfg.heartbeat):
            ask = {"k": "ask", "seq": len(self.store), "id": self.store.head_id, "nonce": self.catch_up.nonce}
            await self.wire.broadcast(ask)
        with trio.move_on_after(self.cfg.heartbeat):
            await self._wait_progress()
        return False
