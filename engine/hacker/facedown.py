"""Cards laid face down in front of an opponent (004:239-249): BLUFF (Advanced deck) always; SUPERSPY when the
profile's `superspy_face_down` option is on. Such a card stays there unseen; its owner may turn a SUPERSPY over to
take a code from that opponent if, and only if, that code wins him the game (H-ACTIVATE: offered at the start of
his chance-card turn); under that option SUPERSPY PROTECTION is a chance card, played in the round it is drawn,
that removes one face-down card unseen (004:249). Also: which pile a card belongs to under a profile."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker.catalog import CardDef, card, card_by_key, cards
from adp2p.engine.hacker.obligations import owe
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import claim_face, discard_public, learn, move

SUPERSPY = card_by_key("superspy").id


def kind_of(st: HState, c: CardDef) -> str:
    """The pile a card is laid on: its kind, except SUPERSPY PROTECTION under the face-down option (chance)."""
    return "chance" if c.key == "superspy_protection" and st.profile.superspy_face_down else c.kind


def not_of_kind(kind: str, st: HState) -> set[str]:
    """The cards that are not laid on the `kind` pile here (an obligation's forbidden faces)."""
    return {c.key for c in cards() if kind_of(st, c) != kind}


def must_lay(st: HState, c: CardDef) -> bool:
    return c.must_play_when_drawn or (c.key == "superspy_protection" and st.profile.superspy_face_down)


def goes_face_down(st: HState, c: CardDef) -> bool:
    return c.key == "bluff" or (c.key == "superspy" and st.profile.superspy_face_down)


def face_down_events(st: HState, p: int, h: int) -> list[dict[str, Any]]:
    return [{"t": "face_down", "p": p, "h": h, "who": q} for q in st.clockwise(p) if q != p]


def on_face_down(st: HState, p: int, ev: dict[str, Any]) -> None:
    """A laid chance card goes face down in front of an opponent; nobody else sees it (H-FACES: its kind is
    checked where the face is known)."""
    h, q = ev.get("h"), ev.get("who")
    if h not in st.laid_chance[p] or q not in range(st.n) or q == p:
        raise IllegalEvent("bad_face_down", f"seat {p + 1} cannot lay {h!r} face down in front of {q!r}")
    f = st.faces.get(h)
    if f is not None and not goes_face_down(st, card(f)):
        raise IllegalEvent("not_face_down_card", f"seat {p + 1} may not lay {card(f).key} face down")
    owe(st, "not_face_down_card", p, [h], {c.key for c in cards() if not goes_face_down(st, c)},
        "laid face down but neither BLUFF nor a face-down SUPERSPY")
    move(st, h, ("front", q))
    st.front_by[h] = p
    st.history.append({"k": "face_down", "p": p, "who": q})


def mine_in_front(st: HState, p: int) -> list[tuple[int, int]]:
    """(handle, in front of whom) for p's face-down cards."""
    return [(h, q) for q in range(st.n) for h in st.front[q] if st.front_by.get(h) == p]


def activations(st: HState, p: int) -> list[tuple[int, int, int]]:
    """(handle, opponent, department) whose code would win p the game, as far as public facts go."""
    if not st.profile.superspy_face_down or st.codes(p) + 1 < st.profile.codes_to_win(st.n):
        return []
    return [(h, q, d) for h, q in mine_in_front(st, p) for d in st.open_depts if st.code[q][d] and not st.code[p][d]]


def on_activate(st: HState, p: int, ev: dict[str, Any]) -> None:
    if ev["t"] == "no_activate":
        return
    h, d = ev.get("h"), ev.get("d")
    hit = [x for x in activations(st, p) if x[0] == h and x[2] == d]
    if not hit:
        raise IllegalEvent("bad_activation", f"seat {p + 1} cannot turn {h!r} over for code {d!r} (004:239)")
    claim_face(st, h, ev.get("card"), p)
    if st.faces[h] != SUPERSPY:
        raise IllegalEvent("not_superspy", f"seat {p + 1} turned over a card that is not a SUPERSPY")
    st.front_by.pop(h)
    discard_public(st, h)
    learn(st, p, "code", d)  # type: ignore[arg-type]


def removal_targets(st: HState, p: int) -> list[dict[str, Any]]:
    """SUPERSPY PROTECTION under the option: any face-down card in front of anyone."""
    return [{"fd": h} for q in range(st.n) for h in st.front[q]]


def remove(st: HState, p: int, tg: dict[str, Any]) -> None:
    """004:249: the face-down card goes to the discard pile unexamined (its face stays unknown)."""
    h = tg["fd"]
    st.front_by.pop(h, None)
    move(st, h, ("discard",))
    st.history.append({"k": "face_down_removed", "p": p})
