"""The round (004:26-45, 004:128-147) as steps: each step either pushes the decisions it waits for and returns False,
or finishes its phase and returns True. The first round starts at phase 6 (004:45) after the setup (hacker-setup.md;
H-START: player i starts at the terminal of department i+1)."""

from __future__ import annotations

from collections.abc import Callable

from adp2p.engine.hacker import playing, positioning
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.catalog import tables
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import add_prio, draw_one, move, needs_shuffle, push_shuffle, show

ORDER = ["pass", "place", "dummies", "position", "lay", "start", "chance", "terminal", "upkeep", "boss", "remove",
         "refill"]


def _once(st: HState, tag: str) -> bool:
    """True the first time this step runs in this phase."""
    if st.work.get("entered") == tag:
        return False
    st.work["entered"] = tag
    return True


def step_setup(st: HState) -> bool:
    if st.next_handle == 0:
        push_shuffle(st)
        return False
    for _ in range(st.profile.hand):
        for p in range(st.n):
            draw_one(st, p)
    for p in range(st.n):  # H-START
        d = st.open_depts[p]
        st.dept[d] = [p]
        st.where[p] = d
        st.time[p] = st.profile.start_time
    return True


def step_pass(st: HState) -> bool:
    """004:49: one card to the left neighbour (H-LEFT: the next seat clockwise); received after everyone passed."""
    if _once(st, "pass"):
        for p in reversed(range(st.n)):
            if st.hands[p]:
                st.stack.append({"op": "pass", "actor": p})
        return False
    for p in range(st.n):
        h = st.passing[p]
        if h is not None:
            q = (p + 1) % st.n
            move(st, h, ("hand", q))
            show(st, h, 1 << q)
    return True


def _seal_all(st: HState, what: str) -> None:
    for p in reversed(range(st.n)):
        st.stack.append({"op": "seal", "actor": p, "what": what})


def _open_all(st: HState, what: str) -> None:
    for p in reversed(range(st.n)):
        st.stack.append({"op": "unseal", "actor": p, "what": what})


def step_place(st: HState) -> bool:
    if _once(st, "place"):
        _seal_all(st, "place")
        return False
    return True


def step_dummies(st: HState) -> bool:
    if _once(st, "dummies"):
        st.stack.append({"op": "roll", "actor": None, "for": "dummies", "k": len(st.open_depts)})
        return False
    return True


def add_dummies(st: HState, dice: list[int]) -> None:
    """004:55-62: a die per terminal; at most 3 dummy users in a department."""
    t = tables()
    for d, die in zip(st.open_depts, dice, strict=True):
        for _ in range(t.dummy_users[die - 1]):
            if st.dept[d].count(-1) < t.max_dummies:
                st.dept[d].append(-1)
    st.history.append({"k": "dummies", "dice": list(dice)})


def step_position(st: HState) -> bool:
    if _once(st, "position"):
        _open_all(st, "place")
        return False
    if st.work.get("ranked") is None:
        positioning.begin(st)
        st.work["ranked"] = True
    duel = positioning.next_duel(st)
    if duel is not None:
        st.stack.append({"op": "roll", "actor": None, "for": "duel", "k": positioning.dice_needed(duel)})
        return False
    positioning.finish(st)
    for p in range(st.n):
        if st.in_system[p] is not None and st.terminal_of(p) != st.in_system[p]:
            st.in_system[p] = None  # left the terminal: out of the system (004:165)
    return True


def step_lay(st: HState) -> bool:
    if _once(st, "lay"):
        _open_all(st, "lay")  # below: everyone opens, once everyone has sealed
        _seal_all(st, "lay")
        return False
    return True


def step_start(st: HState) -> bool:
    if _once(st, "start"):
        st.stack.append({"op": "start", "actor": None})
        return False
    st.order_done = 0
    return True


def step_upkeep(st: HState) -> bool:
    """004:128: TIME -1 at a terminal, no TIME marker elsewhere; the PRIO used is taken."""
    for p in range(st.n):
        if st.terminal_of(p) is not None:
            st.time[p] = max(0, (st.time[p] or 0) - 1)
        else:
            st.time[p] = None
        add_prio(st, p, -st.used[p])
        st.used[p] = 0
    st.turn = None
    return True


def occupied(st: HState) -> list[int]:
    """The places where the Boss can find someone (004:129: cards are drawn until he does: uniform among these)."""
    return sorted({st.where[p] for p in range(st.n)})


def step_boss(st: HState) -> bool:
    if _once(st, "boss"):
        st.stack.append({"op": "boss", "actor": None})
        return False
    return True


def boss(st: HState, at: int) -> None:
    """004:131-140, the table in engine/hacker/data/tables.toml."""
    b = tables().boss
    for p in range(st.n):
        if st.where[p] != at:
            continue
        if at == CAFE:
            add_prio(st, p, b["cafeteria"])
        elif st.terminal_of(p) is None:
            add_prio(st, p, b["queue"])
            st.spotted[p] = True
        elif st.broken[at]:
            add_prio(st, p, b["broken_terminal"])
        elif not st.time[p]:
            add_prio(st, p, b["terminal_no_time"])
        else:
            add_prio(st, p, b["terminal"])
    st.history.append({"k": "boss", "at": at})


def step_remove(st: HState) -> bool:
    for d in st.open_depts:  # 004:142
        if st.dept[d][:1] == [-1]:
            st.dept[d].pop(0)
    return True


def step_refill(st: HState) -> bool:
    """004:146-147: hands back to 5, queue +1 PRIO unless spotted, cafeteria +5 less one per card exchanged (H-CAFE:
    the exchange comes after the refill; exchanged cards are drawn at once)."""
    if not _fill(st):
        return False
    if _once(st, "refill"):
        for p in range(st.n):
            if st.in_queue(p) and not st.spotted[p]:
                add_prio(st, p, 1)
        cafe = [p for p in st.clockwise(st.start or 0) if st.where[p] == CAFE]
        for p in reversed(cafe):
            st.stack.append({"op": "exchange", "actor": p})
        if cafe:
            return False
    return _fill(st)


def _fill(st: HState) -> bool:
    for p in st.clockwise(st.start or 0):
        while len(st.hands[p]) < st.profile.hand:
            if needs_shuffle(st):
                push_shuffle(st)
                return False
            if not draw_one(st, p):
                break
    return True


def end_round(st: HState) -> None:
    n = st.n
    st.broken = [False] * 6
    st.piping, st.pairs = {}, {}
    st.found = [[] for _ in range(n)]
    st.spotted = [False] * n
    st.start = st.turn = None
    if st.round_no >= st.profile.round_limit:  # H-LIMIT: the last round is played; no round after it begins
        best = max(st.codes(p) for p in range(n))
        st.over, st.end_reason = True, "round_limit"
        st.winners = [p for p in range(n) if st.codes(p) == best]
        return
    st.round_no += 1
    st.history.append({"k": "round", "no": st.round_no})


STEPS: dict[str, Callable[[HState], bool]] = {
    "setup": step_setup, "pass": step_pass, "place": step_place, "dummies": step_dummies,
    "position": step_position, "lay": step_lay, "start": step_start, "chance": playing.step_chance,
    "terminal": playing.step_terminal, "upkeep": step_upkeep, "boss": step_boss, "remove": step_remove,
    "refill": step_refill,
}


def next_phase(st: HState) -> None:
    st.work = {}
    st.order_done = 0
    if st.phase == "setup":
        st.phase = "lay"
    elif st.phase == "refill":
        end_round(st)
        st.phase = "pass"
    else:
        st.phase = ORDER[ORDER.index(st.phase) + 1]
