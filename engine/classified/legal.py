"""The events a seat may append now, judged on what that seat knows (its own faces): an answer about its own
cards is offered only as the truth where it knows the faces (both answers where it does not: a peer's view)."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from adp2p.engine.classified import abilities, assassins
from adp2p.engine.classified.catalog import NUMBERS, card
from adp2p.engine.classified.ending import to_reveal
from adp2p.engine.classified.questions import known_truth
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import opponent

Event = dict[str, Any]


def _action(st: CState, p: int) -> list[Event]:
    out: list[Event] = []
    for h in st.hands[p]:
        out.append({"t": "encrypt", "p": p, "h": h})
        f = st.face(h, p)
        if f is None:
            continue
        c = card(f)
        if c.can_guard and len(st.guards[p]) < st.profile.guard_spots:
            out.append({"t": "enlist", "p": p, "h": h, "as": "guard"})
        if c.can_assassinate:
            out += [{"t": "enlist", "p": p, "h": h, "as": "assassin", "card": f, "target": g, "top": top}
                    for g in assassins.targets(st, p) if assassins.allowed(st, f, g) for top in assassins.TOPS]
        out += [{"t": "deploy", "p": p, "h": h, "card": f, **prm} for prm in abilities.params(st, p, h, f)]
    return out


def _window(st: CState, p: int) -> list[Event]:
    out: list[Event] = [{"t": "pass", "p": p}]
    for h in st.hands[p]:
        f = st.face(h, p)
        if f is not None and card(f).react:
            out.append({"t": "react", "p": p, "h": h, "card": f})
    return out


def _answer(st: CState, p: int, task: dict[str, Any]) -> list[Event]:
    t = known_truth(st, task["question"], p)
    return [{"t": "answer", "p": p, "yes": x} for x in ((t,) if t is not None else (False, True))]


def _name(st: CState, p: int, task: dict[str, Any]) -> list[Event]:
    s = st.face(st.suitcase[p], p) if st.suitcase[p] is not None else None  # type: ignore[arg-type]
    return [{"t": "name", "p": p, "n": n} for n in NUMBERS if n != 3 and n != s and n not in task["named"]]


def _reveal(st: CState, p: int) -> list[Event]:
    cards = []
    for h in to_reveal(st, p):
        f = st.face(h, p)
        if f is None:
            return []
        cards.append([h, f])
    return [{"t": "reveal", "p": p, "cards": cards}]


def legal(st: CState, p: int) -> list[Event]:
    if st.over or not st.stack or st.stack[-1]["actor"] != p:
        return []
    task = st.stack[-1]
    op = task["op"]
    if op == "choose":
        return [{"t": "choose", "p": p, "suitcase": s, "encrypt": e} for s, e in permutations(st.hands[p], 2)]
    if op == "action":
        return _action(st, p)
    if op == "window":
        return _window(st, p)
    if op == "answer":
        return _answer(st, p, task)
    if op == "name":
        return _name(st, p, task)
    if op == "pick":
        return [{"t": "pick", "p": p, "h": h} for h in st.hands[opponent(p)]]
    if op == "reveal":
        return _reveal(st, p)
    if op == "mix":
        return [{"t": "mix", "p": p}]
    raise AssertionError(op)
