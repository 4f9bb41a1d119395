"""Hacker's reference pages, in English and German: the keys (`?`, `help`), the rules in the rulebook's words and
order of play (`rules`), the cards of the deck played (`cards`). Shown at any question of the game (cli/hacker/
human.py) and by `ad-p2p rules --game hacker` / `ad-p2p cards --game hacker`.

The phases and their numbers are the rulebook's (seed 004, "Order of Play"; the first round starts at phase 6);
the words of the phases are those of the page's header (cli/hacker/words.py `phase.*`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from adp2p.cli.hacker.words import say
from adp2p.cli.tui.reading import say_wrapped
from adp2p.engine import words
from adp2p.engine.hacker.catalog import cards
from adp2p.engine.hacker.profiles import PROFILES as HACKER_PROFILES
from adp2p.engine.hacker.profiles import get_profile

WORDS: dict[str, dict[str, str]] = {
    "help": {
        "en": "Keys: a number picks that choice; a square's name (e.g. c3) picks that square on the hack pad; 0 goes "
        "back one stage; Enter alone shows the page again. rules: the rules in short; cards: every card of the "
        "deck; q: leave the table (a networked game can be resumed: ad-p2p join --resume).",
        "de": "Tasten: eine Zahl wählt diese Wahl; der Name eines Feldes (z. B. c3) wählt dieses Feld auf dem "
        "Hack-Pad; 0 geht eine Stufe zurück; Enter allein zeigt die Seite noch einmal. regeln (rules): die Regeln "
        "kurz; karten (cards): jede Karte des Stapels; q: den Tisch verlassen (ein Netzspiel lässt sich "
        "fortsetzen: ad-p2p join --resume).",
    },
    "rules_head": {"en": "Hacker: the rules in short ({profile})", "de": "Hacker: die Regeln kurz ({profile})"},
    "goal": {"en": "Goal: the first to learn {k} codes wins (a code per department: learn its password by hacking, "
             "then its code with QUERY). After {limit} rounds the most codes win.",
             "de": "Ziel: wer zuerst {k} Codes kennt, gewinnt (ein Code je Abteilung: erst das Paßwort hacken, dann "
             "den Code mit ABFRAGE). Nach {limit} Runden gewinnen die meisten Codes."},
    "order": {"en": "Order of play (the rulebook's phases; the first round starts at phase 6):",
              "de": "Spielablauf (die Phasen des Regelhefts; die erste Runde beginnt mit Phase 6):"},
    "p5": {"en": "5 move dummy users forward", "de": "5 Dummy-User rücken vor"},
    "hacking": {"en": "Hacking: from an outer square of the 5x5 pad, one square at a time (straight or diagonal), "
                "to the centre C3; the controller (your left neighbour) hid checks as a private 2d6 on the hack "
                "table allows. A check throws you out, unless a laid HACK card passes it.",
                "de": "Hacken: von einem äußeren Feld des 5x5-Pads Feld für Feld (gerade oder diagonal) zur Mitte "
                "C3; die Kontrolle (dein linker Nachbar) hat Sperren versteckt, wie ein geheimer Wurf 2W6 auf der "
                "Hack-Tabelle erlaubt. Eine Sperre wirft dich hinaus, außer eine gelegte HACK-Karte überwindet sie."},
    "marks": {"en": "TIME: 3 at a terminal, 1 less each round there (0: leave). PRIO decides the queue; each terminal "
              "card played costs 1; the cafeteria gives it back.",
              "de": "ZEIT: 3 am Terminal, jede Runde dort 1 weniger (0: gehen). PRIO entscheidet die Warteschlange; "
              "jede gespielte Terminalkarte kostet 1; die Kantine gibt sie zurück."},
    "more": {"en": "The whole rulebook's rulings: docs/rules-hacker.md.",
             "de": "Alle Regelentscheidungen: docs/rules-hacker.md."},
    "cards_head": {"en": "The cards of this deck ({n} cards)", "de": "Die Karten dieses Stapels ({n} Karten)"},
    "kind.chance": {"en": "chance", "de": "Zufall"},
    "kind.terminal": {"en": "terminal", "de": "Terminal"},
    "kind.defence": {"en": "defence", "de": "Abwehr"},
}
PHASES = ("pass", "place", "dummies", "position", None, "lay", "start", "chance", "terminal", "upkeep", "boss",
          "remove", "refill")  # None: phase 5, which the table does as part of phase 4
HELP_KEYS = ("?", "h", "help", "hilfe")
RULES_KEYS = ("rules", "regeln")
CARDS_KEYS = ("cards", "karten")


def w(key: str, lang: str, **fields: Any) -> str:
    return words.say(WORDS, key, lang, **fields)


def help_lines(lang: str) -> list[str]:
    return [w("help", lang)]


def rules_lines(profile: Any, n: int, lang: str) -> list[str]:
    """The rules in short: the goal, the rulebook's order of play, hacking, the markers."""
    out = [w("rules_head", lang, profile=profile.name),
           w("goal", lang, k=profile.codes_to_win(n), limit=profile.round_limit), w("order", lang)]
    out += ["  " + (say(f"phase.{p}", lang) if p is not None else w("p5", lang)) for p in PHASES]
    return [*out, w("hacking", lang), w("marks", lang), w("more", lang)]


def cards_lines(profile: Any, lang: str) -> list[str]:
    """Each card of the profile's deck: name, kind, copies, what it does."""
    counts = profile.deck_counts()
    out = [w("cards_head", lang, n=sum(counts.values()))]
    for c in cards():
        if counts.get(c.key):
            out.append(f"{c.name(lang)} ({w(f'kind.{c.kind}', lang)}, {counts[c.key]}x): "
                       f"{c.text_de if lang == 'de' else c.text_en}")
    return out


def page_for(text: str, profile: Any, n: int, lang: str) -> list[str] | None:
    """The reference page a typed line asks for (None: it asks for none)."""
    x = text.strip().lower()
    if x in HELP_KEYS:
        return help_lines(lang)
    if x in RULES_KEYS:
        return rules_lines(profile, n, lang)
    if x in CARDS_KEYS:
        return cards_lines(profile, lang)
    return None


def run_reference(args: argparse.Namespace, what: str) -> int:
    """`ad-p2p cards/rules --game hacker`: Hacker's cards (the whole deck, with the Advanced game's cards) or its
    profiles and the rules in short."""
    lang = args.lang
    if what == "cards":
        lines = cards_lines(get_profile("advanced"), lang)
        if args.json:
            print(json.dumps(lines, ensure_ascii=False, indent=1))
            return 0
    else:
        rows = [{"name": p.name, "players": f"{p.min_players}-{p.max_players}",
                 "goal": {n: p.codes_to_win(n) for n in range(p.min_players, p.max_players + 1)},
                 "closed_departments": p.closed_departments, "advanced": p.advanced, "round_limit": p.round_limit}
                for p in HACKER_PROFILES.values()]
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        lines = [*rules_lines(get_profile("basic"), 4, lang), ""]
        lines += [f"{r['name']}: {r['players']} " + ("Spieler" if lang == "de" else "players") + ", "
                  + ("Ziel" if lang == "de" else "goal") + " "
                  + ", ".join(f"{n}: {k}" for n, k in r["goal"].items()) for r in rows]
    for line in lines:
        say_wrapped(line, sys.stdout)
    return 0
