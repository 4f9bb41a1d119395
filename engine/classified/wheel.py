"""The Cypher Wheel (003 "The Cypher Wheel"), kept automatically: the Suitcase Numbers of one player still possible
for another after every answer given and every card seen. A pure function of a state (a seat's view), so a client
can show it and a bot can play by it.

A number is ruled out when both its copies are seen elsewhere (TIP 1: "X when they've seen both"; among the cards in
play: a hand mixed after a show takes new handles, ruling C-MIX, and its old ones are not counted twice), or when an
answer the Suitcase's owner gave (Fortune Teller, Wheel of Fate, Decoy Guard, Shine Spotlights, Test Access Codes,
Picking Petals, a face-down Guard's comparison) would have been false with it."""

from __future__ import annotations

from collections import Counter

from adp2p.engine.classified.catalog import NUMBERS, code
from adp2p.engine.classified.questions import truth
from adp2p.engine.classified.state import CState


def possible(st: CState, owner: int, knower: int) -> list[int]:
    """The Suitcase Numbers of `owner` that `knower` cannot rule out from the faces this state shows `knower`."""
    return sorted(weights(st, owner, knower))


def weights(st: CState, owner: int, knower: int, also_seen: Counter[int] | None = None) -> dict[int, int]:
    """Each Suitcase Number still possible, with the copies of it `knower` has not seen (1 or 2): how likely it is,
    relatively (a number one copy of which is seen elsewhere is half as likely as one of which none is).
    `also_seen`: faces knower knows are elsewhere without a handle in play to pin them on (the deduction bot's memory
    of a mixed hand, memory.py)."""
    sh = st.suitcase[owner]
    if sh is None:
        return dict.fromkeys(NUMBERS, 2)
    mine = st.face(sh, knower)
    if mine is not None:
        return {mine: 1}
    seen = Counter(f for h in st.faces if h != sh and h in st.loc and (f := st.face(h, knower)) is not None)
    if also_seen:
        seen.update(also_seen)
    said = [(item["question"], item["yes"] if item["k"] == "answer" else True) for item in st.history
            if item.get("k") in ("answer", "named") and item.get("p") == owner]
    out: dict[int, int] = {}
    for s in NUMBERS:
        if seen[s] >= 2:
            continue
        def face_of(h: int, s: int = s) -> int | None:
            return s if h == sh else st.face(h, knower)
        if all((t := truth(q, face_of)) is None or t == yes for q, yes in said):
            out[s] = 2 - seen[s]
    return out


def match_chance(st: CState, owner: int, knower: int, number: int) -> float:
    """How likely `number` as knower's Final Card is in owner's Code and not on one of owner's face-up Guards, over
    the Suitcase Numbers still possible (`weights`)."""
    return chance_in(weights(st, owner, knower), st, owner, knower, number)


def chance_in(ws: dict[int, int], st: CState, owner: int, knower: int, number: int) -> float:
    """`match_chance` from weights already worked out."""
    guarded = {st.face(g, knower) for g in st.guards[owner] if g in st.up}
    if number in guarded or not ws:
        return 0.0
    return sum(w for s, w in ws.items() if number in code(s)) / sum(ws.values())
