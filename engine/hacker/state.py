"""The Hacker game state: where every card handle is and who knows its face, the board (departments, players'
TIME/PRIO, the public check list, LOCKs, broken terminals), the round's phase, the sealed commitments and the
stack of pending sub-decisions. A plain value; `clone()` gives an independent copy.

Cards are public handles; `faces[h]` (a card id) is what this instance knows, `known[h]` a bit mask of the seats
that know the face. Sealed choices (`sealed[key]` = an opaque commitment) have their values in `secrets[key]` only
where this instance knows them (the sealing seat's own engine, or an all-knowing referee/audit).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from adp2p.engine.hacker.profiles import Profile

Loc = tuple  # ("deck",) ("hand", p) ("passing", p) ("laid_chance", p) ("laid_term", p) ("front", p) ("discard",)


_FLAT = ("loc", "deck", "discard", "passing", "faces", "known", "open_depts", "where", "time", "prio", "used",
         "extra_pw", "locks", "broken", "in_system", "spotted", "pairs", "place", "duels", "ranks", "stack", "sealed",
         "secrets", "winners", "history", "front_by", "obligations")
_NESTED = ("hands", "laid_chance", "laid_term", "dept", "pw", "pwx", "code", "found", "front")


@dataclass
class HState:
    profile: Profile
    n: int
    scenario: bool = False
    seq: int = 0
    # cards
    loc: dict[int, Loc] = field(default_factory=dict)
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    discard: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    laid_chance: list[list[int]] = field(default_factory=list)
    laid_term: list[list[int]] = field(default_factory=list)
    passing: list[int | None] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)
    known: dict[int, int] = field(default_factory=dict)
    next_handle: int = 0
    # board
    open_depts: list[int] = field(default_factory=list)
    dept: list[list[int]] = field(default_factory=list)  # occupants front (terminal) to back; -1 = dummy user
    where: list[int] = field(default_factory=list)  # department 0..5 or CAFE
    prev_terminal: list[int | None] = field(default_factory=list)  # the terminal held last round (TIME kept)
    time: list[int | None] = field(default_factory=list)  # None = no TIME marker (queue, cafeteria)
    prio: list[int] = field(default_factory=list)
    used: list[int] = field(default_factory=list)  # PRIO used by terminal cards this round (taken in phase 9)
    pw: list[list[bool]] = field(default_factory=list)  # check list: password squares
    pwx: list[list[bool]] = field(default_factory=list)  # second marker: the additional password
    code: list[list[bool]] = field(default_factory=list)  # check list: code squares
    extra_pw: list[bool] = field(default_factory=lambda: [False] * 6)  # a second password installed
    locks: list[int] = field(default_factory=lambda: [0] * 6)
    broken: list[bool] = field(default_factory=lambda: [False] * 6)  # this round (defect, blackout)
    in_system: list[int | None] = field(default_factory=list)  # access held this round (SECURITY does not end it)
    spotted: list[bool] = field(default_factory=list)  # the Boss found them in the queue
    piping: dict[int, list[int]] = field(default_factory=dict)  # target -> pipers, this round
    found: list[list[tuple[str, int]]] = field(default_factory=list)  # what each learned this round (for PIPING)
    pairs: dict[int, int] = field(default_factory=dict)  # PARTNER pairs this round
    front: list[list[int]] = field(default_factory=list)  # face-down cards in front of each seat (facedown.py)
    front_by: dict[int, int] = field(default_factory=dict)  # face-down card -> the seat that laid it
    # the round
    round_no: int = 1
    phase: str = "setup"
    start: int | None = None
    turn: int | None = None  # the seat whose turn it is in phase 8
    order_done: int = 0  # players done in this sub-phase (from the start player)
    place: list[int | None] = field(default_factory=list)  # the place cards turned over this round
    duels: list[dict[str, Any]] = field(default_factory=list)  # phase 4: pending duels, front first
    ranks: dict[int, int] = field(default_factory=dict)  # phase 4: dummies passed, per player
    order: dict[int, list[int]] = field(default_factory=dict)  # phase 4: players' order within a rank group
    work: dict[str, Any] = field(default_factory=dict)  # the current sub-phase's scratch (turn, attempt)
    stack: list[dict[str, Any]] = field(default_factory=list)  # pending sub-decisions, top last
    sealed: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, Any] = field(default_factory=dict)
    # outcome
    over: bool = False
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None
    # for the caller
    reveals: list[tuple[int, int]] = field(default_factory=list)  # (handle, mask) shown by the last event
    obligations: list[dict[str, Any]] = field(default_factory=list)  # rules to check once faces are known
    history: list[dict[str, Any]] = field(default_factory=list)  # the public account, as data

    @property
    def all_mask(self) -> int:
        return (1 << self.n) - 1

    def clone(self) -> HState:
        """An independent copy. Tasks on the stack and slots in `order` are replaced, never changed in place;
        `work` (the hack attempt's lists) is copied deeply."""
        new = copy.copy(self)
        for name in _FLAT:
            setattr(new, name, copy.copy(getattr(self, name)))
        for name in _NESTED:
            setattr(new, name, [copy.copy(x) for x in getattr(self, name)])
        new.piping = {k: list(v) for k, v in self.piping.items()}
        new.order = {k: list(v) for k, v in self.order.items()}
        new.work = copy.deepcopy(self.work)
        new.reveals = []
        return new

    def knows(self, viewer: int | None, h: int) -> bool:
        return h in self.faces and (viewer is None or bool(self.known.get(h, 0) >> viewer & 1))

    def face(self, h: int, viewer: int | None = None) -> int | None:
        f = self.faces.get(h)
        if f is None or viewer is None:
            return f
        return f if self.known.get(h, 0) >> viewer & 1 else None

    def terminal_of(self, p: int) -> int | None:
        """The department whose terminal p sits at, or None."""
        d = self.where[p]
        return d if d < 6 and self.dept[d][:1] == [p] else None

    def in_queue(self, p: int) -> bool:
        d = self.where[p]
        return d < 6 and p in self.dept[d][1:]

    def codes(self, p: int) -> int:
        return sum(self.code[p])

    def has_access(self, p: int, d: int) -> bool:
        """p knows every password of d (the main one and, if installed, the additional one), or is still in the
        system there this round (004:165)."""
        return self.in_system[p] == d or (self.pw[p][d] and (not self.extra_pw[d] or self.pwx[p][d]))

    def clockwise(self, first: int) -> list[int]:
        return [(first + i) % self.n for i in range(self.n)]
