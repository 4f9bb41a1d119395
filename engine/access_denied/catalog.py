"""The card and sector catalog: loads `data/cards.toml` and `data/sectors.toml` into typed, immutable values.

Cards are data: every rule that depends on a card's kind, requirement or effect reads these fields;
no card is special-cased by title anywhere in the engine.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

CODES = "ABCDEF"
SECTOR_KEYS = ("banking", "government", "micronopoly", "newsmedia", "telecomm", "universities")
NONE, USER, OPER, ROOT = 0, 1, 2, 3
LEVEL_NAMES = ("none", "User", "Oper", "Root")
_LEVEL_BY_KEY = {"user": USER, "oper": OPER, "root": ROOT}


@dataclass(frozen=True, slots=True)
class Requirement:
    sector: int
    level: int  # USER: any access; OPER: Oper or Root; ROOT: Root only

    @property
    def root_only(self) -> bool:
        return self.level == ROOT


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    key: str
    title: str
    title_de: str
    text: str
    text_de: str
    code: int
    kinds: frozenset[str]
    requires: Requirement | None
    password_code: int | None
    effect: str
    target: str
    trigger: str | None
    param: str | None

    # derived from the fields above once, at load (read on every event: plain slots, not properties)
    is_reaction: bool = field(init=False, repr=False, compare=False)
    is_upgrade: bool = field(init=False, repr=False, compare=False)
    is_virus: bool = field(init=False, repr=False, compare=False)
    is_harmful: bool = field(init=False, repr=False, compare=False)
    is_sector_card: bool = field(init=False, repr=False, compare=False)
    is_companion: bool = field(init=False, repr=False, compare=False)
    param_sector: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = self.kinds
        for name, kind in (
            ("is_reaction", "reaction"),
            ("is_upgrade", "upgrade"),
            ("is_virus", "virus"),
            ("is_harmful", "harmful"),
            ("is_sector_card", "sector"),
            ("is_companion", "companion"),
        ):
            object.__setattr__(self, name, kind in kinds)
        object.__setattr__(self, "param_sector", SECTOR_KEYS.index(self.param) if self.param in SECTOR_KEYS else None)

    @property
    def code_letter(self) -> str:
        return CODES[self.code]

    def display_title(self, lang: str = "en") -> str:
        return self.title_de if lang == "de" else self.title


@dataclass(frozen=True, slots=True)
class Sector:
    id: int
    key: str
    name: str
    name_de: str
    bonus_short: str
    bonus_short_de: str

    def display_name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name


def _load(name: str) -> dict:
    with resources.files("adp2p.engine.access_denied").joinpath("data", name).open("rb") as fh:
        return tomllib.load(fh)


@cache
def cards() -> tuple[Card, ...]:
    out = []
    for i, raw in enumerate(_load("cards.toml")["card"]):
        req = raw.get("requires")
        out.append(
            Card(
                id=i,
                key=raw["key"],
                title=raw["title"],
                title_de=raw["title_de"],
                text=raw.get("text", "").strip(),
                text_de=raw.get("text_de", "").strip(),
                code=CODES.index(raw["code"]),
                kinds=frozenset(raw["kinds"]),
                requires=Requirement(SECTOR_KEYS.index(req["sector"]), _LEVEL_BY_KEY[req["level"]])
                if req
                else None,
                password_code=CODES.index(raw["password_code"]) if "password_code" in raw else None,
                effect=raw["effect"],
                target=raw["target"],
                trigger=raw.get("trigger"),
                param=raw.get("param"),
            )
        )
    return tuple(out)


@cache
def sectors() -> tuple[Sector, ...]:
    try:
        raw = _load("sectors.toml")["sector"]
    except FileNotFoundError:  # pragma: no cover - the data file ships with the package
        raw = [{"key": k, "name": k.title(), "name_de": k.title()} for k in SECTOR_KEYS]
    return tuple(
        Sector(i, r["key"], r["name"], r["name_de"], r.get("bonus_short", ""), r.get("bonus_short_de", ""))
        for i, r in enumerate(raw)
    )


@cache
def card_by_key(key: str) -> Card:
    for c in cards():
        if c.key == key:
            return c
    raise KeyError(key)


def card(card_id: int) -> Card:
    return _CARDS[card_id]


def sector_index(key: str) -> int:
    return SECTOR_KEYS.index(key)


_CARDS = cards()  # `card` is one index into the loaded catalog (it is read for nearly every event)
