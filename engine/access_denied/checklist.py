"""The automatic password checklist: the paper checklist of the physical game, kept for one player.

For every controlled sector it records which codes that player *knows* to be in the sector's password
(IN), which it knows are not (OUT), and from that the passwords (3-subsets of the six codes A..F) still
consistent with everything the player has seen. Only real evidence counts:

* the player's own access attempts: every card the controller returned carries a code IN the password,
  every card it kept a code OUT (an answered attempt; Firewall or Route Trace produce no answer and so
  no evidence; uncontrolled sectors have no password);
* Wiretap: the faces of another player's attempt together with the public answer (same rule);
* codes shown to the player (Dumpster Diving, Packet Sniffer, Mocking Bird) and, generally, every
  password card whose face the player knows (its own passwords included);
* a played card that requires a code in its player's password (e.g. Popular War: code A), when that
  player controls exactly one sector.

Codes of cards merely seen (in one's own hand, on the discard pile) tell nothing: codes repeat.

The checklist is pure data. Feed it incrementally with `observe(state_before, event)` for each event of
the public log (plus `sync(state)` whenever a fresh view is at hand), or rebuild it with
`Checklist.rebuild(view, events)`. `state` may be the player's `view` or an omniscient state: only faces
known to the player (`state.known`) are used. Evidence is tied to the password's card handles, so a
Scramble Password (new handles) starts that sector afresh.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple

from adp2p.engine.access_denied.catalog import CODES, card
from adp2p.engine.access_denied.state import GameState

ALL_PASSWORDS: tuple[frozenset[int], ...] = tuple(frozenset(c) for c in combinations(range(6), 3))


_MASK = {pw: sum(1 << c for c in pw) for pw in ALL_PASSWORDS}  # a password as a 6-bit set


class Odds(NamedTuple):
    """What an answer to an attempt with a set of codes may bring, uniform over the passwords still possible."""

    all_in: float  # the chance every code is in (the attempt succeeds)
    bits: float  # the expected information of the answer (which of the codes are in), in bits
    p_in: tuple[float, ...]  # per code 0..5, the chance it is in


@dataclass
class _Sector:
    handles: tuple[int, ...] = ()
    cards: list[int] = field(default_factory=list)  # the password's handles in the state's order, as last synced
    unshown: tuple[int, ...] = ()  # password handles whose code is not taken in yet
    since: int = 0  # the `sync` (Checklist.syncs) that first saw these handles
    inn: set[int] = field(default_factory=set)
    out: set[int] = field(default_factory=set)
    evidence: tuple[int, int] = (0, 0)  # (inn, out) as bit sets: what every derived number depends on

    def possible(self) -> list[frozenset[int]]:
        return list(_possible(*self.evidence))

    def add(self, code: int, is_in: bool) -> bool:
        target = self.inn if is_in else self.out
        if code in target:
            return False
        target.add(code)
        inn, out = self.evidence
        self.evidence = (inn | 1 << code, out) if is_in else (inn, out | 1 << code)
        return True

    def p_in(self) -> tuple[float, ...]:
        """Per code 0..5, the share of the possible passwords that hold it (all 0 if none is possible)."""
        return _p_in(*self.evidence)

    def odds(self, want: int) -> Odds | None:
        """(all in, bits, per code in) for an attempt with these codes (a bit set)."""
        return _odds(*self.evidence, want)


# The numbers derived from a sector's evidence depend on nothing else (the codes known in, the codes known out: at
# most 3^6 cases), so they are computed once per process and shared by every checklist.


@cache
def _possible(inn: int, out: int) -> tuple[frozenset[int], ...]:
    return tuple(pw for pw in ALL_PASSWORDS if _MASK[pw] & inn == inn and not _MASK[pw] & out)


@cache
def _p_in(inn: int, out: int) -> tuple[float, ...]:
    pws = _possible(inn, out)
    n = len(pws)
    held = [0] * 6
    for pw in pws:
        for c in pw:
            held[c] += 1
    return tuple(k / n if n else 0.0 for k in held)


@cache
def _odds(inn: int, out: int, want: int) -> Odds | None:
    masks = [_MASK[pw] for pw in _possible(inn, out)]
    if not masks:
        return None
    n = len(masks)
    groups: dict[int, int] = {}  # which of the codes are in -> how many passwords say so
    for m in masks:
        k = m & want
        groups[k] = groups.get(k, 0) + 1
    bits = math.log2(n) - sum(g / n * math.log2(g) for g in groups.values()) if n > 1 else 0.0
    return Odds(groups.get(want, 0) / n, bits, _p_in(inn, out))


def evidence_odds(evidence: tuple[int, int], codes: int) -> Odds | None:
    """The `Odds` of an attempt with these codes (a bit set) on a controlled sector with this evidence
    (`Checklist.evidence`); None where no password fits it."""
    return _odds(evidence[0], evidence[1], codes)


def evidence_p_in(evidence: tuple[int, int]) -> tuple[float, ...]:
    """Per code 0..5, its chance to be in a controlled sector's password with this evidence (`Checklist.p_in_all`)."""
    return _p_in(evidence[0], evidence[1])


class Checklist:
    """What one player knows about the other players' passwords."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.controller: list[int | None] = [None] * 6
        self._sec: dict[int, _Sector] = {}
        self.syncs = 0  # how many times `sync` ran
        self._passwords: dict[int, list[int]] = {}  # the state's password handles as last synced
        self._rows: list[_Sector] = []  # the controlled sectors' rows, as last synced
        self._watch: tuple[int, ...] = ()  # their password handles whose code is not taken in yet

    # -- queries -------------------------------------------------------------------------------------
    def sectors(self) -> list[int]:
        """The controlled sectors other than the player's own (the rows of the paper checklist)."""
        return [s for s in range(6) if self.controller[s] is not None and self.controller[s] != self.player]

    def _row(self, s: int) -> _Sector:
        row = self._sec.get(s)
        if row is None:
            row = self._sec[s] = _Sector()
        return row

    def possible_passwords(self, sector: int) -> list[frozenset[int]]:
        """Every password (a set of 3 codes 0..5) consistent with the evidence; [] for uncontrolled."""
        if self.controller[sector] is None:
            return []
        return list(self._row(sector).possible())

    def remaining(self, sector: int) -> int:
        return len(self.possible_passwords(sector))

    def solved(self, sector: int) -> frozenset[int] | None:
        pws = self.possible_passwords(sector)
        return pws[0] if len(pws) == 1 else None

    def status(self, sector: int) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """(in, out, maybe): codes in every / no / some of the possible passwords (derived, not just seen)."""
        pws = self.possible_passwords(sector)
        if not pws:
            return frozenset(), frozenset(), frozenset()
        inn = frozenset.intersection(*pws)
        anywhere = frozenset.union(*pws)
        return inn, frozenset(range(6)) - anywhere, anywhere - inn

    def p_in(self, sector: int, code: int) -> float:
        """Share of the possible passwords that contain `code` (uniform over them)."""
        if self.controller[sector] is None:
            return 0.0
        return self._row(sector).p_in()[code]

    def password_handles(self, sector: int) -> tuple[int, ...]:
        """The sector's password cards (sorted handles) as of the last `sync`."""
        return self._row(sector).handles

    def evidence(self, sector: int) -> tuple[int, int]:
        """The sector's evidence as bit sets (codes seen in, codes seen out): every derived number depends on it
        alone (`evidence_odds`, `evidence_p_in`)."""
        return self._row(sector).evidence

    def password_new(self, sector: int) -> bool:
        """Did the last `sync` see the sector's password for the first time (its first sync as a controlled
        sector, or other handles than the sync before: a new password)?"""
        row = self._sec.get(sector)
        return row is not None and row.since == self.syncs

    def p_in_all(self, sector: int) -> tuple[float, ...]:
        """`p_in` for the codes 0..5 at once (all 0 for an uncontrolled sector or contradicting evidence)."""
        if self.controller[sector] is None:
            return (0.0,) * 6
        return self._row(sector).p_in()

    def attempt_odds(self, sector: int, codes: Iterable[int]) -> Odds | None:
        """The `Odds` of an attempt on `sector` with these codes; None where no password is possible (an
        uncontrolled sector, or contradicting evidence). Computed once per code set until new evidence."""
        if self.controller[sector] is None:
            return None
        return self._row(sector).odds(sum(1 << c for c in set(codes)))

    def attempt_odds_bits(self, sector: int, codes: int) -> Odds | None:
        """`attempt_odds` with the codes as a bit set (code c: bit 1 << c)."""
        if self.controller[sector] is None:
            return None
        return self._row(sector).odds(codes)

    def p_all_in(self, sector: int, codes: Iterable[int]) -> float:
        """Share of the possible passwords that contain every one of `codes`."""
        need = frozenset(codes)
        pws = self._row(sector).possible() if self.controller[sector] is not None else []
        if not pws:
            return 0.0
        return sum(1 for pw in pws if need <= pw) / len(pws)

    def seen(self, sector: int) -> tuple[frozenset[int], frozenset[int]]:
        """The raw evidence: codes seen IN and seen OUT (before any deduction)."""
        row = self._row(sector)
        return frozenset(row.inn), frozenset(row.out)

    def describe(self, sector: int) -> str:
        inn, out, maybe = self.status(sector)

        def letters(xs: frozenset[int]) -> str:
            return "".join(CODES[c] for c in sorted(xs)) or "-"

        return f"in {letters(inn)} out {letters(out)} maybe {letters(maybe)} ({self.remaining(sector)} left)"

    # -- evidence ------------------------------------------------------------------------------------
    def note(self, sector: int, code: int, is_in: bool) -> bool:
        """Record one piece of evidence; True if it was new."""
        return self._row(sector).add(code, is_in)

    def note_answer(self, sector: int, codes: Iterable[int | None], matched: Iterable[bool]) -> None:
        """An answered attempt on `sector`: per card its code (None: face unknown) and whether it matched."""
        for c, m in zip(codes, matched, strict=True):
            if c is not None:
                self.note(sector, c, bool(m))

    def sync(self, st: GameState) -> None:
        """Take in what a state shows this player: controllers, password changes, known password faces."""
        self.syncs += 1
        if st.controller != self.controller or st.passwords != self._passwords:  # (the setup, Scramble Password)
            self._sync_passwords(st)
        kget, bit = st.known.get, 1 << self.player
        for h in self._watch:  # the password cards whose code is not taken in yet
            if kget(h, 0) & bit:
                break
        else:  # none of them known to the player now (the usual case)
            return
        for row in self._rows:
            if not row.unshown:
                continue
            left = []
            for h in row.unshown:
                f = st.faces.get(h) if kget(h, 0) & bit else None
                if f is None:
                    left.append(h)
                else:
                    row.add(card(f).code, True)
            row.unshown = tuple(left)
        self._watch = tuple(h for row in self._rows for h in row.unshown)

    def _sync_passwords(self, st: GameState) -> None:
        """The controllers and each controlled sector's password handles (a new password voids old evidence)."""
        controller = st.controller
        self.controller[:] = controller
        passwords = st.passwords
        self._passwords = {s: list(hs) for s, hs in passwords.items()}
        rows = []
        for s, q in enumerate(controller):
            if q is None:
                continue
            cur = passwords.get(s, [])
            row = self._sec.get(s)
            if row is None or not row.since:  # first seen controlled (a row `_row` made for a query has since 0)
                if row is None:
                    row = self._sec[s] = _Sector()
                row.since = self.syncs
            if cur != row.cards:  # the password's cards moved (setup, Scramble Password): their handles sorted
                hs = tuple(sorted(cur))
                if hs != row.handles:
                    if row.handles:  # a new password (Scramble Password): old evidence is void
                        row = self._sec[s] = _Sector()
                    row.handles = hs
                    row.unshown = hs
                    row.since = self.syncs
                row.cards = list(cur)
            rows.append(row)
        self._rows = rows
        self._watch = tuple(h for row in rows for h in row.unshown)

    def observe(self, st: GameState, ev: dict[str, Any]) -> None:
        """Take in one event of the log; `st` is the state just *before* it (a view of this player or any
        state whose `known` masks are right). Call `sync` on the state after the last event to pick up
        codes shown by that event."""
        self.sync(st)
        t = ev.get("t")
        if t == "answer":
            if not st.stack or st.stack[-1].get("op") != "answer":
                return
            ctx = st.ctx.get(st.stack[-1]["ctx"])
            if ctx is None or st.controller[ctx["s"]] in (None, self.player):
                return
            faces = [st.face(h, self.player) for h in ctx["cards"]]
            match = ev.get("match") or []
            if len(match) == len(faces):
                self.note_answer(ctx["s"], [None if f is None else card(f).code for f in faces], match)
        elif t == "play":
            face = ev.get("face")
            q = ev.get("p")
            if not isinstance(face, int) or not 0 <= face < 63 or q == self.player:
                return
            code = card(face).password_code
            if code is None:
                return
            own = [s for s in range(6) if st.controller[s] == q]
            if len(own) == 1:
                self.note(own[0], code, True)

    @classmethod
    def rebuild(cls, view_state: GameState, player: int, events: Iterable[dict[str, Any]]) -> Checklist:
        """The checklist of `player` from the game's event list and that player's current view (for the
        faces it knows): the events are replayed from a new game."""
        from adp2p.engine.access_denied.api import apply, new_game

        st = new_game(view_state.profile, view_state.n)
        st.faces = dict(view_state.faces)
        cl = cls(player)
        for ev in events:
            cl.observe(st, ev)
            st = apply(st, ev, inplace=True)
        cl.sync(st)
        return cl
