"""The action cards and the rulebook's tables, read once from engine/hacker/data/*.toml into immutable values."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class CardDef:
    id: int
    key: str
    kind: str  # chance | terminal | defence
    count: int  # copies in the full deck (our ruling H-DECK: not from the publisher)
    basic: int  # copies in the basic game
    target: str
    needs_access: bool
    must_play_when_drawn: bool
    name_en: str
    name_de: str
    text_en: str
    text_de: str

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en


@cache
def cards() -> tuple[CardDef, ...]:
    raw = tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["card"]
    return tuple(
        CardDef(i, c["key"], c["kind"], c["count"], c["basic"], c["target"], c.get("needs_access", False),
                c.get("must_play_when_drawn", False), c["en"]["name"], c["de"]["name"], c["en"]["text"],
                c["de"]["text"])
        for i, c in enumerate(raw)
    )


@cache
def counts_source() -> str:
    """Where the deck counts come from (they are a ruling, not the publisher's)."""
    return str(tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["counts_source"])


@cache
def _by_key() -> dict[str, CardDef]:
    return {c.key: c for c in cards()}


def card(face: int) -> CardDef:
    return cards()[face]


def card_by_key(key: str) -> CardDef:
    try:
        return _by_key()[key]
    except KeyError:
        raise ValueError(f"no Hacker card {key!r}") from None


@dataclass(frozen=True, slots=True)
class Tables:
    dummy_users: tuple[int, ...]
    dummy_priority: int
    dummy_priority_max: int
    max_dummies: int
    hack_table: dict[int, tuple[int, int, int]]
    malfunction: dict[int, str]
    boss: dict[str, int]


@cache
def tables() -> Tables:
    raw = tomllib.loads((DATA / "tables.toml").read_text(encoding="utf-8"))
    return Tables(
        tuple(raw["dummy_users"]), raw["dummy_priority"], raw["dummy_priority_max"], raw["max_dummies"],
        {int(k): tuple(v) for k, v in raw["hack_table"].items()},  # type: ignore[misc]
        {int(k): v for k, v in raw["malfunction"].items()},
        dict(raw["boss"]),
    )
