"""A seat's first duty, its `join`, is not due at that seat before it holds the genesis (docs/protocol.md,
"Abandonment and resume", rule 2): a joiner may refuse a genesis for a moment (a lobby whose views differ while a
connection flaps, a machine too busy to check it) and take it a few seconds later, while the genesis author, who
held it first, already counts its patience. So while a seat on `join` duty has shown no sign of holding the genesis
(no head of at least one entry from it, no entry of its own), its decision's clock starts again at each look: its
patience starts once it has the game. Bounded: after `GRACE_PERIODS` periods (at least `GRACE_MIN` seconds) of this
decision being due here, a seat never heard from is waited on like any other (a player killed once seated)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adp2p.p2p.protocol import Kind

if TYPE_CHECKING:
    from adp2p.p2p.machine import Machine
    from adp2p.p2p.peer.heads import Heads
    from adp2p.p2p.peer.patience import Decision, Patience

GRACE_PERIODS = 2
GRACE_MIN = 10.0  # seconds


def grace(period: float) -> float:
    return max(GRACE_PERIODS * period, GRACE_MIN) if period > 0 else 0.0


def not_seated_yet(
    heads: Heads, patience: Patience, period: float, first: dict[Decision, float], m: Machine, seat: int,
    decision: Decision,
) -> bool:
    """Whether `seat`, due to `join` at `decision`, has not been seen holding the genesis (the others' `heads`),
    within the grace (`period`: the patience; `first`: when each such decision was first due here, kept by the
    caller): then that decision's clock starts again now (True), so no period of patience passes on it here."""
    d = m.duty()
    if d is None or d.kind != Kind.JOIN or d.seat != seat or m.seat == seat:
        return False
    if heads.longest.get(m.ids[seat].fingerprint(), 0) >= 1:
        return False
    now = patience.now()
    since = first.setdefault(decision, now)
    if now - since >= grace(period):
        return False
    patience.restart(*decision)
    return True
