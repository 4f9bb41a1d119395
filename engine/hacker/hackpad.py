"""A hack attempt (004:98-126): the controller (H-PAD: the hacker's left neighbour) has a private 2d6 roll and seals a
pad of checks; the hacker announces an outer square, then neighbouring squares; the controller answers each one;
a check ejects the hacker unless he turns over a laid HACK card (back to his last square; a check on the centre is
passed into it); at the end the controller opens roll and pad, which must follow the hack table and every answer.
Every fault of the controller is an IllegalEvent whose rule starts with "controller_" and whose message names him.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import board
from adp2p.engine.hacker.catalog import card_by_key, tables
from adp2p.engine.hacker.obligations import owe
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import can_pay, claim_face, discard_public, learn

HACK = card_by_key("hack").id


def controller_of(st: HState, hacker: int) -> int:
    return (hacker + 1) % st.n


def begin(st: HState, p: int, d: int) -> None:
    ctrl = controller_of(st, p)
    st.work["hack"] = {"p": p, "ctrl": ctrl, "d": d, "pos": None, "cleared": [], "hit": [], "answers": [],
                       "status": "running", "pending": None}
    st.sealed.pop(f"pad:{ctrl}", None)
    st.sealed.pop(f"roll:{ctrl}", None)
    st.stack += [{"op": "probe", "actor": p}, {"op": "seal", "actor": ctrl, "what": "pad"},
                 {"op": "private_roll", "actor": None, "p": ctrl}]
    st.history.append({"k": "hack", "p": p, "ctrl": ctrl, "d": d})


def probe_squares(st: HState) -> list[str]:
    """Squares the hacker may announce now: an outer one first, then a neighbour not already found clear (H-REVISIT)."""
    a = st.work["hack"]
    cand = board.outer() if a["pos"] is None else sorted(board.neighbours(a["pos"]))
    return [s for s in cand if s not in a["cleared"]]


def on_probe(st: HState, ev: dict[str, Any]) -> None:
    a = st.work["hack"]
    if ev.get("sq") == "abandon":
        st.history.append({"k": "abandon", "p": a["p"], "d": a["d"]})
        _end(st, "ejected")
        return
    if ev.get("sq") not in probe_squares(st):
        raise IllegalEvent("bad_probe", f"seat {a['p']} may not announce {ev.get('sq')!r} now")
    a["pending"] = ev["sq"]
    st.stack.append({"op": "answer", "actor": a["ctrl"], "sq": ev["sq"]})


def on_answer(st: HState, ev: dict[str, Any]) -> None:
    a = st.work["hack"]
    sq, check = a["pending"], ev.get("check")
    if not isinstance(check, bool):
        raise IllegalEvent("bad_answer", "an answer is check true or false")
    pad = st.secrets.get(f"pad:{a['ctrl']}")
    if pad is not None and (sq in pad) != check:
        raise IllegalEvent("controller_false_answer",
                           f"seat {a['ctrl']} (controller) answered {check} for {sq} against its committed pad")
    a["answers"].append([sq, check])
    st.history.append({"k": "probe", "p": a["p"], "sq": sq, "check": check})  # the answer is said aloud (004:118)
    if not check:
        a["cleared"].append(sq)
        a["pos"] = sq
        if sq == board.CENTRE:
            _end(st, "success")
        else:
            st.stack.append({"op": "probe", "actor": a["p"]})
    else:
        st.stack.append({"op": "pass_check", "actor": a["p"]})


def hack_cards(st: HState, p: int) -> list[int]:
    """p's laid terminal cards this instance knows to be HACK cards."""
    return [h for h in st.laid_term[p] if st.faces.get(h) == HACK]


def on_pass_check(st: HState, ev: dict[str, Any]) -> None:
    """The hacker turns over a laid HACK card (and pays a PRIO point), or is thrown out."""
    a = st.work["hack"]
    p = a["p"]
    if ev["t"] == "eject":
        if hack_cards(st, p) and can_pay(st, p):
            raise IllegalEvent("hack_card_withheld", f"seat {p + 1} has a laid HACK card and must use it (004:126)")
        owe(st, "hack_card_withheld", p, list(st.laid_term[p]), {"hack"} if can_pay(st, p) else set(),
            "thrown out holding a laid HACK card (004:126)")
        _end(st, "ejected")
        return
    h = ev.get("h")
    if h not in st.laid_term[p] or ev.get("card") != "hack":
        raise IllegalEvent("not_laid", f"seat {p + 1} has not laid {h!r} as a HACK card")
    if not can_pay(st, p):
        raise IllegalEvent("no_prio", f"seat {p + 1} has no PRIO left to play a terminal card")
    claim_face(st, h, "hack", p)
    discard_public(st, h)
    st.used[p] += 1
    a["hit"].append(a["pending"])
    st.history.append({"k": "use_hack", "p": p, "sq": a["pending"]})  # the card is turned over: public
    if a["pending"] == board.CENTRE:  # 004:126: a check on the centre is passed into the centre
        a["pos"] = board.CENTRE
        _end(st, "success")
    else:
        st.stack.append({"op": "probe", "actor": p})


def _end(st: HState, status: str) -> None:
    a = st.work["hack"]
    a["status"] = status
    st.stack.append({"op": "open_pad", "actor": a["ctrl"]})


def check_opening(st: HState, ctrl: int, roll: Any, checks: Any) -> list[str]:
    """The controller's opening against its private roll, the hack table and every answer it gave."""
    a = st.work["hack"]
    if not (isinstance(roll, list) and len(roll) == 2 and all(isinstance(x, int) and 1 <= x <= 6 for x in roll)):
        raise IllegalEvent("controller_bad_roll", f"seat {ctrl} (controller) opened {roll!r}, not two dice")
    known_roll = st.secrets.get(f"roll:{ctrl}")
    if known_roll is not None and sorted(known_roll) != sorted(roll):
        raise IllegalEvent("controller_roll_not_committed",
                           f"seat {ctrl} (controller) opened roll {roll}, its private roll was {known_roll}")
    if not (isinstance(checks, list) and all(board.is_square(s) for s in checks) and len(set(checks)) == len(checks)):
        raise IllegalEvent("controller_pad_breaks_table", f"seat {ctrl} (controller) opened a malformed pad")
    want = tables().hack_table[sum(roll)]
    if board.ring_counts(checks) != tuple(want):
        raise IllegalEvent("controller_pad_breaks_table",
                           f"seat {ctrl} (controller) placed {board.ring_counts(checks)} checks; a roll of "
                           f"{sum(roll)} places {tuple(want)} (outer, middle, centre)")
    pad = st.secrets.get(f"pad:{ctrl}")
    if pad is not None and sorted(pad) != sorted(checks):
        raise IllegalEvent("controller_pad_not_committed", f"seat {ctrl} (controller) opened another pad than sealed")
    for sq, check in a["answers"]:
        if (sq in checks) != check:
            raise IllegalEvent("controller_false_answer",
                               f"seat {ctrl} (controller) answered {check} for {sq}; its pad says {not check}")
    return sorted(checks)


def on_open(st: HState, ev: dict[str, Any]) -> None:
    a = st.work["hack"]
    checks = check_opening(st, a["ctrl"], ev.get("roll"), ev.get("checks"))
    p, d = a["p"], a["d"]
    for key in (f"pad:{a['ctrl']}", f"roll:{a['ctrl']}"):
        st.sealed.pop(key, None)
        st.secrets.pop(key, None)
    st.history.append({"k": "hack_" + a["status"], "p": p, "d": d, "roll": ev["roll"], "checks": checks})
    if a["status"] == "success":  # 004:118: the password (unused HACK cards: discarded in the play loop, no PRIO)
        learn(st, p, "pw" if not st.pw[p][d] else "pwx", d, at=d)
        if st.has_access(p, d):
            st.in_system[p] = d
    else:  # 004:122: every laid terminal card goes to the discard pile, no PRIO
        for h in list(st.laid_term[p]):
            discard_public(st, h)
        st.work["ejected"] = True
    st.work.pop("hack")
