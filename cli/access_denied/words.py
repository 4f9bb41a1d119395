"""Access Denied's words for the terminal and the page: cards, sectors, levels and events described for one player,
in English or German (its message table is cli/access_denied/messages.py). Presentation only: every fact comes from the
engine's state."""

from __future__ import annotations

from typing import Any

from adp2p.cli.access_denied.messages import msg
from adp2p.engine.access_denied.catalog import CODES, LEVEL_NAMES, card, sectors
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.narration import text as narrate
from adp2p.engine.access_denied.state import GameState

__all__ = ["LEVEL_LETTER", "LEVEL_NAMES", "card_label", "card_text", "describe", "handle_label", "history_line",
           "player_name", "sector_name"]

LEVEL_LETTER = ("-", "U", "O", "R")


def sector_name(s: int, lang: str = "en") -> str:
    return sectors()[s].display_name(lang)


def card_label(face: int | None, lang: str = "en") -> str:
    if face is None:
        return msg("hidden_card", lang)
    c = card(face)
    return f"{c.display_title(lang)} [{CODES[c.code]}]"


def card_text(face: int, lang: str = "en") -> str:
    c = card(face)
    return c.text_de if lang == "de" else c.text


def player_name(st: GameState, p: int, names: list[str] | None = None) -> str:
    return names[p] if names and p < len(names) else f"P{p + 1}"


def handle_label(st: GameState, h: int, viewer: int, lang: str = "en") -> str:
    return card_label(st.face(h, viewer), lang)


def describe(st: GameState, ev: dict[str, Any], viewer: int, lang: str = "en", names: list[str] | None = None) -> str:
    """One legal event as a menu line for `viewer`."""
    t = ev["t"]

    def hs(xs: list[int]) -> str:
        return ", ".join(handle_label(st, h, viewer, lang) for h in xs)

    def who(q: int) -> str:
        return player_name(st, q, names)

    if t == "play":
        text = msg("ev.play", lang, card=handle_label(st, ev["card"], viewer, lang))
        if "backdoor" in ev:
            text += msg("ev.backdoor", lang)
        if "q" in ev:
            text += msg("ev.against", lang, who=who(ev["q"]))
        if "s" in ev:
            text += msg("ev.on", lang, sector=sector_name(ev["s"], lang))
        if "u" in ev:
            text += ": " + handle_label(st, ev["u"], viewer, lang)
        if "new" in ev:
            text += msg("ev.new_password", lang, cards=hs(ev["new"]))
        return text
    if t == "attempt":
        lvl = LEVEL_NAMES[min(3, st.access[ev["p"]][ev["s"]] + 1)]
        key = "ev.attempt" if st.controller[ev["s"]] is not None else "ev.buy_access"
        return msg(key, lang, level=lvl, sector=sector_name(ev["s"], lang), cards=hs(ev["cards"]))
    if t in ("done", "pass", "begin", "gov_draw", "news_skip", "password_draw"):
        return msg(f"ev.{t}", lang)
    if t == "univ":
        return msg("ev.univ", lang, sector=sector_name(ev["s"], lang))
    if t == "discard":
        return msg("ev.discard", lang, cards=hs(ev["cards"])) if ev["cards"] else msg("ev.discard_none", lang)
    if t == "draw":
        return msg("ev.draw", lang, n=ev["n"]) + (msg("ev.draw_bank", lang) if ev.get("bank") else "")
    if t == "password":
        return msg("ev.password", lang, sector=sector_name(ev["s"], lang), cards=hs(ev["cards"]))
    if t == "answer":
        answers = ", ".join(msg("ev.match" if m else "ev.no_match", lang) for m in ev["match"])
        return msg("ev.answer", lang, answers=answers)
    if t == "trade":
        # (the code it promises is the card's own, shown in its label)
        return msg("ev.trade", lang, card=handle_label(st, ev["card"], viewer, lang), who=who(ev["q"]))
    if t == "trade_reply":
        if not ev["accept"]:
            return msg("ev.trade_decline", lang)
        return msg("ev.trade_accept", lang, cards=hs(ev["cards"]) or msg("nothing", lang))
    if t == "tele_action":
        return msg("ev.tele_action", lang, cards=hs(ev["cards"]))
    if t == "take":
        return msg("ev.take", lang, card=handle_label(st, ev["card"], viewer, lang))
    if t == "give":
        if "q" in ev:
            return msg("ev.give_to", lang, who=who(ev["q"]))
        return msg("ev.give", lang, cards=hs(ev["cards"]))
    if t == "spam_give":
        return msg("ev.spam_give", lang, cards=hs(ev["cards"]) or msg("nothing", lang))
    return str(ev)


# -- the engine's account, in the player's language ----------------------------------------------------


def history_line(line: Happening | str, lang: str = "en", names: list[str] | None = None) -> str:
    """One happening of the engine's account in `lang`, seats named by `names` (engine.narration); a line that is
    already words is shown as it is."""
    return line if isinstance(line, str) else narrate(line, lang, names)
