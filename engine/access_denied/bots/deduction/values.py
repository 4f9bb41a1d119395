"""Valuations: what an access level, a card in hand and a leader are worth to this seat; what a card's effect does to
it.

One part of `DeductionBot` (engine/access_denied/bots/deduction/bot.py): its methods work on its shared state."""

from __future__ import annotations

from functools import cache
from typing import Any

from adp2p.engine.access_denied.bots.deduction.common import (
    STATIC_PLAY,
    UPGRADE_VALUE,
)
from adp2p.engine.access_denied.catalog import OPER, ROOT, USER, card
from adp2p.engine.access_denied.rules import bonus_of, card_requirement, goal_count, hand_limit
from adp2p.engine.access_denied.state import GameState


@cache
def _face_terms(face: int, variants: frozenset[str]) -> tuple[bool, int, float, tuple[int, int] | None]:
    """What `card_value` reads of a card, a function of the card and the rules variants only: (harmful, code, the
    worth of its play, its requirement)."""
    c = card(face)
    play = STATIC_PLAY.get(c.effect, 0.0)
    if c.is_upgrade:
        play = UPGRADE_VALUE.get(c.effect, 1.0) * 0.7
    return c.is_harmful, c.code, play, card_requirement(c, variants)


class ValuesPart:
    """Valuations."""

    def _counts(self, st: GameState, s: int) -> bool:
        return st.controller[s] is not None or st.profile.counts_uncontrolled(st.n)

    def level_value(self, st: GameState, s: int, level: int) -> float:
        prof = st.profile
        p = self.seat
        counts = self._counts(st, s)
        if level == USER:
            v = 2.5 if prof.hand_limit == "accesses" else 0.3
            return v + (1.5 if counts else 0.0)
        if level == OPER:
            v = 2.0 if prof.draws == "oper_root" else 0.3
            return v + (2.5 if counts else 0.0)
        v = (2.0 if prof.actions == "roots" else 0.0) + 1.0
        if counts:
            if goal_count(st, p) + 1 >= prof.goal:
                return 1000.0
            v += 7.0
        return v

    def _leader(self, st: GameState) -> int:
        """The most threatening other player (computed once per decision)."""
        if self._lead is None:
            self._lead = max(st.others(self.seat), key=lambda q: (self._threat(st, q), -q))
        return self._lead

    def _threat(self, st: GameState, q: int) -> float:
        t = 10.0 * goal_count(st, q)
        every = st.profile.counts_uncontrolled(st.n)  # `_counts`, for all six sectors
        access = st.access[q]
        for s, ctrl in enumerate(st.controller):
            if (ctrl is not None or every) and ctrl != q:
                t += access[s]
        return t

    def _target_weight(self, st: GameState, s: int) -> float:
        """How much this seat cares about learning sector s's password."""
        p = self.seat
        ctrl = st.controller[s]
        if ctrl is None or ctrl == p or st.access[p][s] >= ROOT:
            return 0.0
        return 0.6 + 0.3 * st.access[p][s]

    def card_value(self, st: GameState, h: int) -> float:
        """Worth of keeping hand card h (codes for attempts, the card's own play)."""
        v = self._cv.get(h)
        if v is not None:
            return v
        f = st.face(h, self.seat)
        if f is None:
            return 1.0
        v = self._cv[h] = self._face_value(st, f)
        return v

    def _hand_values(self, st: GameState) -> dict[int, float]:
        """`card_value` of every card in hand (one pass over the hand)."""
        p = self.seat
        hand = st.hands[p]
        cv = self._cv
        out = {}
        for h, f in zip(hand, st.faces_seen(hand, p), strict=True):
            v = cv.get(h)
            if v is None:
                if f is None:
                    out[h] = 1.0
                    continue
                v = cv[h] = self._face_value(st, f)
            out[h] = v
        return out

    def _face_value(self, st: GameState, f: int) -> float:
        """Worth of keeping a card with face f in hand, for this decision."""
        harmful, code, play, r = _face_terms(f, st.profile.variants)
        if harmful:
            return -2.0
        code_use = self._code_use.get(code)
        if code_use is None:  # the same for every card with this code: once per decision
            code_use = 0.4
            for w, p_in in self._targets_now(st):
                x = w * (0.3 + 1.7 * p_in[code])
                if x > code_use:  # max(code_use, x)
                    code_use = x
            self._code_use[code] = code_use
        if r is not None and st.access[self.seat][r[0]] < r[1]:
            play *= 0.4
        x = 0.5 * code_use + play * 0.6
        return x if x > code_use else code_use  # max(code_use, x)

    def _targets_now(self, st: GameState) -> list[tuple[float, tuple[float, ...]]]:
        """Per password this seat attacks (target weight > 0, in sector order): (its weight, each code's chance to
        be in it); once per decision."""
        if self._targets is None:
            cl = self.cl
            assert cl is not None
            self._targets = []
            for s in cl.sectors():
                w = self._target_weight(st, s)
                if w:
                    self._targets.append((w, cl.p_in_all(s)))
        return self._targets

    def _effective_values(self, st: GameState) -> dict[int, float]:
        """Card values with the cards the hand limit will discard anyway counted as nearly worthless."""
        p = self.seat
        hand = st.hands[p]
        vals = self._hand_values(st)
        limit = hand_limit(st, p)
        surplus = len(hand) - limit - 1  # one card will be used this turn at least
        if surplus > 0:
            for h in sorted(hand, key=lambda x: vals[x])[:surplus]:
                vals[h] = min(vals[h], 0.15)
        return vals

    def _harm_to_me(self, st: GameState, c: Any, ctx: dict[str, Any]) -> float:
        p = self.seat
        eff = c.effect
        if ctx.get("q") == p:
            return 2.5
        if eff == "multi_virus":
            return 0.5 * len(st.hands[p]) if st.access[p][ctx.get("s", 0)] >= USER else 0.0
        if eff in ("discard_all_others", "discard3_others"):
            return 0.5 * len(st.hands[p]) if st.access[p][2] >= USER else 0.0
        if eff == "discard3_all":
            return 1.5 if st.access[p][0] >= USER else 0.0
        if eff == "satan":
            return 3.0 if bonus_of(st, p, ctx.get("s", 0)) else 0.0
        if eff == "retro_virus":
            return 1.0
        if eff == "lose_action_others":
            return 1.0
        if eff == "remove_marker" and ctx.get("q") == p:
            return 3.0
        return 0.0

    def _benefit(self, st: GameState, c: Any) -> float:
        if c.effect in ("guru", "gain_user", "bank_error"):
            return 3.5
        if c.is_upgrade:
            return UPGRADE_VALUE.get(c.effect, 1.0)
        return 1.0
