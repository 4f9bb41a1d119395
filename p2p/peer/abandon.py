"""Abandonment: waiting on a silent seat, the abandon entry that ends the game naming it, and the silent seat's own
entry, which beats it.

`Abandoning` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), the abandons held and the
rulings on silence (abandonment.py), the awake clock (patience.py), the others' heads (heads.py), catching up
(catchup.py), and what it does through the peer: the peer's two seams (`gives_up`, `weighs_abandon`), take an entry in
(intake), put an entry in place of what we hold at its seq, send our head, broadcast or post an entry, end the game
for us or reopen it, tell the player. The peer wires it (p2p/peer/table_peer.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.logstore import (
    SUPERSEDED_SUFFIX,
)
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.machine.finality import silence_suspends
from adp2p.p2p.notices import notice
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer.abandonment import Abandonment, named
from adp2p.p2p.peer.catchup import CatchingUp
from adp2p.p2p.peer.common import (
    CUT_OFF_ROUNDS,
    Outcome,
    PeerConfig,
    _abandoners,
    _passes_of,
    log,
)
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import BodyError, Kind, decode_body, encode_body


class Abandoning:
    """Abandonment: a silent seat given up on, an abandon held or weighed, the game ended by one."""

    def __init__(
        self,
        log: SeatLog,
        abandonment: Abandonment,
        patience: Patience,
        heads: Heads,
        catching_up: CatchingUp,
        *,
        cfg: PeerConfig,
        me: Callable[[], SecretIdentity],
        gives_up: Callable[[int], bool],
        weighs_abandon: Callable[[bytes], bool],
        accept: Callable[..., None],
        take_over: Callable[[Any], Machine | None],
        send_head: Callable[[], Awaitable[None]],
        wire: Callable[[], Any],
        mesh: Callable[[], Any],
        nursery: Callable[[], trio.Nursery | None],
        post: Callable[[bytes], None],
        outcome: Callable[[], Outcome],
        ended: Callable[[], str | None],
        end: Callable[..., None],
        reopen: Callable[[], None],
        stop_deciding: Callable[[], None],
        news: Callable[[], None],
        tell: Callable[..., None],
        who: Callable[..., str],
    ) -> None:
        """`cfg`: the patience (abandon_after), heartbeat, language and game; `me()`: our identity; `gives_up(seat)`,
        `weighs_abandon(raw)`: the peer's seams; `accept(raw, own=, sender=)`: an entry taken in; `take_over(e)`: `e`
        put at its seq in place of what we hold, the fold with it (None if not valid there); `send_head()`: our head is
        news; `wire()`, `mesh()`, `nursery()`: the peer's (None before it runs); `post(raw)`: an entry to broadcast
        from the play loop; `outcome()`: the game's outcome as it stands; `ended()`: why the game ended for us (None
        while it goes on); `end(what, **args)`: it ends here for us (a notice); `reopen()`: an abandonment set aside,
        the game goes on; `stop_deciding()`: cancel our decision in progress; `news()`: wake the play loop;
        `tell(what, **args)`, `who(seat, lang=None)`: the player's words."""
        self.log, self.abandonment, self.patience, self.heads = log, abandonment, patience, heads
        self.catching_up, self.catch_up = catching_up, catching_up.catch_up
        self.cfg, self._me, self.gives_up, self.weighs_abandon = cfg, me, gives_up, weighs_abandon
        self._accept, self._take_over, self._send_head = accept, take_over, send_head
        self._wire, self._mesh, self._nursery, self._post = wire, mesh, nursery, post
        self._outcome, self._ended, self._end, self._reopen = outcome, ended, end, reopen
        self._stop_deciding, self._news, self.tell, self._who = stop_deciding, news, tell, who
        self.refused_told = False  # the player was told once that an abandon over a seat's own entry is refused

    async def abandon(self, silent: int, rounds: int = 1, passes: list[bytes] | None = None) -> None:
        """The author of the next entry stayed silent for `rounds` periods of ours. The lowest other seat may end
        the game after one period, naming it; if that seat is gone too, after each further period the next
        lowest one may (so the game always ends). An abandon another seat sent and that is due by our own clock
        now is applied as it is; otherwise, if it is ours to author, we author it."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        if not self.gives_up(silent):
            return
        allowed = _abandoners(m.n, silent, rounds)
        held = self.abandonment.held_by(allowed, silent, self.log.passes)
        if held:
            raw = self.abandonment.held.pop(held[0])
            self._accept(raw)
            await self._send_head()
        elif self.catching_up.note_stall() or self.catch_up.active:
            return  # we did not run for a while: catch up with the table before writing anything
        elif m.seat in allowed and not self.no_majority(silent):
            body: dict[str, Any] = {"silent": silent, "seq": len(store)}
            if passes:
                body["passes"] = passes
            left = self.left_proof(silent, body)
            if left is not None:  # it left after an abandonment it saw stand: it is gone, not silent (rule 7)
                body["left"] = left
            raw = encode_entry(
                self._me(),
                m.game_id,
                len(store),
                store.head_id,
                m.seat,
                int(Kind.ABANDON),
                encode_body(body),
            )
            self._accept(raw, own=True)
            await self._wire().broadcast({"k": "entry", "raw": raw})
            await self._send_head()
        elif m.seat in allowed and rounds >= CUT_OFF_ROUNDS:
            # too few seats could hear us: perhaps the table already ended without us (we were the one given up
            # on), or the network is cut in halves — never name anyone from here; leave, and let a resume catch up
            self._outcome().lost_contact = True
            self._end("lost_contact", seq=len(store), resume=resume_command(self.log.gdir, self.cfg.game))
            self._stop_deciding()
            self._news()
        else:
            why = notice("too_few_connected", self.cfg.lang) if m.seat in allowed else ""
            self.tell("waiting_for", who=self._who(silent), secs=f"{self.cfg.abandon_after:.0f}", why=why)

    def left_proof(self, silent: int, body: dict[str, Any]) -> bytes | None:
        """`silent`'s own abandon that stood here until the seat it named answered after all, if we hold one and the
        machine takes it as proof that `silent` left then (it signed nothing since: rule 7 of "Abandonment")."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None and m.seat is not None
        left = self.abandonment.left_proof(silent)
        return left if left is not None and _takes(m, {**body, "left": left}, store.head_id) else None

    def fp_of(self, seat: int) -> str:
        m = self.log.machine
        assert m is not None
        return m.ids[seat].fingerprint()

    def no_majority(self, silent: int) -> bool:
        """Too few seats connected to us to give up on `silent` (`Abandonment.no_majority`)."""
        m = self.log.machine
        mesh = self._mesh()
        if m is None or mesh is None:
            return False
        up = set(mesh.peers)
        connected = {s for s in range(m.n) if m.ids[s].fingerprint() in up}
        return self.abandonment.no_majority(m.n, silent, m.seat, connected)

    def hold(self, raw: bytes, label: str) -> None:
        """An abandon for the seq we are at, from another peer. Checked at once (a malformed one, one naming a
        seat not on duty or its own author, is posted as evidence in its place); a valid one is applied only
        when our own clock says its author may have written it (see `abandon`): until then it is held, and an
        entry by the seat it names, arriving meanwhile, simply goes in (the abandon is dropped)."""
        if not self.weighs_abandon(raw):
            return
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        try:
            m.snapshot().apply_entry(e)
        except (ProtocolError, BodyError):
            self._accept(raw, sender=label)  # rejected there: kept and posted as evidence in its place
            return
        silent = decode_body(e.body)["silent"]
        took = _passes_of(e) or []
        decision = (e.seq, e.prev_hash, len(took))
        # Patience per decision: the seat it names owes the decision after the tokens it carries, due here only from
        # the moment we hold them all. If we did not (a token its author, or a partner, kept back and sends only now,
        # inside the abandon), the named seat's clock starts now: the abandon is held, never applied at once.
        self.patience.due(*decision)
        if self.log.passes is not None and took:  # its tokens are good (checked above): ours to carry too
            _take_tokens(m, self.log.passes, self.patience, e, took, (len(store), store.head_id))
            self._news()
        token = self.log.passes.get(e.seq, e.prev_hash, len(took), silent) if self.log.passes is not None else None
        if token is not None and silent != m.seat and self.abandonment.token_late(e, m.n) and not self.answering(e):
            # its token reached us only once our own clock let this author give up on that seat: as if it had not come
            # (had the abandon come first, we would have applied it). Only an entry carrying the token beats it (rule
            # 3): the seat due next writes one if the token reached it in time, and none can come if that seat is this
            # abandon's own author — refusing it here left us waiting on an honest seat that had answered already.
            # (If that next seat is us, we answer as before: our entry carrying the token beats it everywhere.)
            log.info("abandon by seat %d names seat %d, whose token came late here", e.author + 1, silent + 1)
            token = None
        nursery = self._nursery()
        if token is not None and self._mesh() is not None and nursery is not None:
            # the seat it names passed there (we hold its token; its author did not get it): never applied here.
            # If that seat is us, our pass goes in as our own entry at that seq, which beats the abandon everywhere
            # (rule 3 of "Abandonment"); else the token is relayed, so that seat's pass reaches the table
            if silent == m.seat and (self.catching_up.note_stall() or self.catch_up.active):
                self.abandonment.held[e.author] = raw  # answered once we have caught up with the table (catchup.py)
                return
            if silent == m.seat:
                log.info("abandon by seat %d names us, who passed there: our pass goes in as an entry", e.author + 1)
                body: dict[str, Any] = {"ev": m.game.pass_event(silent)}
                if took:
                    body["passes"] = took
                own = encode_entry(
                    self._me(), m.game_id, e.seq, e.prev_hash, silent, int(Kind.EVENT), encode_body(body)
                )
                self._accept(own, own=True)
                self._post(own)
                return
            log.info("abandon by seat %d names seat %d, which passed there: token relayed", e.author + 1, silent + 1)
            msg = {"k": "pass", "seq": e.seq, "prev": e.prev_hash, "j": len(took), "seat": silent, "sig": token}
            nursery.start_soon(self._wire().broadcast, msg)
            return
        waited = self.patience.waited(*decision)
        rounds = self.patience.rounds(*decision, m.n)
        if e.author in _abandoners(m.n, silent, rounds):
            self._accept(raw, sender=label)
            return
        if e.author not in self.abandonment.held:
            self.tell("gave_up_early", who=self._who(e.author), silent=self._who(silent), secs=f"{waited:.0f}")
            if silent == m.seat and nursery is not None:  # we are deciding: no wait loop of ours runs
                rank = _abandoners(m.n, silent, m.n).index(e.author) + 1
                nursery.start_soon(self.due_for_me, decision, rank)
        self.abandonment.held[e.author] = raw

    async def overdue(self) -> bool:
        """A held abandon whose named seat passed, but by a token that reached us only after its author could give up
        on that seat by our own clock (`Abandonment.token_late`), is applied once due here: the play loop waits on the
        next seat otherwise, which may be that abandon's own author. True if applied."""
        m = self.log.machine
        if m is None:
            return False
        author = self.abandonment.overdue(m.n, self.log.passes, self.answering)
        if author is None:
            return False
        self._accept(self.abandonment.held.pop(author))
        await self._send_head()
        return True

    def answering(self, e: Any) -> bool:
        """Whether we owe the decision after the token of the seat abandon `e` names (`owes_answer`)."""
        return owes_answer(self.log.machine, self.log.passes, e)

    async def due_for_me(self, decision: tuple[int, bytes, int], rank: int) -> None:
        """An abandon naming us, held while we decide: once our own clock says its author (the `rank`-th seat that
        may) waited long enough since that decision became due here, and we still have not answered at that seq, it
        is applied (our decision is then cancelled)."""
        while True:
            store = self.log.store
            if store is None or len(store) != decision[0] or store.head_id != decision[1] or self._ended():
                return
            if self.patience.waited(*decision) >= rank * self.cfg.abandon_after:
                break
            await trio.sleep(self.patience.step)
        m = self.log.machine
        held = self.abandonment.held_by(self.abandonment.held, m.seat, self.log.passes) if m is not None else []
        if held:
            self._accept(self.abandonment.held.pop(held[0]))
            await self._send_head()

    def abandoned(self, e: Any) -> None:
        """An abandon entry went into our log: the game ends there, naming the silent seat; what was reached
        before stands (a finished game keeps its winners)."""
        m = self.log.machine
        assert m is not None and m.abandoned is not None
        silent = m.abandoned
        if m.left_at is not None:  # it had left after its abandon stood, set aside since: it is not named (rule 7)
            self._outcome().left_by = m.names[silent]
            self._end("left_after_end", who=lambda lang: self._who(silent, lang), seq=e.seq, at=m.left_at)
            self._stop_deciding()
            self._news()
            return
        self._outcome().abandoned_by = m.names[silent]
        if silence_suspends(len(m.names), m.state.over):  # no winner, nobody named
            self._end("unfinished", who=lambda lang: self._who(silent, lang), seq=e.seq,
                      clock=m.names[e.author])
        else:
            self._end("abandoned", who=lambda lang: self._who(silent, lang), seq=e.seq)
        self._stop_deciding()
        self._news()

    def weigh(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one, where an abandon is involved. The silent seat's own valid
        entry beats an abandon naming it (the abandon is set aside and the game goes on), and so does any valid entry
        that carries the silent seat's pass token for the very decision the abandon names it at (it answered: its
        token was kept from us, or came late); between two abandons
        the lower author wins; an abandon over the silent seat's own entry is refused (its author may simply not
        have had it yet: nobody is named). True if dealt with here."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        if not 0 < e.seq < len(store) or store[e.seq - 1].id != e.prev_hash:
            return False
        held = store[e.seq]
        if held.kind != Kind.ABANDON and e.kind != Kind.ABANDON:
            return False
        if e.kind == Kind.ABANDON and held.kind != Kind.ABANDON:
            if _signed_ok(self.log, e):  # its author may have left on it, if it stood at the table (rule 7)
                heads = [(fp, hid) for fp, (_seq, hid) in self.heads.last.items()]
                self.abandonment.refused_here(raw, heads, self.fp_of)
            if not self.refused_told:
                self.refused_told = True
                self.tell("refused_abandon", who=self._who(e.author))
            return True
        try:
            silent = decode_body(held.body)["silent"]
        except (BodyError, KeyError):
            return False
        wins = e.author == silent if e.kind != Kind.ABANDON else e.author < held.author
        if not wins and e.kind != Kind.ABANDON:
            wins = self.abandonment.carries_answer(held, silent, e, m.ids, m.game_id)
        if not wins:
            return e.kind == Kind.ABANDON  # a higher abandon: no news
        if e.kind == Kind.ABANDON and not self.abandonment.due_by_our_clock(e, m.n):
            # a lower abandon naming a decision that has not been due here long enough for its author (made due
            # only now by the tokens it carries, say): it never displaces the one we applied
            self.tell("refused_early_abandon", who=self._who(e.author), silent=self._who(named(e)))
            return True
        trial = self._take_over(e)
        if trial is None:
            return False  # not valid there: the caller rejects it as usual
        if trial.abandoned is not None:
            self.abandoned(e)
        else:
            self.tell("answered_after_all", who=self._who(silent), path=f"{store.path}{SUPERSEDED_SUFFIX}")
            self._reopen()
        self._post(raw)  # so every peer that holds the abandon gets it too
        self._news()
        return True


def owes_answer(m: Machine | None, pool: Any, e: Any) -> bool:
    """Whether our seat (`m`'s) owes the decision after the token of the seat abandon `e` names (the one after the
    tokens `e` carries and that token, from `pool`): then we answer the abandon with our own entry carrying it (rule 3
    of "Abandonment"), however late that token came here."""
    if m is None or pool is None or m.seat is None:
        return False
    took = list(_passes_of(e) or [])
    try:
        token = pool.get(e.seq, e.prev_hash, len(took), named(e))
        if token is None:
            return False
        sim = m.fork()
        sim.prev = e.prev_hash
        sim.apply_passes(-1, [*took, token], trusted=True)
    except (ProtocolError, BodyError, KeyError, TypeError, ValueError):
        return False
    nxt = sim.window_actor()
    if nxt is None:
        d = sim.duty()
        nxt = d.seat if d is not None else None
    return nxt == m.seat


def _takes(m: Machine, body: dict[str, Any], prev: bytes) -> bool:
    """Whether our abandon with this body would be taken at the head (its `left` proof checks out: rule 7)."""
    assert m.seat is not None
    try:
        m.snapshot().apply(m.seat, int(Kind.ABANDON), body, prev=prev)
    except (ProtocolError, BodyError):
        return False
    return True


def _signed_ok(log: SeatLog, e: Any) -> bool:
    """Whether `e` is an entry of this game signed by the seat it names (`SeatLog.check_signed`)."""
    try:
        log.check_signed(e)
    except CryptoError:
        return False
    return True


def _take_tokens(m: Machine, pool: Any, patience: Patience, e: Any, took: list[Any], head: tuple[int, bytes]) -> None:
    """The pass tokens abandon `e` carries (checked already), into our pool; for the next point, when each new one
    came counts, whichever way it came (a `pass` message: net.py): a token a withholder sends inside an abandon of its
    own is as late as one sent alone (rule 3 of "Abandonment")."""
    sim = m.fork()
    sim.prev = e.prev_hash
    for j, tok in enumerate(took):
        who = sim.window_actor()
        if who is None or not isinstance(tok, bytes):
            break
        if pool.add(e.seq, e.prev_hash, j, who, tok, *head) and (e.seq, e.prev_hash) == head:
            patience.heard(e.seq, e.prev_hash, j, who)
        sim.pass_window()
