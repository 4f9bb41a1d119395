"""Rules this engine instance could not check because it does not know a face (a peer's engine knows only its own):
each is recorded as an obligation, "none of these handles' faces is one of these cards", and checked as soon as
the faces are known (`broken`): cards turned over later (a thrown-out hacker's laid cards, a terminal pile
discarded), or the whole deck at the audit. The all-knowing referee and the sealing seat's own engine check the
same rules at once, as IllegalEvent."""

from __future__ import annotations

from typing import Any

from adp2p.engine.hacker.catalog import card
from adp2p.engine.hacker.state import HState


def owe(st: HState, rule: str, seat: int, hs: list[int], bad: set[str], why: str) -> None:
    """Record the obligation if some face among hs is unknown here (the known ones were checked already)."""
    unknown = [h for h in hs if h not in st.faces]
    if unknown and bad:
        st.obligations.append({"rule": rule, "seat": seat, "hs": unknown, "bad": sorted(bad), "why": why})


def broken(st: HState) -> list[dict[str, Any]]:
    """The recorded obligations that the faces now known show to be broken (each names its seat and rule)."""
    out = []
    for ob in st.obligations:
        hit = [h for h in ob["hs"] if h in st.faces and card(st.faces[h]).key in ob["bad"]]
        if hit:
            out.append({**ob, "hs": hit})
    return out
