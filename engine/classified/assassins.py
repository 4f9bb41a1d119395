"""Assassinations (003 "Assassination (detailed explanation)"): an Assassin (or a Sentinel as one) enlisted face
up against one of the opponent's Guards. A face-up Guard (and Extra Protection) falls if the Codes touch, which
all can see; a face-down Guard is an Assassination Attempt its owner answers ("touch"); a failed attempt shows the
attacker a random card of the defender's hand (CHANCE "show"). Before either, the defender may REACT with Extra
Protection (C-REACT): the Guard is tucked and the assassination is blocked. The attacker orders the discards."""

from __future__ import annotations

from typing import Any

from adp2p.engine.classified.abilities import ask
from adp2p.engine.classified.catalog import card, touch
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import discard, move, opponent, show
from adp2p.engine.errors import IllegalEvent

TOPS = ("assassin", "guard")


def targets(st: CState, p: int) -> list[int]:
    """What p's Assassin may be played against: the opponent's Guards not tucked, and their Extra Protection."""
    o = opponent(p)
    return [g for g in st.guards[o] if not st.tucked(g)] + sorted(st.protected(o))


def face_up_target(st: CState, g: int) -> bool:
    return g in st.up or g in st.tucks


def allowed(st: CState, number: int, g: int) -> bool:
    """A face-up target needs touching Codes (public); a face-down one can always be attempted."""
    if not face_up_target(st, g):
        return True
    f = st.faces.get(g)
    return f is not None and touch(number, f)


def can_react(st: CState, o: int, g: int) -> bool:
    """Whether the defender gets a REACT window (public facts only, so every peer agrees): the target is a Guard,
    the defender would keep a card (the Final Card rule), and has not already a forgone turn to take."""
    return g not in st.tucks and len(st.hands[o]) >= 2 and not st.forgo[o]


def enlist_assassin(st: CState, p: int, h: int, number: int, ev: dict[str, Any]) -> None:
    o = opponent(p)
    if not card(number).can_assassinate:
        raise IllegalEvent("not_an_assassin", f"{card(number).name_en} is not an Assassin or a Sentinel")
    g = ev.get("target")
    if type(g) is not int or g not in targets(st, p):
        raise IllegalEvent("bad_target", f"{g!r} is not a Guard of the opponent that can be assassinated now")
    if not allowed(st, number, g):
        raise IllegalEvent("no_touch", "a face-up Guard is assassinated only by an Assassin whose Code shares a number "
                                       "with its Code")
    top = ev.get("top")
    if top not in TOPS:
        raise IllegalEvent("bad_event", "top says which card ends on the discard pile's top: assassin or guard")
    move(st, h, ("table",))
    st.work["attack"] = {"p": p, "h": h, "a": number, "g": g, "top": top, "up": face_up_target(st, g)}
    st.history.append({"k": "assassin", "p": p, "h": h, "card": number, "target": g, "up": face_up_target(st, g)})
    if can_react(st, o, g):
        st.stack.append({"op": "window", "actor": o, "target": g})
    else:
        proceed(st)


def proceed(st: CState) -> None:
    """After the window: a face-up target falls; a face-down one is an attempt its owner answers."""
    a = st.work["attack"]
    if a["up"]:
        succeed(st)
    else:
        ask(st, a["p"], {"q": "touch", "a": a["a"], "g": a["g"]}, then="attempt")


def react(st: CState, o: int, h: int) -> None:
    """Extra Protection played in reaction: the target is tucked under it, the assassination is blocked."""
    a = st.work.pop("attack")
    move(st, h, ("guard_area", o))
    st.tucks[h] = a["g"]
    st.forgo[o] = True
    discard(st, a["h"])
    st.history.append({"k": "react", "p": o, "h": h, "guard": a["g"], "blocked": a["p"]})


def succeed(st: CState) -> None:
    a = st.work.pop("attack")
    g = a["g"]
    o = opponent(a["p"])
    freed = st.tucks.pop(g, None)  # Extra Protection assassinated: its Guard is free again
    order = [g, a["h"]] if a["top"] == "assassin" else [a["h"], g]
    for x in order:
        discard(st, x)
    st.history.append({"k": "assassinated", "p": a["p"], "o": o, "guard": g, "freed": freed})


def after_answer(st: CState, yes: bool) -> None:
    a = st.work["attack"]
    if yes:
        succeed(st)
        return
    st.work.pop("attack")
    discard(st, a["h"])
    o = opponent(a["p"])
    st.history.append({"k": "attempt_failed", "p": a["p"], "o": o, "guard": a["g"]})
    if st.hands[o]:
        st.stack.append({"op": "show", "actor": None, "p": o, "to": a["p"]})


def on_show(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    o, to = task["p"], task["to"]
    i = ev.get("i")
    if type(i) is not int or not 0 <= i < len(st.hands[o]):
        raise IllegalEvent("bad_show", f"i picks one of the {len(st.hands[o])} cards of the hand")
    h = st.hands[o][i]
    show(st, h, 1 << to)
    st.history.append({"k": "shown", "p": o, "to": to, "h": h})
