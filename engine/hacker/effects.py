"""One entry per card: the targets it may be played on now (none = it cannot be played: 004:91 "must be played
where possible") and its effect. A registry of data-shaped handlers, not a chain of branches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.hacker.catalog import tables
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import add_prio, free_prio, learn

Target = dict[str, Any]


def working(st: HState, p: int) -> int | None:
    """The terminal p works at this turn: his own, or the one NETWORK-ACCESS chose (004:201)."""
    return st.work.get("at", st.terminal_of(p)) if st.turn == p else st.terminal_of(p)


def _others(st: HState, p: int) -> list[int]:
    return [q for q in st.clockwise(p) if q != p]


# -- chance cards (004:155-181) ---------------------------------------------------------------------------

def t_time(st: HState, p: int) -> list[Target]:
    t0 = st.work.get("t0", st.time[p])
    own = [{"who": p}] if st.time[p] is not None and st.time[p] >= 1 and t0 is not None and t0 <= 3 else []
    return own + [{"who": q} for q in _others(st, p) if st.time[q]]  # 004:157


def e_time(st: HState, p: int, tg: Target) -> None:
    q = tg["who"]
    st.time[q] = st.time[q] + (1 if q == p else -1)  # type: ignore[operator]


def t_prio(st: HState, p: int) -> list[Target]:
    p0 = st.work.get("p0", st.prio[p])
    own = [{"who": p}] if p0 <= 5 and st.prio[p] < st.profile.prio_max else []  # 004:161
    return own + [{"who": q} for q in _others(st, p) if st.prio[q] > st.profile.prio_min]


def e_prio(st: HState, p: int, tg: Target) -> None:
    add_prio(st, tg["who"], 1 if tg["who"] == p else -1)


def t_dept(st: HState, p: int) -> list[Target]:
    return [{"d": d} for d in st.open_depts]


def e_security(st: HState, p: int, tg: Target) -> None:
    security(st, tg["d"])


def security(st: HState, d: int) -> None:
    """004:165: the password of d changes (the additional one stays); who is in the system stays in."""
    for q in range(st.n):
        st.pw[q][d] = False
    st.history.append({"k": "security", "d": d})


def t_defect(st: HState, p: int) -> list[Target]:
    return [{"d": d} for d in st.open_depts if not st.broken[d]]


def e_defect(st: HState, p: int, tg: Target) -> None:
    st.broken[tg["d"]] = True  # 004:169


def t_spy(st: HState, p: int) -> list[Target]:
    return [{"who": q, "d": d} for q in _others(st, p) for d in st.open_depts if st.pw[q][d] and not st.pw[p][d]]


def e_spy(st: HState, p: int, tg: Target) -> None:
    learn(st, p, "pw", tg["d"])


def t_superspy(st: HState, p: int) -> list[Target]:
    return [{"who": q, "d": d} for q in _others(st, p) for d in st.open_depts if st.code[q][d] and not st.code[p][d]]


def e_superspy(st: HState, p: int, tg: Target) -> None:
    learn(st, p, "code", tg["d"])


def t_none(st: HState, p: int) -> list[Target]:
    return [{}]


def e_blackout(st: HState, p: int, tg: Target) -> None:
    st.stack.append({"op": "roll", "actor": None, "for": "blackout", "k": 1, "p": p})


def blackout(st: HState, die: int) -> None:
    """004:173: a die picks the terminal (H-BLACKOUT: a closed department's number hits nothing)."""
    d = die - 1
    if d in st.open_depts:
        st.broken[d] = True
        for q in range(st.n):
            st.code[q][d] = False
    st.history.append({"k": "blackout", "d": d})


def e_exchange(st: HState, p: int, tg: Target) -> None:
    st.stack.append({"op": "deal", "actor": None, "p": p})


def e_partner(st: HState, p: int, tg: Target) -> None:
    st.stack.append({"op": "pairs", "actor": None})


# -- terminal cards (004:183-221) -------------------------------------------------------------------------

def _access(st: HState, p: int) -> int | None:
    w = working(st, p)
    return w if w is not None and not st.broken[w] and st.has_access(p, w) else None


def t_query(st: HState, p: int) -> list[Target]:
    w = _access(st, p)
    return [{}] if w is not None and (st.locks[w] or not st.code[p][w]) else []


def e_query(st: HState, p: int, tg: Target) -> None:
    w = working(st, p)
    assert w is not None
    if st.locks[w]:
        st.locks[w] -= 1  # 004:189
        st.history.append({"k": "unlock", "p": p, "d": w, "left": st.locks[w]})
    else:
        learn(st, p, "code", w, at=w)


def t_lock(st: HState, p: int) -> list[Target]:
    w = _access(st, p)
    return [{}] if w is not None and st.locks[w] < 4 else []  # 004:193


def e_lock(st: HState, p: int, tg: Target) -> None:
    w = working(st, p)
    st.locks[w] += 1  # type: ignore[index]
    st.history.append({"k": "lock", "p": p, "d": w, "locks": st.locks[w]})  # type: ignore[index]


def t_network(st: HState, p: int) -> list[Target]:
    w = _access(st, p)
    return [{"d": d} for d in st.open_depts if d != w] if w is not None else []


def e_network(st: HState, p: int, tg: Target) -> None:
    st.work["at"] = tg["d"]


def t_additional(st: HState, p: int) -> list[Target]:
    t = st.terminal_of(p)
    ok = t is not None and working(st, p) == t and _access(st, p) == t and not st.extra_pw[t]
    # 004:205 "a PRIO of 7 or more": the PRIO marker (the PRIO used is taken away only in phase 9, 004:96); paying
    # for the card itself is every terminal card's rule (H-PRIO)
    return [{}] if ok and st.prio[p] >= 7 and free_prio(st, p) >= 2 else []


def e_additional(st: HState, p: int, tg: Target) -> None:
    t = st.terminal_of(p)
    assert t is not None
    st.extra_pw[t] = True
    for q in range(st.n):
        st.pwx[q][t] = q == p
    st.in_system[p] = t


def t_piping(st: HState, p: int) -> list[Target]:
    if _access(st, p) is None:
        return []
    return [{"who": q} for q in _others(st, p) if st.terminal_of(q) is not None and p not in st.piping.get(q, [])]


def e_piping(st: HState, p: int, tg: Target) -> None:
    q = tg["who"]
    st.piping.setdefault(q, []).append(p)
    for kind, d in list(st.found[q]):  # 004:209: what q already found this round comes at once
        learn(st, p, kind, d, passed=True)


def t_malfunction(st: HState, p: int) -> list[Target]:
    w = working(st, p)
    return [{}] if w is not None and not st.broken[w] else []


def e_malfunction(st: HState, p: int, tg: Target) -> None:
    st.stack.append({"op": "roll", "actor": None, "for": "malfunction", "k": 1, "p": p})


def malfunction(st: HState, p: int, die: int) -> None:
    """004:213-221, the table in engine/hacker/data/tables.toml."""
    w = working(st, p)
    assert w is not None
    what = tables().malfunction[die]
    if what == "password":  # the first password, or else the additional one if installed
        if not st.pw[p][w]:
            learn(st, p, "pw", w, at=w)
        elif st.extra_pw[w]:
            learn(st, p, "pwx", w, at=w)
    elif what == "code":
        learn(st, p, "code", w, at=w)
    elif what.startswith("time+"):
        st.time[p] = (st.time[p] or 0) + int(what[5:])
    elif what == "security":
        if st.has_access(p, w):
            st.in_system[p] = w  # "remains in the system until he leaves"
        security(st, w)
    else:
        st.broken[w] = True
    st.history.append({"k": "malfunction", "p": p, "die": die, "what": what})


def t_never(st: HState, p: int) -> list[Target]:
    return []  # HACK: only inside an attempt; SUPERSPY PROTECTION: only in a window


Handler = tuple[Callable[[HState, int], list[Target]], Callable[[HState, int, Target], None] | None]

HANDLERS: dict[str, Handler] = {
    "time": (t_time, e_time),
    "priority": (t_prio, e_prio),
    "security": (t_dept, e_security),
    "terminal_defect": (t_defect, e_defect),
    "spy": (t_spy, e_spy),
    "superspy": (t_superspy, e_superspy),
    "blackout": (t_none, e_blackout),
    "information_exchange": (t_none, e_exchange),
    "partner": (t_none, e_partner),
    "bluff": (t_never, None),
    "query": (t_query, e_query),
    "lock": (t_lock, e_lock),
    "hack": (t_never, None),
    "network_access": (t_network, e_network),
    "additional_password": (t_additional, e_additional),
    "piping": (t_piping, e_piping),
    "malfunction": (t_malfunction, e_malfunction),
    "superspy_protection": (t_never, None),
}

ATTACKS = frozenset({"spy", "superspy"})  # SUPERSPY PROTECTION answers these (004:227)
