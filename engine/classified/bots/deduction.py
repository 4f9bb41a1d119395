"""The deduction bot: keeps the Cypher Wheel (wheel.py) of the opponent's Suitcase and plays for an Unguarded Match.

Each legal event is scored on the bot's own view:
- what a question is worth: the expected number of Suitcase Numbers it rules out (split of the wheel by the
  answer), while the game is young enough to use it;
- Guards: a Guard on a number of its own Code blocks the opponent's match (and every Guard counts at the end);
- assassinating an opponent's Guard (fewer Guards for them, a blocked number freed);
- the Final Card: the best match chance among the cards it keeps (weighted more as the deck runs out).
Answers are the engine's (only the truth is legal); Picking Petals names a number the opponent can rule out
already."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from adp2p.engine.classified.catalog import NUMBERS, card, code, near
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import opponent
from adp2p.engine.classified.wheel import match_chance, possible

Event = dict[str, Any]


def _split_gain(ws: list[int], yes: set[int]) -> float:
    """Expected numbers ruled out by a yes/no question whose yes-set is `yes`."""
    if not ws:
        return 0.0
    a = sum(s in yes for s in ws)
    b = len(ws) - a
    return len(ws) - (a * a + b * b) / len(ws)


class DeductionBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: CState, seat: int, legal: Sequence[Event]) -> Event:
        if len(legal) == 1:
            return legal[0]
        op = view.stack[-1]["op"] if view.stack else ""
        scorer = {"action": self._action, "window": self._window, "name": self._name, "pick": self._pick,
                  "choose": self._choose}.get(op)
        if scorer is None:
            return legal[self.rng.randrange(len(legal))]
        ctx = _Context(view, seat)
        scored = [(scorer(ctx, ev) + self.rng.random() * 1e-6, i) for i, ev in enumerate(legal)]
        return legal[max(scored)[1]]

    # -- decisions ---------------------------------------------------------------------------------------

    def _choose(self, c: _Context, ev: Event) -> float:
        s = c.face(ev["suitcase"])
        rest = [c.face(h) for h in c.view.hands[c.seat] if h not in (ev["suitcase"], ev["encrypt"])]
        return sum(1.0 for f in rest if f and card(f).can_guard and f in code(s or 0)) + 0.1 * len(rest)

    def _window(self, c: _Context, ev: Event) -> float:
        if ev["t"] == "pass":
            return 0.0
        target = c.view.stack[-1]["target"]
        f = c.face(target)
        return 1.0 if f is not None and f in c.my_code else -0.5

    def _name(self, c: _Context, ev: Event) -> float:
        theirs = possible(c.view, c.seat, c.opp)  # (approximately) what the opponent can still think
        return 0.0 if ev["n"] in theirs else 1.0

    def _pick(self, c: _Context, ev: Event) -> float:
        f = c.face(ev["h"])
        return 1.0 if f is not None and f in c.wheel else 0.0

    def _action(self, c: _Context, ev: Event) -> float:
        h = ev["h"]
        keep = [x for x in c.view.hands[c.seat] if x != h]
        score = 0.0
        t = ev["t"]
        f = c.face(h) or 0
        threat = f in c.my_code and f not in c.my_guarded  # a card the opponent would match with
        if t == "encrypt":
            score += 1.2 if threat else 0.0  # out of the game: the opponent can never hold it
        elif t == "enlist" and ev["as"] == "guard":
            spare = c.spots_left - len(c.my_code - c.my_guarded)
            score += 3.5 if threat else (1.5 if spare > 0 else 1.0)
        elif t == "enlist":
            g = ev["target"]
            gf = c.face(g)
            score += 1.3 + (0.8 if gf is not None and gf in c.best_numbers else 0.0)
            if g not in c.view.up and g not in c.view.tucks:
                score -= 0.4  # an attempt may fail (and the defender learns nothing, the attacker sees a card)
        elif t == "deploy":
            score += self._deploy(c, ev, keep)
            if ev.get("take") is not None:
                keep = [*keep, ev["take"]]
            if ev.get("drop") is not None:
                keep = [x for x in keep if x != ev["drop"]]
            if ev.get("mode") == "self":
                keep = [x for x in [*keep, ev["mine"]] if x != ev.get("drop")]
        chances = sorted((c.match(c.face(x)) for x in keep), reverse=True) + [0.0, 0.0]
        return score + c.final_weight * (chances[0] + 0.3 * chances[1])

    def _deploy(self, c: _Context, ev: Event, keep: list[int]) -> float:
        ability = card(ev["card"]).ability
        w = c.info_weight
        if ability == "near":
            return w * _split_gain(c.wheel, {s for s in NUMBERS if near(ev["n"], s)})
        if ability == "code":
            return w * _split_gain(c.wheel, {s for s in NUMBERS if ev["n"] in code(s)})
        if ability == "wheel":
            f = c.face(ev["guard"])
            return w * _split_gain(c.wheel, {s for s in NUMBERS if f in code(s)}) - 0.3
        if ability == "equal":
            return w * 1.0
        if ability == "petals":
            return w * 0.5
        if ability == "spotlights":
            return w * 0.8 * len(ev["guards"])
        if ability == "tuck":
            return 0.9
        if ability == "scavenge":
            return 0.2
        if ability == "switch":
            if ev["mode"] == "swap":
                return 0.3
            return -0.2
        return 0.0


class _Context:
    """What the bot works out once per decision."""

    def __init__(self, view: CState, seat: int) -> None:
        self.view, self.seat, self.opp = view, seat, opponent(seat)
        self.wheel = possible(view, self.opp, seat)
        mine = view.face(view.suitcase[seat], seat) if view.suitcase[seat] is not None else None  # type: ignore[arg-type]
        self.my_code = set(code(mine)) if mine else set()
        self.my_guarded = {view.face(g, seat) for g in view.guards[seat]}
        self.spots_left = view.profile.guard_spots - len(view.guards[seat])
        self._match: dict[int, float] = {}
        left = len(view.deck)
        self.late = left < 4
        self.info_weight = 1.0 if left >= 4 else 0.4 if left >= 1 else 0.0
        self.final_weight = 1.5 if left >= 4 else 3.0 if left >= 1 else 6.0
        chances = {n: self.match(n) for n in NUMBERS}
        top = max(chances.values())
        self.best_numbers = {n for n, v in chances.items() if v >= top - 1e-9 and v > 0}

    def face(self, h: int) -> int | None:
        return self.view.face(h, self.seat)

    def match(self, n: int | None) -> float:
        if n is None:
            return 0.0
        if n not in self._match:
            self._match[n] = match_chance(self.view, self.opp, self.seat, n)
        return self._match[n]
