"""The peer's side of evidence after the end (docs/protocol.md, "Precedence at one seq" 9; the machine's side is
p2p/machine/protest.py). When we reject an entry for a fault in a box of shares sealed to us (an observer's fold takes
it), we remember it; entries of the table's branch that build on it (which our log cannot take: they come as entries
of another branch, or wait ahead of our log) are kept, bounded. Once they reach an entry that ends the game, our own
evidence was refused at the other peers (the result is final): we take their branch with the rejected entry folded
under protest, setting our own entries from its seq on aside, and post our proof at the head (`protest`).

`Protest` is an object of its own, given the seat's log state (p2p/peer/seat_log.py), what the player was shown
(narrator.py), evidence posted (`Proofs`, evidence.py) and what it does through the peer (whether the game ended for
us, cancel our decision, take the entries held ahead, wake the play loop, the timings file); intake
(p2p/peer/intake.py) calls it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.crypto.entries import Entry, decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.p2p.logstore import SUPERSEDED_SUFFIX
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.machine.protest import fold_under_protest, follow_tree, protest_body
from adp2p.p2p.peer.common import log
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import BodyError, Kind

MAX_BRANCH = 64  # seqs of the table's branch kept past the entry we rejected (the end comes within a round trip)
PER_SLOT = 2  # entries kept per seq and author on it


class Watch:
    """The entry we rejected for a fault in a box sealed to us (its seq and raw), and the table's branch on it: entries
    after it, at most `PER_SLOT` per seq and author (the first ones), so that no seat's flood of entries crowds out
    another seat's (a cheater's own slots hold its own entries only; two versions it signed for one seq are its
    equivocation)."""

    def __init__(self, seq: int, raw: bytes) -> None:
        self.seq = seq
        self.raw = raw
        self.slots: dict[tuple[int, int], list[bytes]] = {}  # (seq, author) -> entries kept

    def keep(self, e: Entry) -> bool:
        """Keep entry `e` (decoded) if it is within the branch's bounds and its slot has room. True if new."""
        if not self.seq < e.seq <= self.seq + MAX_BRANCH:
            return False
        slot = self.slots.setdefault((e.seq, e.author), [])
        if e.raw in slot or len(slot) >= PER_SLOT:
            return False
        slot.append(e.raw)
        return True

    def at(self, seq: int) -> list[Entry]:
        return [decode_entry(r) for (q, _a), rs in sorted(self.slots.items()) if q == seq for r in rs]


class Protest:
    """The table's branch past an entry we rejected for a fault in a box sealed to us, followed once it holds the
    end."""

    def __init__(
        self,
        seat_log: SeatLog,
        narrator: Narrator,
        proofs: Any,
        *,
        ended: Callable[[], str | None],
        stop_deciding: Callable[[], None],
        drain: Callable[[], None],
        news: Callable[[], None],
        timing: Callable[..., None],
    ) -> None:
        """`proofs`: `Proofs` (its `post`); `ended()`: why the game ended for us (None while it goes on);
        `stop_deciding()`: cancel our decision in progress; `drain()`: take the entries held ahead of our log;
        `news()`: wake the play loop; `timing(*fields)`: the timings file."""
        self.log, self.narrator, self.proofs = seat_log, narrator, proofs
        self._ended, self._stop_deciding, self._drain = ended, stop_deciding, drain
        self._news, self._timing = news, timing
        self.watch: Watch | None = None

    def rejected(self, raw: bytes) -> None:
        """We rejected entry `raw` and posted our evidence at its seq: if an observer's fold takes it (the fault is in
        a box sealed to us, which only we can open), watch for the table's branch on it."""
        m, store = self.log.machine, self.log.store
        if m is None or store is None or m.seat is None:
            return
        e = decode_entry(raw)
        if e.kind != Kind.SHARES or not 0 < e.seq < len(store) or store[e.seq].author != m.seat:
            return  # (only a box of shares sealed to us; our evidence holds its seq)
        try:
            fold_under_protest(self.log.fold(e.seq), e)
        except (ProtocolError, BodyError):
            return  # a public fault: every peer rejects it, our evidence takes its seq everywhere
        self.watch = Watch(e.seq, raw)

    def offer(self, raw: bytes) -> None:
        """A well-signed entry of another branch than ours (or one waiting ahead of our log): kept if it builds on the
        rejected entry's branch; once that branch reaches the game's end, we take it (`_follow`)."""
        w = self.watch
        if w is None or self._ended() or self.log.store is None:
            return
        try:
            e = decode_entry(raw)
        except (CryptoError, ValueError, TypeError):
            return
        new = w.keep(e)
        for ahead in self.log.arrivals.values():  # entries of that branch held ahead of our log (signature checked)
            new = w.keep(ahead) or new
        if new:
            self._follow(w)

    def _follow(self, w: Watch) -> bool:
        """Take the table's branch if it holds the game's end (folded with the rejected entry under protest), and post
        our proof at the head. True if we did."""
        store, m = self.log.store, self.log.machine
        if store is None or m is None or not w.seq < len(store) or not w.at(w.seq + 1):
            return False
        own = store[w.seq]
        if own.kind != Kind.EVIDENCE or own.author != m.seat:
            return False
        found = follow_tree(self.log.fold(w.seq), decode_entry(w.raw), lambda e: _children(self.log.check_signed, w, e))
        if found is None:
            return False  # not (yet) the end: our proof stands at its seq
        trial, branch = found
        log.info("the table holds the end at %s past the entry %d we rejected: following it under protest",
                 trial.ended_at, w.seq)
        self.watch = None
        gone = store.supersede(w.seq)
        for e in branch:
            store.append(e.raw, author=e.author, checked=e, durable=False)
        self.log.superseded.update(x.id for x in gone)
        self.log.folds.cut(w.seq)
        self.log.machine = trial
        if self.log.passes is not None:
            self.log.passes.prune(len(store))
        self._timing(branch[-1].seq, branch[-1].kind, branch[-1].author)
        self._stop_deciding()
        self.narrator.shown = min(self.narrator.shown, len(trial.state.history))
        self.narrator.tell("set_aside", n=len(gone), path=f"{store.path}{SUPERSEDED_SUFFIX}")
        self.proofs.post(len(store), protest_body(trial, own.raw))
        self._drain()
        self._news()
        return True


def _children(check_signed: Callable[[Entry], None], w: Watch, e: Entry) -> list[Entry]:
    """The entries held at the seq after `e` that build on it, their signatures checked (`check_signed`; two or more:
    a cheater's versions of its own entry there, one of them perhaps sent to us alone: `follow_tree` takes the one the
    table's branch to the end is built on)."""
    out = []
    for x in w.at(e.seq + 1):
        if x.prev_hash != e.id:
            continue
        try:
            check_signed(x)
        except CryptoError:
            continue
        out.append(x)
    return out
