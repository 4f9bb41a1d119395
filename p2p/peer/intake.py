"""Entries coming in: held while ahead of our log, checked and taken in order, a pass token against the act it
contradicts, what a seq holds when two entries meet there.

`Intake` is an object of its own: given the seat's log state (p2p/peer/seat_log.py), the evidence judged
(evidence_book.py), the abandons held (abandonment.py), what the player is told (narrator.py), evidence posted and
weighed (`Proofs`, evidence.py), a silent seat's abandon (`Abandoning`, abandon.py), the table's branch past an entry we
rejected (`Protest`, protest.py), and what it does through the peer, as explicit callbacks: whether we keep an entry
we just signed and what we do once one came through (the peer's seams for a test's cheater), whether the game ended
for us, the end on a verdict, cancel our decision, wake the play loop, queue an entry to send, the timings file. The
peer wires it (p2p/peer/table_peer.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from adp2p.crypto.entries import Entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.passes import verify_pass
from adp2p.p2p.logstore import (
    ConflictingEntry,
    DuplicateEntry,
    LogEquivocation,
    LogError,
)
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.notices import notice
from adp2p.p2p.peer import ending_version
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import (
    PeerConfig,
    _passes_of,
    _plain_pass,
    _short,
    log,
)
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.pipeline import Arrival, schema
from adp2p.p2p.protocol import BodyError, Kind
from adp2p.p2p.violations import words as violation_words


class Intake:
    """Entries coming in."""

    def __init__(
        self,
        seat_log: SeatLog,
        book: EvidenceBook,
        abandonment: Abandonment,
        narrator: Narrator,
        proofs: Any,
        abandoning: Any,
        protest: Any,
        *,
        cfg: PeerConfig,
        to_share: list[tuple[bytes, bytes]],
        keeps_own_entry: Callable[[bytes], bool],
        entry_taken: Callable[..., None],
        ended: Callable[[], str | None],
        end_verdict: Callable[[str, str], None],
        stop_deciding: Callable[[], None],
        news: Callable[[], None],
        queue: Callable[[bytes], None],
        timing: Callable[..., None],
    ) -> None:
        """`proofs`: `Proofs` (post, weigh, weigh_against_evidence); `abandoning`: `Abandoning` (hold, weigh,
        abandoned); `protest`: `Protest` (rejected, offer); `cfg`: the player's language; `to_share`: equivocations
        found (both entries), to show every peer; `keeps_own_entry(raw)`: whether an entry we just signed goes into
        our log; `entry_taken(raw, own=, appended=)`: after any entry came through (whatever became of it);
        `ended()`: why the game ended for us (None while it goes on); `end_verdict(text, said)`: the game ends on a
        verdict; `stop_deciding()`: cancel our decision in progress; `news()`: wake the play loop; `queue(raw)`: an
        entry to broadcast from the play loop; `timing(*fields)`: the timings file."""
        self.log, self.book, self.abandonment, self.narrator = seat_log, book, abandonment, narrator
        self.proofs, self.abandoning, self.protest, self.cfg, self.to_share = proofs, abandoning, protest, cfg, to_share
        self._keeps_own_entry, self._entry_taken, self._ended, self._end_verdict = (
            keeps_own_entry, entry_taken, ended, end_verdict,
        )
        self._stop_deciding, self._news, self._queue, self._timing = stop_deciding, news, queue, timing

    def _who(self, seat: int | None, lang: str | None = None) -> str:
        return self.narrator.who(self.log.machine, seat, lang)

    def drain(self) -> None:
        """Take the entries held ahead of our log that it has reached."""
        store = self.log.store
        assert store is not None
        while not self._ended() and (e := self.log.arrivals.take(store.next_seq)) is not None:
            self.take(e, signed=True)  # (its signature was checked when it was held)

    def take(self, e: Entry, *, sender: str | None = None, signed: bool = False) -> None:
        """An entry for the next seq from another peer, framed (the pipeline's first step, p2p/pipeline.py: the rest
        of the pipeline goes on from it, `accept`; `signed`: its signature step ran too): an abandon is weighed against
        our own clock first."""
        m = self.log.machine
        assert m is not None and self.log.store is not None
        if e.kind == Kind.ABANDON and e.author != m.seat and not self._ended():
            try:
                self.log.store.check_entry(e, signed=signed)
            except (LogError, CryptoError):
                self.accept(e, sender=sender)  # says why it is rejected
                return
            self.abandoning.hold(e.raw, sender or "a peer")
            return
        self.accept(e, sender=sender, signed=signed)

    def accept(self, e: Entry, *, own: bool = False, sender: str | None = None, signed: bool = False) -> None:
        """One entry taken in (`_take_entry`), framed (`signed`: its signature checked already), between the peer's two
        seams for a test's cheater: `keeps_own_entry` before one of our own, `entry_taken` after any (whatever became
        of it). `own`: an entry we just signed."""
        held = len(self.log.store) if self.log.store is not None else 0
        if not own or self._keeps_own_entry(e.raw):
            self._take_entry(e, own=own, sender=sender, signed=signed)
        self._entry_taken(e.raw, own=own, appended=self.log.store is not None and len(self.log.store) > held)

    def _take_entry(self, framed: Entry, *, own: bool = False, sender: str | None = None, signed: bool = False) -> None:
        """Check, apply and persist one entry at the next seq (persisted before anything acts on it). An entry
        that breaks a rule is answered with evidence in its place; evidence at a seq we hold is weighed. The entry
        goes through the pipeline (p2p/pipeline.py) once, each step on what the one before made: framed (by the
        caller), the store's signature and chain checks of that entry, its body decoded once (`schema`), the fold."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        raw = framed.raw
        try:
            e = store.check_entry(framed, signed=signed)
        except DuplicateEntry:
            return
        except LogEquivocation as exc:
            with contextlib.suppress(LogEquivocation):  # check() only detects; append() saves the proof
                store.append(raw)
            self.to_share.append((exc.proof.raw_a, exc.proof.raw_b))
            if not self._ended() and ending_version.take_lower_version(self.log, raw, self.take_over):
                self._stop_deciding()  # (two versions of the end) a decision in progress was for the fold we left
                self._news()
                m = self.log.machine
                assert m is not None
            named = {v.seat for _, _, v in m.evidence_seen if v.rule == "equivocation"}
            if not self._ended() and exc.seat not in named:  # (once: a proof gossiped again is no news)
                self.narrator.tell(
                    "equivocation", who=self._who(exc.seat), seq=exc.seq, path=f"{store.path}.equivocations"
                )
                new = framed
                if new.kind != Kind.EVIDENCE:  # we may hold its author's evidence there, which it may not keep
                    self.proofs.weigh_against_evidence(new)  # (a self-accusation over the entry that ended the game)
                body = {"what": "equivocation", "a": exc.proof.raw_a, "b": exc.proof.raw_b}
                self.proofs.post(exc.seq, body)  # (at the head if it may not take that seq)
            return
        except (LogError, CryptoError) as exc:
            if isinstance(exc, ConflictingEntry) and (
                self.proofs.weigh(raw) or self.abandoning.weigh(raw) or self._pass_conflict(framed)
            ):
                return
            if self.log.stale(raw):
                log.info("entry on another branch%s: %s", f" from {sender}" if sender else "", exc)
                self.protest.offer(raw)  # (the table's branch past an entry we rejected: p2p/peer/protest.py)
                return  # it builds on an entry we do not hold (yet): the caller fetches what it needs
            where = notice("from_who", self.cfg.lang, who=sender) if sender else ""
            log.warning("rejected entry%s: %s", where, exc)
            self.narrator.tell("rejected_entry", where=where, why=self.narrator.detail(_short(str(exc))))
            return
        if self._ended():
            return  # the game is over: the log stays as the outcome describes it
        if e.kind == Kind.EVIDENCE and self.book.dismissed(e):
            return  # judged false before, or a seat that keeps sending false evidence: not refolded again
        a = schema(e)
        token = None if own else self._passed_there(a)
        if token is not None:  # its author passed at the very decision this entry takes: proof against it
            self.narrator.tell("pass_then_act", who=self._who(e.author))
            self.proofs.post(e.seq, {"what": "pass", "raw": raw, "token": token})
            return
        before = m.snapshot() if e.kind == Kind.EVIDENCE else None
        try:
            m.fold(a)
        except (ProtocolError, BodyError) as exc:
            seat = getattr(exc, "seat", e.author)
            self.log.machine = m = self.log.fold(len(store), fresh=True)  # a failed entry leaves nothing behind
            if e.kind == Kind.EVIDENCE:
                self.book.found_false(e)
            self.book.keep(raw, str(exc))
            if seat == e.author and not own and m.seat is not None and seat != m.seat:
                why = exc.msg if isinstance(exc, ProtocolError) else str(exc)
                if self.cfg.lang != "en":  # the rule in the player's words; the English detail is in the evidence
                    why = violation_words(getattr(exc, "rule", None) or "entry", self.cfg.lang)
                self.narrator.tell("broke_rules", who=self._who(seat), why=why)
                self.proofs.post(e.seq, m.evidence_for_entry(raw, exc if isinstance(exc, ProtocolError) else None))
                self.protest.rejected(raw)  # (a box sealed to us: we may have to follow the table under protest)
            else:
                culprit, lang = e.author if seat is None else seat, self.cfg.lang
                rule = violation_words(getattr(exc, "rule", None) or "entry", lang)
                said = notice("broke_rules_end", lang, who=self._who(culprit), why=str(exc) if lang == "en" else rule)
                self._end_verdict(f"{self._who(culprit, 'en')} broke the rules: {exc}", said)
            return
        # our own entries are on disk (fsync) before they leave; another's is written now and made durable by our
        # next fsync (one file): after a power loss we fetch it again from the table, whose log holds it
        store.append(raw, author=e.author, checked=e, durable=own)
        if self.log.passes is not None:
            self.log.passes.prune(len(store))
            self.log.ahead = {k: v for k, v in self.log.ahead.items() if k[0] >= len(store)}
        if before is not None:
            self.log.folds.before(e.seq, before)
        self.log.folds.after_append(len(store), m)
        self._timing(e.seq, e.kind, e.author)
        if m.abandoned is not None:
            self.abandoning.abandoned(e)
        self.narrator.say_verdict(self.log.machine, bool(self._ended()))
        self._news()

    def _passed_there(self, a: Arrival) -> bytes | None:
        """The token we hold by which the arrival's author passed at the decision it takes (its count of passes)."""
        e = a.entry
        if self.log.passes is None or self.log.machine is None or e.kind not in (Kind.EVENT, Kind.ABANDON):
            return None
        k = a.passes()
        if k is None or (e.kind == Kind.EVENT and self.log.machine.game.is_pass(a.event(), e.author)):
            return None  # (a plain pass where it passed by token is the same answer: rule 3 of "Abandonment")
        return self.log.passes.get(e.seq, e.prev_hash, len(k), e.author)

    def _pass_conflict(self, e: Entry) -> bool:
        """An entry at a seq where we hold another one after the same entry (`e`: framed, its signature checked by the
        store, which found the conflict): if one of the two carries a token by which the other's author passed at the
        decision it took instead, post that proof (at that seq, or after it if the entry we hold there is our own).
        True if posted."""
        m, store = self.log.machine, self.log.store
        assert m is not None and store is not None
        if self._ended() or not 0 < e.seq < len(store) or store[e.seq - 1].id != e.prev_hash:
            return False
        held = store[e.seq]
        for acted, other in ((e, held), (held, e)):
            took, carried = _passes_of(acted), _passes_of(other)
            if acted.kind not in (Kind.EVENT, Kind.ABANDON) or took is None or not carried:
                continue
            if len(carried) <= len(took) or not isinstance(token := carried[len(took)], bytes):
                continue
            try:
                verify_pass(m.ids[acted.author], token, m.game_id, e.seq, e.prev_hash, len(took))
            except CryptoError:
                continue
            if _plain_pass(acted, m.game):  # the same pass twice, as a token and as an entry: the further one wins
                return self._further_along(held, e, other)
            self.narrator.tell("pass_then_act", who=self._who(acted.author))
            self.proofs.post(e.seq if held.author != m.seat else len(store), {
                "what": "pass", "raw": acted.raw, "token": token,
            })
            return True
        return False

    def _further_along(self, held: Any, e: Any, winner: Any) -> bool:
        """At one seq, a seat's plain pass entry (written when an abandon named it) and an entry that carries
        that seat's token for the same decision (written by one who had the token): both say the seat passed; the
        one that carries the token is further along and wins (docs/protocol.md, "Implied passes")."""
        store = self.log.store
        assert store is not None
        if winner is held:
            self._queue(held.raw)  # ours wins: make sure the other side gets it
            return True
        trial = self.take_over(e)
        if trial is None:
            return False
        self._stop_deciding()
        self._news()
        return True

    def take_over(self, e: Any) -> Machine | None:
        """Put entry `e` at its seq in place of what we hold from there on (set aside in `<log>.superseded`), and
        take the fold with it applied; None (nothing changed) if it is not valid there."""
        store = self.log.store
        assert store is not None
        trial = self.log.fold(e.seq)
        try:
            trial.apply_entry(e)
        except (ProtocolError, BodyError):
            return None
        gone = store.supersede(e.seq)
        for x in gone:  # an abandon we applied, set aside: its author saw the game end (rule 7 of "Abandonment")
            if x.kind == Kind.ABANDON and x.author != trial.seat:
                self.abandonment.stood_here(x.raw)
        store.append(e.raw, author=e.author)
        self.log.superseded.update(x.id for x in gone)
        self.log.folds.cut(e.seq)
        self.log.arrivals.clear()
        self.log.machine = trial
        self._timing(e.seq, e.kind, e.author)
        return trial
