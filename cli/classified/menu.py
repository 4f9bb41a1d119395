"""The menu of one Classified Information decision: every legal event of the seat as a path (the card, how it is
played, its target: cli/classified/labels.py `path`), asked stage by stage: the first stage offers the cards, the
next how to play the one chosen, the next its target; a stage with one choice is passed at once. Events the player
cannot tell apart (the same play of either copy of a card) are one choice. `0` goes back one stage.

Pure logic, no I/O: `stage()` says the current stage, `pick(text)` answers a typed line with the chosen legal event
or None (a new stage, or an error in `error`)."""

from __future__ import annotations

from typing import Any

from adp2p.cli.classified.labels import guard_label, path, question
from adp2p.cli.classified.words import card_name, say
from adp2p.engine.classified.state import CState

Event = dict[str, Any]


def title(v: CState, me: int, kind: str, info: dict[str, Any], lang: str) -> str:
    if kind == "action":
        return say("q.final_action" if info.get("final") else "q.action", lang)
    if kind == "window":
        a = info.get("attack") or {}
        g = info.get("target")
        return say("q.window", lang, guard=guard_label(v, me, g, lang) if g is not None else "?",
                   card=card_name(a.get("a"), lang))
    if kind == "answer":
        return say("q.answer", lang, q=question(v, me, info["question"], lang))
    return say(f"q.{kind}", lang)


class Menu:
    def __init__(self, v: CState, me: int, kind: str, info: dict[str, Any], options: list[Event],
                 lang: str = "en") -> None:
        self.v, self.me, self.kind, self.options, self.lang = v, me, kind, options, lang
        self.title = title(v, me, kind, info, lang)
        self.paths = [path(v, me, ev, lang) for ev in options]
        seen: set[tuple[str, ...]] = set()
        self.shown = [i for i, p in enumerate(self.paths) if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
        self.prefix: tuple[str, ...] = ()
        self.error = ""
        self._skip()

    def _under(self, prefix: tuple[str, ...]) -> list[int]:
        n = len(prefix)
        return [i for i in self.shown if self.paths[i][:n] == prefix]

    def choices(self) -> list[tuple[str, Any]]:
        """The stage's choices: (label, ("event", i) | ("group", prefix)), in the order the events come."""
        n = len(self.prefix)
        out: list[tuple[str, Any]] = []
        groups: dict[str, int] = {}
        for i in self._under(self.prefix):
            p = self.paths[i]
            if len(p) == n + 1:
                out.append((p[n], ("event", i)))
            elif p[n] not in groups:
                groups[p[n]] = len(out)
                out.append((p[n], ("group", (*self.prefix, p[n]))))
        return out

    def _skip(self) -> None:
        """A stage with a single group goes on to that group's stage at once."""
        while True:
            c = self.choices()
            if len(c) == 1 and c[0][1][0] == "group":
                self.prefix = c[0][1][1]
            else:
                return

    @property
    def single(self) -> bool:
        """No choice at all: one event the player can tell apart."""
        return len(self.shown) == 1

    def stage(self) -> tuple[str, list[str], str | None]:
        head = self.title + (" › " + " › ".join(self.prefix) if self.prefix else "")
        body = [f"{n:>2} {label}" + (" …" if what == "group" else "")
                for n, (label, (what, _)) in enumerate(self.choices(), 1)]
        return head, body, say("back", self.lang) if self.prefix else None

    def pick(self, text: str) -> Event | None:
        self.error = ""
        x = text.strip()
        if not x:
            return None
        if x == "0" and self.prefix:
            self.prefix = self.prefix[:-1]
            while self.prefix and len(self.choices()) == 1:  # (back past stages that were passed at once)
                self.prefix = self.prefix[:-1]
            return None
        choices = self.choices()
        if not (x.isdigit() and 1 <= int(x) <= len(choices)):
            self.error = say("bad_choice", self.lang, x=x)
            return None
        what, val = choices[int(x) - 1][1]
        if what == "event":
            return self.options[val]
        self.prefix = val
        self._skip()
        return self._lone()

    def _lone(self) -> Event | None:
        """A stage that would offer a single target of the play chosen (Test Access Codes, Picking Petals: no target)
        is that play. A card whose only play is one (Encrypt: a card that can do nothing else now) still shows that
        play: choosing the card is not choosing to give it away."""
        c = self.choices()
        if len(c) == 1 and c[0][1][0] == "event" and len(self.prefix) >= 2:
            self.prefix = self.prefix[:-1]
            return self.options[c[0][1][1]]
        return None


def every_choice(menu: Menu) -> list[tuple[list[str], Event]]:
    """Every event the menu can give, with the keys typed to get it (for tests and a driver typing like a person)."""
    out: list[tuple[list[str], Event]] = []
    start = menu.prefix

    def walk(keys: list[str], prefix: tuple[str, ...]) -> None:
        menu.prefix = prefix
        for n, (_, (what, val)) in enumerate(menu.choices(), 1):
            if what == "event":
                out.append(([*keys, str(n)], menu.options[val]))
            else:
                menu.prefix = val
                menu._skip()
                c = menu.choices()
                if len(c) == 1 and c[0][1][0] == "event" and len(menu.prefix) >= 2:
                    out.append(([*keys, str(n)], menu.options[c[0][1][1]]))
                else:
                    walk([*keys, str(n)], menu.prefix)
                menu.prefix = prefix

    walk([], start)
    menu.prefix = start
    return out
