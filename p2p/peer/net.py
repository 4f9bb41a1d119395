"""The mesh: heads and pass tokens gossiped, entries served, connections up and down, every message checked against its
schema and handled.

`Net` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), the others' heads (heads.py), our
catch-up state (stalls.py), the abandons held (abandonment.py), the lobby and the roster agreement, and what it does
through the peer: the peer's seams (`handle`, `accepts_genesis`), an entry taken in (intake), evidence posted and
proofs shared, telling the player. It owns the news event the peer waits on (`progress`), the entries to broadcast
from the play loop (`outbox`) and the refusals told. The peer wires it (p2p/peer/table_peer.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.agreeing import Agreeing
from adp2p.p2p.peer.arrivals import PENDING_WINDOW
from adp2p.p2p.peer.common import (
    HEAD_DELAY,
    MAX_REFUSALS_TOLD,
    PeerConfig,
    TableError,
    _remedy,
    _short,
    entry_fits,
    log,
)
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.lobby import Lobby
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.stalls import CatchUp
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import BodyError, Kind
from adp2p.p2p.transport import PeerDown, PeerUp, TablePlaying, WordRefused


class Net:
    """The mesh: what we send and receive, heads and tokens gossiped."""

    def __init__(
        self,
        seat_log: SeatLog,
        heads: Heads,
        catch_up: CatchUp,
        abandonment: Abandonment,
        lobby: Lobby,
        agreeing: Agreeing,
        *,
        cfg: PeerConfig,
        me: Callable[[], str],
        mesh: Callable[[], Any],
        wire: Callable[[], Any],
        ended: Callable[[], str | None],
        reopened: Callable[[], bool],
        handle: Callable[[str, str, dict[str, Any]], Awaitable[None]],
        accepts_genesis: Callable[[bytes, str], bool],
        accept: Callable[..., None],
        take: Callable[..., None],
        drain_pending: Callable[[], None],
        post_pending_evidence: Callable[[], None],
        share_proofs: Callable[[], Awaitable[None]],
        fp_of: Callable[[int], str],
        tell: Callable[..., None],
        detail: Callable[[object], str],
    ) -> None:
        """`cfg`: heartbeat, patience, language and game; `me()`: our fingerprint; `mesh()`, `wire()`: the peer's (None
        before it runs); `ended()`: why the game ended for us (None while
        it goes on); `reopened()`: an abandonment was set aside (play, not linger); `handle(fp, label, msg)`,
        `accepts_genesis(raw, label)`: the peer's seams; `accept(e, own=, sender=)`, `take(e, sender=)` (`e` framed),
        `drain_pending()`: entries taken in (intake); `post_pending_evidence()`, `share_proofs()`: evidence;
        `fp_of(seat)`: a seat's fingerprint; `tell(what, **args)`, `detail(why)`: the player's words."""
        self.log, self.heads, self.catch_up, self.abandonment = seat_log, heads, catch_up, abandonment
        self.lobby, self.agreeing, self.cfg = lobby, agreeing, cfg
        self._me, self._mesh, self._wire, self._ended = me, mesh, wire, ended
        self._reopened, self._handle, self._accepts_genesis = reopened, handle, accepts_genesis
        self._accept, self._take, self._drain_pending = accept, take, drain_pending
        self._post_pending_evidence, self._share_proofs, self._fp_of = post_pending_evidence, share_proofs, fp_of
        self.tell, self._detail = tell, detail
        self.progress = trio.Event()  # news for the play loop (an entry, a token, the end)
        self.outbox: list[bytes] = []  # entries authored (or re-sent) outside the play loop, to broadcast
        self.refusals_told: set[tuple[str, str]] = set()  # (what, who): a refused stranger is told once (bounded)

    async def wait_progress(self) -> None:
        await self.progress.wait()
        self.progress = trio.Event()

    async def wait_awake(self, seconds: float) -> bool:
        """Wait for progress (True), or until `seconds` of time this process was running have passed (False).
        Time it was stalled (a busy machine, SIGSTOP) does not count: whatever the others sent meanwhile still
        waits in our buffers, and a peer that wakes up must not give up on a seat it simply could not hear."""
        step = max(0.05, min(0.5, seconds / 8))
        counted = 0.0
        while counted < seconds:
            t0 = trio.current_time()
            with trio.move_on_after(min(step, seconds - counted)) as scope:
                await self.wait_progress()
            if not scope.cancelled_caught:
                return True
            counted += min(trio.current_time() - t0, 2 * step)  # an overrun (a stall) counts as two steps at most
        return False

    async def send_head(self) -> None:
        """Our head is news: every peer hears it within HEAD_DELAY, in one message for a whole burst of entries.

        A head is news only when the others cannot tell it: after we caught up (entries relayed to us, or taken
        from those waiting ahead of our log), after evidence or an abandon, on connecting, at the end, and once
        when the table has not left a point for a heartbeat (`repeat_passes`: a seat that missed an entry learns
        it is behind). An entry its author broadcast stands for the author's head (`Heads.implied`), and folding
        it tells nobody anything new: a head after every entry folded was three in ten of all messages at six
        peers (docs/protocol.md, "head")."""
        self.heads.news()

    async def repeat_passes(self) -> None:
        """The pass tokens we hold for a point the table has not left for a heartbeat go out again, ours and the
        others': a peer that was away, behind (resuming, catching up), reconnected, or cut off from one seat only
        may have missed them, and without them it would wait on a seat that passed (docs/protocol.md, "Implied
        passes", rule 4)."""
        seen: tuple[int, bytes] | None = None
        while True:
            await trio.sleep(self.cfg.heartbeat)
            store, pool, m = self.log.store, self.log.passes, self.log.machine
            if store is None or pool is None or m is None or m.seat is None or self._mesh() is None or self._ended():
                continue
            point = (len(store), store.head_id)
            if point == seen:  # ours and those we hold of others (relayed: a link between two seats may be down)
                await self.send_head_now()  # once per point: a seat that missed an entry learns it is behind
                for (j, seat), token in sorted(pool.tokens.get(point, {}).items()):
                    msg = {"k": "pass", "seq": point[0], "prev": point[1], "j": j, "seat": seat, "sig": token}
                    await self._wire().broadcast(msg)
            seen = point

    async def gossip_heads(self) -> None:
        while True:
            await self.heads.wait_news()
            await trio.sleep(HEAD_DELAY)
            await self.send_head_now()

    async def send_head_now(self) -> None:
        store, wire = self.log.store, self._wire()
        if store is not None and wire is not None and self.heads.to_send((len(store), store.head_id)):
            await wire.broadcast(self.head_msg())

    def head_msg(self) -> dict[str, Any]:
        assert self.log.store is not None
        return {"k": "head", "seq": len(self.log.store), "id": self.log.store.head_id}

    async def serve_until_heads_match(self) -> None:
        """Return once every other seat has told us the very head we hold (its length and its id: a seat that
        holds another entry at our last seq, such as the entry of a seat we abandoned, which beats the abandon,
        must be heard out before we leave); until then keep answering `get`s."""
        m, store = self.log.machine, self.log.store
        others = [i.fingerprint() for i in m.ids if i.fingerprint() != self._me()] if m is not None else []
        while store is None or not self.heads.all_hold(others, (len(store), store.head_id)):
            if self._reopened():
                return  # the game goes on: play, not linger
            await trio.sleep(0.05)

    async def events(self) -> None:
        mesh = self._mesh()
        assert mesh is not None
        async for ev in mesh.events:
            if isinstance(ev, PeerUp):
                await self.safe_send(ev.peer.fingerprint, self.lobby.message())
                if self.lobby.genesis_raw is not None:
                    await self.safe_send(ev.peer.fingerprint, {"k": "entry", "raw": self.lobby.genesis_raw})
                if self.log.store is not None:
                    await self.safe_send(ev.peer.fingerprint, self.head_msg())
                    await self.resend_passes(ev.peer.fingerprint)
            elif isinstance(ev, PeerDown):
                self.peer_down(ev.peer.fingerprint, ev.peer.label, ev.reason)
            elif isinstance(ev, WordRefused):
                if self.first_refusal("word", ev.who):
                    self.tell("word_refused", who=ev.who, address=ev.address)
            elif isinstance(ev, TablePlaying) and self.log.machine is None and self.lobby.playing is None:
                self.lobby.playing = ev
                self.progress.set()

    def first_refusal(self, what: str, peer: str) -> bool:
        """Whether to tell the player of a peer refused at the door (a wrong table word, another protocol version):
        once per peer, and at most MAX_REFUSALS_TOLD in all (a stranger can cause refusals at will)."""
        if (what, peer) in self.refusals_told or len(self.refusals_told) >= MAX_REFUSALS_TOLD:
            return False
        self.refusals_told.add((what, peer))
        return True

    async def resend_passes(self, fp: str) -> None:
        """Our pass tokens for the next entry, to a peer that (re)connects: it may have missed them."""
        m, store, pool = self.log.machine, self.log.store, self.log.passes
        if m is None or store is None or pool is None or m.seat is None:
            return
        seq, prev = len(store), store.head_id
        for j, token in pool.mine(seq, prev):
            await self.safe_send(fp, {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token})

    def peer_down(self, fp: str, label: str, reason: str) -> None:
        log.info("peer down: %s (%s)", label, reason)
        self.lobby.left(fp, label)
        if self.log.machine is not None and not self._ended() and not self.log.machine.complete:
            secs = f"{self.cfg.abandon_after:.0f}"
            why = reason_words(reason, self.cfg.lang)
            if silence_suspends(len(self.log.machine.names), self.log.machine.state.over):
                self.tell("disconnected_two", who=label, reason=why, secs=secs)
            else:
                self.tell("disconnected", who=label, reason=why, secs=secs)

    async def safe_send(self, fp: str, msg: dict[str, Any]) -> None:
        try:
            await self._wire().send(fp, msg)
        except Exception as exc:  # a peer that just dropped: the head exchange on reconnect catches up
            log.info("send to %s failed: %s", fp, exc)

    async def receive(self) -> None:
        mesh = self._mesh()
        assert mesh is not None
        async for peer, msg in mesh.inbox:
            try:
                await self._handle(peer.fingerprint, peer.label, check_message(msg))
            except (KeyError, TypeError, ValueError, ArithmeticError, CryptoError, BodyError, LogError) as exc:
                log.warning("bad message from %s: %s", peer.label, exc)
                self.tell("ignored_malformed", who=peer.label, why=self._detail(_short(str(exc))))
            except OSError as exc:  # our own disk failed (full, read-only, gone): stop with one line, resume later
                where = exc.filename or self.log.gdir or self.cfg.data_dir
                raise TableError(
                    f"cannot write to {where} ({exc.strerror or exc}); nothing more was written — {_remedy(exc)}"
                    f"resume with: {resume_command(self.log.gdir, self.cfg.game)}"
                ) from None
            except Exception as exc:  # no message may take the peer down (the schema should have refused it)
                log.exception("message from %s could not be handled", peer.label)
                self.tell("ignored_unhandled", who=peer.label, why=self._detail(type(exc).__name__))

    async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """One message that fits its schema (p2p/messages.py), as the peer's seam `TablePeer.handle` passes it on (a
        test's peer may lose it there, or answer it as a cheater would)."""
        k = msg["k"]
        if k == "lobby":
            await self.lobby.heard(fp, label, msg)  # (p2p/peer/lobby.py)
        elif k == "entry":
            raw = msg["raw"]
            e = frame(raw)  # the pipeline's first step (p2p/pipeline.py), once: intake goes on from this entry
            if self.lobby.genesis_raw is None:
                if e.seq == 0 and e.kind == Kind.GENESIS and self._accepts_genesis(raw, label):
                    self.lobby.genesis_raw = raw
                    self.progress.set()
                return
            if self.log.store is None or self.log.machine is None:
                return
            if not any(i.fingerprint() == fp for i in self.log.machine.ids):
                self.tell("ignored_not_seated", who=label)
                return
            if not entry_fits(e):  # too large for the evidence that may have to carry it
                raise MessageError(f"entry {e.seq} of {len(raw)} bytes: too large for its kind")
            if e.seq < len(self.log.store):
                self._accept(e, sender=label)  # duplicate (ignored) or equivocation (proof kept)
            elif e.seq == len(self.log.store):
                head = self.log.store.head_id
                ids = self.log.machine.ids
                from_author = e.author < len(ids) and ids[e.author].fingerprint() == fp
                self._take(e, sender=label)
                if from_author and len(self.log.store) > e.seq and self.log.store[e.seq].id == e.id:
                    self.heads.implied(fp, e.seq + 1, e.id)  # (only an entry we took: a rejected one says nothing)
                if len(self.log.store) == e.seq and e.prev_hash != head and not self._ended():
                    # it builds on another entry than our head: fetch theirs (shows an equivocation)
                    await self.safe_send(fp, {"k": "get", "from": e.seq - 1})
                before = len(self.log.store)
                self._drain_pending()
                if not from_author or len(self.log.store) != before:
                    await self.send_head()  # we caught up on entries others may not know we hold: news
            elif e.seq < len(self.log.store) + PENDING_WINDOW:
                try:  # only properly signed entries wait in pending (garbage there would stall us)
                    self.log.check_signed(e)
                except CryptoError as exc:
                    where = notice("from_who", self.cfg.lang, who=label)
                    self.tell("rejected_entry", where=where, why=self._detail(_short(str(exc))))
                    return
                if not self.log.arrivals.hold(e.seq, e):
                    return
                await self.safe_send(fp, {"k": "get", "from": len(self.log.store)})
                self.progress.set()
            self._post_pending_evidence()
            await self._share_proofs()
            await self.flush()
        elif k in ("head", "ask", "told"):
            if self.log.store is None:
                return
            seq, hid = msg["seq"], msg["id"]
            self.heads.told(fp, seq, hid)
            if self.abandonment.refused and self.log.machine is not None:  # (rule 7 of "Abandonment")
                self.abandonment.head_told(fp, hid, self._fp_of)
            if k == "ask":  # a peer catching up (catchup.py) wants ours even if it is no news
                await self.safe_send(fp, {**self.head_msg(), "k": "told", "nonce": msg["nonce"]})
            elif k == "told" and self.catch_up.told(fp, (seq, hid), msg["nonce"]):
                self.progress.set()  # told after we asked (a head buffered from before is not)
            n = len(self.log.store)
            if seq > n:
                await self.safe_send(fp, {"k": "get", "from": max(0, n - 1)})
            elif seq > 0 and self.log.store[seq - 1].id != hid:
                # the same position holds another entry there: fetch theirs (an equivocation shows up)
                await self.safe_send(fp, {"k": "get", "from": seq - 1})
            elif seq == n:
                await self.resend_passes(fp)  # it has just reached our point: our tokens there are news to it
        elif k == "pass":
            m, store, pool = self.log.machine, self.log.store, self.log.passes
            if m is None or store is None or pool is None or msg["seat"] >= m.n:
                return  # (a token is checked against the seat it names: relayed ones are as good as the seat's own)
            if self._ended():
                return
            if pool.add(msg["seq"], msg["prev"], msg["j"], msg["seat"], msg["sig"], len(store), store.head_id):
                if (msg["seq"], msg["prev"]) == (len(store), store.head_id):
                    # when it came counts: a token that comes after an abandon naming its seat was due here is no
                    # answer to it (rule 3 of "Abandonment"); only the next point's (made-up branches fill nothing)
                    self.abandonment.patience.heard(msg["seq"], msg["prev"], msg["j"], msg["seat"])
                self.progress.set()
        elif k == "agree":
            await self.agreeing.take(msg)  # (p2p/peer/agreeing.py)
        elif k == "get" and self.log.store is not None:
            for e in self.log.store.since(msg["from"])[:2000]:
                await self.safe_send(fp, {"k": "entry", "raw": e.raw})

    async def flush(self) -> None:
        """Broadcast what was authored or re-sent outside the play loop (evidence), then our head."""
        if not self.outbox or self._mesh() is None:
            return
        out, self.outbox = self.outbox, []
        for raw in out:
            try:
                await self._wire().broadcast({"k": "entry", "raw": raw})
            except FrameTooLarge as exc:  # evidence carrying a cheater's frame-sized entry: never crash on it
                log.warning("entry %s too large to send: %s", _short(str(decode_entry(raw).seq)), exc)
        await self.send_head()
