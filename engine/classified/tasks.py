"""Shared mechanics: moving card handles, showing faces, drawing, a card played face up and named by its player
(claimed: checked where the face is known, learned otherwise), and rules that depend on faces this instance may not
know (`check`: decided here, or recorded as an obligation for the audit; strict: an unknown face is an error)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.classified.catalog import NUMBERS
from adp2p.engine.classified.state import CState
from adp2p.engine.errors import IllegalEvent


def pile_of(st: CState, loc: tuple) -> list[int] | None:
    kind = loc[0]
    if kind == "deck":
        return st.deck
    if kind == "discard":
        return st.discard
    if kind == "encrypted":
        return st.encrypted
    if kind == "hand":
        return st.hands[loc[1]]
    if kind == "guard":
        return st.guards[loc[1]]
    return None  # suitcase, guard_area (Extra Protection), table (an Assassin or a card in play)


def move(st: CState, h: int, to: tuple, *, at: int | None = None) -> None:
    old = pile_of(st, st.loc[h])
    if old is not None:
        old.remove(h)
    st.loc[h] = to
    new = pile_of(st, to)
    if new is not None:
        new.insert(len(new) if at is None else at, h)
    if to[0] != "guard":
        st.up.discard(h)


def show(st: CState, h: int, mask: int) -> None:
    """The rules show h's face to the seats in mask (the caller decrypts it for them)."""
    if st.known.get(h, 0) | mask != st.known.get(h, 0):
        st.known[h] = st.known.get(h, 0) | mask
        st.reveals.append((h, mask))


def show_all(st: CState, h: int) -> None:
    show(st, h, st.all_mask)


def discard(st: CState, h: int) -> None:
    """Onto the discard pile, face up."""
    show_all(st, h)
    move(st, h, ("discard",))


def draw(st: CState, p: int) -> bool:
    if not st.deck:
        return False
    h = st.deck[0]
    move(st, h, ("hand", p))
    show(st, h, 1 << p)
    return True


def peek(st: CState, p: int, k: int) -> None:
    """PEEK k: p looks at the top k cards of the Draw Deck, which stay in their order."""
    for h in st.deck[:k]:
        show(st, h, 1 << p)
    if k and st.deck:
        st.history.append({"k": "peek", "p": p, "n": min(k, len(st.deck)), "hs": list(st.deck[:k])})


def number_arg(ev: dict[str, Any], key: str = "n") -> int:
    n = ev.get(key)
    if type(n) is not int or n not in NUMBERS:
        raise IllegalEvent("bad_number", f"{key} must be a number from 1 to 9, not {n!r}")
    return n


def claim_face(st: CState, h: int, number: Any, who: int) -> int:
    """Player `who` turns h face up and says it is Card Number `number`: checked where this instance knows the face,
    learned otherwise (the table checks the card against the claim when its face opens)."""
    if type(number) is not int or number not in NUMBERS:
        raise IllegalEvent("bad_card", f"{number!r} is not a Card Number")
    have = st.faces.get(h)
    if have is not None and have != number:
        raise IllegalEvent("face_mismatch", f"seat {who + 1} said card {h} is {number}, it is {have}")
    st.faces[h] = number
    show_all(st, h)
    return number


def check(st: CState, ok: bool | None, rule: str, message: str, **data: Any) -> None:
    """A rule whose truth may depend on faces this instance does not know. ok True/False: decided here (False
    raises). None: unknown here, recorded as an obligation (`questions.broken` decides it once the faces are known);
    strict (the audit, every face known): an unknown face is itself an error."""
    if ok is None:
        if st.strict:
            raise IllegalEvent("unknown_face", f"strict replay cannot decide: {message}")
        st.obligations.append({"rule": rule, "seq": st.seq, "why": message, **data})
        return
    if not ok:
        raise IllegalEvent(rule, message)


def opponent(p: int) -> int:
    return 1 - p
