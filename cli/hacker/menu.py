"""The menu of one Hacker decision: every legal event of the seat, numbered, at most `STAGE_MAX` choices per
stage (events the player cannot tell apart, such as laying either of two copies of a card, are one choice). Where
there are more, a stage offers groups (a card, a number of cards, a column of the pad) and the next
stage the choices in the group; `0` goes back one stage. The hack pad's checks (a sealed choice among hundreds of
pads) are picked square by square: each step offers only squares that still complete a pad the roll allows.

Pure logic, no I/O: `rows()` says the current stage, `pick(text)` answers a typed line with the chosen legal
event (an intent with its `secret` for sealing decisions: the caller seals it) or None (a new stage, or an error
in `error`). A square's name (e.g. `c3`) picks that square directly while probing or setting checks.
"""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker.labels import path, question
from adp2p.cli.hacker.words import ring_name, say
from adp2p.engine.hacker.board import ring
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]
STAGE_MAX = 12


class Menu:
    """The menu of `options` (the legal events of `me` in its view `v`) for a decision of `kind`."""

    def __init__(self, v: HState, me: int, kind: str, info: dict[str, Any], options: list[Event], lang: str = "en",
                 names: list[str] | None = None) -> None:
        self.v, self.me, self.kind, self.options, self.lang = v, me, kind, options, lang
        self.title = question(v, me, kind, info, lang, names)
        self.pad = bool(options) and all(ev["t"] == "seal" and ev.get("what") == "pad" for ev in options)
        self.paths = [path(v, me, ev, lang, names) for ev in options]
        seen: set[tuple[str, ...]] = set()  # events the player cannot tell apart (two copies of a card): one choice
        self.shown = [i for i, p in enumerate(self.paths) if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
        self.prefix: tuple[str, ...] = ()
        self.picked: list[str] = []  # the pad's checks picked so far
        self.error = ""
        self.limit = STAGE_MAX  # choices per stage; a page short of rows for long labels asks for fewer (fit)

    # -- what the current stage offers ----------------------------------------------------------------------
    def _under(self) -> list[int]:
        n = len(self.prefix)
        return [i for i in self.shown if self.paths[i][:n] == self.prefix]

    def choices(self) -> list[tuple[str, Any]]:
        """The current stage's choices: (label, ("event", index) | ("group", path) | ("square", sq))."""
        if self.pad:
            return self._pad_choices()
        return staged([(self.paths[i], ("event", i)) for i in self.shown], self.prefix, self.lang, self.limit)

    def _pad_left(self) -> list[int]:
        return [i for i, ev in enumerate(self.options) if set(self.picked) <= set(ev["secret"])]

    def _pad_choices(self) -> list[tuple[str, Any]]:
        left = self._pad_left()
        if len(self.picked) >= len(self.options[0]["secret"]):
            return [(self.paths[i][-1], ("event", i)) for i in left]
        squares = sorted({s for i in left for s in self.options[i]["secret"]} - set(self.picked))
        items = [((ring_name(s, self.lang), say("col", self.lang, c=s[0]), s), ("square", s))
                 for s in sorted(squares, key=lambda s: (-ring(s), s))]
        return staged(items, self.prefix, self.lang)

    def fit(self, rows: int, width: int) -> None:
        """Fewer choices per stage (down to 4) where `rows` lines cannot show them in one column and their labels
        are too long for two."""
        labels = [self.paths[i][-1] for i in self.shown]
        if labels and max(len(x) for x in labels) > width // 2 - 5:
            self.limit = max(4, min(STAGE_MAX, rows))

    def stage(self) -> tuple[str, list[str], str | None]:
        """The stage: its question (with the pad's picks), its numbered choices, the way back (if any)."""
        head = self.title
        if self.pad:
            size = len(self.options[0]["secret"]) if self.options else 0
            head += "  " + say("pick_pad", self.lang, sqs=" ".join(self.picked) or "-", k=len(self.picked), n=size)
        body = [f"{n:>2} {label}" for n, (label, _) in enumerate(self.choices(), 1)]
        return head, body, say("back", self.lang) if self.prefix or self.picked else None

    def rows(self) -> list[str]:
        head, body, back = self.stage()
        return [head, *body, *([back] if back else [])]

    # -- answering a typed line -----------------------------------------------------------------------------
    def pick(self, text: str) -> Event | None:
        self.error = ""
        x = text.strip()
        if not x:  # Enter alone: the same menu again, no error
            return None
        if x == "0" and (self.prefix or self.picked):
            if self.prefix:
                self.prefix = self.prefix[:-1]
            else:
                self.picked.pop()
            return None
        choices = self.choices()
        target: Any = None
        if x.isdigit() and 1 <= int(x) <= len(choices):
            target = choices[int(x) - 1][1]
        elif len(x) == 2 and x[0].upper() in "ABCDE" and x[1] in "12345":
            target = self._square(x.upper())
        if target is None:
            self.error = self._why_not(x)
            return None
        what, val = target
        if what == "event":
            return self.options[val]
        if what == "group":
            self.prefix = val
            return None
        self.picked.append(val)
        self.prefix = ()
        return self._pad_done()

    def _square(self, sq: str) -> tuple[str, Any] | None:
        if self.pad:
            left = self._pad_left()
            ok = sq not in self.picked and any(sq in self.options[i]["secret"] for i in left)
            return ("square", sq) if ok else None
        for i, ev in enumerate(self.options):
            if ev["t"] == "probe" and ev["sq"] == sq:
                return ("event", i)
        return None

    def _why_not(self, x: str) -> str:
        """Why a typed line is no choice: a square with the rule it breaks (not on the outer ring, not next to where
        the hack stands, already found clear, not a check this roll allows), else that there is no such choice."""
        sq = x.upper()
        if not (len(sq) == 2 and sq[0] in "ABCDE" and sq[1] in "12345"):
            n = len(self.choices())
            return say("bad_choice_n", self.lang, x=x, n=n) if x.isdigit() and n else say("bad_choice", self.lang, x=x)
        if self.pad:
            key = "sq_picked" if sq in self.picked else "sq_not_check"
            return say(key, self.lang, sq=sq, ring=ring_name(sq, self.lang))
        hack = self.v.work.get("hack") if isinstance(getattr(self.v, "work", None), dict) else None
        if not any(ev["t"] == "probe" for ev in self.options) or not isinstance(hack, dict):
            return say("sq_not_now", self.lang, sq=sq)
        if hack.get("pos") is None:
            return say("sq_not_outer", self.lang, sq=sq)
        if sq in hack.get("cleared", []):
            return say("sq_cleared", self.lang, sq=sq)
        return say("sq_not_next", self.lang, sq=sq, at=hack["pos"])

    def _pad_done(self) -> Event | None:
        left = self._pad_left()
        if len(left) == 1 and sorted(self.options[left[0]]["secret"]) == sorted(self.picked):
            return self.options[left[0]]
        return None


def staged(items: list[tuple[tuple[str, ...], Any]], prefix: tuple[str, ...], lang: str,
           limit: int = STAGE_MAX) -> list[tuple[str, Any]]:
    """The choices of one stage among items (label path, target) under `prefix`: all of them by their last part
    when at most STAGE_MAX, else their next parts as groups (a group of one is its item), single items last."""
    n = len(prefix)
    under = [(p, t) for p, t in items if p[:n] == prefix]
    if len(under) <= limit or not any(len(p) > n + 1 for p, _ in under):
        return [(p[-1], t) for p, t in under]  # a choice's last part names it whole
    groups: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    single: list[tuple[str, Any]] = []
    for p, t in under:
        if len(p) > n + 1:
            groups.setdefault(p[n], []).append((p, t))
        else:
            single.append((p[-1], t))
    if len(groups) == 1 and not single:  # one group only: its stage at once
        return staged(items, (*prefix, next(iter(groups))), lang, limit)
    out: list[tuple[str, Any]] = []
    for g, members in groups.items():
        if len(members) == 1:
            out.append((members[0][0][-1], members[0][1]))
        else:
            out.append((say("group_more", lang, label=g, k=len(members)), ("group", (*prefix, g))))
    return out + single


def every_choice(menu: Menu) -> list[tuple[list[str], Event]]:
    """Every event the menu can give, with the keys typed to get it (each stage walked once; the pad's sets by
    their squares in order). For tests and for a bot that drives the menu like a person."""
    out: list[tuple[list[str], Event]] = []

    def walk(keys: list[str]) -> None:
        m = Menu.__new__(Menu)
        m.__dict__.update(menu.__dict__)
        m.prefix, m.picked, m.error = (), [], ""
        for k in keys:
            m.pick(k)
        for n, (_, (what, val)) in enumerate(m.choices(), 1):
            if what == "event":
                out.append(([*keys, str(n)], m.options[val]))
            elif what == "group":
                walk([*keys, str(n)])
            elif not m.picked or val > m.picked[-1]:  # a pad's square: each set once, its squares in order
                if len(m.picked) + 1 == len(m.options[0]["secret"]):
                    done = sorted([*m.picked, val])
                    out.append(([*keys, str(n)], next(e for e in m.options if sorted(e["secret"]) == done)))
                else:
                    walk([*keys, str(n)])

    walk([])
    return out
