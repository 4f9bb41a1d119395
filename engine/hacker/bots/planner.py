"""The planner bot: plays to win. It heads for terminals whose code it lacks, hacks when it lacks the password
(laying every HACK card it holds), queries past LOCKs, spies on the leaders, guards its own passwords with
SUPERSPY PROTECTION, and as a hack pad controller puts its middle-ring checks on the squares that touch the centre
squarely (the likely paths). Every choice is one of the engine's legal events, scored."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from adp2p.engine.hacker import board
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.catalog import card
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]
VALUE = {"query": 6, "hack": 5, "superspy": 5, "malfunction": 4, "spy": 4, "network_access": 3, "piping": 3,
         "superspy_protection": 3, "priority": 2, "time": 2, "information_exchange": 2, "partner": 1, "lock": 1,
         "security": 1, "terminal_defect": 1, "additional_password": 1, "blackout": 0, "bluff": 0}
PLAY_ORDER = {"network_access": 9, "query": 8, "piping": 7, "malfunction": 6, "additional_password": 5, "lock": 1}
LIKELY = {"B3", "C2", "C4", "D3"}  # middle squares touching the centre squarely


class PlannerBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, v: HState, me: int, legal: Sequence[Event]) -> Event:
        op = v.stack[-1]["op"]
        scorer = getattr(self, "s_" + op, None)
        if scorer is None or len(legal) == 1:
            return legal[self.rng.randrange(len(legal))]
        scored = [(scorer(v, me, ev) + self.rng.random() * 0.01, i) for i, ev in enumerate(legal)]
        return legal[max(scored)[1]]

    @staticmethod
    def _key(v: HState, h: int) -> str:
        f = v.faces.get(h)
        return card(f).key if f is not None else "?"

    def s_pass(self, v: HState, me: int, ev: Event) -> float:
        return -VALUE.get(self._key(v, ev["h"]), 0)

    def s_exchange(self, v: HState, me: int, ev: Event) -> float:
        low = [h for h in v.hands[me] if VALUE.get(self._key(v, h), 0) <= 1]
        return -abs(len(ev["hs"]) - len(low)) - (0 if set(ev["hs"]) <= set(low) else 5)

    def _dept_worth(self, v: HState, me: int, d: int) -> float:
        if d == CAFE:
            return 4.0 if v.prio[me] <= 3 else -3.0
        crowd = v.dept[d].count(-1) * 3 + sum(1 for q in v.dept[d] if q >= 0 and q != me) * 2
        worth = (0 if v.code[me][d] else 6) + (2 if v.pw[me][d] else 0) - v.locks[d] - crowd * 0.5
        if v.terminal_of(me) == d:
            worth += 2 if (v.time[me] or 0) > 1 else -6
        return worth + min(v.prio[me], 9) / 3 - 2

    def s_seal(self, v: HState, me: int, ev: Event) -> float:
        s = ev["secret"]
        if ev["what"] == "place":
            return self._dept_worth(v, me, s)
        if ev["what"] == "lay":
            keys = [self._key(v, h) for h in s["chance"] + s["term"]]
            return len(keys) - 2 * keys.count("lock") * (0 if v.terminal_of(me) is None else 1)
        return sum(2 for x in s if x in LIKELY) + (3 if board.CENTRE in s else 0)

    def s_hack_choice(self, v: HState, me: int, ev: Event) -> float:
        return 1 if ev["t"] == "hack" else 0

    def s_probe(self, v: HState, me: int, ev: Event) -> float:
        if ev["sq"] == "abandon":
            return -10
        x, y = board.COLS.index(ev["sq"][0]), int(ev["sq"][1])
        dist = max(abs(x - 2), abs(y - 3))
        known_check = ev["sq"] in v.work.get("hack", {}).get("hit", [])
        return -dist - (0.5 if ev["sq"] in LIKELY else 0) - (3 if known_check else 0)

    def s_protect(self, v: HState, me: int, ev: Event) -> float:
        attack = next(t for t in reversed(v.stack) if t["op"] == "attack")
        worth = attack["tg"]["who"] == me or v.codes(attack["p"]) >= v.profile.codes_to_win(v.n) - 1
        return (1 if worth else -1) * (1 if ev["t"] == "protect" else 0)

    def s_activate(self, v: HState, me: int, ev: Event) -> float:
        return 1 if ev["t"] == "activate" else 0

    def s_play(self, v: HState, me: int, ev: Event) -> float:
        if ev["t"] == "discard":
            return -1
        lead = max((q for q in range(v.n) if q != me), key=lambda q: (v.codes(q), v.prio[q]))
        who = ev.get("who")
        if ev["t"] == "face_down":  # a SUPERSPY waits best in front of the one with most codes
            return 2 + (1 if who == lead else 0)
        key = ev["card"]
        if key == "superspy_protection":  # under the face-down option: clear what lies in front of me
            return 3 if v.loc[ev["fd"]] == ("front", me) else 1
        if key in ("time", "priority"):
            return 3 if who == me else (2 if who == lead else 1)
        if key in ("spy", "superspy"):
            return 4 + (1 if who == lead else 0)
        if key in ("security", "terminal_defect"):
            d = ev["d"]
            mine = v.pw[me][d] or v.terminal_of(me) == d
            return 1 + sum(v.pw[q][d] for q in range(v.n) if q != me) - (4 if mine else 0)
        if key == "network_access":
            d = ev["d"]
            return PLAY_ORDER[key] if v.has_access(me, d) and not v.code[me][d] else 0.5
        if key == "piping":
            return PLAY_ORDER[key] + (1 if who == lead else 0)
        return PLAY_ORDER.get(key, 2)
