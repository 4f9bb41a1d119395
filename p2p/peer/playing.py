"""Our part of the play: the play loop (`play`), from the duty the fold says is due to our entry authored, signed,
taken in and broadcast; our engine decisions (`decide`), a reaction window's decided ahead of time or passed by a token
(`decide_window`, `_look_ahead`); and a seat on duty that stays silent (`_silence`: patience counted from when the
decision became due here, then `Abandoning.abandon`).

`Playing` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), what the player is told
(narrator.py), when decisions became due (patience.py), the abandons held (abandonment.py), catching up before we sign
(catchup.py, stalls.py), the seat's files (seating.py: secrets on disk before an entry commits to them), the net
(net.py), intake (intake.py), evidence (evidence.py), a silent seat given up on (abandon.py), and what it does through
the peer: our identity, the mesh and the wire, the chooser, whether the game ended for us, the peer's seams (`decide`,
`decide_window`: where a test's cheater stalls or withholds), the end told. The peer wires it
(p2p/peer/table_peer.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio
from adp2p.crypto.entries import encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.machine import Chooser, Machine
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer import join_grace
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import PeerConfig, TableError, _fixed
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.patience import Decision, Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.stalls import CatchUp
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import Kind, encode_body


class Playing:
    """Our part of the play: the loop, our decisions, a silent seat's patience."""

    def __init__(
        self,
        seat_log: SeatLog,
        narrator: Narrator,
        patience: Patience,
        abandonment: Abandonment,
        catch_up: CatchUp,
        catching_up: Any,
        seating: Any,
        net: Any,
        intake: Any,
        proofs: Any,
        abandoning: Any,
        heads: Any,
        *,
        cfg: PeerConfig,
        choose: Chooser,
        me: Callable[[], SecretIdentity],
        mesh: Callable[[], Any],
        wire: Callable[[], Any],
        ended: Callable[[], str | None],
        decide: Callable[[Machine], Awaitable[dict[str, Any]]],
        decide_window: Callable[[Machine, Machine, int], Awaitable[None]],
        finish: Callable[[], None],
    ) -> None:
        """`catching_up`: `CatchingUp` (note_stall, gate); `seating`: `Seating` (save_secrets); `net`: `Net`
        (wait_progress, wait_awake, flush); `intake`: `Intake` (drain, accept); `proofs`: `Proofs` (post_pending);
        `abandoning`: `Abandoning` (abandon); `heads`: the others' heads (join_grace.py); `cfg`: patience, heartbeat,
        think time, game; `choose(view, seat, options)`: the chooser (a bot, a person at a prompt); `me()`: our
        identity; `mesh()`, `wire()`: the peer's; `ended()`: why the game ended for us (None while it goes on);
        `decide(m)`, `decide_window(m, at, j)`: the peer's seams (by default this object's own); `finish()`: the end,
        told and written into the outcome."""
        self.log, self.narrator, self.patience, self.abandonment = seat_log, narrator, patience, abandonment
        self.catch_up, self.catching_up, self.seating, self.net = catch_up, catching_up, seating, net
        self.intake, self.proofs, self.abandoning, self.heads, self.cfg = intake, proofs, abandoning, heads, cfg
        self.choose, self._me, self._mesh, self._wire, self._ended = choose, me, mesh, wire, ended
        self._decide, self._decide_window, self._finish = decide, decide_window, finish
        self.deciding = trio.CancelScope()  # our engine decision in progress (cancelled when the game moves on)
        self.join_first: dict[Decision, float] = {}  # when a seat's `join` was first due here (join_grace.py)

    def stop_deciding(self) -> None:
        """The game moved on: our decision in progress is for a fold we left."""
        self.deciding.cancel()

    async def play(self) -> None:
        """The play loop: until the game is complete, ended for us or abandoned."""
        log, mesh = self.log, self._mesh()
        assert log.machine is not None and log.store is not None and mesh is not None
        # the game has begun: only its seated players may connect (outsiders cannot hold sockets or slots)
        mesh.restrict({i.fingerprint() for i in log.machine.ids} - {self._me().public.fingerprint()})
        while True:
            self.narrator.show(log.machine)
            self.intake.drain()
            self.proofs.post_pending()
            await self.net.flush()
            m, store = log.machine, log.store  # evidence may have replaced the fold: read it afresh every time
            assert m is not None and store is not None
            if self._ended() or m.complete or m.abandoned is not None:
                break
            seq, prev = len(store), store.head_id
            trial, toks = log.passes.chain(m, seq, prev) if log.passes is not None else (m, [])
            duty = trial.duty()  # who is due after the passes we hold tokens for
            assert duty is not None
            self.narrator.progress_line(m, duty)
            self.abandonment.at(seq, prev)  # abandons held for an earlier seq are moot now
            if await self.abandoning.overdue():
                continue  # an abandon over a token that came late here: applied
            decision = (seq, prev, len(toks))
            self.patience.due(*decision)  # the duty on now became due here no earlier than now
            self.catching_up.note_stall()
            if self.catch_up.active and not await self.catching_up.gate():
                continue  # resumed or stalled: nothing is signed before we hold all the table holds
            if duty.seat == m.seat:
                await self.our_duty(m, trial, duty, toks)
                continue
            if m.prepare_shuffle():
                continue  # our masks for a shuffle step of ours to come, made while we wait for others
            if m.prepare_ahead():
                continue  # the game's work of ours to come (a proof we will owe), done while we wait for others
            if await self._look_ahead(m, trial, len(toks)):
                continue  # we decided a window of ours ahead of time: look again
            if await self._silence(decision, duty.seat, toks):
                continue
        await self.net.flush()
        self._finish()

    async def our_duty(self, m: Machine, trial: Machine, duty: Any, toks: list[bytes]) -> None:
        """Our entry at the next seq, on `trial` (our fold with the passes we hold tokens for applied): decided (an
        event), authored, on disk (its secrets first), then broadcast; or nothing, if the game moved on meanwhile."""
        store, ahead = self.log.store, self.log.ahead
        assert store is not None and m.seat is not None
        seq, prev = len(store), store.head_id
        chooser: Chooser | None = None
        if duty.kind == Kind.EVENT:
            if trial.window_actor() == m.seat and (seq, prev, len(toks)) not in ahead:
                await self._decide_window(m, trial, len(toks))  # a pass may go out as a token
                return
            ev = ahead.get((seq, prev, len(toks)))
            if ev is None:
                with trio.CancelScope() as self.deciding:
                    ev = await self._decide(trial)
                if self.deciding.cancelled_caught or self._moved(m, seq):
                    return  # the game moved on while we decided (given up on us, or evidence came)
                self.log.ahead[(seq, prev, len(toks))] = ev  # kept if we must catch up before signing it
            chooser = _fixed(ev)  # decided above, off the trio thread
        out = trial.author_next(chooser)
        if out is None:  # nothing we can author (a machine that holds back): wait for news
            await self.net.wait_progress()
            return
        kind, body = out
        if toks and kind == Kind.EVENT:  # (the chain only ever ends where an event is due)
            body["passes"] = toks
        self.catching_up.note_stall()  # (no await from here to the signature: a stall shows in the next tick)
        if self.catch_up.active:
            return  # we did not run for a while: the table may have gone on without us
        self.seating.save_secrets()  # the witness, salts or keys this entry commits to: on disk before it is
        raw = encode_entry(self._me(), m.game_id, len(store), store.head_id, m.seat, int(kind), encode_body(body))
        try:
            self.intake.accept(frame(raw), own=True)
        except OSError as exc:
            raise TableError(
                f"cannot append to {store.path} ({exc.strerror or exc}); nothing was sent — resume "
                f"with: {resume_command(self.log.gdir, self.cfg.game)}"
            ) from None
        await self._wire().broadcast({"k": "entry", "raw": raw})  # (it is our head)

    async def _silence(self, decision: Decision, seat: int, toks: list[bytes]) -> bool:
        """The seat on duty has not answered `decision`: wait for news or for its next period of patience (counted
        from when that decision became due here, not from when this seq began or the last message came: entries
        sent far ahead of the log, tokens on made-up branches and the like are no answer). At each period that
        passes, one last look at what waits in our buffers, then give up on it (`Abandoning.abandon`). True to look
        again."""
        period = self.cfg.abandon_after
        m = self.log.machine
        assert m is not None
        if join_grace.not_seated_yet(self.heads, self.patience, period, self.join_first, m, seat, decision):
            # its patience starts once it holds the genesis
            await self.net.wait_awake(max(0.2, self.cfg.heartbeat))
            return True
        rounds = self.patience.rounds(*decision, m.n)
        acted = self.abandonment.acted(decision)
        if rounds <= acted:
            if period <= 0:  # no patience at all: every seat may give up at once, and has
                await self.net.wait_progress()
                return True
            left = self.patience.due(*decision) + (acted + 1) * period - self.patience.now()
            await self.net.wait_awake(max(0.0, left))
            return True
        # a last look before giving up on that seat: what it sent may still wait in our buffers (after this process
        # was suspended, every timer fires at once, before the buffered entries are read)
        self.abandonment.act(decision, rounds)
        with trio.move_on_after(max(0.2, self.cfg.heartbeat)):
            while self.log.store is not None and len(self.log.store) == decision[0] and self.log.machine is m:
                await self.net.wait_progress()
                if self._tokens_held(m, decision) != decision[2]:
                    break
        store = self.log.store
        if store is None or len(store) != decision[0] or self.log.machine is not m or self._ended():
            return True
        if self._tokens_held(m, decision) != decision[2]:
            return True  # its answer (a token) came meanwhile: the next decision's clock starts
        await self.abandoning.abandon(seat, rounds, toks)
        return True

    def _tokens_held(self, m: Machine, decision: Decision) -> int:
        """How many decisions at that point our held tokens answer (the chain the next entry would carry)."""
        return len(self.log.passes.chain(m, decision[0], decision[1])[1]) if self.log.passes is not None else 0

    async def decide(self, m: Machine) -> dict[str, Any]:
        """Our engine decision: the chooser (a bot, or a person at a prompt) runs in a worker thread so the
        mesh keeps answering heartbeats; a short think delay hides how fast we decided (no tells). (What the peer's
        seam `TablePeer.decide` does unless a test's slow seat stops there first.)"""
        assert m.seat is not None
        seen = m.game.view(m.state, m.seat)
        options = m.game.legal(seen, m.seat)
        delay = self.cfg.think()
        if delay > 0:
            await trio.sleep(delay)
        return await trio.to_thread.run_sync(self.choose, seen, m.seat, options, abandon_on_cancel=True)

    def _moved(self, m: Machine, seq: int) -> bool:
        """The game moved on while we decided at `seq` on fold `m` (an entry came, evidence, the end)."""
        store = self.log.store
        return bool(self._ended()) or self.log.machine is not m or store is None or len(store) != seq

    async def decide_window(self, m: Machine, at: Machine, j: int) -> None:
        """Our decision j in a reaction window, on `at` (our fold with the passes before it applied, held or
        assumed): a pass followed by another decision goes out as a token (on disk first); anything else waits in
        `ahead` until the passes before it have come, and is then written as our entry. (What the peer's seam
        `TablePeer.decide_window` does unless a test's cheater withholds its token, or acts after it passed.)"""
        assert self.log.store is not None and self.log.passes is not None and m.seat is not None
        seq, prev = len(self.log.store), self.log.store.head_id
        with trio.CancelScope() as self.deciding:
            ev = await self._decide(at)
        if self.deciding.cancelled_caught or self._moved(m, seq):
            return
        self.catching_up.note_stall()
        if self.catch_up.active:
            return  # we did not run for a while: decide again once caught up
        if m.game.is_pass(ev, m.seat) and not self.abandonment.names_me(seq, prev, j, m.seat):
            after = at.fork()
            after.pass_window()
            nxt = after.duty()
            if nxt is not None and nxt.kind == Kind.EVENT:  # someone's next entry can carry it
                token = self.log.passes.sign(self._me(), seq, prev, j)
                if nxt.seat != m.seat:
                    await self._wire().broadcast(
                        {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token}
                    )
                self.net.progress.set()
                return
        self.log.ahead[(seq, prev, j)] = ev

    async def _look_ahead(self, m: Machine, at: Machine, j: int) -> bool:
        """While a window waits for other seats, decide our own later decisions in it now, as if those before us
        pass (the only case in which the rules would ask us): every seat of a window decides at once. True if we
        decided one (the caller looks again)."""
        if self.log.passes is None or m.seat is None or self.log.store is None or at.window_actor() is None:
            return False
        seq, prev = len(self.log.store), self.log.store.head_id
        sim: Machine | None = None
        while (who := (sim or at).window_actor()) is not None:
            if who == m.seat and not self.log.passes.signed(seq, prev, j):
                if (seq, prev, j) in self.log.ahead:
                    return False  # decided: what follows depends on it
                await self._decide_window(m, sim or at, j)
                return True
            if sim is None:
                sim = at.fork()
            sim.pass_window()
            j += 1
        return False

