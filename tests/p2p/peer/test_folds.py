"""Snapshots of a peer's fold (p2p/peer/folds.py), alone: a fold of plain values stands in for the machine."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from adp2p.p2p.peer.folds import CHECKPOINT_EVERY, MAX_CHECKPOINTS, Folds


class Fold:
    """A stand-in machine: remembers the entries applied to it, and how often it was made from the genesis."""

    made = 0

    def __init__(self, applied: list[Any] | None = None) -> None:
        self.applied = list(applied or ["genesis"])

    def apply_entry(self, e: Any) -> None:
        self.applied.append(e)

    def snapshot(self) -> Fold:
        return Fold(self.applied)


def fresh() -> Any:
    Fold.made += 1
    return Fold()


LOG = ["genesis", *range(1, 400)]


def test_a_fold_replays_only_from_the_nearest_checkpoint() -> None:
    Fold.made = 0
    folds = Folds(fresh)
    m = Fold(LOG[:CHECKPOINT_EVERY])
    folds.after_append(CHECKPOINT_EVERY, m)  # type: ignore[arg-type]
    m.apply_entry("not in the snapshot")  # the checkpoint is a copy: later changes of the machine do not leak
    out: Any = folds.fold(CHECKPOINT_EVERY + 3, LOG)
    assert out.applied == LOG[: CHECKPOINT_EVERY + 3] and Fold.made == 0
    out = folds.fold(10, LOG)  # before the checkpoint: from the genesis
    assert out.applied == LOG[:10] and Fold.made == 1


def test_the_whole_log_comes_from_the_current_fold_unless_it_may_hold_a_failed_entry() -> None:
    folds = Folds(fresh)
    current = Fold(["genesis", 1, 2, "traces of a failed entry"])
    assert folds.fold(3, LOG[:3], current).applied == current.applied  # type: ignore[arg-type,attr-defined]
    assert folds.fold(3, LOG[:3], None).applied == ["genesis", 1, 2]  # type: ignore[attr-defined]


def test_checkpoints_are_spaced_out_and_bounded() -> None:
    folds = Folds(fresh)
    for length in range(1, 5000):
        folds.after_append(length, Fold())  # type: ignore[arg-type]
    marks = sorted(folds.checkpoints)
    assert len(marks) == MAX_CHECKPOINTS
    assert all(b - a >= max(CHECKPOINT_EVERY, b // 4) for a, b in pairwise(marks))


def test_the_fold_before_evidence_is_used_and_forgotten_when_the_log_is_cut() -> None:
    Fold.made = 0
    folds = Folds(fresh)
    folds.after_append(CHECKPOINT_EVERY, Fold(LOG[:CHECKPOINT_EVERY]))  # type: ignore[arg-type]
    folds.before(100, Fold(["before the evidence at 100"]))  # type: ignore[arg-type]
    assert folds.fold(100, LOG).applied == ["before the evidence at 100"]  # type: ignore[attr-defined]
    folds.cut(100)  # the log from 100 on was set aside: a later evidence entry there has another fold before it
    assert 100 not in folds.before_evidence and CHECKPOINT_EVERY in folds.checkpoints
    folds.cut(10)
    assert not folds.checkpoints
    assert folds.fold(100, LOG).applied == LOG[:100] and Fold.made == 1  # type: ignore[attr-defined]
