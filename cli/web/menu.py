"""One decision as the page asks it: a question, and a menu of the engine's legal events in stages.

A game's page module (cli/access_denied/web.py, cli/hacker/web.py) turns a decision into an `Ask`; the seat
(cli/web/seat.py) shows its menu's current stage and answers the page's clicks with `pick(n)` (the n-th choice
shown: an event, or None for a new stage) and `back()`. Every event a menu gives is one of `options`, the engine's
legal events, as the terminal menu gives them: a stage only narrows that list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Event = dict[str, Any]


class Stages(Protocol):
    """A menu in stages (the page's `Menu` or a game's own, e.g. Hacker's hack pad square by square)."""

    def choices(self) -> list[dict[str, Any]]: ...  # {"label", "group"?, "cards"?, "more"?} per choice shown

    def pick(self, n: int) -> Event | None: ...

    def back(self) -> bool: ...

    def can_back(self) -> bool: ...  # is there a stage to go back to?

    def head(self) -> str: ...  # what is picked so far (shown under the question), "" for nothing


@dataclass
class Ask:
    question: str
    menu: Stages
    seconds: float | None = None  # a reaction window's countdown: then `timeout` is taken
    timeout: Event | None = None
    notes: list[str] = field(default_factory=list)


class Menu:
    """`items`: (label path, option index, the cards and targets it uses) per legal event. At most `flat_upto`
    choices are shown
    at once; more, in several groups (the path's first part), and the first stage offers the groups."""

    def __init__(self, options: list[Event], items: list[tuple[tuple[str, ...], int, list[int | str]]],
                 flat_upto: int = 12) -> None:
        self.options, self.items, self.flat_upto = options, items, flat_upto
        self.group: str | None = None

    def _staged(self) -> bool:
        groups = {p[0] for p, _, _ in self.items if len(p) > 1}
        return self.group is None and len(self.items) > self.flat_upto and len(groups) > 1

    def _groups(self) -> list[tuple[str, list[int]]]:
        out: dict[str, list[int]] = {}
        for k, (p, _, _) in enumerate(self.items):
            out.setdefault(p[0] if len(p) > 1 else "", []).append(k)
        return list(out.items())

    def _shown(self) -> list[tuple[str, Any]]:
        if self._staged():
            return [("group", g) for g, _ in self._groups()]
        return [("item", k) for k, (p, _, _) in enumerate(self.items)
                if self.group is None or (len(p) > 1 and p[0] == self.group)]

    def choices(self) -> list[dict[str, Any]]:
        out = []
        for what, val in self._shown():
            if what == "group":
                members = dict(self._groups())[val]
                cards = sorted({h for k in members for h in self.items[k][2]}, key=str)
                if len(members) == 1:
                    p, _, cs = self.items[members[0]]
                    out.append({"label": p[-1], "group": p[0] if len(p) > 1 else None, "cards": cs})
                else:
                    out.append({"label": val, "more": len(members), "cards": cards})
            else:
                p, _, cs = self.items[val]
                out.append({"label": p[-1], "group": p[0] if len(p) > 1 else None, "cards": cs})
        return out

    def pick(self, n: int) -> Event | None:
        shown = self._shown()
        if not 0 <= n < len(shown):
            return None
        what, val = shown[n]
        if what == "group":
            members = dict(self._groups())[val]
            if len(members) == 1:
                return self.options[self.items[members[0]][1]]
            self.group = val
            return None
        return self.options[self.items[val][1]]

    def back(self) -> bool:
        if self.group is None:
            return False
        self.group = None
        return True

    def can_back(self) -> bool:
        return self.group is not None

    def head(self) -> str:
        return self.group or ""
