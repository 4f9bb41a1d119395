"""Phase 4 (and 5): players take their places by PRIO (004:64-90). Dummy users count 3 each, summed up to 9; a player
passes the dummies his PRIO beats, duels the one it equals (the player adds 1; a tie keeps the dummy ahead: H-TIE);
then players who reached the same place duel (two: the higher PRIO adds 1, a tie is rolled again without bonus;
three or more: a round of duels, 2 points a win, 1 a draw, players level on points duel again: H-GROUP). Places 1-4
are taken front first; dummies without a place leave, players without one sit out in the cafeteria. Places are
compact, so dummies have moved up (phase 5) once this is done."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker.board import CAFE, PLACES
from adp2p.engine.hacker.catalog import tables
from adp2p.engine.hacker.state import HState


def dummy_reach(st: HState, prio: int, k: int) -> tuple[int, bool]:
    """(dummies passed for sure, whether a duel decides one more) for a player with this PRIO against k dummies."""
    t = tables()
    passed = 0
    for i in range(1, k + 1):
        total = min(t.dummy_priority_max, t.dummy_priority * i)
        if prio > total:
            passed = i
        elif prio == total:
            return passed, True
        else:
            break
    return passed, False


def begin(st: HState) -> None:
    """The place cards are turned over: ranks against the dummies, and the duels to fight."""
    st.ranks, st.order, st.duels = {}, {}, []
    for p in range(st.n):
        if st.place[p] == CAFE:
            continue
        d = st.place[p]
        k = st.dept[d].count(-1)
        passed, duel = dummy_reach(st, st.prio[p], k)
        st.ranks[p] = passed
        if duel:
            st.duels.append({"kind": "dummy", "p": p})


def _groups(st: HState) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for p in sorted(st.ranks):
        out.setdefault(st.place[p] * 10 + st.ranks[p], []).append(p)  # type: ignore[operator]
    return out


def next_duel(st: HState) -> dict[str, Any] | None:
    """The next duel to roll for: dummy duels first (004:88), then players level on a place, front first."""
    if st.duels:
        return st.duels[0]
    if not st.order:
        for g, ps in _groups(st).items():
            st.order[g] = [{"ps": ps, "bonus": True}]
    for g in sorted(st.order, key=lambda g: (g // 10, -(g % 10))):
        for i, slot in enumerate(st.order[g]):
            if len(slot["ps"]) >= 2:
                return {"kind": "pair" if len(slot["ps"]) == 2 else "group", "g": g, "i": i, **slot}
    return None


def dice_needed(duel: dict[str, Any]) -> int:
    return len(duel["ps"]) * (len(duel["ps"]) - 1) if duel["kind"] == "group" else 2


def resolve(st: HState, dice: list[int]) -> None:
    duel = next_duel(st)
    assert duel is not None
    if len(dice) != dice_needed(duel):
        raise IllegalEvent("dice_count", f"this duel needs {dice_needed(duel)} dice, not {len(dice)}")
    if duel["kind"] == "dummy":
        st.duels.pop(0)
        if dice[0] + 1 > dice[1]:  # 004:86: the player adds 1; he needs to beat the dummy's roll (H-TIE)
            st.ranks[duel["p"]] += 1
        st.history.append({"k": "duel_dummy", "p": duel["p"], "dice": list(dice)})
        return
    slots = st.order[duel["g"]]
    if duel["kind"] == "pair":
        a, b = duel["ps"]
        sa = dice[0] + (1 if duel["bonus"] and st.prio[a] > st.prio[b] else 0)
        sb = dice[1] + (1 if duel["bonus"] and st.prio[b] > st.prio[a] else 0)
        if sa == sb:
            new = [{"ps": [a, b], "bonus": False}]  # 004:86: roll again, no bonus
        else:
            new = [{"ps": [a], "bonus": True}, {"ps": [b], "bonus": True}][:: 1 if sa > sb else -1]
    else:
        points = dict.fromkeys(duel["ps"], 0)
        for (a, b), (x, y) in zip(combinations(duel["ps"], 2), zip(dice[::2], dice[1::2], strict=True), strict=True):
            points[a] += 2 if x > y else 1 if x == y else 0
            points[b] += 2 if y > x else 1 if x == y else 0
        levels = sorted(set(points.values()), reverse=True)
        new = [{"ps": [p for p in duel["ps"] if points[p] == v], "bonus": True} for v in levels]
    slots[duel["i"] : duel["i"] + 1] = new
    ahead = new[0]["ps"] if len(new[0]["ps"]) == 1 else []  # who goes first (none: a tie, rolled again)
    st.history.append({"k": "duel", "ps": list(duel["ps"]), "dice": list(dice), "ahead": list(ahead)})


def finish(st: HState) -> None:
    """Everyone takes a place (front first); TIME 3 for a player newly at a terminal (004:128)."""
    old_terminal = [st.terminal_of(p) for p in range(st.n)]
    for d in st.open_depts:
        k = st.dept[d].count(-1)
        line: list[int] = []
        for r in range(k, -1, -1):  # [rank k players], D1, [rank k-1], D2, ..., Dk, [rank 0]
            line.extend(p for slot in st.order.get(d * 10 + r, []) for p in slot["ps"])
            if r >= 1:
                line.append(-1)
        st.dept[d] = line[:PLACES]
        for p in line[PLACES:]:
            if p >= 0:
                st.place[p] = CAFE  # 004:88: sits out the round in the cafeteria
    for p in range(st.n):
        st.where[p] = st.place[p]  # type: ignore[assignment]
        t = st.terminal_of(p)
        if t is None:
            st.time[p] = None
        elif old_terminal[p] != t or st.time[p] is None:
            st.time[p] = st.profile.start_time
    st.ranks, st.order, st.duels = {}, {}, []
    st.history.append({"k": "positions", "dept": [list(x) for x in st.dept]})
