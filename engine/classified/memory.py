"""What a seat remembers of the opponent's mixed hands (ruling C-MIX), as a strong player at the table does (the
deduction bot plays by it; the screens' Cypher Wheel and the opponent's hand line show it): a card
it was shown in the opponent's hand (the random card after a failed attempt, Test Access Codes' hand, a PEEKed card
then drawn) is, after the hand is mixed, under one of the new handles: it does not know which, but it knows the
hand's cards still hold that number ("the hand holds a 4"). The Cypher Wheel (wheel.py) counts only the faces it can
pin on a handle in play, so after a mix it forgets the card; this memory gives it back as a multiset of faces that
are surely among cards in play which are not the opponent's Suitcase (a hand's card never becomes the Suitcase).

A pure function of the seat's view: the public account's mix items (`old`: the hand's handles before, `first`, `n`:
the new ones) and the faces this seat was shown (a face shown at a handle stays a record after it leaves play). No
hidden face is read: `view.face(h, knower)` only."""

from __future__ import annotations

from collections import Counter

from adp2p.engine.classified.state import CState


def mixed_faces(view: CState, owner: int, knower: int) -> tuple[Counter[int], set[int]]:
    """The faces `knower` knows are among `owner`'s mixed cards without knowing which (a multiset), and the handles
    in play those cards are among (`pool`: the new handles of owner's mixes whose face knower has not been shown).

    Kept true as cards move: a mix adds the faces knower knew of the old hand (the new handles hold exactly the old
    hand's faces); a pooled handle whose face knower is later shown leaves the pool and takes one copy of its face
    out of the multiset (it may be that very card). So every face counted is a card of the pool, never one counted
    twice with a face knower sees at a handle."""
    pool: set[int] = set()
    faces: Counter[int] = Counter()

    def shown(hs: list[int] | set[int]) -> None:
        for h in list(hs):
            f = view.face(h, knower)
            if h in pool and f is not None:
                pool.discard(h)
                if faces[f] > 0:
                    faces[f] -= 1

    for item in view.history:
        if item.get("k") != "mix" or item.get("p") != owner or "old" not in item:
            continue
        old = list(item["old"])
        shown(old)  # shown before the mix (an old handle leaves play at it: it is shown nothing after)
        for h in old:
            if h in pool:
                pool.discard(h)  # its face, unknown, goes to a new handle: the pool keeps it
            elif (f := view.face(h, knower)) is not None:
                faces[f] += 1
        pool.update(range(item["first"], item["first"] + item["n"]))
    shown(pool)
    pool = {h for h in pool if h in view.loc}
    return +faces, pool


def still_in_hand(view: CState, owner: int, knower: int) -> list[int]:
    """The faces `knower` remembers in `owner`'s hand though it cannot tell which card holds them (a mixed hand): the
    remembered faces while every card they may be under is still in that hand (one that left it face down may have
    taken one along: then none is claimed)."""
    faces, pool = mixed_faces(view, owner, knower)
    return sorted(faces.elements()) if faces and pool <= set(view.hands[owner]) else []
