"""What Hacker's players are told at the table, in their language: the account's items (`HState.history`, dicts with
a kind `k`) and the result's reason, and the standings at the end; the words are hacker/narration.py's (a person's
page reads the same)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adp2p.engine.hacker import narration
from adp2p.engine.hacker.state import HState
from adp2p.engine.words import pick

# what a clean audit checked, in the players' words (the end's "Audit: ... checks out" line; brief: the end screen's)
CHECKED = {
    "en": "every shuffle, card, seal (place cards, laid cards, pad squares), private die and move",
    "de": "jedes Mischen, jede Karte, jedes Siegel (Ortskarten, gelegte Karten, Hackpad-Felder), jeder private Wurf "
    "und jeder Zug",
}
CHECKED_BRIEF = {"en": "every shuffle, card, seal, private die and move",
                 "de": "jedes Mischen, jede Karte, jedes Siegel, jeder Wurf und jeder Zug"}
# and for `ad-p2p audit`'s "checked:" line, beside the core's checks
AUDIT_CHECKS = (
    "every seal (place cards, laid cards, pad squares) opened against its commitment",
    "every private die against its commitment and its beacon pick",
    "strict replay of every move with every face known (places, laid cards, plays, hacks, answers, pads)",
)


def checked(lang: str, brief: bool = False) -> str:
    return pick(CHECKED_BRIEF if brief else CHECKED, lang)


def narrate(item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    if isinstance(item, str):
        return narration.reason(item, lang)
    if not isinstance(item, dict):
        return str(item)
    return narration.line(item, None, lang, list(names) if names is not None else None)


def end_lines(st: HState, names: Sequence[str], lang: str = "en") -> list[str]:
    return [narration.standing(narration.seat_name(p, None, lang, names), st.codes(p), lang) for p in range(st.n)]
