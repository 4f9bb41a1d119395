"""The second accuser: two valid pieces of evidence by different accusers at one seq (docs/protocol.md, "Precedence at
one seq", rule 7). The lower seat's takes the seq (rule 2); the other, `raw`, is named at the head by an `also`
evidence entry, `{what: "also", raw}`, so that a seat cannot hide the cheater an honest accuser names by sacrificing
a partner whose own valid evidence (a corrupt shuffle shown, a verdict naming nobody or itself) wins the seq.

The machine keeps the fold before every contested kind of evidence entry it applies (at most `MAX_KEPT`, shared by
its snapshots, never changed once kept), so that `also` is judged from the log alone, exactly as the evidence at
that seq was: on the fold before it. Functions on a `Machine` (p2p/machine/machine.py), called from its evidence
part; the peer's side is p2p/peer/second_accuser.py."""

from __future__ import annotations

from typing import Any

from adp2p.p2p.machine.common import Verdict, carried_entry
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError

Machine = Any  # the fold these functions work on (p2p/machine/machine.py, which imports this module: no import back)

MAX_KEPT = 4  # folds kept before evidence entries (a verdict stops the game: more than a few are nobody's news)
MAX_ALSO = 4  # `also` entries one log may carry
UNNAMED = ("refused", "also", "protest")  # evidence kinds that stand at the head and are never contested at their seq


class Kept:
    """A fold kept as it was (shared by every snapshot of the machine that kept it: deep copies keep it as is)."""

    __slots__ = ("fold",)

    def __init__(self, fold: Machine) -> None:
        self.fold = fold

    def __deepcopy__(self, memo: dict[int, Any]) -> Kept:
        return self


def kept(m: Machine) -> tuple[tuple[int, Kept], ...]:
    return getattr(m, "_kept_folds", ())


def keep_fold_before(m: Machine, what: Any) -> Machine | None:
    """The fold before the evidence entry being applied (a snapshot), if it is to be kept once the entry holds."""
    if getattr(m, "_depth", 0) != 0 or what in UNNAMED or len(kept(m)) >= MAX_KEPT:
        return None
    return m.snapshot()


def kept_now(m: Machine, fold: Machine | None, seq: int) -> None:
    """The evidence entry at `seq` held: keep the fold before it (a new tuple: a failed entry leaves no trace)."""
    if fold is not None:
        m._kept_folds = (*kept(m), (seq, Kept(fold)))  # type: ignore[attr-defined]


def also_verdict(m: Machine, poster: int, body: dict[str, Any], seq: int) -> Verdict:
    """`{what: "also", raw}` at seq `seq`: `raw` is an evidence entry for an earlier seq `s` of this log, on the log's
    entry `s - 1`, by another author than the evidence entry the log holds at `s`; valid on the fold before `s` (as
    that entry was judged); not its author's own fault (that is `refused`'s); naming a seat that nothing in this log
    names yet. Its verdict names that seat. Anything else is the poster's false evidence."""
    e = carried_entry(body, m.ids, poster)
    if e.game_id != m.game_id or e.kind != Kind.EVIDENCE or not 1 <= e.seq < seq:
        raise ProtocolError(poster, f"false evidence: not an evidence entry of this game before seq {seq}")
    fold = dict(kept(m)).get(e.seq)
    if fold is None or e.prev_hash != m.prev_at(e.seq):
        raise ProtocolError(poster, f"false evidence: this log holds no evidence at seq {e.seq} on that entry")
    if m.finality.authors[e.seq - 1] == e.author or m.id_at(e.seq) == e.id:
        raise ProtocolError(poster, f"false evidence: the evidence at seq {e.seq} is by that very accuser")
    ids = getattr(m, "_also_ids", frozenset())
    if e.id in ids or len(ids) >= MAX_ALSO:
        raise ProtocolError(poster, "false evidence: that evidence was named in this log already, or enough was")
    if m.own_fault(e) is not None:
        raise ProtocolError(poster, "false evidence: that evidence is its author's own fault (that is `refused`)")
    trial = fold.fold.snapshot()
    try:
        trial.apply_entry(e)
    except (ProtocolError, BodyError) as exc:
        raise ProtocolError(poster, f"false evidence: that evidence does not hold at seq {e.seq}: {exc}") from None
    v = trial.evidence_seen[-1][2]
    if v.seat is None or v.seat in m.named():
        raise ProtocolError(poster, f"false evidence: the evidence at seq {e.seq} names nobody this log does not")
    m._also_ids = ids | {e.id}  # type: ignore[attr-defined]  (a new set: undone with the fold if this entry fails)
    why = f"{v.msg} (proven at seq {e.seq} by seat {e.author + 1}, beside the evidence that took that seq)"
    return Verdict(v.seat, v.rule, why, seq)
