"""Hacker on the page: its view as JSON for `web.js` (its board), and each decision as the terminal's own menu
(cli/hacker/menu.py: groups, the hack pad square by square), clicked instead of typed.

The table hands the seat the plug-in's `TableState` and the legal events in the log's form; as at the terminal
(cli/hacker/seat.py), the page works on the engine's view and events (`to_engine`) and the event picked goes back in
the log's form. The board is the terminal page's lines (cli/hacker/screen.py) as text; the player's cards carry
Hacker's card data so the page can draw them. A single choice, or one the player cannot tell apart from another,
is taken with a note, as the terminal takes it (cli/hacker/forced.py).
"""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker import forced
from adp2p.cli.hacker.menu import Menu as HackerMenu
from adp2p.cli.hacker.screen import lines, marks, pad_lines
from adp2p.cli.hacker.words import card_name, card_text, place_name, say, seat_name
from adp2p.cli.tui.drawing import render_text
from adp2p.cli.web.menu import Ask
from adp2p.engine.hacker.api import pending
from adp2p.engine.hacker.board import CAFE, COLS
from adp2p.engine.hacker.catalog import card
from adp2p.engine.hacker.state import HState
from adp2p.games.hacker.table_events import to_engine

Event = dict[str, Any]
NAME = "hacker"
KINDS = {"chance": {"en": "Chance card", "de": "Ereigniskarte"},
         "terminal": {"en": "Terminal card", "de": "Terminalkarte"},
         "defence": {"en": "Defence", "de": "Abwehr"}}


def card_data(face: int, lang: str) -> dict[str, Any]:
    c = card(face)
    return {"face": face, "title": card_name(face, lang), "kind": c.kind,
            "kinds": [KINDS.get(c.kind, {}).get(lang, c.kind)], "text": card_text(face, lang).strip(), "requires": []}


def _card(v: HState, h: int, me: int, lang: str) -> dict[str, Any]:
    f = v.face(h, me)
    return {"h": h, **(card_data(f, lang) if f is not None else {"hidden": True})}


def board(seen: Any, me: int | None, names: list[str] | None, lang: str, events: list[Event] | None = None,
          options: list[Event] | None = None) -> dict[str, Any]:
    v: HState = seen.eng
    d = pending(v)
    who = [seat_name(p, me, lang, names) for p in range(v.n)]

    def person(x: int) -> str:
        return who[x] if x >= 0 else say("dummy", lang)

    out: dict[str, Any] = {
        "header": render_text(lines(v, me, lang, names, 100, account_lines=0)[0], 100).strip(),
        "depts": [{
            "name": place_name(k, lang),
            "open": k in v.open_depts,
            "flags": flags(v, k, lang),
            "broken": bool(v.broken[k]),
            "terminal": None if not v.dept[k] else {"who": person(v.dept[k][0]), "p": v.dept[k][0],
                                                     "time": v.time[v.dept[k][0]] if v.dept[k][0] >= 0 else None},
            "queue": [{"who": person(x), "p": x} for x in v.dept[k][1:]],
        } for k in range(6)],
        "cafe": {"name": say("cafe", lang).capitalize(), "who": [who[p] for p in range(v.n) if v.where[p] == CAFE]},
        "cols": {k: say(f"h_{k}", lang) for k in ("at", "time", "prio", "pw", "codes", "cards")},
        "players": [{
            "name": who[p],
            "at": say("cafe_short", lang) if v.where[p] == CAFE else place_name(v.where[p], lang)
                  + (say("queue_mark", lang) if v.terminal_of(p) != v.where[p] else ""),
            "time": v.time[p], "prio": f"{v.prio[p]}" + (f"-{v.used[p]}" if v.used[p] else ""),
            "pw": marks(v.pw[p], v.pwx[p], v.open_depts).plain, "code": marks(v.code[p], None, v.open_depts).plain,
            "codes": v.codes(p),
            "cards": f"{len(v.hands[p])}/{len(v.laid_chance[p]) + len(v.laid_term[p])}/{len(v.front[p])}",
        } for p in range(v.n)],
        "actor": d.actor if d is not None else None,
        "pad": "\n".join(t.plain for t in pad_lines(v, me, lang, names)),
        "squares": pad_squares(v, me),
        "over": v.over,
    }
    if me is None:
        return out
    out["hand"] = [_card(v, h, me, lang) for h in v.hands[me]]
    out["laid"] = [_card(v, h, me, lang) for h in [*v.laid_chance[me], *v.laid_term[me]]]
    return out


def pad_squares(v: HState, me: int | None) -> list[list[dict[str, str]]] | None:
    """The hack pad while an attempt runs, square by square with the terminal's marks (cli/hacker/screen.py
    `pad_lines`: @ position, ? asked, X check, o clear, # the controller's own checks, on its page only)."""
    a = v.work.get("hack") if isinstance(v.work, dict) else None
    if not a or a.get("status") != "running":
        return None
    mine = v.secrets.get(f"pad:{me}") if me is not None and me == a["ctrl"] else None
    answers = a.get("answers", [])
    rows = []
    for r in range(1, 6):
        row = []
        for c in COLS:
            sq = f"{c}{r}"
            answered = any(x[0] == sq for x in answers)
            mark = ("@" if sq == a["pos"] else "?" if sq == a.get("pending") and not answered
                    else "X" if sq in a["hit"] or [sq, True] in answers else "o" if sq in a["cleared"]
                    else "#" if mine and sq in mine else "·")
            row.append({"sq": sq, "mark": mark})
        rows.append(row)
    return rows


def flags(v: HState, k: int, lang: str) -> list[str]:
    """A department's state in the terminal's words: closed, its LOCKs, an extra password, a defect."""
    if k not in v.open_depts:
        return [say("closed", lang)]
    out = [say("lock", lang, k=v.locks[k])] if v.locks[k] else []
    out += [say("extra_pw", lang)] if v.extra_pw[k] else []
    return out + ([say("broken", lang)] if v.broken[k] else [])


class Stages:
    """The terminal's menu (`HackerMenu`) behind the page's interface: choice n of the stage is the number typed."""

    def __init__(self, menu: HackerMenu, options: list[Event], shown: list[Event], v: HState, me: int) -> None:
        self.menu, self.options, self.shown, self.v, self.me = menu, options, shown, v, me

    def _cards(self, payload: Any) -> list[int | str]:
        """The cards a choice uses and its targets: a department "d<n>", a player "q<n>", a square "sq:C3"."""
        what, val = payload
        if what == "square":
            return [f"sq:{val}"]
        if what != "event":
            return []
        ev = self.menu.options[val]
        hs: list[int | str] = [ev["h"]] if isinstance(ev.get("h"), int) else []
        if isinstance(ev.get("d"), int):
            hs.append(f"d{ev['d']}")
        if isinstance(ev.get("who"), int):
            hs.append(f"q{ev['who']}")
        if ev.get("t") == "probe" and isinstance(ev.get("sq"), str) and ev["sq"] != "abandon":
            hs.append(f"sq:{ev['sq']}")
        hs += [h for h in ev.get("hs") or [] if isinstance(h, int)]
        secret = ev.get("secret")
        if isinstance(secret, dict):
            hs += [h for k in ("chance", "term") for h in secret.get(k, []) if isinstance(h, int)]
        if isinstance(ev.get("card"), str):  # a card played by name: the copies of it in the hand
            hs += [h for h in self.v.hands[self.me] if (f := self.v.face(h, self.me)) is not None
                   and card(f).key == ev["card"]]
        return hs

    def choices(self) -> list[dict[str, Any]]:
        return [{"label": label, "cards": self._cards(payload), "more": 0 if payload[0] != "group" else 1}
                for label, payload in self.menu.choices()]

    def pick(self, n: int) -> Event | None:
        ev = self.menu.pick(str(n + 1))
        if ev is None:
            return None
        return self.options[next(i for i, o in enumerate(self.shown) if o is ev)]

    def back(self) -> bool:
        if not self.can_back():
            return False
        self.menu.pick("0")
        return True

    def can_back(self) -> bool:
        return bool(self.menu.prefix or self.menu.picked)

    def head(self) -> str:
        if self.menu.pad:
            size = len(self.menu.options[0]["secret"]) if self.menu.options else 0
            return say("pick_pad", self.menu.lang, sqs=" ".join(self.menu.picked) or "-", k=len(self.menu.picked),
                       n=size)
        return " › ".join(self.menu.prefix)


def ask(seen: Any, me: int, options: list[Event], names: list[str] | None, lang: str, **_: Any) -> Ask | Event:
    if options and options[0].get("t") == "private_roll":
        return options[0]  # the table's dice protocol makes the roll, whatever is picked here
    v: HState = seen.eng
    shown = [to_engine(o) for o in options]
    d = pending(v)
    assert d is not None
    menu = HackerMenu(v, me, d.kind, d.info, shown, lang, names)
    only_discards = all(ev["t"] == "discard" for ev in shown)  # which one first is no choice (H-UNPLAYABLE)
    if not menu.pad and (len(menu.shown) == 1 or only_discards):
        return options[menu.shown[0]]
    return Ask(menu.title, Stages(menu, options, shown, v, me))


def taken_note(seen: Any, me: int, options: list[Event], taken: Event, lang: str, notes: list[str]) -> list[str]:
    """The note for a choice taken without asking (the terminal's words), kept until the player chooses."""
    if not options or options[0].get("t") == "private_roll":
        return notes
    v: HState = seen.eng
    shown = [to_engine(o) for o in options]
    d = pending(v)
    if d is None:
        return notes
    menu = HackerMenu(v, me, d.kind, d.info, shown, lang)
    what = menu.paths[menu.shown[0]][-1]
    if d.kind == "answer":
        what = f"{d.info.get('sq', '?')} {what}"
    why = forced.reason(v, me, d.kind, d.info, shown, lang)
    note = say("auto_why", lang, what=what, why=why) if why else say("auto", lang, what=what)
    return [*notes, note][-6:]


