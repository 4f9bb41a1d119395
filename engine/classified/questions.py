"""Every question the rules ask a player about their own hidden cards, as data, and its truth.

A question is a dict {"q": kind, "seat": who answers, ...}; its truth is a function of faces:
- "near"   {n, s}: is n within 2 of the Suitcase Number (Fortune Teller)
- "in_code" {n | h, s}: is n (or Guard h's Card Number) in the Suitcase's Code (Wheel of Fate, Decoy Guard,
  Shine Spotlights)
- "equal"  {h, s}: is the shown card h's Card Number the Suitcase Number (Test Access Codes)
- "touch"  {a, g}: does Assassin number a's Code share a number with face-down Guard g's Code (an attempt)
- "not_suitcase" {n, s}: the named n is not the Suitcase Number (Picking Petals)
- "guard_guild" {h}: the card enlisted face down as a Guard is a Guard or a Sentinel
- "claim" {h, n}: at the Big Reveal, card h is Card Number n
The answering seat's engine knows the faces and offers only the true answer; a peer that does not know them records
the answer as an obligation (`tasks.check`), which `broken` decides as soon as the faces are known (the audit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.classified.catalog import card, code, near, touch
from adp2p.engine.classified.state import CState

FaceOf = Callable[[int], "int | None"]


def truth(q: dict[str, Any], face_of: FaceOf) -> bool | None:
    """The true answer to q from the faces `face_of` gives (None: a face it needs is unknown)."""
    kind = q["q"]
    if kind == "touch":
        g = face_of(q["g"])
        return None if g is None else touch(q["a"], g)
    if kind == "guard_guild":
        f = face_of(q["h"])
        return None if f is None else card(f).can_guard
    if kind == "claim":
        f = face_of(q["h"])
        return None if f is None else f == q["n"]
    s = face_of(q["s"])
    if s is None:
        return None
    if kind == "equal":
        f = face_of(q["h"])
        return None if f is None else f == s
    n = q.get("n")
    if n is None:
        n = face_of(q["h"])
        if n is None:
            return None
    if kind == "near":
        return near(n, s)
    if kind == "in_code":
        return n in code(s)
    if kind == "not_suitcase":
        return n != s
    raise AssertionError(kind)


def known_truth(st: CState, q: dict[str, Any], viewer: int | None = None) -> bool | None:
    """The truth from what this instance (viewer None) or a seat knows."""
    return truth(q, lambda h: st.face(h, viewer))


def broken(st: CState) -> list[dict[str, Any]]:
    """The recorded obligations the faces now known show broken (each names its seat and rule)."""
    out = []
    for ob in st.obligations:
        if ob.get("q") is None:
            continue
        want = ob.get("said", True)
        got = truth(ob, st.faces.get)
        if got is not None and got != want:
            out.append(ob)
    return out
