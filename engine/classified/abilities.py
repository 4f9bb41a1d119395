"""Deploy: each card's ability (003 "Deploy: play a card face up for its Card Ability ... and place the card in the
discard pile (unless the card instructs otherwise)"). `can_deploy` and `params` say what a Deploy may name (the
legal events enumerate them); `deploy` validates the event's parameters and carries the ability out, pushing the
questions the opponent must answer. A Deploy needs its ability to be possible (ruling C-POSSIBLE)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adp2p.engine.classified.catalog import NUMBERS, card
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import discard, move, number_arg, opponent, peek, show, show_all
from adp2p.engine.errors import IllegalEvent

Params = dict[str, Any]


def ask(st: CState, asker: int, q: dict[str, Any], then: str | None = None) -> None:
    """Push a question for the opponent of `asker` about their own cards (questions.py)."""
    o = opponent(asker)
    st.stack.append({"op": "answer", "actor": o, "question": {**q, "seat": o, "s": st.suitcase[o]},
                     "asker": asker, "then": then})


def no_guards_in_play(st: CState) -> bool:
    """Picking Petals' condition: no Guard in play on either side (ruling C-PETALS; Extra Protection is no Guard)."""
    return not st.guards[0] and not st.guards[1]


def untucked(st: CState, p: int) -> list[int]:
    return [g for g in st.guards[p] if not st.tucked(g)]


def params(st: CState, p: int, h: int, number: int) -> list[Params]:
    """Every parameter set a Deploy of card h (Card Number `number`) by p may name now ([] = cannot be Deployed)."""
    o = opponent(p)
    ability = card(number).ability
    others = [x for x in st.hands[p] if x != h]
    if ability in ("near", "code"):
        return [{"n": n} for n in NUMBERS]
    if ability == "equal":
        return [{}] if st.hands[o] else []
    if ability == "petals":
        return [{}]
    if ability == "switch":
        out: list[Params] = []
        for g in st.guards[p]:
            out += [{"mode": "swap", "mine": g, "theirs": t} for t in st.guards[o]]
            if st.discard:
                out.append({"mode": "discard", "mine": g})
            out += [{"mode": "self", "mine": g, "drop": d} for d in [*others, g]]
        return out
    if ability == "scavenge":
        if not others:  # "then discard a different card from your hand": there must be one (C-SCAVENGE)
            return []
        return [{"take": t, "drop": d} for t in st.discard[-3:] for d in [*others, t] if d != t]
    if ability == "tuck":
        return [{"guard": g} for g in untucked(st, p)]
    if ability == "wheel":
        return [{"guard": g} for g in st.guards[p]]
    if ability == "spotlights":
        gs = st.guards[o]
        return [{"guards": list(c)} for k in (1, 2) for c in combinations(gs, k)]
    raise AssertionError(ability)


def _handle(ev: dict[str, Any], key: str, among: list[int], what: str) -> int:
    h = ev.get(key)
    if type(h) is not int or h not in among:
        raise IllegalEvent("bad_target", f"{key}={h!r} is not {what}")
    return h


def replace_guard(st: CState, old: int, new: int, p: int) -> None:
    """`new` takes `old`'s spot in p's Guard area (and its place under Extra Protection); `old` is placed by the
    caller. The moved-in card lies face up unless the caller says otherwise."""
    i = st.guards[p].index(old)
    st.guards[p][i] = new
    st.loc[new] = ("guard", p)
    for e, g in st.tucks.items():
        if g == old:
            st.tucks[e] = new


def deploy(st: CState, p: int, h: int, number: int, ev: dict[str, Any]) -> None:
    o = opponent(p)
    c = card(number)
    ability = c.ability
    hist: dict[str, Any] = {"k": "deploy", "p": p, "card": number, "h": h}
    move(st, h, ("table",))
    done = True  # the card goes to the discard pile after its ability
    if ability in ("near", "code"):
        n = number_arg(ev)
        hist["n"] = n
        ask(st, p, {"q": "near" if ability == "near" else "in_code", "n": n})
    elif ability == "equal":
        if not st.hands[o]:
            raise IllegalEvent("not_possible", "the opponent has no hand to show")
        for x in st.hands[o]:
            show(st, x, 1 << p)
        hist["shown"] = list(st.hands[o])
        st.stack.append({"op": "pick", "actor": p, "from": o})
    elif ability == "petals":
        st.stack.append({"op": "name", "actor": o, "asker": p, "left": 1 if not no_guards_in_play(st) else 2,
                         "named": []})
    elif ability == "switch":
        done = _switch(st, p, h, ev, hist)
    elif ability == "scavenge":
        if len(st.hands[p]) < 1:
            raise IllegalEvent("not_possible", "Scavenge needs another card in the hand to discard")
        t = _handle(ev, "take", st.discard[-3:], "one of the top three cards of the discard pile")
        move(st, t, ("hand", p))
        d = _handle(ev, "drop", [x for x in st.hands[p] if x != t], "a different card of your hand")
        discard(st, d)
        hist |= {"take": t, "drop": d}
    elif ability == "tuck":
        g = _handle(ev, "guard", untucked(st, p), "one of your Guards not already tucked")
        move(st, h, ("guard_area", p))
        st.tucks[h] = g
        hist["guard"] = g
        done = False
    elif ability == "wheel":
        g = _handle(ev, "guard", st.guards[p], "one of your Guards")
        st.up.add(g)
        show_all(st, g)
        hist["guard"] = g
        ask(st, p, {"q": "in_code", "h": g})
    elif ability == "spotlights":
        gs = ev.get("guards")
        if not (isinstance(gs, list) and 1 <= len(gs) <= 2 and len(set(gs)) == len(gs)
                and all(type(g) is int and g in st.guards[o] for g in gs)):
            raise IllegalEvent("bad_target", "Shine Spotlights turns one or two of the opponent's Guards face up")
        for g in gs:
            st.up.add(g)
            show_all(st, g)
        for g in reversed(gs):  # the first named is asked first
            ask(st, p, {"q": "in_code", "h": g})
        hist["guards"] = list(gs)
    else:
        raise AssertionError(ability)
    st.history.append(hist)
    if done:
        discard(st, h)
    peek(st, p, c.peek)


def _switch(st: CState, p: int, h: int, ev: dict[str, Any], hist: dict[str, Any]) -> bool:
    o = opponent(p)
    mode = ev.get("mode")
    g = _handle(ev, "mine", st.guards[p], "one of your Guards")
    hist |= {"mode": mode, "mine": g}
    if mode == "swap":
        t = _handle(ev, "theirs", st.guards[o], "one of the opponent's Guards")
        replace_guard(st, g, t, p)
        replace_guard(st, t, g, o)
        for x in (g, t):
            st.up.add(x)
            show_all(st, x)
        hist["theirs"] = t
        return True
    if mode == "discard":
        if not st.discard:
            raise IllegalEvent("not_possible", "the discard pile is empty")
        t = st.discard[-1]
        st.discard.pop()
        replace_guard(st, g, t, p)
        st.up.add(t)
        st.discard.append(g)
        st.loc[g] = ("discard",)
        st.up.discard(g)
        show_all(st, g)
        hist["theirs"] = t
        return True
    if mode == "self":
        replace_guard(st, g, h, p)
        st.up.add(h)
        st.up.discard(g)
        st.loc[g] = ("hand", p)
        st.hands[p].append(g)
        d = _handle(ev, "drop", st.hands[p], "a card of your hand")
        discard(st, d)
        hist["drop"] = d
        return False
    raise IllegalEvent("bad_target", f"Switch Places: mode is swap, discard or self, not {mode!r}")
