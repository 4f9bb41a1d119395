"""Classified Information's screen from one seat's view (`api.view(state, seat)`) as plain lines: the header (turn,
deck, who decides), the opponent's side (hand size, Guards with what the viewer knows of each face-down one), the
viewer's side (Suitcase and its Code, Guards, hand), the automatic Cypher Wheel (the opponent's Suitcase Numbers
still possible, and what the viewer has shown them), the piles, the latest lines of the account; and the end screen
with the Big Reveal. It reads nothing but the view, so it shows nothing the player may not know."""

from __future__ import annotations

import textwrap
from collections import Counter

from adp2p.cli.classified import account
from adp2p.cli.classified.words import card_name, say
from adp2p.engine.classified.api import pending
from adp2p.engine.classified.catalog import NUMBERS, card, code
from adp2p.engine.classified.memory import mixed_faces, still_in_hand
from adp2p.engine.classified.questions import truth
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.wheel import weights


def header(v: CState, me: int | None, lang: str) -> str:
    parts = [say("title", lang)]
    if v.over:
        parts.append(say("over", lang))
    elif v.phase == "reveal":
        parts.append(say("reveal_phase", lang))
    elif v.turn is None:
        parts.append(say("setup", lang))
    else:
        parts.append(say("turn", lang, n=v.turn_no) + (" (" + say("final", lang) + ")" if v.final_turn else ""))
    parts.append(say("deck", lang, k=len(v.deck)))
    d = pending(v)
    if d is not None and d.actor is not None and not v.over:
        parts.append(say("you_decide", lang).upper() if d.actor == me else say("they_decide", lang)
                     if me is not None else say("decides", lang, who=f"P{d.actor + 1}"))
    return " · ".join(parts)


def known(v: CState, h: int, me: int | None) -> int | None:
    """h's Card Number as `me` knows it (an onlooker: as the record does): its face, else what its owner said of it
    at the Big Reveal (each such claim is proved against its card when it is said)."""
    f = v.face(h, me) if me is not None else v.faces.get(h)
    return f if f is not None else v.claimed.get(h)


def wheel(v: CState, owner: int, knower: int) -> dict[int, int]:
    """The Cypher Wheel of owner's Suitcase for knower (`weights`); after the Big Reveal, the number it was shown to
    be."""
    sh = v.suitcase[owner]
    if sh is None:
        return {}
    if v.face(sh, knower) is None and sh in v.claimed:
        return {v.claimed[sh]: 1}
    return weights(v, owner, knower, also_seen=mixed_faces(v, owner, knower)[0])  # (a card seen, then mixed away)


def guard_options(v: CState, owner: int, knower: int, g: int) -> list[int]:
    """The Card Numbers a face-down Guard of `owner` may have for `knower`: a Guard or a Sentinel, not both copies
    seen elsewhere — the owner's Suitcase counts as a copy seen once the Cypher Wheel leaves it one number —,
    consistent with every answer its owner gave about it (an attempt's "touch")."""
    seen = Counter(f for h in v.faces if h != g and h in v.loc and (f := v.face(h, knower)) is not None)  # (C-MIX)
    sh = v.suitcase[owner]
    case = weights(v, owner, knower) if sh is not None and sh != g and v.face(sh, knower) is None else {}
    if len(case) == 1:  # the Suitcase is certain though unseen: one copy of its number is not under this Guard
        seen[next(iter(case))] += 1
    out = []
    for n in NUMBERS:
        if not card(n).can_guard or seen[n] >= 2:
            continue
        def face_of(h: int, n: int = n) -> int | None:
            return n if h == g else v.face(h, knower)
        ok = True
        for e in v.history:
            if e.get("k") == "answer" and e.get("p") == owner and g in (e["question"].get("g"), e["question"].get("h")):
                t = truth(e["question"], face_of)
                ok = ok and (t is None or t == e["yes"])
        if ok:
            out.append(n)
    return out


def guard_cells(v: CState, p: int, me: int | None, lang: str) -> str:
    """p's Guards in spot order: its face where known (^ face up, v face down), else what may be under it."""
    if not v.guards[p] and not v.protected(p):
        return say("no_guards", lang)
    cells = []
    tucked_under = {g: e for e, g in v.protected(p).items()}
    for i, g in enumerate(v.guards[p], 1):
        f = known(v, g, me)
        up = g in v.up
        mark = "^" if up else "v"
        if f is not None:
            cell = f"{i}:{card_name(f, lang, short=True)}{mark}"
        elif me is not None:
            cell = f"{i}:?{mark}(" + "".join(str(n) for n in guard_options(v, p, me, g)) + ")"
        else:
            cell = f"{i}:?{mark}"
        if g in tucked_under:
            cell += "+EP"
        cells.append(cell)
    return "  ".join(cells)


def wheel_row(ws: dict[int, int]) -> str:
    """The nine numbers of the wheel: a possible one shown (bold when no copy of it is seen), the others as dots."""
    return " ".join(str(n) if n in ws else "·" for n in NUMBERS) + "  " + say("still", "en", k=len(ws))


def lines(v: CState, me: int | None, lang: str = "en", width: int = 80, account_lines: int = 4) -> list[str]:
    """The screen at `width` columns (each line at most width - 1 characters), top to bottom; `me` None: an
    onlooker's (a replay's), with no hand and no wheel."""
    out = [header(v, me, lang)]
    if me is None:
        for p in range(2):
            out.append(f"P{p + 1}: {say('their_hand', lang, k=len(v.hands[p]))} · {say('guards', lang)}: "
                       f"{guard_cells(v, p, None, lang)}")
    else:
        o = 1 - me
        seen = [card_name(f, lang) for h in v.hands[o] if (f := v.face(h, me)) is not None]
        mixed = [card_name(f, lang) for f in still_in_hand(v, o, me)]
        told = [f"{say('seen', lang)}: {', '.join(seen)}"] if seen else []
        told += [f"{say('mixed_in', lang)}: {', '.join(mixed)}"] if mixed else []
        out.append(f"{say('them', lang)}: {say('their_hand', lang, k=len(v.hands[o]))}"
                   + (f" ({'; '.join(told)})" if told else ""))
        out.append(f"  {say('guards', lang)}: {guard_cells(v, o, me, lang)}")
        sf = v.face(v.suitcase[me], me) if v.suitcase[me] is not None else None
        case = f"{sf} ({say('code', lang)} {' '.join(map(str, code(sf)))})" if sf else "-"
        out.append(f"{say('you', lang)}: {say('suitcase', lang)} {case}")
        out.append(f"  {say('guards', lang)}: {guard_cells(v, me, me, lang)}")
        hand = ", ".join(card_name(v.face(h, me), lang) for h in v.hands[me]) or "-"
        out.append(f"{say('hand', lang)}: {hand}")
        theirs, mine = wheel(v, o, me), wheel(v, me, o)
        w1 = say("wheel", lang) + ":"
        w2 = say("shown", lang) + ":"
        pad = max(len(w1), len(w2)) + 1
        out.append(w1.ljust(pad) + _wheel(theirs, lang))
        out.append(w2.ljust(pad) + _wheel(mine, lang))
    top = [card_name(v.face(h, me) if me is not None else v.faces.get(h), lang, short=True) for h in v.discard[-6:]]
    more = "… " if len(v.discard) > 6 else ""
    known_top = []
    for h in v.deck:
        f = v.face(h, me) if me is not None else None
        if f is None:
            break
        known_top.append(str(f))
    peeked = f" ({say('top', lang)}: {' '.join(known_top)})" if known_top else ""
    out.append(f"{say('encrypted', lang, k=len(v.encrypted))} · {say('discard', lang)} ({len(v.discard)}): "
               f"{more}{' '.join(top) or '-'} · {say('deck', lang, k=len(v.deck))}{peeked}")
    for s in account.lines(v, me, lang, account_lines):
        out.append("· " + s)
    return [x if len(x) <= width - 1 else x[: width - 2] + "…" for x in out]


def _wheel(ws: dict[int, int], lang: str) -> str:
    return " ".join(str(n) if n in ws else "·" for n in NUMBERS) + "   " + say("still", lang, k=len(ws))


def end_lines(v: CState, me: int | None, lang: str = "en", width: int = 80) -> list[str]:
    """The Big Reveal: each side's Suitcase (and Code), Guards and Final Card, each Unguarded Match explained, the
    Guard counts and the result."""
    end = next((e for e in reversed(v.history) if e.get("k") == "end"), None)
    if end is None:
        return []
    out = [f"=== {say('end.head', lang)} ==="]
    order = [me, 1 - me] if me is not None else [0, 1]
    for p in order:
        who = say("you_s" if p == me else "opp_s", lang) if me is not None else f"P{p + 1}"
        s = end["suitcases"][p]
        gs = " ".join(str(n) for n in end["guards"][p]) or say("no_guards", lang)
        out.append(say("end.case", lang, who=who, s=s, code=" ".join(map(str, code(s))) if s else "?", guards=gs,
                       final=end["finals"][p] if end["finals"][p] is not None else "-"))
    for p in order:
        who = say("you_s" if p == me else "opp_s", lang) if me is not None else f"P{p + 1}"
        o = 1 - p
        f, s = end["finals"][p], end["suitcases"][o]
        c = " ".join(map(str, code(s))) if s else "?"
        if end["matches"][p]:
            whose = say("whose.you" if me is not None and o == me else "whose.them", lang)
            out.append(say("end.match", lang, who=who, f=f, code=c, whose=whose))
        else:
            why = (say("why.none", lang) if f is None else say("why.guarded", lang, f=f) if s and f in code(s)
                   else say("why.not_in_code", lang, code=c))
            out.append(say("end.nomatch", lang, who=who, f=f if f is not None else "-", why=why))
    if end["matches"][0] == end["matches"][1]:
        out.append(say("end.both" if end["matches"][0] else "end.none", lang))
    a, b = (end["guard_counts"][p] for p in order)
    out.append(say("end.counts", lang, a=_num(a), b=_num(b)))
    out.append(account.result_words(end["winners"], end["reason"], me, lang))
    return [part for x in out for part in textwrap.wrap(x, width - 1, subsequent_indent="    ")]


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)
