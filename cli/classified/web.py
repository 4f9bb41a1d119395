"""Classified Information on the page: its view as JSON for `web.js` (the opponent's and your Guard spots with what
you know of each, your Suitcase and hand as cards, the automatic Cypher Wheel, the piles, the Big Reveal at the
end), and each decision as the terminal's own staged menu (cli/classified/menu.py: card, how, target), clicked
instead of typed: a card or a Guard clicked narrows the choices to those that use it. A decision with one play (the
true answer to a question about your own cards, the Big Reveal) is taken with a note, as the terminal takes it.

The table hands the seat its view and the legal events; as at the terminal (cli/classified/seat.py), the page works
on the engine's view and events (`engine_view`, `to_engine`) and the event picked goes back as the table gave it."""

from __future__ import annotations

from typing import Any

from adp2p.cli.classified import screen
from adp2p.cli.classified.menu import Menu
from adp2p.cli.classified.seat import engine_view, to_engine
from adp2p.cli.classified.words import card_name, guild, say
from adp2p.cli.web.menu import Ask
from adp2p.engine.classified.api import pending
from adp2p.engine.classified.catalog import NUMBERS, card, code
from adp2p.engine.classified.memory import still_in_hand
from adp2p.engine.classified.state import CState

Event = dict[str, Any]
NAME = "classified"
LABELS = ("them", "you", "hand", "guards", "suitcase", "wheel", "shown", "encrypted", "discard", "deck", "down",
          "no_guards", "seen", "mixed_in", "end.head", "top", "their_hand")


def card_data(face: int, lang: str) -> dict[str, Any]:
    c = card(face)
    return {"face": face, "title": c.name(lang), "code": str(face), "kind": c.guild,
            "kinds": [guild(c.guild, lang), "Code " + " ".join(map(str, code(face)))], "text": c.text(lang),
            "requires": []}


def _card(v: CState, h: int, me: int, lang: str) -> dict[str, Any]:
    f = v.face(h, me)
    return {"h": h, **(card_data(f, lang) if f is not None else {"hidden": True})}


def _guards(v: CState, p: int, me: int, lang: str) -> list[dict[str, Any]]:
    tucked = set(v.protected(p).values())
    out = []
    for i, g in enumerate(v.guards[p], 1):
        f = screen.known(v, g, me)
        maybe = "" if f is not None else "".join(map(str, screen.guard_options(v, p, me, g)))
        out.append({"key": f"g{g}", "spot": i, "face": f, "name": card_name(f, lang) if f is not None else "",
                    "up": g in v.up, "maybe": maybe, "tucked": g in tucked})
    for e in v.protected(p):
        out.append({"key": f"g{e}", "spot": 0, "face": 6, "name": say("extra", lang), "up": True, "maybe": "",
                    "tucked": False})
    return out


def board(seen: Any, me: int | None, names: list[str] | None, lang: str, events: list[Event] | None = None,
          options: list[Event] | None = None) -> dict[str, Any]:
    v: CState = engine_view(seen)
    d = pending(v)
    out: dict[str, Any] = {
        "header": screen.header(v, me, lang).split(" · ", 1)[-1],  # (the page's title says the game)
        "labels": {k: say(k, lang, k="{k}") for k in LABELS},
        "actor": d.actor if d is not None else None,
        "over": v.over,
        "piles": {"encrypted": len(v.encrypted), "deck": len(v.deck),
                  "discard": [_card(v, h, me, lang) if me is not None else {"h": h, "hidden": True}
                              for h in v.discard[-6:]], "discards": len(v.discard)},
        "end": screen.end_lines(v, me, lang, 200) if v.over else [],
    }
    if me is None:
        return out
    o = 1 - me
    sh = v.suitcase[me]
    theirs, mine = screen.wheel(v, o, me), screen.wheel(v, me, o)
    out.update({
        "them": {"hand": len(v.hands[o]), "seen": [_card(v, h, me, lang) for h in v.hands[o]
                                                    if v.face(h, me) is not None], "guards": _guards(v, o, me, lang),
                 "mixed": [card_name(f, lang) for f in still_in_hand(v, o, me)]},
        "me": {"guards": _guards(v, me, me, lang), "suitcase": _card(v, sh, me, lang) if sh is not None else None},
        "wheel": {"theirs": [n in theirs for n in NUMBERS], "mine": [n in mine for n in NUMBERS],
                  "k_theirs": say("still", lang, k=len(theirs)), "k_mine": say("still", lang, k=len(mine))},
        "hand": [_card(v, h, me, lang) for h in v.hands[me]],
    })
    top = []
    for h in v.deck:
        f = v.face(h, me)
        if f is None:
            break
        top.append(f)
    out["piles"]["top"] = top
    return out


def _keys(ev: Event) -> list[int | str]:
    """The cards and Guards a play uses: the card's handle, a Guard "g<h>", a card of the opponent's hand."""
    hs: list[int | str] = [ev["h"]] if isinstance(ev.get("h"), int) and ev["t"] != "pick" else []
    if ev["t"] == "pick":
        hs.append(f"c{ev['h']}")
    for k in ("target", "mine", "theirs", "guard"):
        if isinstance(ev.get(k), int):
            hs.append(f"g{ev[k]}")
    hs += [f"g{g}" for g in ev.get("guards") or []]
    for k in ("suitcase", "encrypt"):
        if isinstance(ev.get(k), int):
            hs.append(ev[k])
    return hs


class Stages:
    """The terminal's menu behind the page's interface: choice n of the stage is the number typed."""

    def __init__(self, menu: Menu, options: list[Event], shown: list[Event]) -> None:
        self.menu, self.options, self.shown = menu, options, shown

    def choices(self) -> list[dict[str, Any]]:
        out = []
        n = len(self.menu.prefix)
        for label, (what, val) in self.menu.choices():
            if what == "event":
                out.append({"label": label, "cards": _keys(self.menu.options[val]), "more": 0})
            else:
                under = [i for i in self.menu.shown if self.menu.paths[i][: n + 1] == val]
                first = self.menu.options[under[0]]
                keys = sorted({k for i in under for k in _keys(self.menu.options[i])[:1]}, key=str) \
                    if n == 0 else _keys(first)[:1]
                out.append({"label": label, "cards": keys, "more": len(under)})
        return out

    def pick(self, n: int) -> Event | None:
        ev = self.menu.pick(str(n + 1))
        if ev is None:
            return None
        return self.options[next(i for i, o in enumerate(self.shown) if o is ev)]

    def back(self) -> bool:
        if not self.menu.prefix:
            return False
        self.menu.pick("0")
        return True

    def can_back(self) -> bool:
        return bool(self.menu.prefix)

    def head(self) -> str:
        return " › ".join(self.menu.prefix)


def _menu(seen: Any, me: int, options: list[Event], lang: str) -> tuple[Menu, list[Event]] | None:
    v: CState = engine_view(seen)
    d = pending(v)
    if d is None:
        return None
    shown = [to_engine(o) for o in options]
    return Menu(v, me, d.kind, d.info, shown, lang), shown


def ask(seen: Any, me: int, options: list[Event], names: list[str] | None, lang: str, **_: Any) -> Ask | Event:
    made = _menu(seen, me, options, lang)
    assert made is not None
    menu, shown = made
    if menu.single:
        return options[menu.shown[0]]
    return Ask(menu.title, Stages(menu, options, shown))


def taken_note(seen: Any, me: int, options: list[Event], taken: Event, lang: str, notes: list[str]) -> list[str]:
    """The note for a play taken without asking (the terminal's words), kept until the player chooses."""
    made = _menu(seen, me, options, lang)
    if made is None:
        return notes
    menu, _ = made
    what = menu.paths[menu.shown[0]][-1]
    if menu.kind == "answer":
        what = f"{menu.title.split(': ', 1)[-1]} {what}"
    return [*notes, say("auto", lang, what=what)][-6:]
