"""The Classified Information game state: where every card handle is and who knows its face, each player's Guard
area (Guards in their spots, which are face up, Extra Protection and the Guard tucked under it), the Encrypted Card
Pile, the turn and the final turns, the stack of pending decisions, the recorded obligations and the account.
A plain value; `clone()` gives an independent copy.

Cards are public handles; `faces[h]` (a Card Number 1..9) is what this instance knows, `known[h]` a bit mask of the
seats that know the face. At the Big Reveal each player claims the faces of their hidden cards (`claimed`): the
result is computed from them, and every claim is checked against the face where it is known (the table proves it).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from adp2p.engine.classified.profiles import Profile

Loc = tuple  # ("deck",) ("hand", p) ("suitcase", p) ("guard", p) ("tuck", p) ("encrypted",) ("discard",) ("table",)

_FLAT = ("loc", "deck", "discard", "encrypted", "faces", "known", "suitcase", "up", "tucks", "forgo", "stack",
         "work", "claimed", "obligations", "history", "winners", "guard_counts", "matches", "finals")
_NESTED = ("hands", "guards")


@dataclass
class CState:
    profile: Profile
    n: int = 2
    strict: bool = False  # every face known: an unknown face is itself an error (the audit's replay)
    scenario: bool = False
    seq: int = 0
    # cards
    loc: dict[int, Loc] = field(default_factory=dict)
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    discard: list[int] = field(default_factory=list)  # the last is the top
    encrypted: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    suitcase: list[int | None] = field(default_factory=list)
    guards: list[list[int]] = field(default_factory=list)  # Guards in their spots (a tucked one too), in play order
    up: set[int] = field(default_factory=set)  # Guards lying face up
    tucks: dict[int, int] = field(default_factory=dict)  # Extra Protection handle -> the Guard tucked under it
    faces: dict[int, int] = field(default_factory=dict)
    known: dict[int, int] = field(default_factory=dict)
    next_handle: int = 0
    # the turn
    phase: str = "setup"  # setup | choose | play | reveal | over
    start: int | None = None
    turn: int | None = None
    turn_no: int = 0
    finals: list[int] | None = None  # the final turns still to come (None: the deck has not run out)
    final_turn: bool = False  # the current turn is a final turn (no draw)
    forgo: list[bool] = field(default_factory=list)  # played a REACT card: the next turn has no action
    stack: list[dict[str, Any]] = field(default_factory=list)  # pending decisions, top last
    work: dict[str, Any] = field(default_factory=dict)  # the action being resolved (an assassination, an ability)
    # the end
    claimed: dict[int, int] = field(default_factory=dict)  # the Big Reveal: handle -> the Card Number its owner said
    over: bool = False
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None  # "unguarded_match" | "guards" | "tie"
    guard_counts: list[float] = field(default_factory=list)
    matches: list[bool] = field(default_factory=list)  # an Unguarded Match per seat
    # for the caller
    reveals: list[tuple[int, int]] = field(default_factory=list)  # (handle, mask) shown by the last event
    obligations: list[dict[str, Any]] = field(default_factory=list)  # answers to check once the faces are known
    history: list[dict[str, Any]] = field(default_factory=list)  # the public account, as data

    @property
    def all_mask(self) -> int:
        return (1 << self.n) - 1

    def clone(self) -> CState:
        new = copy.copy(self)
        for name in _FLAT:
            setattr(new, name, copy.copy(getattr(self, name)))
        for name in _NESTED:
            setattr(new, name, [copy.copy(x) for x in getattr(self, name)])
        new.work = copy.deepcopy(self.work)
        new.reveals = []
        return new

    def face(self, h: int, viewer: int | None = None) -> int | None:
        f = self.faces.get(h)
        if f is None or viewer is None:
            return f
        return f if self.known.get(h, 0) >> viewer & 1 else None

    def number(self, h: int) -> int | None:
        """h's Card Number as this instance knows it: its face, else what its owner claimed at the Big Reveal."""
        f = self.faces.get(h)
        return f if f is not None else self.claimed.get(h)

    def protected(self, p: int) -> dict[int, int]:
        """p's Extra Protection cards -> the Guard tucked under each."""
        return {e: g for e, g in self.tucks.items() if self.loc.get(e) == ("guard_area", p)}

    def tucked(self, h: int) -> bool:
        return h in self.tucks.values()

    def guard_count(self, p: int) -> float:
        """Guards in play, Extra Protection as half a Guard (classified-setup.md, card 6)."""
        return len(self.guards[p]) + 0.5 * len(self.protected(p))
