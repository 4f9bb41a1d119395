"""Entries coming in: held while ahead of our log, checked and taken in order, a pass token against the act it
contradicts, what a seq holds when two entries meet there.

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

import contextlib
from typing import Any

from adp2p.crypto.entries import decode_entry
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
from adp2p.p2p.peer import ending_version, protest
from adp2p.p2p.peer.common import (
    _passes_of,
    _plain_pass,
    _short,
    log,
)
from adp2p.p2p.pipeline import Arrival, frame, schema
from adp2p.p2p.protocol import BodyError, Kind
from adp2p.p2p.violations import words as violation_words


class IntakePart:
    """Entries coming in."""

    def _drain_pending(self) -> None:
        assert self.store is not None
        while not self.ended and (raw := self.arrivals.take(self.store.next_seq)) is not None:
            self._take(raw)

    def _take(self, raw: bytes, *, sender: str | None = None) -> None:
        """An entry for the next seq from another peer: an abandon is weighed against our own clock first."""
        m = self.machine
        assert m is not None and self.store is not None
        e = frame(raw)  # the pipeline's first step (p2p/pipeline.py): `_accept` goes on from it
        if e.kind == Kind.ABANDON and e.author != m.seat and not self.ended:
            try:
                self.store.check(raw)
            except (LogError, CryptoError):
                self._accept(raw, sender=sender)  # says why it is rejected
                return
            self.abandoning.hold(raw, sender or "a peer")
            return
        self._accept(raw, sender=sender)

    def _accept(self, raw: bytes, *, own: bool = False, sender: str | None = None) -> None:
        """One entry taken in (`_take_entry`), between the peer's two seams for a test's cheater: `keeps_own_entry`
        before one of our own, `entry_taken` after any (whatever became of it)."""
        held = len(self.store) if self.store is not None else 0
        if not own or self.keeps_own_entry(raw):
            self._take_entry(raw, own=own, sender=sender)
        self.entry_taken(raw, own=own, appended=self.store is not None and len(self.store) > held)

    def keeps_own_entry(self, raw: bytes) -> bool:
        """Whether an entry we just signed goes into our log (then out to the table): always. The seam where a test's
        cheater holds back a lie its own fold rejects (tests/adversaries/_net.py)."""
        return True

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        """After an entry came through intake (`appended`: our log grew): nothing. The seam where a test's cheater acts
        on what it saw (posts evidence late, crashes after a write)."""

    def _take_entry(self, raw: bytes, *, own: bool = False, sender: str | None = None) -> None:
        """Check, apply and persist one entry at the next seq (persisted before anything acts on it). An entry
        that breaks a rule is answered with evidence in its place; evidence at a seq we hold is weighed. The entry
        goes through the pipeline (p2p/pipeline.py) once: framed (once: `_take` framed these very bytes already),
        the store's signature and chain checks, its body decoded once (`schema`), the fold."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        try:
            e = store.check(raw)
        except DuplicateEntry:
            return
        except LogEquivocation as exc:
            with contextlib.suppress(LogEquivocation):  # check() only detects; append() saves the proof
                store.append(raw)
            self.proofs_to_share.append((exc.proof.raw_a, exc.proof.raw_b))
            if ending_version.take_lower_version(self, raw):  # type: ignore[arg-type]  (two versions of the end)
                m = self.machine
                assert m is not None
            named = {v.seat for _, _, v in m.evidence_seen if v.rule == "equivocation"}
            if not self.ended and exc.seat not in named:  # (once: a proof gossiped again is no news)
                self.tell("equivocation", who=self._who(exc.seat), seq=exc.seq, path=f"{store.path}.equivocations")
                new = decode_entry(raw)
                if new.kind != Kind.EVIDENCE:  # we may hold its author's evidence there, which it may not keep
                    self.proofs.weigh_against_evidence(new)  # (a self-accusation over the entry that ended the game)
                body = {"what": "equivocation", "a": exc.proof.raw_a, "b": exc.proof.raw_b}
                self.proofs.post(exc.seq, body)  # (at the head if it may not take that seq)
            return
        except (LogError, CryptoError) as exc:
            if isinstance(exc, ConflictingEntry) and (
                self.proofs.weigh(raw) or self.abandoning.weigh(raw) or self._pass_conflict(raw)
            ):
                return
            if self._stale(raw):
                log.info("entry on another branch%s: %s", f" from {sender}" if sender else "", exc)
                protest.offer(self, raw)  # (the table's branch past an entry we rejected: p2p/peer/protest.py)
                return  # it builds on an entry we do not hold (yet): the caller fetches what it needs
            where = notice("from_who", self.cfg.lang, who=sender) if sender else ""
            log.warning("rejected entry%s: %s", where, exc)
            self.tell("rejected_entry", where=where, why=self._detail(_short(str(exc))))
            return
        if self.ended:
            return  # the game is over: the log stays as the outcome describes it
        if e.kind == Kind.EVIDENCE and self.book.dismissed(e):
            return  # judged false before, or a seat that keeps sending false evidence: not refolded again
        a = schema(e)
        token = None if own else self._passed_there(a)
        if token is not None:  # its author passed at the very decision this entry takes: proof against it
            self.tell("pass_then_act", who=self._who(e.author))
            self.proofs.post(e.seq, {"what": "pass", "raw": raw, "token": token})
            return
        before = m.snapshot() if e.kind == Kind.EVIDENCE else None
        try:
            m.fold(a)
        except (ProtocolError, BodyError) as exc:
            seat = getattr(exc, "seat", e.author)
            self.machine = m = self._fold(len(store), fresh=True)  # a failed entry leaves nothing behind
            if e.kind == Kind.EVIDENCE:
                self.book.found_false(e)
            self.book.keep(raw, str(exc))
            if seat == e.author and not own and m.seat is not None and seat != m.seat:
                why = exc.msg if isinstance(exc, ProtocolError) else str(exc)
                if self.cfg.lang != "en":  # the rule in the player's words; the English detail is in the evidence
                    why = violation_words(getattr(exc, "rule", None) or "entry", self.cfg.lang)
                self.tell("broke_rules", who=self._who(seat), why=why)
                self.proofs.post(e.seq, m.evidence_for_entry(raw, exc if isinstance(exc, ProtocolError) else None))
                protest.rejected(self, raw)  # (a box sealed to us: we may have to follow the table under protest)
            else:
                culprit, lang = e.author if seat is None else seat, self.cfg.lang
                rule = violation_words(getattr(exc, "rule", None) or "entry", lang)
                said = notice("broke_rules_end", lang, who=self._who(culprit), why=str(exc) if lang == "en" else rule)
                self._end_verdict(f"{self._who(culprit, 'en')} broke the rules: {exc}", said)
            return
        # our own entries are on disk (fsync) before they leave; another's is written now and made durable by our
        # next fsync (one file): after a power loss we fetch it again from the table, whose log holds it
        store.append(raw, author=e.author, checked=e, durable=own)
        if self.passes is not None:
            self.passes.prune(len(store))
            self.ahead = {k: v for k, v in self.ahead.items() if k[0] >= len(store)}
        if before is not None:
            self.folds.before(e.seq, before)
        self.folds.after_append(len(store), m)
        self._timing(e.seq, e.kind, e.author)
        if m.abandoned is not None:
            self.abandoning.abandoned(e)
        self._say_verdict()
        self.progress.set()

    def _passed_there(self, a: Arrival) -> bytes | None:
        """The token we hold by which the arrival's author passed at the decision it takes (its count of passes)."""
        e = a.entry
        if self.passes is None or self.machine is None or e.kind not in (Kind.EVENT, Kind.ABANDON):
            return None
        k = a.passes()
        if k is None or (e.kind == Kind.EVENT and self.machine.game.is_pass(a.event(), e.author)):
            return None  # (a plain pass where it passed by token is the same answer: rule 3 of "Abandonment")
        return self.passes.get(e.seq, e.prev_hash, len(k), e.author)

    def _pass_conflict(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one after the same entry: if one of the two carries a token
        by which the other's author passed at the decision it took instead, post that proof (at that seq, or
        after it if the entry we hold there is our own). True if posted."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        try:
            e = decode_entry(raw)
            self._check_signed(e)
        except (CryptoError, ValueError, TypeError):
            return False
        if self.ended or not 0 < e.seq < len(store) or store[e.seq - 1].id != e.prev_hash:
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
            self.tell("pass_then_act", who=self._who(acted.author))
            self.proofs.post(e.seq if held.author != m.seat else len(store), {
                "what": "pass", "raw": acted.raw, "token": token,
            })
            return True
        return False

    def _further_along(self, held: Any, e: Any, winner: Any) -> bool:
        """At one seq, a seat's plain pass entry (written when an abandon named it) and an entry that carries
        that seat's token for the same decision (written by one who had the token): both say the seat passed; the
        one that carries the token is further along and wins (docs/protocol.md, "Implied passes")."""
        store = self.store
        assert store is not None
        if winner is held:
            self.outbox.append(held.raw)  # ours wins: make sure the other side gets it
            return True
        trial = self._take_over(e)
        if trial is None:
            return False
        self._deciding.cancel()
        self.progress.set()
        return True

    def _take_over(self, e: Any) -> Machine | None:
        """Put entry `e` at its seq in place of what we hold from there on (set aside in `<log>.superseded`), and
        take the fold with it applied; None (nothing changed) if it is not valid there."""
        store = self.store
        assert store is not None
        trial = self._fold(e.seq)
        try:
            trial.apply_entry(e)
        except (ProtocolError, BodyError):
            return None
        gone = store.supersede(e.seq)
        for x in gone:  # an abandon we applied, set aside: its author saw the game end (rule 7 of "Abandonment")
            if x.kind == Kind.ABANDON and x.author != trial.seat:
                self.abandonment.stood_here(x.raw)
        store.append(e.raw, author=e.author)
        self.superseded.update(x.id for x in gone)
        self.folds.cut(e.seq)
        self.arrivals.clear()
        self.machine = trial
        self._timing(e.seq, e.kind, e.author)
        return trial
