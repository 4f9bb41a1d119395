"""Sealed simultaneous choices: the place card (phase 2), the cards laid face down (phase 6), the hack pad. A seal
event carries only an opaque commitment `c` the engine never looks into; where this instance knows the value
(the sealing seat's own engine, an all-knowing referee, the audit) it is in `secrets`, and the opening event is
checked against it. The opening's legality (a reachable place, cards from the hand on the right piles) is checked
when it is opened."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker.board import CAFE, adjacent
from adp2p.engine.hacker.catalog import card, cards
from adp2p.engine.hacker.facedown import kind_of, must_lay
from adp2p.engine.hacker.obligations import owe
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import move


def key(what: str, p: int) -> str:
    return f"{what}:{p}"


def on_seal(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p, what = task["actor"], task["what"]
    if ev.get("what") != what or not isinstance(ev.get("c"), str):
        raise IllegalEvent("bad_seal", f"seat {p + 1} must seal its {what} with an opaque commitment c")
    st.sealed[key(what, p)] = ev["c"]
    if "secret" in ev:  # a local convenience: the sealing seat's own engine (or a referee) learns its value
        try:
            st.secrets[key(what, p)] = normal(what, ev["secret"])
        except TypeError:
            raise IllegalEvent("bad_seal", f"seat {p + 1}: a malformed secret {what}") from None


def normal(what: str, value: Any) -> Any:
    if what == "lay" and isinstance(value, dict):
        return {"chance": sorted(value.get("chance", [])), "term": sorted(value.get("term", []))}
    if what == "pad" and isinstance(value, list):
        return sorted(value)
    return value


def learn_secret(st: HState, what: str, p: int, value: Any) -> HState:
    st.secrets[key(what, p)] = normal(what, value)
    return st


def _against_seal(st: HState, what: str, p: int, value: Any) -> None:
    k = key(what, p)
    if k not in st.sealed:
        raise IllegalEvent("not_sealed", f"seat {p + 1} has no sealed {what} to open")
    if k in st.secrets and st.secrets[k] != normal(what, value):
        raise IllegalEvent("sealed_choice_changed", f"seat {p + 1} opened a {what} other than the one it sealed")
    st.sealed.pop(k)
    st.secrets.pop(k, None)


def places_for(st: HState, p: int) -> list[int]:
    """004:50-54: stay, a neighbouring department, the cafeteria; from the cafeteria any department (no staying).
    H-TIME0: at a terminal with TIME 0 a player must leave it (004:128)."""
    w = st.where[p]
    if w == CAFE:
        return list(st.open_depts)
    stay = [] if st.terminal_of(p) == w and st.time[p] == 0 else [w]
    return [*sorted(set(stay + adjacent(st.open_depts, w))), CAFE]


def open_place(st: HState, p: int, ev: dict[str, Any]) -> None:
    to = ev.get("to")
    if to not in places_for(st, p):
        raise IllegalEvent("bad_place", f"seat {p + 1} cannot go to {to!r} from {st.where[p]}")
    _against_seal(st, "place", p, to)
    st.place[p] = to
    st.history.append({"k": "place", "p": p, "to": to})


def lay_problem(st: HState, p: int, chance: list[int], term: list[int]) -> str | None:
    """Why this laying is illegal (None: it is legal as far as this instance knows the faces)."""
    if len(set(chance) | set(term)) != len(chance) + len(term) or not set(chance + term) <= set(st.hands[p]):
        return "not_in_hand"
    if term and st.terminal_of(p) is None:
        return "terminal_cards_off_terminal"  # H-LAYTERM
    for piles, kind in ((chance, "chance"), (term, "terminal")):
        for h in piles:
            f = st.faces.get(h)
            if f is not None and kind_of(st, card(f)) != kind:
                return "laid_wrong_pile"
    laid = set(chance)
    for h in st.hands[p]:
        f = st.faces.get(h)
        if f is not None and must_lay(st, card(f)) and h not in laid:
            return "must_lay_card"  # H-DRAWN: BLACKOUT, SUPER SPY (004:173, 004:177)
    return None


def open_lay(st: HState, p: int, ev: dict[str, Any]) -> None:
    chance, term = ev.get("chance"), ev.get("term")
    if not (isinstance(chance, list) and isinstance(term, list) and all(isinstance(h, int) for h in chance + term)):
        raise IllegalEvent("bad_lay", f"seat {p + 1}: chance and term are lists of handles")
    why = lay_problem(st, p, chance, term)
    if why is not None:
        raise IllegalEvent(why, f"seat {p + 1} cannot lay {chance} / {term}: {why}")
    _against_seal(st, "lay", p, {"chance": chance, "term": term})
    owe(st, "must_lay_card", p, [h for h in st.hands[p] if h not in chance + term],
        {c.key for c in cards() if must_lay(st, c)}, "a BLACKOUT or SUPER SPY kept back (H-DRAWN)")
    for h in chance:
        move(st, h, ("laid_chance", p))
    for h in term:
        move(st, h, ("laid_term", p))
    st.history.append({"k": "laid", "p": p, "chance": len(chance), "term": len(term)})
