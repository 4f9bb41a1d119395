"""Results are final: what the log shows about who signed what after which entry, the entry that ended the game, the
precedence of evidence at a seq already taken (`displaces`), the `refused` evidence that names a seat whose own
evidence proved it a cheater (self-accusation, evidence held back), and the results that stand: every winner the
log's verdicts and the audit do not name (docs/protocol.md, "Precedence at one seq" and "Results are final").

An object the fold (`Machine`, p2p/machine/machine.py) holds, called with the fold; it owns what it records of the log
(who signed what on which entry, where the game ended, the `refused` evidence named) and reads the rest of the
fold's state (its seq, ids, verdicts)."""

from __future__ import annotations

import contextlib
from typing import Any

from adp2p.crypto.entries import Entry, decode_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.p2p.machine.common import Verdict, carried_entry
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, decode_body, need

IN_PLACE = ("entry", "pass", "equivocation")  # the evidence kinds that name the author of an entry they carry
MAX_REFUSED = 16  # `refused` entries one log may carry (each names one seat; more are nobody's news)


def silence_suspends(n_seats: int, game_over: bool) -> bool:
    """A seat's silence before the end at a table of two suspends the game: no winner, nobody named (the abandon is
    the other seat's claim by its own clock, never a verdict; docs/protocol.md, "Silence at a table of two"). The one
    place this rule lives: the peer's end, its notices, the verdicts and the audit's report ask it."""
    return n_seats == 2 and not game_over


def accused_entry(body: Any) -> Entry | None:
    """The signed entry an evidence body of an in-place kind accuses (`raw`, or `a` of an equivocation), decoded but
    not verified; None for the other kinds or a body that does not carry one."""
    if not isinstance(body, dict) or body.get("what") not in IN_PLACE:
        return None
    raw = body.get("a") if body.get("what") == "equivocation" else body.get("raw")
    if not isinstance(raw, bytes):
        return None
    try:
        return decode_entry(raw)
    except (MalformedEncoding, CryptoError, ValueError, TypeError):
        return None


Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Finality:
    """Results are final: what the log shows of who signed what where, and the judgements made from it."""

    def __init__(self) -> None:
        self.prevs = bytearray()  # per entry from seq 1 on: the id of the entry it builds on (32 bytes each)
        self.authors = bytearray()  # per entry from seq 1 on: its author
        self.token_seats = bytearray()  # per entry from seq 1 on: a mask of the seats whose pass tokens it carries
        self.ended_at: int | None = None  # the seq of the entry that ended the game (goal, round limit, stalemate)
        self.left_at: int | None = None  # the abandoned seat had left after its abandon at this seq stood: unnamed
        self.refused_seen = 0
        self.refused_ids: set[bytes] = set()  # ids of the evidence entries a `refused` entry of this log named

    def record(self, fold: Fold, author: int, prev: bytes | None, tokens: int) -> None:
        """An entry was applied at seq `fold.entries - 1`: remember who signed what on it (its author, the seats of
        the tokens it carries) and whether it ended the game."""
        self.prevs += prev if prev is not None and len(prev) == 32 else bytes(32)
        self.authors.append(author)
        self.token_seats.append(tokens & 0xFF)
        if self.ended_at is None and fold.state.over:
            self.ended_at = fold.entries - 1

    def prev_at(self, fold: Fold, seq: int) -> bytes | None:
        """The id of the entry that the entry at `seq` builds on (None outside the log folded so far)."""
        if not 1 <= seq < fold.entries:
            return None
        return bytes(self.prevs[32 * (seq - 1) : 32 * seq])

    def id_at(self, fold: Fold, seq: int) -> bytes | None:
        """The id of the entry at `seq`, known once an entry builds on it."""
        return self.prev_at(fold, seq + 1)

    def signed_after(self, fold: Fold, seat: int, seq: int) -> int | None:
        """The first seq after `seq` at which `seat` signed something in this log (an entry, or a pass token that an
        entry carries), or None: a seat that did has taken the entry at `seq` (it built on it)."""
        for t in range(seq + 1, fold.entries):
            if self.authors[t - 1] == seat or self.token_seats[t - 1] >> seat & 1:
                return t
        return None

    def own_fault(self, fold: Fold, e: Entry) -> tuple[str, str] | None:
        """Whether this log alone shows valid-or-not evidence entry `e` (for a seq of this log) to be its own author's
        fault, and which: `("self_accusation", why)` when the entry it accuses (`entry`, `pass`, `equivocation`) is
        signed by its own author, `("late_evidence", why)` when it is `entry` evidence about the very entry this log
        holds at its seq and its author signed something on top of that entry. None otherwise. The one judgment
        behind both `displaces` (which then keeps the evidence from its seq) and `refused` evidence (which names its
        author at the head): a peer posts `refused` only where this says so on the log it posts on."""
        body = _body(e)
        accused = accused_entry(body)
        seat = e.author
        if accused is not None and accused.author == seat and accused.game_id == fold.game_id:
            why = f"seat {seat + 1} accused its own entry at seq {e.seq}: it names itself, erases nothing"
            return "self_accusation", why
        held = self.id_at(fold, e.seq)
        if body.get("what") == "entry" and accused is not None and held is not None and accused.id == held:
            t = self.signed_after(fold, seat, e.seq)
            if t is not None:
                why = (
                    f"seat {seat + 1} held back its evidence about entry {e.seq}: it signed entry {t} on top of it "
                    "first (evidence is due at once)"
                )
                return "late_evidence", why
        return None

    def displaces(self, fold: Fold, e: Entry, verdict: Verdict) -> str | None:
        """Why valid evidence `e` (judged on the fold before its seq: `verdict`) may NOT take the seq it was posted
        at, which this fold already holds, and set aside what follows; None if it may. This machine is the fold of
        the log that holds the seq. The rules (docs/protocol.md, "Precedence at one seq"):
        - evidence the log shows to be its author's own fault (`own_fault`: a self-accusation, or late) erases
          nothing; the reason starts "evidence against its own accuser" or "late", and only then does a peer post
          `refused` for it (`own_fault` judges that `refused` entry too: the two never disagree);
        - evidence whose verdict names its own author by other means (the faces it shows convict its poster's own
          earlier entry, say) erases nothing either, but the log alone cannot show that: it is kept, not posted;
        - no evidence sets aside the entry that ended the game unless it proves that very entry invalid (`entry` or
          `pass` evidence about it whose verdict names its author; an equivocation about it names its author at the
          head), nor any entry after it."""
        s = e.seq
        fault = self.own_fault(fold, e)
        if fault is not None:
            rule, why = fault
            if rule == "self_accusation":
                return f"evidence against its own accuser sets nothing aside ({why})"
            return f"late: {why}"
        if verdict.seat == e.author:
            return "its verdict names its own poster: it sets nothing aside (the log alone cannot show it)"
        body = _body(e)
        accused = accused_entry(body)
        held = self.id_at(fold, s)
        about_held = accused is not None and held is not None and accused.id == held
        if body.get("what") == "equivocation" and not about_held:  # either of the two versions may be the one held
            with contextlib.suppress(MalformedEncoding, CryptoError, BodyError):
                about_held = held is not None and decode_entry(need(body, "b", bytes)).id == held
        proves_invalid = (  # (a second version proves nothing wrong in it; a verdict on another seat, nothing of it)
            about_held and body.get("what") != "equivocation" and accused is not None and verdict.seat == accused.author
        )
        if self.ended_at is not None and (self.ended_at > s or (self.ended_at == s and not proves_invalid)):
            return f"the game ended at entry {self.ended_at}: its result is final"
        return None

    def refused_entry(self, fold: Fold, poster: int, body: dict[str, Any], seq: int) -> Verdict:
        """`{what: "refused", raw}`: an evidence entry signed by its author for an earlier seq of this log, which the
        log shows to be its author's own fault whether or not it proves anything else: it accuses an entry signed by
        its own author (self-accusation), or it accuses the entry the log holds at its seq after its author signed
        something on top of that entry (held back). Judged from the log alone, like the pass evidence."""
        e = carried_entry(body, fold.ids, poster)
        if e.game_id != fold.game_id or e.kind != Kind.EVIDENCE or not 1 <= e.seq < seq:
            raise ProtocolError(poster, f"false evidence: not an evidence entry of this game before seq {seq}")
        if e.prev_hash != self.prev_at(fold, e.seq):
            raise ProtocolError(poster, f"false evidence: that evidence is not on entry {e.seq - 1} of this log")
        if self.refused_seen >= MAX_REFUSED:
            raise ProtocolError(poster, "false evidence: this log has named enough refused evidence")
        if e.id in self.refused_ids:
            raise ProtocolError(poster, "false evidence: that evidence was named in this log already")
        fault = self.own_fault(fold, e)
        if fault is not None:
            self.refused_ids.add(e.id)  # (undone with the fold if this entry is rejected: a failed one leaves no trace)
            self.refused_seen += 1
            return Verdict(e.author, fault[0], fault[1], e.seq)
        raise ProtocolError(poster, "false evidence: that evidence is neither against its author nor late")

    def named(self, fold: Fold) -> set[int]:
        """Every seat a verdict in the log or the end-of-game audit names."""
        seats = {v.seat for _, _, v in fold.evidence_seen}
        if fold.verdict is not None:
            seats.add(fold.verdict.seat)
        if fold.audit_report is not None:
            seats |= {v.seat for v in fold.audit_report.violations if v.rule != "secrets_missing"}
        seats.discard(None)
        return seats  # type: ignore[return-value]

    def standing_winners(self, fold: Fold, extra: set[int] | None = None) -> list[int]:
        """The result that stands: once the game ended, its winners but those a verdict or the audit names (and
        `extra`, the seats the caller knows of too); before, nobody."""
        if not fold.state.over:
            return []
        named = self.named(fold) | (extra or set())
        return [w for w in fold.state.winners if w not in named]


def _body(e: Entry) -> dict[str, Any]:
    try:
        body = decode_body(e.body)
    except BodyError:
        return {}
    return body if isinstance(body, dict) else {}
