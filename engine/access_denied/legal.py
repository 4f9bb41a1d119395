"""Legal choices: every event the deciding player could append now, computed from what that player knows.

Built on the same predicates `flow` and `effects` use to validate events, so nothing is decided twice.
Where a choice is a free subset (discards, Spam gifts), the list holds the useful shapes (the minimum and one more
for discards; none or one card for gifts); any other valid subset is accepted too. A trade reply lists every set of
cards that may be given back (000:165), as families built on demand (a client picks it card by card).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

from adp2p.engine.access_denied import flow
from adp2p.engine.access_denied.catalog import NONE, Card, card, cards
from adp2p.engine.access_denied.options import Kind, Options, bounded_combinations
from adp2p.engine.access_denied.rules import (
    attempt_size,
    can_attempt_now,
    hand_limit,
    has_bonus,
    improvable_sectors,
    meets_password_code,
    requirement_of,
)
from adp2p.engine.access_denied.state import GameState
from adp2p.engine.access_denied.targets import fitting_reactions, reaction_fits, targets

Event = dict[str, Any]
REPLY_CAP = 252  # C(10, 5): every trade reply from a hand of up to 10 cards is listed


_ALL_COMBOS_UP_TO = 7  # a hand this small has at most C(7, 3) = 35 <= COMBO_CAP sets of any size: bounded_combinations
# would list them all


def _card_sets(ordered: list[int], k: int) -> list[tuple[int, ...]]:
    """`bounded_combinations` of a sorted hand (most hands are small: every set, directly)."""
    if len(ordered) <= _ALL_COMBOS_UP_TO and k >= 0:
        return list(combinations(ordered, k))
    return bounded_combinations(ordered, k)


def legal(st: GameState, p: int) -> list[Event]:
    found = options(st, p)
    return found.as_list() if isinstance(found, Options) else found


def options(st: GameState, p: int) -> Options | list[Event]:
    """`legal`'s events in its order; the families among them (ATTEMPTS, DISCARDS, TRADES) built on demand."""
    if st.over or not st.stack:
        return []
    task = st.stack[-1]
    op = task["op"]
    if op == "window":  # the most frequent decision (`flow.actor`'s first case, inline)
        return _window(st, p, task) if task["order"][task["i"]] == p else []
    if flow.actor(st, task) != p:
        return []
    fn = _BY_OP.get(op)
    return fn(st, p, task) if fn else []


def _password(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    out: list[Event] = []
    hand = sorted(st.hands[p])
    code = {h: card(f).code for h, f in zip(hand, st.faces_seen(hand, p), strict=True) if f is not None}
    known = [h for h in hand if h in code]  # a set with a card p does not know is no password p can form
    s = task["s"]
    for a, b, c in combinations(known, 3):
        if code[a] != code[b] and code[a] != code[c] and code[b] != code[c]:
            out.append({"t": "password", "p": p, "s": s, "cards": [a, b, c]})
    return out or [{"t": "password_draw", "p": p}]


def _turn_start(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return [{"t": "begin", "p": p}] + [{"t": k, "p": p} for k in flow.turn_start_options(st)]


def _attempts(st: GameState, p: int, out: Options) -> None:
    """Every attempt: per improvable sector, a family of the card sets of its size."""
    if not can_attempt_now(st, p):
        return
    hand = st.hands[p]
    code: dict[int, int | None] = {}  # the code of each hand card as p knows it (None: face unknown)
    if st.profile.distinct_attempt_codes:
        code = {h: None if f is None else card(f).code for h, f in zip(hand, st.faces_seen(hand, p), strict=True)}
    by_size: dict[int, list[tuple[int, ...]]] = {}  # the card sets of each size: the same for every sector
    ordered = sorted(hand)
    access = st.access[p]
    for s in improvable_sectors(st, p):
        k = attempt_size(st, s, access[s] + 1)  # (the same size for most sectors: their card sets are listed once)
        combos = by_size.get(k)
        if combos is None:
            every = _card_sets(ordered, k)
            combos = by_size[k] = [c for c in every if _distinct(c, code, k)] if code else every
        out.family(len(combos), ATTEMPTS, (p, s, combos))


# The families of `options` (engine/access_denied/options.py), each kind with its data:
# ATTEMPTS (player, sector, card sets); DISCARDS (player, card sets); TRADES (player, others, hand, promised codes);
# REPLIES (player, card sets of one size, each hand card's code as the player knows it or None).


def _card_set_index(combos: list[tuple[int, ...]], ev: Event) -> int | None:
    hs = ev.get("cards")
    if not isinstance(hs, list):
        return None
    try:
        return combos.index(tuple(hs))
    except ValueError:
        return None


def _trade(data: tuple[int, list[int], list[int], list[int | None]], i: int) -> Event:
    p, others, hand, promises = data
    k = len(hand)
    return {"t": "trade", "p": p, "q": others[i // k], "card": hand[i % k], "promise": promises[i % k]}


def _trade_index(data: tuple[int, list[int], list[int], list[int | None]], ev: Event) -> int | None:
    _, others, hand, _ = data
    try:
        return others.index(ev.get("q")) * len(hand) + hand.index(ev.get("card"))  # type: ignore[arg-type]
    except ValueError:
        return None


ATTEMPTS = Kind(
    "attempt",
    lambda d, i: {"t": "attempt", "p": d[0], "s": d[1], "cards": list(d[2][i])},
    lambda d, ev: _card_set_index(d[2], ev) if ev.get("s") == d[1] else None,
)
DISCARDS = Kind(
    "discard", lambda d, i: {"t": "discard", "p": d[0], "cards": list(d[1][i])}, lambda d, ev: _card_set_index(d[1], ev)
)
TRADES = Kind("trade", _trade, _trade_index)


def _reply(data: tuple[int, list[tuple[int, ...]], dict[int, int | None]], i: int) -> Event:
    p, combos, codes = data
    hs = combos[i]
    promise = [codes[h] for h in hs]
    return {"t": "trade_reply", "p": p, "accept": True, "cards": list(hs),
            "promise": None if None in promise else promise}


REPLIES = Kind(
    "trade_reply", _reply, lambda d, ev: _card_set_index(d[1], ev) if ev.get("accept") is True else None
)


def _distinct(combo: tuple[int, ...], code: dict[int, int | None], k: int) -> bool:
    """False only when every code is known and two cards share one."""
    cs = [code[h] for h in combo]
    return None in cs or len(set(cs)) == k


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
    hand = st.hands[p]
    if not can_act:  # without an action only a reaction that fits now can be played (with a Backdoor or not)
        fits = fitting_reactions(window["kind"] if window is not None else None, step if active else None)
        if not st.knows_any(hand, p, fits):
            return []
    seen = st.faces_seen(hand, p)
    reactive = _reactive_faces()
    for h, f in zip(hand, seen, strict=True):
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
        if c.password_code is not None and meets_password_code(st, p, c, p) is not True:
            continue
        if c.effect == "copybot" and (not st.discard or st.discard[-1] == st.last_played.get(p)):
            continue
        r = requirement_of(c, st)
        if r is None or st.access[p][r[0]] >= r[1]:  # meets_access
            way: dict[str, Any] = {}
        elif backdoors and not c.is_upgrade:  # (a card without requirement always meets it)
            bd = backdoors[0]
            way = {"backdoor": bd, "backdoor_face": st.face(bd, p)}
        else:
            continue
        for tgt in targets(st, p, c, p, h):
            out.append({"t": "play", "p": p, "card": h, "face": f, **way, **tgt})
    return out


def _free(st: GameState, p: int, task: dict[str, Any]) -> Options:
    t = st.turn
    assert t is not None
    out = Options([{"t": "done", "p": p}])
    _attempts(st, p, out)
    if has_bonus(st, p, "auto_user") and not t.used_univ:
        out.extend([{"t": "univ", "p": p, "s": s} for s in range(6) if st.access[p][s] == NONE])
    out.extend(plays(st, p, step="free", window=None))
    return out


def _actions(st: GameState, p: int, task: dict[str, Any]) -> Options:
    t = st.turn
    assert t is not None
    out = Options([{"t": "done", "p": p}])
    if flow.actions_available(st) >= 1:
        _attempts(st, p, out)
        hand = list(st.hands[p])
        promises = [None if f is None else card(f).code for f in st.faces_seen(hand, p)]
        others = st.others(p)
        out.family(len(others) * len(hand), TRADES, (p, others, hand, promises))
    if flow.tele_bonus_open(st):
        out.extend([{"t": "tele_action", "p": p, "cards": list(c)} for c in bounded_combinations(st.hands[p], 2)])
    out.extend(plays(st, p, step="actions", window=None))
    return out


def _discard(st: GameState, p: int, task: dict[str, Any]) -> Options:
    hand = sorted(st.hands[p])
    need = flow.discard_needed(st, p) if not task.get("down_to") else max(0, len(hand) - hand_limit(st, p))
    out = Options()
    for k in (need, need + 1):
        if k <= len(hand):
            combos = _card_sets(hand, k)
            out.family(len(combos), DISCARDS, (p, combos))
    out.extend(plays(st, p, step="discard", window=None))
    return out


def _draw(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    return flow.draw_options(st) + plays(st, p, step="draw", window=None)


def _window(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    if st.knows_any(st.hands[p], p, fitting_reactions(task["kind"], None)):
        return [{"t": "pass", "p": p}, *plays(st, p, step=None, window=task)]
    return [{"t": "pass", "p": p}]  # no reaction that may fit in hand: the pass only (most windows)


def _answer(st: GameState, p: int, task: dict[str, Any]) -> list[Event]:
    ctx = st.ctx[task["ctx"]]
    truth = flow.answer_truth(st, ctx["s"], ctx["cards"], p)
    if truth is None:
        return []
    return [{"t": "answer", "p": p, "match": truth}]


def _trade_reply(st: GameState, p: int, task: dict[str, Any]) -> Options:
    """Decline, accept giving nothing, and accept giving back any set of one's cards (000:165: "1 or more cards"):
    a family per number of cards, every set while there are at most REPLY_CAP of that size (every reply from a
    hand of up to 10 cards), a spread of them beyond (`apply` accepts any other set too)."""
    out = Options(
        [
            {"t": "trade_reply", "p": p, "accept": False, "cards": []},
            {"t": "trade_reply", "p": p, "accept": True, "cards": []},
        ]
    )
    hand = sorted(st.hands[p])
    codes = {h: None if f is None else card(f).code for h, f in zip(hand, st.faces_seen(hand, p), strict=True)}
    for k in range(1, len(hand) + 1):
        combos = bounded_combinations(hand, k, REPLY_CAP)
        out.family(len(combos), REPLIES, (p, combos, codes))
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
