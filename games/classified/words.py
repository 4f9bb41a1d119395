"""Classified Information's words at the table (the account's items and the end, in English and German): short
forms for the table core's lines; the game's own screens (cli/classified/) tell the account in full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adp2p.engine.classified.catalog import card
from adp2p.engine.words import pick

AUDIT_CHECKS = (
    "every answer about a hidden card (Suitcase, face-down Guard) proved against that card when it was given",
    "every Big Reveal claim proved against its card",
    "every hand mixed after a show proved a shuffle of that very hand (its proof of shuffle)",
    "every number commitment opened with its holder's revealed deck secret against its card",
    "strict replay of every move with every face known (answers, Guards, assassinations, the Big Reveal)",
)
CHECKED = {"en": "every shuffle, card, answer and move", "de": "jedes Mischen, jede Karte, jede Antwort und jeder Zug"}
CHECKED_BRIEF = {"en": "every card, answer and move", "de": "jede Karte, Antwort und jeder Zug"}
REASONS = {
    "unguarded_match": {"en": "an Unguarded Match", "de": "ein ungeschützter Treffer"},
    "guards": {"en": "more Guards", "de": "mehr Wächter"},
    "tie": {"en": "a tie", "de": "Unentschieden"},
}
# An account item (the engine's history, engine/classified/) as the table's log tells it to every player: public
# facts only (a card encrypted or enlisted face down is not named), in the words of the game's screens
# (cli/classified/words.py: Wächter, Assassine, SPÄHEN). {who}: the item's player; {to}, {owner}: another seat.
NARRATION: dict[str, dict[str, str]] = {
    "dealt": {"en": "the cards are dealt", "de": "die Karten sind gegeben"},
    "start": {"en": "{who} begins", "de": "{who} beginnt"},
    "chose": {"en": "{who} chose a Suitcase", "de": "{who} hat einen Koffer gewählt"},
    "turn": {"en": "— {who}: turn {n}{final}, deck {left}", "de": "— {who}: Zug {n}{final}, Stapel {left}"},
    "encrypt": {"en": "{who} encrypts a card", "de": "{who} verschlüsselt eine Karte"},
    "guard": {"en": "{who} enlists a Guard face down", "de": "{who} wirbt verdeckt einen Wächter an"},
    "assassin": {"en": "{who} plays {card} as Assassin against a Guard of {owner}",
                 "de": "{who} spielt {card} als Assassine gegen einen Wächter von {owner}"},
    "react": {"en": "{who} REACTS: the Guard tucked under Extra Protection, the attack blocked",
              "de": "{who} REAGIERT: der Wächter unter Extraschutz, der Angriff abgewehrt"},
    "assassinated": {"en": "a Guard of {owner} is assassinated", "de": "ein Wächter von {owner} fällt"},
    "attempt_failed": {"en": "the attempt on a Guard of {owner} fails",
                       "de": "der Anschlag auf einen Wächter von {owner} scheitert"},
    "shown": {"en": "{who} shows {to} a random card", "de": "{who} zeigt {to} eine Zufallskarte"},
    "peek": {"en": "{who} PEEKS {n}", "de": "{who} SPÄHT {n}"},
    "deploy": {"en": "{who} deploys {card}", "de": "{who} setzt {card} ein"},
    "answer": {"en": "{who} answers {yes}{q}", "de": "{who} antwortet {yes}{q}"},
    "named": {"en": "{who} names {n}: not their Suitcase Number",
              "de": "{who} nennt {n}: nicht die eigene Koffernummer"},
    "pick": {"en": "{who} picks a card of the hand shown", "de": "{who} wählt eine Karte der gezeigten Hand"},
    "mix": {"en": "{who} mixes their hand ({n} cards; the shuffle is proved)",
            "de": "{who} mischt die eigene Hand ({n} Karten; das Mischen ist bewiesen)"},
    "forgo": {"en": "{who} forgoes the action (REACT), PEEK 1", "de": "{who} setzt aus (REAKTION), SPÄHEN 1"},
    "big_reveal": {"en": "the deck is empty: the Big Reveal", "de": "der Stapel ist leer: die große Enthüllung"},
    "reveal": {"en": "{who} reveals {cards}", "de": "{who} enthüllt {cards}"},
    "end": {"en": "the end", "de": "Ende"},
}
QUESTIONS = {  # the question an answer was about, when its number is public
    "near": {"en": "is {n} within 2 of their Suitcase Number?",
             "de": "liegt {n} höchstens 2 von der eigenen Koffernummer?"},
    "in_code": {"en": "is {n} in their Code?", "de": "ist {n} im eigenen Code?"},
    "equal": {"en": "is {n} their Suitcase Number?", "de": "ist {n} die eigene Koffernummer?"},
    "touch": {"en": "does the Assassin's Code touch their Guard's?", "de": "berührt der Code des Assassinen den des "
              "eigenen Wächters?"},
}
LITTLE = {"yes": {"en": "yes", "de": "ja"}, "no": {"en": "no", "de": "nein"},
          "final": {"en": " (final turn)", "de": " (letzter Zug)"}}
ENDS = {
    "count": {"en": "{who}: {n} Guard{s}, {match}", "de": "{who}: {n} Wächter, {match}"},
    "match": {"en": "an Unguarded Match", "de": "ein ungeschützter Treffer"},
    "no_match": {"en": "no Unguarded Match", "de": "kein ungeschützter Treffer"},
}


def _w(table: dict[str, dict[str, str]], key: str, lang: str) -> str:
    return pick(table[key], lang)


def _seat(p: Any, names: Sequence[str] | None) -> str:
    if type(p) is not int:
        return ""
    return names[p] if names is not None and 0 <= p < len(names) else f"seat {p + 1}"


def _question(q: Any, lang: str) -> str:
    if not isinstance(q, dict) or q.get("q") not in QUESTIONS:
        return ""
    n = q.get("n")
    if q["q"] != "touch" and type(n) is not int:
        return ""
    return ": " + _w(QUESTIONS, q["q"], lang).format(n=n)


def _public(item: dict[str, Any]) -> Any:
    """The question an answer was about, with the number of the face-up Guard it asked of (Shine Spotlights)."""
    q = item.get("question")
    if isinstance(q, dict) and "n" not in q and type(item.get("up")) is int:
        return {**q, "n": item["up"]}
    return q


def narrate(item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """An account item in words for every player (public facts only); an unknown item as it is."""
    if isinstance(item, str):
        return pick(REASONS[item], lang) if item in REASONS else item
    if not isinstance(item, dict) or item.get("k") not in NARRATION:
        return str(item.get("k") if isinstance(item, dict) else item)
    k, p = item["k"], item.get("p")
    number = item.get("card")
    fields: dict[str, Any] = {
        "who": _seat(p, names), "to": _seat(item.get("to"), names),
        "owner": _seat(item.get("o", 1 - p if type(p) is int else None), names) or "?",
        "n": item.get("n", ""), "left": item.get("left", ""),
        "final": _w(LITTLE, "final", lang) if item.get("final") else "",
        "card": f"{number} {card(number).name(lang)}" if type(number) is int and 1 <= number <= 9 else "?",
        "yes": _w(LITTLE, "yes" if item.get("yes") else "no", lang), "q": _question(_public(item), lang),
        "cards": ", ".join(str(c[1]) for c in item.get("cards", []) if isinstance(c, list) and len(c) == 2),
    }
    return _w(NARRATION, k, lang).format(**fields).strip()


def end_line(name: str, count: float, match: bool, lang: str) -> str:
    """One player's line at the end: Guards counted (Extra Protection a half) and whether it has an Unguarded Match."""
    n = f"{count:g}".replace(".", ",") if lang == "de" else f"{count:g}"
    return _w(ENDS, "count", lang).format(who=name, n=n, s="" if count == 1 else "s",
                                          match=_w(ENDS, "match" if match else "no_match", lang))


def checked(lang: str, brief: bool = False) -> str:
    return pick(CHECKED_BRIEF if brief else CHECKED, lang)
