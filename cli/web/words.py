"""The page's own words in English and German (the game's words come from its terminal client's tables)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.words import pick, say

WORDS: dict[str, dict[str, str]] = {
    "url": {"en": "Your page (only for you; keep the link to yourself): {url}",
            "de": "Deine Seite (nur für dich; gib den Link nicht weiter): {url}"},
    "auto_pass": {"en": "time is up: you pass", "de": "Zeit abgelaufen: du passt"},
    "title.access-denied": {"en": "Access Denied", "de": "Access Denied"},
    "title.hacker": {"en": "Hacker", "de": "Hacker"},
    "title.classified": {"en": "Classified Information", "de": "Geheimsache"},
    "lobby": {"en": "Lobby", "de": "Lobby"},
    "lobby_table": {"en": "Table “{table}”: {k} of {want} players here",
                    "de": "Tisch „{table}“: {k} von {want} Spielern da"},
    "missing": {"en": "waiting for {n} more", "de": "es fehlen noch {n}"},
    "roster_q": {"en": "Start the game with these players? (no: leave the table)",
                 "de": "Das Spiel mit diesen Spielern beginnen? (nein: Tisch verlassen)"},
    "roster_yes": {"en": "Start with them", "de": "Mit ihnen beginnen"},
    "roster_no": {"en": "Decline and leave the table", "de": "Ablehnen und Tisch verlassen"},
    "setup": {"en": "Setting up: keys, the shuffle, the deal…", "de": "Aufbau: Schlüssel, Mischen, Geben…"},
    "board": {"en": "Board", "de": "Spielfeld"},
    "players": {"en": "Players", "de": "Spieler"},
    "log": {"en": "What happened", "de": "Was geschah"},
    "notes": {"en": "Notes", "de": "Notizen"},
    "hand": {"en": "Your hand", "de": "Deine Hand"},
    "password": {"en": "Your password", "de": "Dein Passwort"},
    "upgrades": {"en": "Your upgrades", "de": "Deine Upgrades"},
    "upgrades_of": {"en": "upgrades", "de": "Upgrades"},
    "laid": {"en": "Laid", "de": "Ausgelegt"},
    "your_move": {"en": "Your move", "de": "Du bist dran"},
    "waiting": {"en": "Waiting for the others…", "de": "Warte auf die anderen…"},
    "back": {"en": "Back", "de": "Zurück"},
    "leave": {"en": "Leave the table", "de": "Tisch verlassen"},
    "leave_sure": {"en": "Leave? The game can be resumed with --resume.",
                   "de": "Verlassen? Das Spiel lässt sich mit --resume fortsetzen."},
    "seconds": {"en": "{s} s left to react", "de": "noch {s} s zum Reagieren"},
    "pick_cards": {"en": "Click cards to narrow the choices ({n} shown of {k})",
                   "de": "Klicke Karten an, um die Auswahl einzugrenzen ({n} von {k})"},
    "clear": {"en": "Clear", "de": "Zurücksetzen"},
    "more": {"en": "{n} choices", "de": "{n} Möglichkeiten"},
    "end": {"en": "Game over", "de": "Spielende"},
    "audit": {"en": "Audit of every player", "de": "Prüfung jedes Spielers"},
    "again": {"en": "Another game", "de": "Noch ein Spiel"},
    "no_again": {"en": "Leave", "de": "Beenden"},
    "bye": {"en": "You can close this page.", "de": "Du kannst diese Seite schließen."},
    "game_log": {"en": "Game log: {path}", "de": "Spielprotokoll: {path}"},
    "lost": {"en": "Lost the connection to your peer (the ad-p2p command has stopped). If the game was cut short, "
                   "resume it with --resume and open the new link.",
             "de": "Die Verbindung zu deinem Peer ist weg (der ad-p2p-Befehl ist beendet). Wurde das Spiel "
                   "abgebrochen, setze es mit --resume fort und öffne den neuen Link."},
    "fault": {"en": "The table stopped", "de": "Der Tisch hat angehalten"},
    "card": {"en": "Card", "de": "Karte"},
    "hidden": {"en": "a card you have not seen", "de": "eine Karte, die du nicht kennst"},
    "needs": {"en": "Requires", "de": "Benötigt"},
    "code": {"en": "code {c}", "de": "Code {c}"},
    "playable": {"en": "playable now", "de": "jetzt spielbar"},
    "you": {"en": "you", "de": "du"},
    "replay": {"en": "Replay", "de": "Wiederholung"},
    "prev": {"en": "Previous", "de": "Zurück"},
    "next": {"en": "Next", "de": "Weiter"},
    "step": {"en": "Step {k} of {n}", "de": "Schritt {k} von {n}"},
    "first": {"en": "To the start", "de": "Zum Anfang"},
    "in_hand": {"en": "{n} cards in hand (limit {l})", "de": "{n} Karten auf der Hand (Limit {l})"},
    "roots": {"en": "Root in {n}", "de": "Root in {n}"},
    "turn_of": {"en": "on turn", "de": "am Zug"},
    "levels": {"en": "access: - none, U User, O Oper, R Root", "de": "Zugang: - keiner, U User, O Oper, R Root"},
    "last": {"en": "To the end", "de": "Zum Ende"},
}


def word(key: str, lang: str, **fields: Any) -> str:
    return say(WORDS, key, lang, **fields)


def page_words(lang: str) -> dict[str, str]:
    """Every word the page's scripts need, in `lang` (their placeholders filled in by the page)."""
    return {k: pick(v, lang) for k, v in WORDS.items()}
