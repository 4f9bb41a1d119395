"""Legal choices: every event the deciding player could append now, computed from what that player knows.

Built on the same predicates `flow` and `effects` use to validate events, so nothing is decided twice.
Where a choice is a free subset (discards, Spam gifts, trade replies), the list holds the useful shapes
(the minimum and one more for discards; none or one card for gifts); any other valid subset is accepted too.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import comb
from typing import Any

from adp2p.engine import flow
from adp2p.engine.catalog import NONE, Card, card, cards
from adp2p.engine.rules import (
    attempt_size,
    can_attempt_now,
    hand_limit,
    has_bonus,
    improvable_sectors,
    meets_access,
    meets_password_code,
    requirement_of,
)
from adp2p.engine.state import GameState
from adp2p.engine.targets import reaction_fits, targets
from adp2p.engine.tasks import faces_of

Event = dict[str, Any]
COMBO_CAP = 120


def bounded_combinations(items: list[int], k: int, cap: int = COMBO_CAP) -> list[tuple[int, ...]]:
    """All k-subsets of items when there are at most `cap`; otherwise a deterministic spread of them
    (every cyclic window of k, then the first ones in order). `apply` accepts any valid subset."""
    items = sorted(items)
    n = len(items)
    if k > n or k < 0:
        return []
    if comb(n, k) <= cap:
        return list(combinations(items, k))
    out = {tuple(sorted(items[(i + j) % n] for j in range(k))) for i in range(n)}
    for c in combinations(items, k):
        if len(out) >= cap:
            break
        out.add(c)
    return sorted(out)


def legal(st: GameState, p: int) -> list[Event]:
    if st.over or not st.stack:
        return []
    task = st.stack[-1]
    if flow.actor(st, task) != p:
        return []
    op = task["op"]
    fn = _BY_OP.get(op)
    return fn(st, p, task) if fn else []


def _password(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    out: list[Event] = []
    for combo in combinations(sorted(st.hands[p]), 3):
        fs = faces_of(st, combo, p)
        if fs is not None and len({card(f).code for f in fs}) == 3:
            out.append({"t": "password", "p": p, "s": task["s"], "cards": list(combo)})
    return out or [{"t": "password_draw", "p": p}]


def _turn_start(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "begin", "p": p}] + [{"t": k, "p": p} for k in flow.turn_start_options(st)]


def _attempts(st: GameState, p: int) -> list[Event]:
    out: list[Event] = []
    if not can_attempt_now(st, p):
        return out
    for s in improvable_sectors(st, p):
        k = attempt_size(st, s, st.access[p][s] + 1)
        for combo in bounded_combinations(st.hands[p], k):
            if st.profile.distinct_attempt_codes:
                fs = faces_of(st, combo, p)
                if fs is not None and len({card(f).code for f in fs}) < k:
                    continue
            out.append({"t": "attempt", "p": p, "s": s, "cards": list(combo)})
    return out


@cache
def _reactive_faces() -> frozenset[int]:
    """The cards that matter when no action can be taken: reactions, and Backdoors (their companions)."""
    return frozenset(c.id for c in cards() if c.is_reaction or c.is_companion)


def plays(st: GameState, p: int, *, step: str | None, window: dict[str, Any] | None) -> list[Event]:
    """Every card p could play now (actions only in the Take Actions step with an action left)."""
    t = st.turn
    active = t is not None and t.player == p and window is None
    can_act = active and step == "actions" and flow.actions_available(st) >= 1
    held: list[tuple[int, int, Card]] = []  # the cards that might be played now (reactions, or any with an action)
    backdoors: list[int] = []
    reactive = _reactive_faces()
    face = st.face
    for h in st.hands[p]:
        f = face(h, p)
        if f is None or (not can_act and f not in reactive):  # without an action only reactions (and Backdoors) count
            continue
        c = card(f)
        if c.is_companion:
            backdoors.append(h)
        elif c.is_reaction or can_act:
            held.append((h, f, c))
    out: list[Event] = []
    for h, f, c in held:
        if c.is_reaction and not reaction_fits(st, p, c, window, step if active else None):
            continue
        if meets_password_code(st, p, c, p) is not True:
            continue
        if c.effect == "copybot" and (not st.discard or st.discard[-1] == st.last_played.get(p)):
            continue
        ways: list[dict[str, Any]] = []
        if meets_access(st, p, c):
            ways.append({})
        elif backdoors and not c.is_upgrade and requirement_of(c, st) is not None:
            bd = backdoors[0]
            ways.append({"backdoor": bd, "backdoor_face": st.face(bd, p)})
        for way in ways:
            for tgt in targets(st, p, c, p, h):
                out.append({"t": "play", "p": p, "card": h, "face": f, **way, **tgt})
    return out


def _free(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    t = st.turn
    assert t is not None
    out: list[Event] = [{"t": "done", "p": p}]
    out += _attempts(st, p)
    if has_bonus(st, p, "auto_user") and not t.used_univ:
        out += [{"t": "univ", "p": p, "s": s} for s in range(6) if st.access[p][s] == NONE]
    out += plays(st, p, step="free", window=None)
    return out


def _actions(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    t = st.turn
    assert t is not None
    out: list[Event] = [{"t": "done", "p": p}]
    if flow.actions_available(st) >= 1:
        out += _attempts(st, p)
        for q in st.others(p):
            for h in st.hands[p]:
                f = st.face(h, p)
                out.append(
                    {"t": "trade", "p": p, "q": q, "card": h, "promise": None if f is None else card(f).code}
                )
    if flow.tele_bonus_open(st):
        out += [{"t": "tele_action", "p": p, "cards": list(c)} for c in bounded_combinations(st.hands[p], 2)]
    out += plays(st, p, step="actions", window=None)
    return out


def _discard(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    hand = sorted(st.hands[p])
    need = flow.discard_needed(st, p) if not task.get("down_to") else max(0, len(hand) - hand_limit(st, p))
    out: list[Event] = []
    for k in (need, need + 1):
        if k <= len(hand):
            out += [{"t": "discard", "p": p, "cards": list(c)} for c in bounded_combinations(hand, k)]
    return out + plays(st, p, step="discard", window=None)


def _draw(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return flow.draw_options(st) + plays(st, p, step="draw", window=None)


def _window(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "pass", "p": p}, *plays(st, p, step=None, window=task)]


def _answer(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    ctx = st.ctx[task["ctx"]]
    truth = flow.answer_truth(st, ctx["s"], ctx["cards"], p)
    if truth is None:
        return []
    return [{"t": "answer", "p": p, "match": truth}]


def _trade_reply(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    out: list[Event] = [
        {"t": "trade_reply", "p": p, "accept": False, "cards": []},
        {"t": "trade_reply", "p": p, "accept": True, "cards": []},
    ]
    for h in st.hands[p]:
        f = st.face(h, p)
        out.append(
            {
                "t": "trade_reply",
                "p": p,
                "accept": True,
                "cards": [h],
                "promise": None if f is None else [card(f).code],
            }
        )
    return out


def _nsa_take(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "take", "p": p, "card": h} for h in st.hands[task["victim"]]]


def _hs_give(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [
        {"t": "give", "p": p, "card": h, "q": r}
        for h in task["picks"]
        for r in range(st.n)
        if r not in (p, task["victim"])
    ]


def _fdic_give(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "give", "p": p, "cards": list(c)} for c in bounded_combinations(st.hands[p], task["k"])]


def _spam_give(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "spam_give", "p": p, "cards": []}] + [
        {"t": "spam_give", "p": p, "cards": [h]} for h in st.hands[p]
    ]


_BY_OP = {
    "password": _password,
    "turn_start": _turn_start,
    "free": _free,
    "actions": _actions,
    "discard": _discard,
    "draw": _draw,
    "window": _window,
    "answer": _answer,
    "trade_reply": _trade_reply,
    "nsa_take": _nsa_take,
    "hs_give": _hs_give,
    "fdic_give": _fdic_give,
    "spam_give": _spam_give,
}
