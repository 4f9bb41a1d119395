"""Classified Information's words at the table (the account's items and the end, in English and German): short
forms for the table core's lines; the game's own screens (cli/classified/) tell the account in full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adp2p.engine.classified.catalog import card

AUDIT_CHECKS = (
    "every answer about a hidden card (Suitcase, face-down Guard) proved against that card when it was given",
    "every Big Reveal claim proved against its card",
    "every number commitment opened with its holder's revealed deck secret against its card",
    "strict replay of every move with every face known (answers, Guards, assassinations, the Big Reveal)",
)
CHECKED = {"en": "every shuffle, card, answer and move", "de": "jedes Mischen, jede Karte, jede Antwort und jeder Zug"}
CHECKED_BRIEF = {"en": "every card, answer and move", "de": "jede Karte, Antwort und jeder Zug"}
REASONS = {
    "unguarded_match": {"en": "an Unguarded Match", "de": "ein ungeschützter Treffer"},
    "guards": {"en": "more Guards", "de": "mehr Wachen"},
    "tie": {"en": "a tie", "de": "Unentschieden"},
}
KINDS = {  # an account item's kind in words (the rest: its kind as is)
    "turn": {"en": "turn", "de": "Zug"},
    "answer": {"en": "answers", "de": "antwortet"},
    "named": {"en": "names a number that is not its Suitcase", "de": "nennt eine Zahl, die nicht sein Koffer ist"},
    "guard": {"en": "enlists a Guard face down", "de": "stellt eine Wache verdeckt auf"},
    "reveal": {"en": "the Big Reveal", "de": "die große Enthüllung"},
    "big_reveal": {"en": "the Big Reveal begins", "de": "die große Enthüllung beginnt"},
}


def _seat(p: Any, names: Sequence[str] | None) -> str:
    if type(p) is not int:
        return ""
    return names[p] if names is not None and p < len(names) else f"seat {p + 1}"


def narrate(item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    if isinstance(item, str):
        return REASONS.get(item, {}).get(lang) or REASONS.get(item, {}).get("en") or item
    if not isinstance(item, dict):
        return str(item)
    k = str(item.get("k"))
    what = KINDS.get(k, {}).get(lang) or KINDS.get(k, {}).get("en") or k
    who = _seat(item.get("p"), names)
    extra = ""
    if k == "answer":
        extra = (" yes" if item.get("yes") else " no") if lang != "de" else (" ja" if item.get("yes") else " nein")
    elif k == "turn":
        extra = f" {item.get('n')}"
    elif type(item.get("card")) is int and 1 <= item["card"] <= 9:
        extra = f": {card(item['card']).name(lang)}"
    return f"{who} {what}{extra}".strip()


def checked(lang: str, brief: bool = False) -> str:
    said = CHECKED_BRIEF if brief else CHECKED
    return said.get(lang, said["en"])
