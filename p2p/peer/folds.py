"""Folds of our log kept to start from: a snapshot every so often (checkpoints) and the fold just before each evidence
entry, so that weighing an entry at an earlier seq, or refolding after one failed, does not replay the whole game.

`Folds` holds machines and nothing else: the caller passes the log's entries and its current machine; a fold from
the genesis is made by `fresh()`, the machine factory the peer gives it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from adp2p.p2p.machine import Machine

CHECKPOINT_EVERY = 64  # a snapshot of the fold every so many entries at least (a quarter of the log, if more)
MAX_CHECKPOINTS = 6  # snapshots kept (time and memory of each grow with the game)


class Folds:
    """Snapshots of the fold at a few points of our log."""

    def __init__(self, fresh: Callable[[], Machine]) -> None:
        self.fresh = fresh  # a machine right after the genesis (entry 0 applied)
        self.checkpoints: dict[int, Machine] = {}  # entries folded -> a snapshot of the fold there (the last few)
        self.before_evidence: dict[int, Machine] = {}  # seq -> the fold just before the evidence entry there

    def after_append(self, length: int, m: Machine) -> None:
        """The log now holds `length` entries and `m` is its fold: a snapshot if one is due. A snapshot costs time
        and memory in proportion to the game so far: they are spaced out as it grows, and the last few are kept (a
        refold for an older seq starts from the genesis)."""
        if length - max(self.checkpoints, default=0) >= max(CHECKPOINT_EVERY, length // 4):
            self.checkpoints[length] = m.snapshot()
            if len(self.checkpoints) > MAX_CHECKPOINTS:
                del self.checkpoints[min(self.checkpoints)]

    def before(self, seq: int, m: Machine) -> None:
        """`m` is the fold just before the evidence entry at `seq`."""
        self.before_evidence[seq] = m

    def cut(self, at: int) -> None:
        """Our log from `at` on was set aside: what was folded past it is forgotten."""
        self.checkpoints = {k: v for k, v in self.checkpoints.items() if k <= at}
        self.before_evidence = {k: v for k, v in self.before_evidence.items() if k < at}

    def fold(self, at: int, entries: Sequence[Any], current: Machine | None = None) -> Machine:
        """A machine folded over `entries` (our log) before seq `at`: from the snapshot kept there, or `current` (our
        machine, if it is the fold of the whole log: pass None when it may hold a failed entry's traces), or the
        nearest checkpoint before `at`, or the genesis."""
        snap = self.before_evidence.get(at)
        if snap is not None:
            return snap.snapshot()
        if current is not None and at == len(entries):
            return current.snapshot()
        start = max((k for k in self.checkpoints if k <= at), default=0)
        if start:
            m = self.checkpoints[start].snapshot()
        else:
            m = self.fresh()
            start = 1
        for entry in entries[start:at]:
            m.apply_entry(entry)
        return m
