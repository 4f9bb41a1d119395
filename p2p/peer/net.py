"""The mesh: heads and pass tokens gossiped, entries served, connections up and down, every message checked against its
schema and handled.

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

from typing import Any

import trio
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.p2p.framing import FrameTooLarge
from adp2p.p2p.logstore import (
    LogError,
)
from adp2p.p2p.machine.finality import silence_suspends
from adp2p.p2p.messages import MessageError, check_message
from adp2p.p2p.notices import notice, reason_words
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer.arrivals import PENDING_WINDOW
from adp2p.p2p.peer.common import (
    HEAD_DELAY,
    MAX_REFUSALS_TOLD,
    TableError,
    _remedy,
    _short,
    entry_fits,
    log,
)
from adp2p.p2p.protocol import BodyError, Kind
from adp2p.p2p.transport import PeerDown, PeerUp, TablePlaying, WordRefused


class NetPart:
    """The mesh."""

    async def _wait_progress(self) -> None:
        await self.progress.wait()
        self.progress = trio.Event()

    async def _wait_awake(self, seconds: float) -> bool:
        """Wait for progress (True), or until `seconds` of time this process was running have passed (False).
        Time it was stalled (a busy machine, SIGSTOP) does not count: whatever the others sent meanwhile still
        waits in our buffers, and a peer that wakes up must not give up on a seat it simply could not hear."""
        step = max(0.05, min(0.5, seconds / 8))
        counted = 0.0
        while counted < seconds:
            t0 = trio.current_time()
            with trio.move_on_after(min(step, seconds - counted)) as scope:
                await self._wait_progress()
            if not scope.cancelled_caught:
                return True
            counted += min(trio.current_time() - t0, 2 * step)  # an overrun (a stall) counts as two steps at most
        return False

    async def _send_head(self) -> None:
        """Our head is news: every peer hears it within HEAD_DELAY, in one message for a whole burst of entries.

        A head is news only when the others cannot tell it: after we caught up (entries relayed to us, or taken
        from those waiting ahead of our log), after evidence or an abandon, on connecting, at the end, and once
        when the table has not left a point for a heartbeat (`_repeat_passes`: a seat that missed an entry learns
        it is behind). An entry its author broadcast stands for the author's head (`Heads.implied`), and folding
        it tells nobody anything new: a head after every entry folded was three in ten of all messages at six
        peers (docs/protocol.md, "head")."""
        self.heads.news()

    async def _repeat_passes(self) -> None:
        """The pass tokens we hold for a point the table has not left for a heartbeat go out again, ours and the
        others': a peer that was away, behind (resuming, catching up), reconnected, or cut off from one seat only
        may have missed them, and without them it would wait on a seat that passed (docs/protocol.md, "Implied
        passes", rule 4)."""
        seen: tuple[int, bytes] | None = None
        while True:
            await trio.sleep(self.cfg.heartbeat)
            store, pool, m = self.store, self.passes, self.machine
            if store is None or pool is None or m is None or m.seat is None or self.mesh is None or self.ended:
                continue
            point = (len(store), store.head_id)
            if point == seen:  # ours and those we hold of others (relayed: a link between two seats may be down)
                await self._send_head_now()  # once per point: a seat that missed an entry learns it is behind
                for (j, seat), token in sorted(pool.tokens.get(point, {}).items()):
                    msg = {"k": "pass", "seq": point[0], "prev": point[1], "j": j, "seat": seat, "sig": token}
                    await self.wire.broadcast(msg)
            seen = point

    async def _gossip_heads(self) -> None:
        while True:
            await self.heads.wait_news()
            await trio.sleep(HEAD_DELAY)
            await self._send_head_now()

    async def _send_head_now(self) -> None:
        store, wire = self.store, self.wire
        if store is not None and wire is not None and self.heads.to_send((len(store), store.head_id)):
            await wire.broadcast(self._head_msg())

    def _head_msg(self) -> dict[str, Any]:
        assert self.store is not None
        return {"k": "head", "seq": len(self.store), "id": self.store.head_id}

    def _linger(self) -> float:
        """At most how long to keep serving after the end (the others normally all have it at once)."""
        if self.machine is not None and self.machine.complete and not self.ended:
            return max(1.0, min(self.cfg.abandon_after, 30.0))
        if self.outcome.abandoned_by is not None:
            # the silent seat may be a suspended peer about to come back: its own entry, if it arrives now, beats
            # the abandon and the game goes on with one log (longer than a period: its connections must redial)
            return max(1.0, min(2 * self.cfg.abandon_after, 60.0))
        return 1.0

    async def _serve_until_heads_match(self) -> None:
        """Return once every other seat has told us the very head we hold (its length and its id: a seat that
        holds another entry at our last seq, such as the entry of a seat we abandoned, which beats the abandon,
        must be heard out before we leave); until then keep answering `get`s."""
        m, store = self.machine, self.store
        others = [i.fingerprint() for i in m.ids if i.fingerprint() != self.fp] if m is not None else []
        while store is None or not self.heads.all_hold(others, (len(store), store.head_id)):
            if self._reopened:
                return  # the game goes on: play, not linger
            await trio.sleep(0.05)

    async def _events(self) -> None:
        assert self.mesh is not None
        async for ev in self.mesh.events:
            if isinstance(ev, PeerUp):
                await self._safe_send(ev.peer.fingerprint, self.lobby.message())
                if self.genesis_raw is not None:
                    await self._safe_send(ev.peer.fingerprint, {"k": "entry", "raw": self.genesis_raw})
                if self.store is not None:
                    await self._safe_send(ev.peer.fingerprint, self._head_msg())
                    await self._resend_passes(ev.peer.fingerprint)
            elif isinstance(ev, PeerDown):
                self._peer_down(ev.peer.fingerprint, ev.peer.label, ev.reason)
            elif isinstance(ev, WordRefused):
                if self._first_refusal("word", ev.who):
                    self.tell("word_refused", who=ev.who, address=ev.address)
            elif isinstance(ev, TablePlaying) and self.machine is None and self.playing is None:
                self.playing = ev
                self.progress.set()

    def _first_refusal(self, what: str, peer: str) -> bool:
        """Whether to tell the player of a peer refused at the door (a wrong table word, another protocol version):
        once per peer, and at most MAX_REFUSALS_TOLD in all (a stranger can cause refusals at will)."""
        if (what, peer) in self._refusals_told or len(self._refusals_told) >= MAX_REFUSALS_TOLD:
            return False
        self._refusals_told.add((what, peer))
        return True

    async def _resend_passes(self, fp: str) -> None:
        """Our pass tokens for the next entry, to a peer that (re)connects: it may have missed them."""
        m, store, pool = self.machine, self.store, self.passes
        if m is None or store is None or pool is None or m.seat is None:
            return
        seq, prev = len(store), store.head_id
        for j, token in pool.mine(seq, prev):
            await self._safe_send(fp, {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token})

    def _peer_down(self, fp: str, label: str, reason: str) -> None:
        log.info("peer down: %s (%s)", label, reason)
        self.lobby.left(fp, label)
        if self.machine is not None and not self.ended and not self.machine.complete:
            secs = f"{self.cfg.abandon_after:.0f}"
            why = reason_words(reason, self.cfg.lang)
            if silence_suspends(len(self.machine.names), self.machine.state.over):
                self.tell("disconnected_two", who=label, reason=why, secs=secs)
            else:
                self.tell("disconnected", who=label, reason=why, secs=secs)

    async def _safe_send(self, fp: str, msg: dict[str, Any]) -> None:
        try:
            await self.wire.send(fp, msg)  # type: ignore[union-attr]
        except Exception as exc:  # a peer that just dropped: the head exchange on reconnect catches up
            log.info("send to %s failed: %s", fp, exc)

    async def _receive(self) -> None:
        assert self.mesh is not None
        async for peer, msg in self.mesh.inbox:
            try:
                await self.handle(peer.fingerprint, peer.label, check_message(msg))
            except (KeyError, TypeError, ValueError, ArithmeticError, CryptoError, BodyError, LogError) as exc:
                log.warning("bad message from %s: %s", peer.label, exc)
                self.tell("ignored_malformed", who=peer.label, why=self._detail(_short(str(exc))))
            except OSError as exc:  # our own disk failed (full, read-only, gone): stop with one line, resume later
                where = exc.filename or self.gdir or self.cfg.data_dir
                raise TableError(
                    f"cannot write to {where} ({exc.strerror or exc}); nothing more was written — {_remedy(exc)}"
                    f"resume with: {resume_command(self.gdir, self.cfg.game)}"
                ) from None
            except Exception as exc:  # no message may take the peer down (the schema should have refused it)
                log.exception("message from %s could not be handled", peer.label)
                self.tell("ignored_unhandled", who=peer.label, why=self._detail(type(exc).__name__))

    async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """One message that fits its schema (p2p/messages.py). (Also the seam where a test's peer loses a message,
        or answers one as a cheater would: what it sends goes through its wire.)"""
        k = msg["k"]
        if k == "lobby":
            await self.lobby.heard(fp, label, msg)  # (p2p/peer/lobby.py)
        elif k == "entry":
            raw = msg["raw"]
            e = decode_entry(raw)
            if self.genesis_raw is None:
                if e.seq == 0 and e.kind == Kind.GENESIS and self.accepts_genesis(raw, label):
                    self.genesis_raw = raw
                    self.progress.set()
                return
            if self.store is None or self.machine is None:
                return
            if not any(i.fingerprint() == fp for i in self.machine.ids):
                self.tell("ignored_not_seated", who=label)
                return
            if not entry_fits(e):  # too large for the evidence that may have to carry it
                raise MessageError(f"entry {e.seq} of {len(raw)} bytes: too large for its kind")
            if e.seq < len(self.store):
                self._accept(raw, sender=label)  # duplicate (ignored) or equivocation (proof kept)
            elif e.seq == len(self.store):
                head = self.store.head_id
                from_author = e.author < len(self.machine.ids) and self.machine.ids[e.author].fingerprint() == fp
                self._take(raw, sender=label)
                if from_author and len(self.store) > e.seq and self.store[e.seq].id == e.id:
                    self.heads.implied(fp, e.seq + 1, e.id)  # (only an entry we took: a rejected one says nothing)
                if len(self.store) == e.seq and e.prev_hash != head and not self.ended:
                    # it builds on another entry than our head: fetch theirs (shows an equivocation)
                    await self._safe_send(fp, {"k": "get", "from": e.seq - 1})
                before = len(self.store)
                self._drain_pending()
                if not from_author or len(self.store) != before:
                    await self._send_head()  # we caught up on entries others may not know we hold: news
            elif e.seq < len(self.store) + PENDING_WINDOW:
                try:  # only properly signed entries wait in pending (garbage there would stall us)
                    self._check_signed(e)
                except CryptoError as exc:
                    where = notice("from_who", self.cfg.lang, who=label)
                    self.tell("rejected_entry", where=where, why=self._detail(_short(str(exc))))
                    return
                if not self.arrivals.hold(e.seq, raw):
                    return
                await self._safe_send(fp, {"k": "get", "from": len(self.store)})
                self.progress.set()
            self._post_pending_evidence()
            await self._share_proofs()
            await self._flush()
        elif k in ("head", "ask", "told"):
            if self.store is None:
                return
            seq, hid = msg["seq"], msg["id"]
            self.heads.told(fp, seq, hid)
            if self.abandonment.refused and self.machine is not None:  # (rule 7 of "Abandonment")
                self.abandonment.head_told(fp, hid, self.abandoning.fp_of)
            if k == "ask":  # a peer catching up (catchup.py) wants ours even if it is no news
                await self._safe_send(fp, {**self._head_msg(), "k": "told", "nonce": msg["nonce"]})
            elif k == "told" and self.catch_up.told(fp, (seq, hid), msg["nonce"]):
                self.progress.set()  # told after we asked (a head buffered from before is not)
            n = len(self.store)
            if seq > n:
                await self._safe_send(fp, {"k": "get", "from": max(0, n - 1)})
            elif seq > 0 and self.store[seq - 1].id != hid:
                # the same position holds another entry there: fetch theirs (an equivocation shows up)
                await self._safe_send(fp, {"k": "get", "from": seq - 1})
            elif seq == n:
                await self._resend_passes(fp)  # it has just reached our point: our tokens there are news to it
        elif k == "pass":
            m, store, pool = self.machine, self.store, self.passes
            if m is None or store is None or pool is None or msg["seat"] >= m.n:
                return  # (a token is checked against the seat it names: relayed ones are as good as the seat's own)
            if self.ended:
                return
            if pool.add(msg["seq"], msg["prev"], msg["j"], msg["seat"], msg["sig"], len(store), store.head_id):
                self.progress.set()
        elif k == "agree":
            await self.agreeing.take(msg)  # (p2p/peer/agreeing.py)
        elif k == "get" and self.store is not None:
            for e in self.store.since(msg["from"])[:2000]:
                await self._safe_send(fp, {"k": "entry", "raw": e.raw})

    async def _flush(self) -> None:
        """Broadcast what was authored or re-sent outside the play loop (evidence), then our head."""
        if not self.outbox or self.mesh is None:
            return
        out, self.outbox = self.outbox, []
        for raw in out:
            try:
                await self.wire.broadcast({"k": "entry", "raw": raw})
            except FrameTooLarge as exc:  # evidence carrying a cheater's frame-sized entry: never crash on it
                log.warning("entry %s too large to send: %s", _short(str(decode_entry(raw).seq)), exc)
        await self._send_head()
