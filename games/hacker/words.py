"""What Hacker's players are told at the table: the account's items (`HState.history`, dicts with a kind `k`) and
the result's reason in words, and the standings at the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adp2p.hacker.board import CAFE
from adp2p.hacker.state import HState

REASONS = {"codes": "a hacker has enough codes", "round_limit": "the round limit is reached"}


def _who(p: Any, names: Sequence[str] | None) -> str:
    if isinstance(p, int) and names is not None and 0 <= p < len(names):
        return names[p]
    return f"seat {p + 1}" if isinstance(p, int) else str(p)


SEATS = ("who", "ctrl")  # account fields that name a seat (0-based)
PLACES = ("d", "at", "to")  # account fields that name a department (0-based; 6 is the cafeteria)


def _value(k: str, v: Any, names: Sequence[str] | None) -> str:
    if k in SEATS:
        return _who(v, names)
    if k in PLACES and isinstance(v, int):
        return "cafeteria" if v == CAFE else f"department {v + 1}"
    return str(v)


def narrate(item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    if isinstance(item, str):
        return REASONS.get(item, item)
    if not isinstance(item, dict):
        return str(item)
    rest = ", ".join(f"{k} {_value(k, v, names)}" for k, v in item.items() if k not in ("k", "p"))
    who = f"{_who(item['p'], names)}: " if "p" in item else ""
    return f"{who}{item.get('k', '?')}" + (f" ({rest})" if rest else "")


def end_lines(st: HState, names: Sequence[str]) -> list[str]:
    return [f"{_who(p, names)}: {st.codes(p)} code(s)" for p in range(st.n)]
