"""The end (003 "End of Game"): the Big Reveal (each player claims the faces of their Suitcase, their face-down
Guards and their Final Card), the Unguarded Match and the end-game chart (003:12-15)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.classified.catalog import code
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import check, opponent
from adp2p.engine.errors import IllegalEvent


def to_reveal(st: CState, p: int) -> list[int]:
    """The handles p must reveal: the Suitcase, the face-down Guards, the Final Card (face-up ones are known)."""
    hs = [st.suitcase[p], *[g for g in st.guards[p] if g not in st.up], *st.hands[p]]
    return [h for h in hs if h is not None]


def on_reveal(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p = task["actor"]
    cards = ev.get("cards")
    want = to_reveal(st, p)
    if not (isinstance(cards, list) and all(isinstance(x, list) and len(x) == 2 and type(x[0]) is int
                                            and type(x[1]) is int and 1 <= x[1] <= 9 for x in cards)
            and sorted(x[0] for x in cards) == sorted(want)):
        raise IllegalEvent("bad_reveal", f"seat {p + 1} reveals [handle, number] for exactly {sorted(want)}")
    for h, n in cards:
        f = st.faces.get(h)
        check(st, None if f is None else f == n, "false_reveal", f"seat {p + 1} said card {h} is {n}",
              q="claim", h=h, n=n, seat=p, said=True)
        st.claimed[h] = n
    st.history.append({"k": "reveal", "p": p, "cards": [list(x) for x in cards]})


def unguarded_match(final: int | None, suitcase: int, guards: list[int]) -> bool:
    """003:12: the Final Card matches a number of the opponent's Code that no Guard of theirs has."""
    return final is not None and final in code(suitcase) and final not in guards


def decide(matches: list[bool], counts: list[float]) -> tuple[list[int], str]:
    """The end-game chart: one Unguarded Match wins; none or both: the most Guards; equal Guards: a tie."""
    if matches[0] != matches[1]:
        return [0 if matches[0] else 1], "unguarded_match"
    if counts[0] != counts[1]:
        return [0 if counts[0] > counts[1] else 1], "guards"
    return [], "tie"


def score(st: CState) -> None:
    nums: list[list[int]] = [[st.number(g) or 0 for g in st.guards[p]] for p in range(2)]
    finals = [st.number(st.hands[p][0]) if st.hands[p] else None for p in range(2)]
    cases = [st.number(st.suitcase[p]) for p in range(2)]  # type: ignore[arg-type]
    st.matches = [unguarded_match(finals[p], cases[opponent(p)] or 0, nums[opponent(p)]) for p in range(2)]
    st.guard_counts = [st.guard_count(p) for p in range(2)]
    st.winners, st.end_reason = decide(st.matches, st.guard_counts)
    st.over = True
    st.phase = "over"
    st.stack.clear()
    st.history.append({"k": "end", "winners": list(st.winners), "reason": st.end_reason, "suitcases": cases,
                       "finals": finals, "guards": nums, "matches": list(st.matches),
                       "guard_counts": list(st.guard_counts)})
