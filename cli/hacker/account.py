"""The public account of a Hacker game on a person's page: the latest lines of `view.history`, each said by
engine/hacker/narration.py (the words the table's account uses too)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.hacker.narration import line

Entry = dict[str, Any]


def lines(history: list[Entry], me: int | None, lang: str, names: list[str] | None = None, last: int = 3) -> list[str]:
    return [line(e, me, lang, names) for e in history[-last:]] if last > 0 else []


__all__ = ["line", "lines"]
