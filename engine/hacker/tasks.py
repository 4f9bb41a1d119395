"""Shared mechanics: moving card handles, showing faces, drawing (asking CHANCE for a reshuffle when the deck is
out), learning passwords and codes (with PIPING and PARTNER passing them on), PRIO/TIME bounds, and the win."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker.catalog import card, card_by_key
from adp2p.engine.hacker.state import HState


def pile_of(st: HState, loc: tuple) -> list[int] | None:
    kind = loc[0]
    if kind == "deck":
        return st.deck
    if kind == "discard":
        return st.discard
    if kind in ("hand", "laid_chance", "laid_term", "front"):
        return getattr(st, "hands" if kind == "hand" else kind)[loc[1]]
    return None


def move(st: HState, h: int, to: tuple) -> None:
    old = pile_of(st, st.loc[h])
    if old is not None:
        old.remove(h)
    elif st.loc[h][0] == "passing":
        st.passing[st.loc[h][1]] = None
    st.loc[h] = to
    new = pile_of(st, to)
    if new is not None:
        new.append(h)
    elif to[0] == "passing":
        st.passing[to[1]] = h


def show(st: HState, h: int, mask: int) -> None:
    """The rules show h's face to the seats in mask (the caller decrypts it for them)."""
    if st.known.get(h, 0) | mask != st.known.get(h, 0):
        st.known[h] = st.known.get(h, 0) | mask
        st.reveals.append((h, mask))


def show_all(st: HState, h: int) -> None:
    show(st, h, st.all_mask)


def claim_face(st: HState, h: int, key: Any, who: int) -> int:
    """A player turns h over and says it is `key`: checked where this instance knows the face, learned otherwise
    (the network layer checks the decryption against the claim)."""
    try:
        want = card_by_key(key).id if isinstance(key, str) else -1
    except ValueError:
        want = -1
    if want < 0:
        raise IllegalEvent("bad_card", f"{key!r} is not a Hacker card")
    have = st.faces.get(h)
    if have is not None and have != want:
        raise IllegalEvent("face_mismatch", f"seat {who} said handle {h} is {key}, it is {card(have).key}")
    st.faces[h] = want
    show_all(st, h)
    return want


def discard_public(st: HState, h: int) -> None:
    show_all(st, h)
    move(st, h, ("discard",))


def draw_one(st: HState, p: int) -> bool:
    """Draw the top card into p's hand (False: the deck is empty)."""
    if not st.deck:
        return False
    h = st.deck[0]
    move(st, h, ("hand", p))
    show(st, h, 1 << p)
    return True


def needs_shuffle(st: HState) -> bool:
    """The deck is out and the discard pile can become the new deck (H-EXHAUST)."""
    return not st.deck and bool(st.discard)


def push_shuffle(st: HState) -> None:
    """Ask CHANCE for a shuffle. A refill turns the discard pile over into the new deck: a card that went there
    unseen (a face-down card removed unexamined, 004:249) is shown to every player now, so that the faces of the
    pile shuffled are public, as the table's fresh pile needs them (p2p/machine/setup.py, `Game.pile_faces`)."""
    if st.next_handle:
        for h in st.discard:
            show_all(st, h)
    st.stack.append({"op": "shuffle", "actor": None})


def do_shuffle(st: HState) -> None:
    """New handles for a shuffled pile: the whole deck at setup, the discard pile later (as engine/ does); the
    caller's shared randomness decides which face each new handle holds (`deck_faces`, asked before)."""
    if st.next_handle == 0:
        count = len(_deck_cards(st))
    else:
        count = len(st.discard)
        for h in st.discard:  # retired: their faces are history (the log keeps them), not state
            st.loc.pop(h, None)
            st.faces.pop(h, None)
            st.known.pop(h, None)
        st.discard.clear()
    for i in range(count):
        h = st.next_handle + i
        st.loc[h] = ("deck",)
        st.deck.append(h)
    st.next_handle += count


def _deck_cards(st: HState) -> list[Any]:
    return [card_by_key(k) for k, c in st.profile.deck_counts().items() for _ in range(c)]


def deck_faces(st: HState) -> list[int]:
    """The faces (as a multiset) the pending shuffle's new handles will hold, for an all-knowing caller."""
    if st.next_handle == 0:
        return [c.id for c in _deck_cards(st)]
    return [st.faces[h] for h in st.discard]


def add_prio(st: HState, p: int, k: int) -> None:
    prof = st.profile
    st.prio[p] = max(prof.prio_min, min(prof.prio_max, st.prio[p] + k))


def free_prio(st: HState, p: int) -> int:
    """PRIO still unspent this round (terminal cards are paid in phase 9)."""
    return st.prio[p] - st.used[p]


def can_pay(st: HState, p: int) -> bool:
    """A terminal card needs a PRIO point to spend without the track going below its minimum (H-PRIO)."""
    return free_prio(st, p) > st.profile.prio_min


def learn(st: HState, p: int, kind: str, d: int, *, at: int | None = None, passed: bool = False) -> None:
    """p learns a password ("pw", "pwx") or a code of department d. What p finds itself (passed=False) goes on
    to p's pipers (004:209) and, under PARTNER, to the player at the paired terminal (004:249)."""
    row = {"pw": st.pw, "pwx": st.pwx, "code": st.code}[kind]
    if row[p][d]:
        return
    row[p][d] = True
    st.history.append({"k": "learn", "p": p, "what": kind, "d": d})
    if passed:
        return
    st.found[p].append((kind, d))
    for q in st.piping.get(p, []):
        learn(st, q, kind, d, passed=True)
    if at is not None and at in st.pairs:
        other = st.pairs[at]
        here, there = st.dept[at][:1], st.dept[other][:1]
        if here and there and here[0] >= 0 and there[0] >= 0 and there[0] != p:
            learn(st, there[0], kind, d, passed=True)


def check_win(st: HState) -> None:
    goal = st.profile.codes_to_win(st.n)
    winners = [p for p in range(st.n) if st.codes(p) >= goal]
    if winners and not st.over:
        st.over = True
        st.winners = winners
        st.end_reason = "codes"
        st.stack.clear()
        st.history.append({"k": "win", "ps": winners, "codes": goal})
