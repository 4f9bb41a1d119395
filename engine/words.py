"""Word tables, game-neutral: a table is data, key -> {language: template} (English and German), and every part that
says something — a game's account, a screen, the page, the audit — reads its own table through
these two functions, so that a language missing a word falls back to English the same way everywhere. (The table
core, p2p/, imports no engine: its two tables, notices and violations, say the same in one line of their own.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Row = Mapping[str, str]
Table = Mapping[str, Row]


def pick(row: Row, lang: str) -> str:
    """The row's word in `lang`; English when the language lacks it (or has it empty)."""
    return row.get(lang) or row["en"]


def say(table: Table, key: str, lang: str, /, **fields: Any) -> str:
    """The table's word `key` in `lang` (as `pick`), its placeholders filled in with `fields` (none: as it is)."""
    text = pick(table[key], lang)
    return text.format(**fields) if fields else text
