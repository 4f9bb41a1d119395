"""Plain words for the terminal: cards, sectors, levels and events described for one player, in English or
German. Presentation only: every fact comes from the engine's state."""

from __future__ import annotations

from typing import Any

from adp2p.engine.catalog import CODES, LEVEL_NAMES, card, sectors
from adp2p.engine.state import GameState


def sector_name(s: int, lang: str = "en") -> str:
    return sectors()[s].display_name(lang)


def card_label(face: int | None, lang: str = "en") -> str:
    if face is None:
        return "a hidden card" if lang == "en" else "eine verdeckte Karte"
    c = card(face)
    return f"{c.display_title(lang)} [{CODES[c.code]}]"


def player_name(st: GameState, p: int, names: list[str] | None = None) -> str:
    return names[p] if names and p < len(names) else f"P{p + 1}"


def handle_label(st: GameState, h: int, viewer: int, lang: str = "en") -> str:
    return card_label(st.face(h, viewer), lang)


def describe(
    st: GameState, ev: dict[str, Any], viewer: int, lang: str = "en", names: list[str] | None = None
) -> str:
    """One legal event as a menu line for `viewer`."""
    t = ev["t"]
    de = lang == "de"

    def hs(xs: list[int]) -> str:
        return ", ".join(handle_label(st, h, viewer, lang) for h in xs)

    if t == "play":
        text = ("Spiele " if de else "Play ") + handle_label(st, ev["card"], viewer, lang)
        if "backdoor" in ev:
            text += " + Backdoor"
        if "q" in ev:
            text += (" gegen " if de else " against ") + player_name(st, ev["q"], names)
        if "s" in ev:
            text += (" auf " if de else " on ") + sector_name(ev["s"], lang)
        if "u" in ev:
            text += ": " + handle_label(st, ev["u"], viewer, lang)
        if "new" in ev:
            text += (" neues Passwort " if de else " new password ") + hs(ev["new"])
        return text
    if t == "attempt":
        lvl = LEVEL_NAMES[st.access[ev["p"]][ev["s"]] + 1]
        return (
            f"Zugangsversuch {lvl} auf {sector_name(ev['s'], lang)} mit {hs(ev['cards'])}"
            if de
            else f"Attempt {lvl} access to {sector_name(ev['s'], lang)} with {hs(ev['cards'])}"
        )
    if t == "done":
        return "Schritt beenden" if de else "End this step"
    if t == "pass":
        return "Passen" if de else "Pass"
    if t == "begin":
        return "Zug beginnen" if de else "Begin your turn"
    if t == "gov_draw":
        return "Oberste Ablage nehmen (Regierung)" if de else "Take the top discard (Government bonus)"
    if t == "news_skip":
        return (
            "Zug überspringen und ziehen (Nachrichten)" if de else "Skip your turn and draw (NewsMedia bonus)"
        )
    if t == "univ":
        return (
            f"User-Zugang zu {sector_name(ev['s'], lang)} (Universitäten)"
            if de
            else f"User access to {sector_name(ev['s'], lang)} (Universities bonus)"
        )
    if t == "discard":
        if not ev["cards"]:
            return "Nichts ablegen" if de else "Discard nothing"
        return ("Ablegen: " if de else "Discard ") + hs(ev["cards"])
    if t == "draw":
        extra = (
            " (Banken: 2, dann abwerfen)"
            if de and ev.get("bank")
            else " (Banking: 2, then discard down)"
            if ev.get("bank")
            else ""
        )
        return (f"{ev['n']} Karte(n) ziehen" if de else f"Draw {ev['n']} card(s)") + extra
    if t == "password":
        return (
            f"Passwort für {sector_name(ev['s'], lang)}: "
            if de
            else f"Password for {sector_name(ev['s'], lang)}: "
        ) + hs(ev["cards"])
    if t == "password_draw":
        return "Kein Passwort möglich: eine Karte ziehen" if de else "Cannot form a password: draw a card"
    if t == "answer":
        return ("Antwort: " if de else "Answer: ") + ", ".join(
            ("passt" if de else "match") if m else ("passt nicht" if de else "no match") for m in ev["match"]
        )
    if t == "trade":
        promise = f" ({CODES[ev['promise']]})" if ev.get("promise") is not None else ""
        return (
            f"Tausch anbieten: {handle_label(st, ev['card'], viewer, lang)}{promise} an "
            if de
            else f"Offer {handle_label(st, ev['card'], viewer, lang)}{promise} in trade to "
        ) + player_name(st, ev["q"], names)
    if t == "trade_reply":
        if not ev["accept"]:
            return "Tausch ablehnen" if de else "Decline the trade"
        return ("Annehmen und geben: " if de else "Accept, giving ") + (
            hs(ev["cards"]) or ("nichts" if de else "nothing")
        )
    if t == "tele_action":
        return ("2 Karten ablegen für 1 Aktion: " if de else "Discard 2 for an action (TeleComm): ") + hs(
            ev["cards"]
        )
    if t == "take":
        return ("Nimm " if de else "Take ") + handle_label(st, ev["card"], viewer, lang)
    if t == "give":
        if "q" in ev:
            return (
                f"Gib eine Karte an {player_name(st, ev['q'], names)}"
                if de
                else f"Give one taken card to {player_name(st, ev['q'], names)}"
            )
        return ("Gib: " if de else "Give ") + hs(ev["cards"])
    if t == "spam_give":
        return ("Spam: gib " if de else "Spam: give ") + (hs(ev["cards"]) or ("nichts" if de else "nothing"))
    return str(ev)
