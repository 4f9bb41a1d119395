"""Evidence: proof posted in place of a rejected entry, weighed against what its seq holds, adopted by setting the
later log aside and refolding; false evidence kept and bounded.

`Proofs` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), the evidence judged
(evidence_book.py), what the player was shown (narrator.py), the equivocations found to show the others, and what it
does through the peer: our identity, whether the game ended for us, put an entry in place of what we hold at its seq
(intake), cancel our decision, wake the play loop, send, tell the player. The peer wires it
(p2p/peer/table_peer.py); the second accuser's `also` (second_accuser.py) works on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.logstore import (
    SUPERSEDED_SUFFIX,
)
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.peer import second_accuser
from adp2p.p2p.peer.common import (
    _short,
    log,
)
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import BodyError, Kind, encode_body


class Proofs:
    """Evidence: posted, weighed, adopted."""

    def __init__(
        self,
        seat_log: SeatLog,
        book: EvidenceBook,
        narrator: Narrator,
        to_share: list[tuple[bytes, bytes]],
        *,
        me: Callable[[], SecretIdentity],
        ended: Callable[[], str | None],
        take_over: Callable[[Any], Machine | None],
        stop_deciding: Callable[[], None],
        news: Callable[[], None],
        queue: Callable[[bytes], None],
        wire: Callable[[], Any],
        timing: Callable[..., None],
        say_verdict: Callable[[], None],
        tell: Callable[..., None],
        who: Callable[..., str],
        detail: Callable[[object], str],
    ) -> None:
        """`to_share`: equivocations found (both entries), to show every peer; `me()`: our identity; `ended()`: why the
        game ended for us (None while it goes on); `take_over(e)`: `e` put at its seq in place of what we hold, the fold
        with it (None if not valid there); `stop_deciding()`: cancel our decision in progress; `news()`: wake the play
        loop; `queue(raw)`: an entry to broadcast from the play loop; `wire()`: the peer's; `timing(*fields)`: the
        timings file; `say_verdict()`, `tell(what, **args)`, `who(seat, lang=None)`, `detail(why)`: the player's
        words."""
        self.log, self.book, self.narrator, self.to_share = seat_log, book, narrator, to_share
        self._me, self._ended, self._take_over, self._stop_deciding = me, ended, take_over, stop_deciding
        self._news, self._queue, self._wire, self._timing = news, queue, wire, timing
        self._say_verdict, self.tell, self._who, self._detail = say_verdict, tell, who, detail

    @property
    def machine(self) -> Machine | None:
        """Our fold (second_accuser.py reads it)."""
        return self.log.machine

    @property
    def store(self) -> Any:
        """Our log (second_accuser.py reads it)."""
        return self.log.store

    def post_pending(self) -> None:
        """Post the proof our machine's immediate checks found (once; not after a verdict stopped the game), and any
        refused evidence that names its own author (self-accusation, held back) that the log does not show yet."""
        m = self.log.machine
        if m is None or self._ended() or m.seat is None:
            return
        for key, raw in list(self.book.refused_raws.items()):
            if key in m.refused_ids or m.complete:
                continue  # (the log holds it: posted again only if evidence at an earlier seq sets it aside)
            if not self.still_own_fault(raw):
                log.info("refused evidence %s no longer shown by the log (set aside): not posted", key.hex()[:8])
                del self.book.refused_raws[key]
                continue
            if not self.post(len(self.log.store), {"what": "refused", "raw": raw}):  # type: ignore[arg-type]
                del self.book.refused_raws[key]
            return
        if second_accuser.post_one(self):  # type: ignore[arg-type]
            return
        if m.verdict is not None:
            return
        body = m.pending_evidence()
        if body is not None:
            self.post(len(self.log.store), body)  # type: ignore[arg-type]

    def post(self, at: int, body: dict[str, Any]) -> bool:
        """Author an evidence entry at seq `at` (the seq of the entry it replaces, or the next one), apply it to
        a fold of the log before `at`, set our own entries from `at` on aside, and queue it for broadcast."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None and m.seat is not None
        if at < len(store) and store[at].author == m.seat:
            log.info("not posting evidence at seq %d over our own entry there", at)
            return False
        trial = self.log.fold(at)
        raw = encode_entry(
            self._me(), m.game_id, at, store[at - 1].id, m.seat, int(Kind.EVIDENCE), encode_body(body)
        )
        before = trial.snapshot()
        try:
            trial.apply(m.seat, Kind.EVIDENCE, body, prev=store[at - 1].id)
        except ProtocolError as exc:  # our own proof does not hold: never post it (and say so)
            log.error("own evidence at seq %d does not verify: %s", at, exc)
            self.tell("cannot_prove", seq=at, why=self._detail(exc))
            return False
        if at < len(store) and body.get("what") in ("equivocation", "pass"):
            why = m.displaces(decode_entry(raw), trial.evidence_seen[-1][2])
            if why is not None:  # it may not take that seq (the game ended after it, ...): it stands on its own at
                log.info("evidence for seq %d posted at the head instead: %s", at, why)  # the head
                return self.post(len(store), body)
        self.adopt(at, raw, trial, before)
        self._queue(raw)
        return True

    def weigh(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one (by another author). If it is evidence, it takes
        precedence over a non-evidence entry, and over evidence by a higher seat; the loser is set aside. True
        if the entry was dealt with here (adopted, or quietly outweighed, or false evidence kept and named)."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        if e.kind != Kind.EVIDENCE and not self._ended() and 0 < e.seq < len(store):
            return self.weigh_against_evidence(e)
        if e.kind != Kind.EVIDENCE or self._ended() or not 0 < e.seq < len(store):
            return False
        if store[e.seq - 1].id != e.prev_hash:
            return False  # another branch further back: fetched and weighed there
        if self.book.dismissed(e):
            return True  # judged false before, or a seat that keeps sending false evidence: not refolded again
        held = store[e.seq]
        if held.kind == Kind.EVIDENCE and held.author < e.author and not self.self_accusing(e.seq):
            self._queue(held.raw)  # ours wins: make sure its sender gets it
            second_accuser.consider(self, raw)  # type: ignore[arg-type]  (it may name another seat: at the head)
            self.post_pending()
            return True
        if held.kind == Kind.EVIDENCE and held.author != m.seat and m.own_fault(held) is not None:
            self.book.refused_raws.setdefault(held.id, held.raw)  # set aside below: its author is named at the head
        trial = self.log.fold(e.seq)
        before = trial.snapshot()
        try:
            trial.apply_entry(e)
        except (ProtocolError, BodyError) as exc:
            self.book.found_false(e)
            self.book.keep(raw, f"false evidence at seq {e.seq}: {exc}")
            self.tell("rejected_evidence", who=self._who(e.author), seq=e.seq, why=self._detail(_short(str(exc))))
            return True
        why = m.displaces(e, trial.evidence_seen[-1][2])
        if why is not None:  # valid, but it may not take a seq we hold (docs/protocol.md, "Precedence at one seq")
            self.book.found_false(e)  # (never weighed again; counted like false evidence: a flood of it is bounded)
            self.book.keep(raw, f"evidence at seq {e.seq} sets nothing aside: {why}")
            self.tell("evidence_refused", who=self._who(e.author), seq=e.seq, why=self._detail(why))
            names_author = why.startswith("late") or why.startswith("evidence against its own")
            if names_author and e.id not in self.book.refused_raws:
                self.book.refused_raws[e.id] = raw  # its author is named at the head: `post_pending`
                self.post_pending()
            return True
        self.adopt(e.seq, raw, trial, before)
        if held.kind == Kind.EVIDENCE and held.author != e.author:  # the evidence it beat may name another seat
            second_accuser.consider(self, held.raw)  # type: ignore[arg-type]
            self.post_pending()
        return True

    def weigh_against_evidence(self, e: Any) -> bool:
        """A valid entry `e` that is not evidence, at a seq where we hold evidence: the evidence keeps the seq unless
        a peer holding `e` would refuse it there (it names its own accuser, or `e` ended the game and the evidence
        does not accuse `e`): then `e` takes the seq, as at every peer that holds it, and our evidence goes to the
        head (our own, found by our immediate checks, is posted again there; another's that names its author, as
        `refused`). True if `e` took the seq."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        held = store[e.seq]
        if held.kind != Kind.EVIDENCE or store[e.seq - 1].id != e.prev_hash or e.id in self.book.judged_false:
            return False
        self.book.judged(e)  # judged once (an entry sent again must not cost a refold each time)
        try:
            self.log.check_signed(e)
            trial = self.log.fold(e.seq)
            trial.apply_entry(e)
        except (CryptoError, ProtocolError, BodyError):
            return False
        verdict = next((v for s, _, v in m.evidence_seen if s == e.seq), None)
        why = None if verdict is None else trial.displaces(held, verdict)
        if why is None:
            return False
        if self._take_over(e) is None:
            return False
        if held.author != m.seat and trial.own_fault(held) is not None:
            self.book.refused_raws.setdefault(held.id, held.raw)
        self.tell("evidence_refused", who=self._who(held.author), seq=e.seq, why=self._detail(why))
        self._stop_deciding()
        self._news()
        return True

    def still_own_fault(self, raw: bytes) -> bool:
        """Whether our log as it is now still shows evidence `raw` (for an earlier seq) to be its author's own fault:
        the same judgment (`Machine.own_fault`) the `refused` entry we would post meets at every peer. Evidence judged
        late on a log whose entry on top of the accused one was then set aside is no longer late here."""
        m = self.log.machine
        if m is None:
            return False
        try:
            e = decode_entry(raw)
        except (CryptoError, ValueError, TypeError):
            return False
        return m.prev_at(e.seq) == e.prev_hash and m.own_fault(e) is not None

    def self_accusing(self, seq: int) -> bool:
        """Whether the evidence we hold at `seq` names its own accuser (it never takes precedence over other
        evidence there: a colluder's self-accusation must not hide the cheater an honest accuser names)."""
        m = self.log.machine
        if m is None:
            return False
        verdicts = [v for s, a, v in m.evidence_seen if s == seq]
        return bool(verdicts) and verdicts[0].seat == self.log.store[seq].author  # type: ignore[index]

    def adopt(self, at: int, raw: bytes, trial: Machine, before: Machine) -> None:
        """Put the evidence entry `raw` at seq `at` (setting aside what we held from there on) and take
        `trial`, the fold with it applied, as our machine."""
        store = self.log.store
        assert store is not None
        gone = store.supersede(at) if at < len(store) else []
        store.append(raw)
        self._timing(at, int(Kind.EVIDENCE), decode_entry(raw).author)
        self.log.superseded.update(x.id for x in gone)
        self.log.folds.cut(at)
        self.log.folds.before(at, before)
        self.log.arrivals.clear()
        self.log.machine = trial
        self._stop_deciding()  # a decision in progress was for the fold we just left
        self.narrator.shown = min(self.narrator.shown, len(trial.state.history))
        if gone:
            self.tell("set_aside", n=len(gone), path=f"{store.path}{SUPERSEDED_SUFFIX}")
        self._say_verdict()
        self._news()

    async def share(self) -> None:
        """Show every peer both entries of an equivocation we found (so each of them detects it too)."""
        while self.to_share:
            a, b = self.to_share.pop()
            for raw in (a, b):
                await self._wire().broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

