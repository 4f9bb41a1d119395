"""Access Denied on the page: its view as JSON for `web.js` (its board), and each decision as a `Menu` of the
engine's legal events.

Everything here reads the seat's engine view (the same `GameState` the terminal draws) and the terminal's own
renderables and words (screen.py, words.py): the board's tables are the terminal's, drawn to text; the
cards carry their catalog data so the page can draw them; each choice is one of the engine's legal events, labelled
by the terminal menu's `describe`, grouped as the terminal groups them. Nothing here judges what is legal.
"""

from __future__ import annotations

from typing import Any

from adp2p.cli.access_denied.menu import GROUPS, group_of
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.prompt import react_worth_asking, window_cause
from adp2p.cli.access_denied.screen import bonuses, checklist_table, hand_status, header, piles_line
from adp2p.cli.access_denied.words import LEVEL_LETTER, describe, history_line, player_name, sector_name
from adp2p.cli.tui.drawing import render_text
from adp2p.cli.web.menu import Ask, Menu
from adp2p.cli.web.words import word
from adp2p.engine.access_denied.api import pending
from adp2p.engine.access_denied.catalog import CODES, LEVEL_NAMES, ROOT, card
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.rules import count_level, hand_limit
from adp2p.engine.access_denied.state import GameState

Event = dict[str, Any]
NAME = "access-denied"
KIND_WORDS = {  # a card's kinds as the page labels them
    "reaction": {"en": "Reaction", "de": "Reaktion"},
    "upgrade": {"en": "Upgrade", "de": "Upgrade"},
    "sector": {"en": "Sector card", "de": "Sektorkarte"},
    "harmful": {"en": "Harmful", "de": "Schädlich"},
    "virus": {"en": "Virus", "de": "Virus"},
    "companion": {"en": "Companion", "de": "Begleiter"},
}


def card_data(face: int, lang: str) -> dict[str, Any]:
    """One card's face as the page draws it: title, code letter, kinds, text, what it requires."""
    c = card(face)
    text = c.text_de if lang == "de" else c.text
    body, _, _ = text.strip().partition("\n\nBen\u00f6tigt:" if lang == "de" else "\n\nRequires:")
    req = []
    if c.requires is not None:
        level = LEVEL_NAMES[max(1, c.requires.level)]
        req.append(f"{sector_name(c.requires.sector, lang)} {level}{'' if c.requires.root_only else '+'}")
    if c.password_code is not None:
        req.append(word("code", lang, c=CODES[c.password_code]))
    return {
        "face": face,
        "title": c.display_title(lang),
        "code": c.code_letter,
        "kinds": [KIND_WORDS[k][lang] for k in sorted(c.kinds) if k in KIND_WORDS],
        "text": body.strip(),
        "requires": req,
    }


def handle_card(st: GameState, h: int, me: int | None, lang: str) -> dict[str, Any]:
    f = st.face(h, me) if me is not None else st.faces.get(h)
    return {"h": h, **(card_data(f, lang) if f is not None else {"hidden": True})}


def handles_of(ev: Event) -> list[int | str]:
    """The cards an event uses and its targets, a sector "s<n>" or a player "q<n>" (the page lights them on the board
    and lets a click on one narrow the choices)."""
    out: list[int | str] = [ev[k] for k in ("card", "u") if isinstance(ev.get(k), int)]
    for k in ("cards", "new"):
        out += [h for h in ev.get(k) or [] if isinstance(h, int)]
    if ev.get("t") in ("play", "attempt", "univ") and isinstance(ev.get("s"), int):
        out.append(f"s{ev['s']}")
    if ev.get("t") in ("play", "trade", "give") and isinstance(ev.get("q"), int):
        out.append(f"q{ev['q']}")
    return out


def board(st: GameState, me: int | None, names: list[str] | None, lang: str, events: list[Event] | None = None,
          options: list[Event] | None = None) -> dict[str, Any]:
    """The board as the page shows it: the terminal's header and tables as text, the cards as data."""
    width = 100
    who = [player_name(st, p, names) for p in range(st.n)]
    out: dict[str, Any] = {
        "header": render_text(header(st, me, lang, names, asked=options is not None), width).strip(),
        "cols": {k: msg(f"col.{k}", lang) for k in ("sector", "ctrl", "access", "bonus", "on_sector")},
        "sectors": [{
            "name": sector_name(s, lang),
            "ctrl": st.controller[s],
            "access": [LEVEL_LETTER[st.access[p][s]] for p in range(st.n)],
            "bonus": [{"p": p, "what": msg(f"bonus.{b}", lang)} for p, b in bonuses(st, s)],
            "on": [handle_card(st, h, me, lang) for h in st.sector_cards.get(s, [])],
        } for s in range(6)],
        "players": [{"name": who[p], "hand": len(st.hands[p]), "limit": hand_limit(st, p),
                     "roots": count_level(st, p, ROOT),
                     "upgrades": [handle_card(st, h, me, lang) for h in st.upgrades[p]]} for p in range(st.n)],
        "piles": render_text(piles_line(st, lang), width).strip(),
        "top": handle_card(st, st.discard[-1], me, lang) if st.discard else None,
        "turn": st.turn.player if st.turn is not None else None,
        "over": st.over,
    }
    if me is None:
        return out
    status = hand_status(st, me, options, lang)
    out["hand"] = [{**handle_card(st, h, me, lang), "why": status.get(h)} for h in st.hands[me]]
    out["password"] = [{"sector": sector_name(s, lang), "cards": [handle_card(st, h, me, lang)
                                                                  for h in st.passwords.get(s, [])]}
                       for s in st.sectors_of(me)]
    out["upgrades"] = [handle_card(st, h, me, lang) for h in st.upgrades[me]]
    cl = checklist(st, me, events)
    out["notes_title"] = msg("checklist", lang)
    out["notes"] = render_text(checklist_table(st, cl, lang, names, lean=False), width).rstrip()
    return out


def checklist(st: GameState, me: int, events: list[Event] | None) -> Checklist:
    """The seat's checklist, as the terminal keeps it (from the event log when there is one)."""
    if events:
        try:
            return Checklist.rebuild(st, me, list(events))
        except Exception:  # a partial log never breaks the page: the view alone
            pass
    cl = Checklist(me)
    cl.sync(st)
    return cl


def ask(st: GameState, me: int, options: list[Event], names: list[str] | None, lang: str, *,
        react_seconds: float, react_to: str) -> Ask | Event:
    """The decision as the page asks it, or the event taken without asking (as the terminal takes it: a single
    choice; a reaction window not worth a countdown, or with no time to react)."""
    if len(options) == 1:
        return options[0]
    d = pending(st)
    if d is not None and d.kind == "window":
        passing = next(ev for ev in options if ev["t"] == "pass")
        if react_seconds <= 0 or (react_to != "all" and not react_worth_asking(st, me, options)):
            return passing
        about = window_cause(st)
        question = (msg("react_about", lang, what=history_line(about, lang, names)).strip() if about is not None
                    else msg("group.done", lang))
        items = [((describe(st, ev, me, lang, names),), i, handles_of(ev)) for i, ev in enumerate(options)]
        return Ask(question, Menu(options, items), seconds=react_seconds, timeout=passing)
    items = []
    for g in GROUPS:
        for i, ev in enumerate(options):
            if group_of(ev) == g:
                items.append(((msg("group." + g, lang), describe(st, ev, me, lang, names)), i, handles_of(ev)))
    return Ask(word("your_move", lang), Menu(options, items, flat_upto=14))
