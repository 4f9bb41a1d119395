"""Classified Information's reference pages in English and German: the keys (`?`), the rules in short with our
rulings (`rules`), every card of the Citrine deck (`cards`). Shown at any question of the game (cli/classified/
human.py) and by `ad-p2p rules --game classified` / `ad-p2p cards --game classified`. The rulings' whole table, with
reasons and tests, is docs/rules-classified.md; the German texts are ours (the seed is English only)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from adp2p.cli.classified.words import guild
from adp2p.engine.classified.catalog import cards, code, source
from adp2p.engine.classified.profiles import PROFILES

HELP = {
    "en": "Keys: a number picks that choice; 0 goes back one stage; Enter alone shows the page again. rules: the "
          "rules in short; cards: every card; q: leave the game. On the page: Guards are shown as spot:number, ^ "
          "face up, v face down, ?v(258) a face-down Guard that may be 2, 5 or 8; +EP: tucked under Extra "
          "Protection. The wheel rows: the numbers still possible for the opponent's Suitcase, and for yours as "
          "they can tell from what you showed them.",
    "de": "Tasten: eine Zahl wählt diese Wahl; 0 geht eine Stufe zurück; Enter allein zeigt die Seite noch einmal. "
          "regeln (rules): die Regeln kurz; karten (cards): jede Karte; q: das Spiel verlassen. Auf der Seite: "
          "Wächter als Platz:Zahl, ^ offen, v verdeckt, ?v(258) ein verdeckter Wächter, der 2, 5 oder 8 sein kann; "
          "+EP: unter Extraschutz. Die Radzeilen: die Zahlen, die für den Koffer des Gegners noch möglich sind, und "
          "für deinen, soweit er es aus dem Gezeigten schließen kann.",
}
RULES = {
    "en": [
        "Classified Information: the rules in short ({profile})",
        "Goal: at the end, hold a Final Card that is in your opponent's Suitcase Code (the Suitcase Number, one "
        "less and one more, 9 and 1 are neighbours) and that none of their Guards holds: an Unguarded Match. One "
        "match wins; none or both: more Guards win (Extra Protection counts half); equal: a tie.",
        "Set-up: 2 cards in hand, a third face down as your Suitcase (you may look), 2 cards into the Encrypted "
        "Card Pile. Four-card variant: 4 cards, you choose your Suitcase and one card to encrypt.",
        "A turn: draw, then one action: Deploy (play the card's ability face up), Enlist (a Guard face down into "
        "one of 3 spots, or an Assassin face up against an opponent's Guard), or Encrypt (face down onto the pile).",
        "Assassination: a face-up Guard falls if the Codes touch; a face-down one: its owner answers truly whether "
        "the Codes touch; on a miss the attacker sees a random card of the defender's hand.",
        "REACT: Extra Protection may be played on the opponent's turn to tuck the attacked Guard; you then skip "
        "your next action (you still draw and PEEK 1). PEEK n: look at the top n cards of the deck.",
        "The end: who draws the last card finishes the turn; then one final turn each without drawing; then the "
        "Big Reveal of Suitcases, face-down Guards and Final Cards.",
        "Every answer you give about your own cards is the truth: the client offers only the true answer.",
        "Our rulings (not from the publisher):",
        "  cards 8 Decoy Guard and 9 Shine Spotlights are built from their names (C-DECOY, C-SPOTLIGHTS);",
        "  guilds (C-GUILDS): {guilds};",
        "  Extra Protection has REACT, Fortune Teller PEEK 2, no Citrine card has TRIGGER (C-SYMBOLS);",
        "  Picking Petals: \"no Guards in play\" means on either side (C-PETALS);",
        "  a card may be Deployed only if its ability can act now (C-POSSIBLE);",
        "  a tie ends the game with no winner (C-TIE).",
        "Every ruling with its reason and test: docs/rules-classified.md.",
    ],
    "de": [
        "Geheimsache: die Regeln kurz ({profile})",
        "Ziel: am Ende eine letzte Karte halten, die im Koffercode des Gegners liegt (die Koffernummer, eins "
        "weniger und eins mehr; 9 und 1 sind Nachbarn) und die kein Wächter des Gegners hält: ein ungeschützter "
        "Treffer. Ein Treffer gewinnt; keiner oder beide: mehr Wächter gewinnen (Extraschutz zählt halb); gleich: "
        "unentschieden.",
        "Aufbau: 2 Karten auf die Hand, eine dritte verdeckt als dein Koffer (du darfst sie ansehen), 2 Karten auf "
        "den Verschlüsselt-Stapel. Vier-Karten-Variante: 4 Karten, du wählst deinen Koffer und eine Karte zum "
        "Verschlüsseln.",
        "Ein Zug: ziehen, dann eine Aktion: Einsetzen (die Fähigkeit offen spielen), Anwerben (einen Wächter "
        "verdeckt auf einen von 3 Plätzen, oder einen Assassine offen gegen einen Wächter des Gegners) oder "
        "Verschlüsseln (verdeckt auf den Verschlüsselt-Stapel).",
        "Attentat: ein offener Wächter fällt, wenn sich die Codes berühren; bei einem verdeckten sagt sein Besitzer "
        "wahr, ob sie sich berühren; bei einem Fehlschlag sieht der Angreifer eine Zufallskarte von der Hand des "
        "Verteidigers.",
        "REAKTION: Extraschutz darf im Zug des Gegners gespielt werden, um den angegriffenen Wächter zu schützen; "
        "dann setzt du deine nächste Aktion aus (du ziehst trotzdem und SPÄHST 1). SPÄHEN n: die obersten n Karten "
        "des Stapels ansehen.",
        "Das Ende: wer die letzte Karte zieht, beendet den Zug; dann hat jeder einen letzten Zug ohne Ziehen; dann "
        "die große Enthüllung von Koffern, verdeckten Wächtern und letzten Karten.",
        "Jede Antwort über deine eigenen Karten ist wahr: das Programm bietet nur die wahre Antwort an.",
        "Unsere Regelentscheidungen (nicht vom Verlag):",
        "  die Karten 8 Lockvogel und 9 Scheinwerfer sind aus ihren Namen gebaut (C-DECOY, C-SPOTLIGHTS);",
        "  Gilden (C-GUILDS): {guilds};",
        "  Extraschutz hat REAKTION, die Wahrsagerin SPÄHEN 2, keine Citrin-Karte hat AUSLÖSER (C-SYMBOLS);",
        "  Blütenblätter zupfen: „keine Wächter im Spiel“ heißt auf keiner Seite (C-PETALS);",
        "  eine Karte darf nur eingesetzt werden, wenn ihre Fähigkeit jetzt wirken kann (C-POSSIBLE);",
        "  ein Unentschieden endet ohne Sieger (C-TIE).",
        "Jede Regelentscheidung mit Grund und Test: docs/rules-classified.md (englisch).",
    ],
}
CARDS_HEAD = {"en": "The Citrine deck: 18 cards, two of each number ({source})",
              "de": "Das Citrin-Deck: 18 Karten, zwei von jeder Zahl (deutsche Texte: unsere)"}
SYMBOLS = {"react": ("REACT", "REAKTION"), "peek": ("PEEK {n}", "SPÄHEN {n}"), "tuck": ("TUCK", "UNTERSCHIEBEN"),
           "trigger": ("TRIGGER", "AUSLÖSER")}
HELP_KEYS = ("?", "h", "help", "hilfe")
RULES_KEYS = ("rules", "regeln")
CARDS_KEYS = ("cards", "karten")


def guild_words(lang: str) -> str:
    by: dict[str, list[int]] = {}
    for c in cards():
        by.setdefault(c.guild, []).append(c.number)
    return ", ".join(f"{guild(g, lang)} {' '.join(map(str, ns))}" for g, ns in by.items())


def rules_lines(profile: str, lang: str) -> list[str]:
    return [x.format(profile=profile, guilds=guild_words(lang)) for x in RULES[lang]]


def symbols(c: Any, lang: str) -> list[str]:
    i = lang == "de"
    out = [SYMBOLS["react"][i]] if c.react else []
    out += [SYMBOLS["peek"][i].format(n=c.peek)] if c.peek else []
    out += [SYMBOLS["tuck"][i]] if c.tuck else []
    return out + ([SYMBOLS["trigger"][i]] if c.trigger else [])


def cards_lines(lang: str) -> list[str]:
    out = [CARDS_HEAD[lang].format(source=source())]
    for c in cards():
        sym = symbols(c, lang)
        out.append(f"{c.number} {c.name(lang)} ({guild(c.guild, lang)}; Code {' '.join(map(str, code(c.number)))}"
                   f"{'; ' + ', '.join(sym) if sym else ''}): {c.text(lang)}")
    return out


def page_for(line: str, lang: str, profile: str = "standard") -> list[str] | None:
    x = line.strip().lower()
    if x in HELP_KEYS:
        return [HELP[lang]]
    if x in RULES_KEYS:
        return rules_lines(profile, lang)
    if x in CARDS_KEYS:
        return cards_lines(lang)
    return None


def run_reference(args: argparse.Namespace, what: str) -> int:
    """`cards --game classified` (every card, EN/DE) and `rules --game classified` (the rules and our rulings)."""
    from adp2p.cli.tui.reading import say_wrapped

    lang = getattr(args, "lang", "en") or "en"
    if getattr(args, "json", False):
        if what == "cards":
            data: Any = [{"number": c.number, "key": c.key, "guild": c.guild, "code": list(code(c.number)),
                          "react": c.react, "peek": c.peek, "trigger": c.trigger, "tuck": c.tuck,
                          "name": c.name(lang), "text": c.text(lang)} for c in cards()]
        else:
            data = {"profiles": {n: {"choose": p.choose, "hand": p.hand, "encrypted": p.encrypted,
                                     "guard_spots": p.guard_spots} for n, p in PROFILES.items()},
                    "rules": rules_lines(getattr(args, "rules", None) or "standard", lang)}
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    lines = cards_lines(lang) if what == "cards" else rules_lines(getattr(args, "rules", None) or "standard", lang)
    for x in lines:
        say_wrapped(x, sys.stdout)
    return 0
