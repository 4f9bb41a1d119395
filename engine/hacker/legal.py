"""The events a seat may append now, judged on what that seat knows (its own faces and sealed values). Sealing
decisions are offered as intents carrying `secret` and an empty commitment `c`: the caller seals the value (the
table: a real commitment; a simulation: anything) and posts the event without its secret."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adp2p.engine.hacker import board, facedown, hackpad, playing, sealing
from adp2p.engine.hacker.catalog import card, tables
from adp2p.engine.hacker.facedown import goes_face_down, kind_of
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import can_pay

Event = dict[str, Any]


def _subsets(xs: list[int]) -> list[list[int]]:
    return [list(c) for k in range(len(xs) + 1) for c in combinations(xs, k)]


def lay_choices(st: HState, p: int) -> list[dict[str, list[int]]]:
    out = []
    for sub in _subsets(sorted(st.hands[p])):
        if any(st.faces.get(h) is None for h in sub):
            continue
        chance = [h for h in sub if kind_of(st, card(st.faces[h])) == "chance"]
        term = [h for h in sub if kind_of(st, card(st.faces[h])) == "terminal"]
        if len(chance) + len(term) == len(sub) and sealing.lay_problem(st, p, chance, term) is None:
            out.append({"chance": chance, "term": term})
    return out


def pads(roll: list[int]) -> list[list[str]]:
    """Every pad a roll allows (the hack table's counts per ring)."""
    want = tables().hack_table[sum(roll)]
    rings = [[s for s in board.squares() if board.ring(s) == r] for r in range(3)]
    out: list[list[str]] = [[]]
    for r in range(3):
        out = [a + list(b) for a in out for b in combinations(rings[r], want[r])]
    return [sorted(x) for x in out]


def _seal(st: HState, p: int, what: str) -> list[Event]:
    if what == "place":
        values: list[Any] = sealing.places_for(st, p)
    elif what == "lay":
        values = lay_choices(st, p)
    else:
        roll = st.secrets.get(f"roll:{p}")
        values = pads(roll) if roll is not None else []
    return [{"t": "seal", "p": p, "what": what, "c": "", "secret": v} for v in values]


def _unseal(st: HState, p: int, what: str) -> list[Event]:
    secret = st.secrets.get(sealing.key(what, p))
    if what == "place":
        return [{"t": "unseal", "p": p, "what": "place", "to": secret}] if secret is not None else [
            {"t": "unseal", "p": p, "what": "place", "to": x} for x in sealing.places_for(st, p)]
    return [{"t": "unseal", "p": p, "what": "lay", **secret}] if secret is not None else []


def _play(st: HState, p: int, pile: str) -> list[Event]:
    out: list[Event] = []
    for h in st.laid_chance[p] if pile == "chance" else st.laid_term[p]:
        f = st.faces.get(h)
        if f is None:
            continue
        key = card(f).key
        if pile == "chance" and goes_face_down(st, card(f)):
            out += facedown.face_down_events(st, p, h)
            continue
        tgs = playing.targets(st, p, key, pile)
        out += [{"t": "play", "p": p, "h": h, "card": key, **tg} for tg in tgs] or [
            {"t": "discard", "p": p, "h": h, "card": key}]
    return out


def _pass_check(st: HState, p: int) -> list[Event]:
    hacks = hackpad.hack_cards(st, p) if can_pay(st, p) else []
    return [{"t": "use_hack", "p": p, "h": h, "card": "hack"} for h in hacks] or [{"t": "eject", "p": p}]


def _answer(st: HState, p: int, task: dict[str, Any]) -> list[Event]:
    pad = st.secrets.get(f"pad:{p}")
    if pad is None:
        return [{"t": "answer", "p": p, "check": c} for c in (False, True)]
    return [{"t": "answer", "p": p, "check": task["sq"] in pad}]


def _open_pad(st: HState, p: int) -> list[Event]:
    roll, pad = st.secrets.get(f"roll:{p}"), st.secrets.get(f"pad:{p}")
    return [{"t": "open_pad", "p": p, "roll": list(roll), "checks": list(pad)}] if roll and pad is not None else []


def _protect(st: HState, p: int) -> list[Event]:
    ssp = [h for h in st.hands[p] if st.faces.get(h) == playing.SSP]
    return [{"t": "decline", "p": p}] + [{"t": "protect", "p": p, "h": h, "card": "superspy_protection"} for h in ssp]


def legal(st: HState, p: int) -> list[Event]:
    if st.over or not st.stack or st.stack[-1]["actor"] != p:
        return []
    task = st.stack[-1]
    op = task["op"]
    if op == "pass":
        return [{"t": "pass", "p": p, "h": h} for h in st.hands[p]]
    if op == "seal":
        return _seal(st, p, task["what"])
    if op == "unseal":
        return _unseal(st, p, task["what"])
    if op == "play":
        return _play(st, p, task["pile"])
    if op == "activate":
        return [{"t": "no_activate", "p": p}] + [
            {"t": "activate", "p": p, "h": h, "card": "superspy", "d": d}
            for h, _q, d in facedown.activations(st, p) if st.faces.get(h) == facedown.SUPERSPY]
    if op == "hack_choice":
        return [{"t": "hack", "p": p}, {"t": "no_hack", "p": p}]
    if op == "probe":
        return [{"t": "probe", "p": p, "sq": s} for s in hackpad.probe_squares(st)] + [
            {"t": "probe", "p": p, "sq": "abandon"}]
    if op == "answer":
        return _answer(st, p, task)
    if op == "pass_check":
        return _pass_check(st, p)
    if op == "open_pad":
        return _open_pad(st, p)
    if op == "protect":
        return _protect(st, p)
    if op == "give":
        return [{"t": "give", "p": p, **o} for o in playing.give_options(st, p, task["to"], task)]
    if op == "exchange":
        return [{"t": "exchange", "p": p, "hs": s} for s in _subsets(sorted(st.hands[p]))]
    raise AssertionError(op)
