"""The Citrine deck read once from data/cards.toml, and the wheel's arithmetic: a Card Number's Code (one less, the
number, one more, wrapping 9 -> 1), distance around the wheel, whether two Codes touch."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
NUMBERS = tuple(range(1, 10))
GUILDS = ("guard", "assassin", "sentinel")


@dataclass(frozen=True, slots=True)
class CardDef:
    number: int  # 1..9: the Card Number (the engine's face of a card is its number; two copies of each)
    key: str
    guild: str  # guard | assassin | sentinel
    ability: str  # what Deploy does (abilities.py)
    react: bool
    peek: int  # PEEK n when Deployed (REACT's PEEK 1 is the forgone turn's, flow.py)
    trigger: bool
    tuck: bool
    name_en: str
    name_de: str
    text_en: str
    text_de: str

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_de if lang == "de" else self.text_en

    @property
    def can_guard(self) -> bool:
        return self.guild in ("guard", "sentinel")

    @property
    def can_assassinate(self) -> bool:
        return self.guild in ("assassin", "sentinel")


@cache
def cards() -> tuple[CardDef, ...]:
    raw = tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["card"]
    out = tuple(
        CardDef(c["number"], c["key"], c["guild"], c["ability"], c.get("react", False), c.get("peek", 0),
                c.get("trigger", False), c.get("tuck", False), c["en"]["name"], c["de"]["name"], c["en"]["text"],
                c["de"]["text"])
        for c in raw
    )
    assert tuple(c.number for c in out) == NUMBERS and all(c.guild in GUILDS for c in out)
    return out


@cache
def source() -> str:
    return str(tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["source"])


def card(number: int) -> CardDef:
    return cards()[number - 1]


def card_by_key(key: str) -> CardDef:
    for c in cards():
        if c.key == key:
            return c
    raise ValueError(f"no Classified Information card {key!r}")


def deck() -> list[int]:
    """The 18 faces of the deck (a face is a Card Number): two of each number."""
    return [n for n in NUMBERS for _ in range(2)]


def wrap(n: int) -> int:
    return (n - 1) % 9 + 1


def code(n: int) -> tuple[int, int, int]:
    """The Code of Card (or Suitcase) Number n: 6 -> (5, 6, 7), 9 -> (8, 9, 1), 1 -> (9, 1, 2)."""
    c = _CODES.get(n)
    return c if c is not None else (wrap(n - 1), n, wrap(n + 1))


_CODES = {n: (wrap(n - 1), n, wrap(n + 1)) for n in NUMBERS}  # looked up: the bots ask it ~10^5 times a game


def distance(a: int, b: int) -> int:
    """Steps between two numbers around the wheel (0..4)."""
    d = abs(a - b) % 9
    return min(d, 9 - d)


def near(n: int, suitcase: int) -> bool:
    """Fortune Teller: n lies within 2 of the Suitcase Number around the wheel (inclusive)."""
    return distance(n, suitcase) <= 2


def touch(a: int, b: int) -> bool:
    """Two cards' Codes share a number (an assassination's test)."""
    return bool(set(code(a)) & set(code(b)))
