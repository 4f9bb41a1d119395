"""Phase 8 (004:93-96): first every player's laid chance cards, then every player's laid terminal cards, from the
start player clockwise. Laid cards must be played where possible (004:91); a laid card that cannot be played is
turned over and discarded (H-UNPLAYABLE), terminal cards that were not active cost no PRIO. A hack is declared at
the start of the terminal turn (004:96). SPY and SUPER SPY open a window for SUPERSPY PROTECTION (004:227);
INFORMATION EXCHANGE deals place cards and each player gives (004:181)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import facedown, hackpad
from adp2p.engine.hacker.catalog import card, card_by_key
from adp2p.engine.hacker.effects import ATTACKS, HANDLERS
from adp2p.engine.hacker.facedown import goes_face_down, kind_of, not_of_kind
from adp2p.engine.hacker.obligations import owe
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import can_pay, claim_face, discard_public, learn

SSP = card_by_key("superspy_protection").id


def terminal_usable(st: HState, p: int) -> bool:
    t = st.terminal_of(p)
    return t is not None and not st.broken[t] and bool(st.time[p]) and not st.work.get("ejected")


def targets(st: HState, p: int, key: str, pile: str) -> list[dict[str, Any]]:
    """Where p may play a card `key` from this pile now ([] = it cannot be played)."""
    c = card_by_key(key)
    if kind_of(st, c) != ("chance" if pile == "chance" else "terminal"):
        return []
    if c.key == "superspy_protection":  # only under the face-down option (else it is never laid)
        return facedown.removal_targets(st, p)
    if c.kind == "terminal" and not (terminal_usable(st, p) and can_pay(st, p)):
        return []
    return HANDLERS[key][0](st, p)


# -- the sub-phase steps ----------------------------------------------------------------------------------

def step_chance(st: HState) -> bool:
    while st.order_done < st.n:
        p = st.clockwise(st.start)[st.order_done]  # type: ignore[arg-type]
        if st.work.get("cp") != p:
            st.work = {"cp": p, "t0": st.time[p], "p0": st.prio[p]}
            st.turn = p
            if facedown.activations(st, p):  # H-ACTIVATE: public facts only, so no hand is revealed
                st.stack.append({"op": "activate", "actor": p})
                return False
        if st.laid_chance[p]:
            st.stack.append({"op": "play", "actor": p, "pile": "chance"})
            return False
        st.order_done += 1
    return True


def step_terminal(st: HState) -> bool:
    while st.order_done < st.n:
        p = st.clockwise(st.start)[st.order_done]  # type: ignore[arg-type]
        if st.work.get("tp") != p:
            st.work = {"tp": p, "at": st.terminal_of(p)}
            st.turn = p
            t = st.terminal_of(p)
            if t is not None and st.has_access(p, t):
                st.in_system[p] = t
        t = st.terminal_of(p)
        if not terminal_usable(st, p):  # 004:128, 004:169: the laid terminal cards go, unused
            owe(st, "laid_wrong_pile", p, list(st.laid_term[p]), not_of_kind("terminal", st), "not a terminal card")
            for h in list(st.laid_term[p]):
                discard_public(st, h)
        elif t is not None and not st.has_access(p, t) and not st.work.get("declined"):
            st.stack.append({"op": "hack_choice", "actor": p})
            return False
        if st.laid_term[p]:
            st.stack.append({"op": "play", "actor": p, "pile": "term"})
            return False
        st.order_done += 1
    return True


# -- events -----------------------------------------------------------------------------------------------

def on_hack_choice(st: HState, p: int, ev: dict[str, Any]) -> None:
    if ev["t"] == "no_hack":
        st.work["declined"] = True
        return
    t = st.terminal_of(p)
    assert t is not None
    hackpad.begin(st, p, t)


def on_play(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p, pile = task["actor"], task["pile"]
    if ev["t"] == "face_down":
        facedown.on_face_down(st, p, ev)
        return
    h = ev.get("h")
    laid = st.laid_chance[p] if pile == "chance" else st.laid_term[p]
    if h not in laid:
        raise IllegalEvent("not_laid", f"seat {p + 1} did not lay {h!r} on its {pile} pile")
    key = ev.get("card")
    f = claim_face(st, h, key, p)
    c = card(f)
    if kind_of(st, c) != ("chance" if pile == "chance" else "terminal"):
        raise IllegalEvent("laid_wrong_pile", f"seat {p + 1} laid {c.key} on its {pile} pile")
    tgs = targets(st, p, c.key, pile)
    if pile == "chance" and goes_face_down(st, c):
        raise IllegalEvent("goes_face_down", f"seat {p + 1} must lay its {c.key} face down in front of an opponent")
    if ev["t"] == "discard":
        if tgs:
            raise IllegalEvent("laid_card_not_played", f"seat {p + 1} must play its laid {c.key} (004:91)")
        discard_public(st, h)
        st.history.append({"k": "unplayable", "p": p, "card": c.key})
        return
    tg = {k: v for k, v in ev.items() if k not in ("t", "p", "h", "card")}
    if tg not in tgs:
        raise IllegalEvent("bad_target", f"seat {p + 1} cannot play {c.key} on {tg}")
    discard_public(st, h)
    if c.kind == "terminal":
        st.used[p] += 1  # 004:96: 1 PRIO, taken in phase 9
        st.work["declined"] = True
    st.history.append({"k": "play", "p": p, "card": c.key, **tg})
    if c.key == "superspy_protection":
        facedown.remove(st, p, tg)
    elif c.key in ATTACKS and not st.profile.superspy_face_down:
        open_window(st, p, c.key, tg)
    else:
        HANDLERS[c.key][1](st, p, tg)  # type: ignore[misc]


def open_window(st: HState, p: int, key: str, tg: dict[str, Any]) -> None:
    """Every other player, from the attacker's left, may answer with SUPERSPY PROTECTION (004:227)."""
    st.stack.append({"op": "attack", "actor": None, "auto": True, "p": p, "card": key, "tg": tg})
    for q in reversed([q for q in st.clockwise(p) if q != p]):
        st.stack.append({"op": "protect", "actor": q})


def on_protect(st: HState, q: int, ev: dict[str, Any]) -> None:
    if ev["t"] == "decline":
        return
    h = ev.get("h")
    if h not in st.hands[q]:
        raise IllegalEvent("not_in_hand", f"seat {q + 1} does not hold {h!r}")
    claim_face(st, h, ev.get("card"), q)
    if st.faces[h] != SSP:
        raise IllegalEvent("not_protection", f"seat {q + 1} answered with a card that is not SUPERSPY PROTECTION")
    discard_public(st, h)
    while st.stack and st.stack[-1]["op"] == "protect":
        st.stack.pop()
    attack = st.stack.pop()
    st.history.append({"k": "protected", "p": q, "card": attack["card"], "attacker": attack["p"]})


def run_attack(st: HState, task: dict[str, Any]) -> None:
    HANDLERS[task["card"]][1](st, task["p"], task["tg"])  # type: ignore[misc]


def give_options(st: HState, g: int, r: int, task: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """004:181: a password g knows and r does not; failing that a code; failing that nothing. What g knew when the
    conference began (`task`'s "pw"/"code", H-EXCHANGE): nothing received in the same exchange is passed on."""
    knew_pw = task["pw"] if task is not None and "pw" in task else [d for d in st.open_depts if st.pw[g][d]]
    knew_code = task["code"] if task is not None and "code" in task else [d for d in st.open_depts if st.code[g][d]]
    pws = [{"what": "pw", "d": d} for d in st.open_depts if d in knew_pw and not st.pw[r][d]]
    return pws or [{"what": "code", "d": d} for d in st.open_depts if d in knew_code and not st.code[r][d]]


def on_deal(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    perm = ev.get("perm")
    if not (isinstance(perm, list) and all(isinstance(x, int) for x in perm) and sorted(perm) == list(range(st.n))):
        raise IllegalEvent("bad_deal", "the place cards are dealt as a permutation of the seats (H-EXCHANGE)")
    st.history.append({"k": "exchange", "perm": list(perm)})
    for g in reversed(st.clockwise(task["p"])):
        if perm[g] != g:  # what g knows now, at the conference's start, is what it may give (H-EXCHANGE)
            st.stack.append({"op": "give", "actor": g, "to": perm[g],
                             "pw": [d for d in st.open_depts if st.pw[g][d]],
                             "code": [d for d in st.open_depts if st.code[g][d]]})


def on_give(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    g, r = task["actor"], task["to"]
    choice = {"what": ev.get("what"), "d": ev.get("d")}
    if choice not in give_options(st, g, r, task):
        raise IllegalEvent("bad_give", f"seat {g + 1} cannot give {choice} to seat {r + 1}")
    learn(st, r, choice["what"], choice["d"])  # type: ignore[arg-type]


def on_pairs(st: HState, ev: dict[str, Any]) -> None:
    perm = ev.get("perm")
    if not (isinstance(perm, list) and all(isinstance(x, int) for x in perm) and sorted(perm) == list(range(6))):
        raise IllegalEvent("bad_pairs", "PARTNER deals the place cards 1-6 as a permutation")
    for a, b in zip(perm[::2], perm[1::2], strict=True):
        st.pairs[a], st.pairs[b] = b, a
    st.history.append({"k": "partner", "pairs": [perm[i : i + 2] for i in range(0, 6, 2)]})
