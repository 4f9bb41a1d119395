"""The engine's account of a game: what happened, as data, and its words.

Every public happening (a turn begins, an attempt, an answer, a card played, ...) is recorded in the state's
`history` as a `Happening`: a key and its arguments (seats, sectors, card ids, counts). Nothing reads its
words to learn what happened (bots and tests read the key and the arguments); `text()` renders one for people
in English or German from `engine/access_denied/data/history.toml`, seats named by the caller (default P1, P2, ...).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from adp2p.engine.access_denied.catalog import LEVEL_NAMES, card, card_by_key, sectors
from adp2p.engine.words import pick

LANGS = ("en", "de")


class Happening(NamedTuple):
    """One public happening. `str()` gives its English words."""

    key: str
    args: dict[str, Any]

    def __str__(self) -> str:
        return text(self)


@cache
def templates() -> dict[str, dict[str, str]]:
    """key -> {language: template} (engine/access_denied/data/history.toml)."""
    with resources.files("adp2p.engine.access_denied").joinpath("data", "history.toml").open("rb") as fh:
        return tomllib.load(fh)


def _tpl(key: str, lang: str) -> str:
    return pick(templates()[key], lang)


def seat_name(p: int, names: list[str] | None = None) -> str:
    return names[p] if names and 0 <= p < len(names) else f"P{p + 1}"


def text(h: Happening, lang: str = "en", names: list[str] | None = None) -> str:
    """The words of one happening in `lang` ("en" or "de"), seats named by `names`."""
    a = h.args
    words: dict[str, str] = {}
    for k, v in a.items():
        if k in ("p", "q"):
            words[k] = seat_name(v, names)
        elif k == "s":
            words[k] = sectors()[v].display_name(lang)
        elif k == "card":
            words[k] = card(v).display_title(lang)
        elif k == "why":
            words[k] = card_by_key(v).display_title(lang)
        elif k == "level":
            words[k] = LEVEL_NAMES[v]
        elif k in ("players", "others"):
            words[k] = ", ".join(seat_name(p, names) for p in v)
        elif k == "reason":
            words[k] = text(v, lang, names)
        elif k == "controls":
            words[k] = ", ".join(
                _tpl("controls", lang).format(
                    p=seat_name(p, names),
                    sectors=_tpl("and", lang).join(sectors()[s].display_name(lang) for s in ss),
                )
                for p, ss in v
            )
        else:
            words[k] = str(v)
    if h.key == "plays":
        words["with_backdoor"] = _tpl("with_backdoor", lang) if a.get("backdoor") else ""
        words["against"] = _tpl("against", lang).format(q=words["q"]) if "q" in a else ""
        words["on"] = _tpl("on", lang).format(s=words["s"]) if "s" in a else ""
    key = "now_has_none" if h.key == "now_has" and a.get("level") == 0 else h.key  # access lost: no level to name
    return _tpl(key, lang).format(**words)
