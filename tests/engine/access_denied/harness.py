"""The engine tests' vocabulary, a thin layer over the public scenario API (`adp2p.engine.access_denied.scenario`).

`setup()` is `scenario.build`: the real setup events of a scenario game with a stacked deck (sectors,
shuffle + the faces in a chosen order, the round-robin deal, passwords, first player). Cards are named by
key ("firewall") or by a code letter ("A": some otherwise unused, harmless card with that code). The
fixtures `give`/`give_code`/`discard_key`/`empty_hand`/`set_level`/`move` apply the scenario's staging events
(engine/access_denied/stage.py, legal in scenario games only): events, not state edits, so no test edits a state
directly.
The rest plays real events and reads the state.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied import IllegalEvent, apply, pending, scenario
from adp2p.engine.access_denied.catalog import CODES, card, card_by_key
from adp2p.engine.access_denied.flow import answer_truth
from adp2p.engine.access_denied.state import GameState

BANKING, GOVERNMENT, MICRONOPOLY, NEWSMEDIA, TELECOMM, UNIVERSITIES = range(6)
NONE, USER, OPER, ROOT = 0, 1, 2, 3

setup = scenario.build  # a game at the first player's first decision (see its docstring)
h = scenario.handle  # the handle of the card with this key


def cid(key: str) -> int:
    return card_by_key(key).id


# -- finding cards ------------------------------------------------------------------------------------


def hand_keys(st: GameState, p: int) -> list[str]:
    return sorted(card(st.faces[x]).key for x in st.hands[p])


def where(st: GameState, key: str) -> tuple:
    return st.loc[h(st, key)]


def of_code(st: GameState, p: int, letter: str) -> list[int]:
    """Handles in p's hand whose code is `letter`."""
    return [x for x in st.hands[p] if card(st.faces[x]).code == CODES.index(letter)]


# -- fixtures: staging events (scenario games only) -----------------------------------------------------

give = scenario.give  # these cards (from a hand, the deck or the discard pile) into p's hand
give_code = scenario.give_code  # n harmless deck cards of this code into p's hand
discard_key = scenario.to_discard_top  # this card onto the top of the discard pile
empty_hand = scenario.empty_hand  # p's hand to the bottom of the deck
set_level = scenario.grant  # p has this access level in sector s (no win check, no side effect)
move = scenario.move  # these handles to "hand" (of p), "discard" or "deck_bottom"


# -- events --------------------------------------------------------------------------------------------


def ev(st: GameState, t: str, p: int | None = None, **kw: Any) -> GameState:
    e: dict[str, Any] = {"t": t, **kw}
    if p is not None:
        e["p"] = p
    return apply(st, e)


def play(st: GameState, p: int, key: str, *, backdoor: bool = False, **target: Any) -> GameState:
    e: dict[str, Any] = {"t": "play", "p": p, "card": h(st, key), "face": cid(key), **target}
    if backdoor:
        e["backdoor"] = h(st, "backdoor")
        e["backdoor_face"] = cid("backdoor")
    return apply(st, e)


def attempt(st: GameState, p: int, s: int, handles: list[int]) -> GameState:
    return apply(st, {"t": "attempt", "p": p, "s": s, "cards": list(handles)})


def done(st: GameState) -> GameState:
    d = pending(st)
    return apply(st, {"t": "done", "p": d.actor})


def pass_all(st: GameState) -> GameState:
    """Everyone passes the open reaction windows (until the next decision is not a window)."""
    d = pending(st)
    while d is not None and d.kind == "window":
        st = apply(st, {"t": "pass", "p": d.actor})
        d = pending(st)
    return st


def answer_honestly(st: GameState) -> GameState:
    d = pending(st)
    assert d is not None and d.kind == "answer", d
    truth = answer_truth(st, d.info["s"], d.info["cards"], None)
    return apply(st, {"t": "answer", "p": d.actor, "match": truth})


def resolve_chance(st: GameState, picks: list[int] | None = None) -> GameState:
    """Resolve a pending random pick (default: the first k handles of the pool)."""
    d = pending(st)
    assert d is not None and d.kind == "chance:pick", d
    if picks is None:
        picks = list(d.info["from"])[: d.info["k"]]
    return apply(st, {"t": "random", "picks": picks})


def _default(st: GameState) -> dict[str, Any]:
    d = pending(st)
    assert d is not None
    p = d.actor
    k = d.kind
    top = st.stack[-1]
    if k == "window":
        return {"t": "pass", "p": p}
    if k in ("free", "actions"):
        return {"t": "done", "p": p}
    if k == "turn_start":
        return {"t": "begin", "p": p}
    if k == "discard":
        from adp2p.engine.access_denied.flow import discard_needed
        need = discard_needed(st, p)
        # the highest card ids first: the harness's fillers, seldom the cards a test is about
        return {"t": "discard", "p": p, "cards": sorted(st.hands[p], key=lambda x: -st.faces[x])[:need]}
    if k == "draw":
        return {"t": "draw", "p": p, "n": 0}
    if k == "answer":
        return {"t": "answer", "p": p, "match": answer_truth(st, d.info["s"], d.info["cards"], None)}
    if k == "chance:pick":
        return {"t": "random", "picks": list(d.info["from"])[: d.info["k"]]}
    if k == "trade_reply":
        return {"t": "trade_reply", "p": p, "accept": False, "cards": []}
    if k == "spam_give":
        return {"t": "spam_give", "p": p, "cards": []}
    if k == "nsa_take":
        return {"t": "take", "p": p, "card": st.hands[top["victim"]][0]}
    if k == "hs_give":
        r = next(x for x in range(st.n) if x not in (p, top["victim"]))
        return {"t": "give", "p": p, "card": top["picks"][0], "q": r}
    if k == "fdic_give":
        return {"t": "give", "p": p, "cards": sorted(st.hands[p])[: top["k"]]}
    raise AssertionError(f"no default for {d}")


def matches(d: Any, kind: str, actor: int | None) -> bool:
    if d is None:
        return False
    k = d.kind if d.kind != "window" else "window:" + d.info["window"]
    return (kind == k or kind == d.kind) and (actor is None or d.actor == actor)


def advance_to(st: GameState, kind: str, actor: int | None = None, limit: int = 200) -> GameState:
    """Take default choices (pass, done, begin, minimum discard, draw 0, honest answers, first picks)
    until the pending decision is `kind` ("free", "actions", "window:attempt", ...) for `actor`."""
    for _ in range(limit):
        d = pending(st)
        if matches(d, kind, actor):
            return st
        assert d is not None, f"game ended before {kind}"
        st = apply(st, _default(st))
    raise AssertionError(f"never reached {kind} for {actor}")


def next_turn(st: GameState, p: int) -> GameState:
    """Default choices until p's next turn has begun (p's first decision of that turn after its start)."""
    start = st.turn_no
    for _ in range(300):
        d = pending(st)
        mine = st.turn is not None and st.turn.player == p and st.turn_no > start
        if mine and d is not None and d.actor == p and d.kind in ("free", "actions", "discard", "draw"):
            return st
        st = apply(st, _default(st))
    raise AssertionError("turn never came")


def illegal(st: GameState, event: dict[str, Any]) -> str:
    """Apply an event that must be refused; return the rule it broke (and check st is unchanged)."""
    snap = snapshot(st)
    try:
        apply(st, event)
    except IllegalEvent as e:
        assert snapshot(st) == snap
        return e.rule
    raise AssertionError(f"{event} was accepted")


def illegal_play(st: GameState, p: int, key: str, *, backdoor: bool = False, **target: Any) -> str:
    e: dict[str, Any] = {"t": "play", "p": p, "card": h(st, key), "face": cid(key), **target}
    if backdoor:
        e["backdoor"] = h(st, "backdoor")
        e["backdoor_face"] = cid("backdoor")
    return illegal(st, e)


def snapshot(st: GameState) -> tuple:
    return (dict(st.loc), list(st.deck), list(st.discard), [list(x) for x in st.hands],
            {k: list(v) for k, v in st.passwords.items()}, [list(u) for u in st.upgrades],
            [list(a) for a in st.access], list(st.stack), st.seq, dict(st.known), st.turn, st.over)


def can_play(st: GameState, p: int, key: str) -> bool:
    """Does legal() offer a play of this card (any target)?"""
    from adp2p.engine.access_denied import legal, view
    x = h(st, key)
    return any(e["t"] == "play" and e["card"] == x for e in legal(view(st, p), p))
