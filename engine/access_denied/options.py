"""Options: the legal events of one decision as a sequence built on demand.

`legal` lists every event a player may append; most of a list is families of like events (an attempt with each
set of cards on each sector, a trade of each card to each player, a discard of each set of cards). A chooser
that picks one event by its position (the random bot) needs the count and that one event only, so a family is
kept as (count, kind, data) and its events are built when asked for. Iterating and comparing build the whole
list once (`as_list`), in the same order as the positions: `options[i] == options.as_list()[i]`.

A chooser that scores the events can read the parts instead (`parts`): a family's kind says the type of its events,
and its data what they differ by (e.g. an attempt family's sector and card sets; engine.legal says what for each
kind), so it can score a card set without building its event, and build only the one it picks. `in` finds an
event's place in a family (`Kind.locate`) instead of building the family. A kind is a constant, so adding a family
costs one small tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations
from math import comb
from typing import Any, NamedTuple, overload

Event = dict[str, Any]

COMBO_CAP = 120  # a family lists at most this many card sets (bounded_combinations)


def bounded_combinations(items: list[int], k: int, cap: int = COMBO_CAP) -> list[tuple[int, ...]]:
    """All k-subsets of items when there are at most `cap`; otherwise a deterministic spread of them
    (every cyclic window of k, then the first ones in order). `apply` accepts any valid subset."""
    items = sorted(items)
    n = len(items)
    if k > n or k < 0:
        return []
    if comb(n, k) <= cap:
        return list(combinations(items, k))
    out = {tuple(sorted(items[(i + j) % n] for j in range(k))) for i in range(n)}
    for c in combinations(items, k):
        if len(out) >= cap:
            break
        out.add(c)
    return sorted(out)


class Kind(NamedTuple):
    """What the families of one kind share."""

    t: str  # the type ("t") of every event of such a family ("": not said)
    make: Callable[[Any, int], Event]  # (the family's data, i) -> its i-th event
    locate: Callable[[Any, Event], int | None] | None = None  # (data, event) -> the only place it could be, or None


# One part of the options, in order: (events, n, None, None) for n events already built, or (None, n, kind, data)
# for a family of n events, the i-th (0 <= i < n) being kind.make(data, i).
Part = tuple[list[Event] | None, int, Kind | None, Any]


def parts(options: Sequence[Event]) -> list[Part]:
    """The parts of these options (read them, do not change them); a plain list is one part of built events."""
    if isinstance(options, Options):
        return options._parts
    events = options if isinstance(options, list) else list(options)
    return [(events, len(events), None, None)]


class Options(Sequence[Event]):
    """The events of one decision: lists of built events and families built on demand, in order."""

    __slots__ = ("_all", "_len", "_parts")

    def __init__(self, events: list[Event] | None = None) -> None:
        self._parts: list[Part] = []
        self._len = 0
        self._all: list[Event] | None = None
        if events:
            self.extend(events)

    def extend(self, events: list[Event]) -> None:
        """Append events already built."""
        if events:
            self._parts.append((events, len(events), None, None))
            self._len += len(events)
            self._all = None

    def family(self, n: int, kind: Kind, data: Any) -> None:
        """Append n events; the i-th (0 <= i < n) is `kind.make(data, i)`, built only when asked for."""
        if n > 0:
            self._parts.append((None, n, kind, data))
            self._len += n
            self._all = None

    def as_list(self) -> list[Event]:
        """Every event, built once."""
        if self._all is None:
            out: list[Event] = []
            for events, n, kind, data in self._parts:
                if kind is None:
                    out += events  # type: ignore[operator]
                else:
                    out += map(partial(kind.make, data), range(n))
            self._all = out
        return self._all

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        if isinstance(i, slice) or self._all is not None:
            return self.as_list()[i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("option index out of range")
        for events, n, kind, data in self._parts:
            if i < n:
                return events[i] if kind is None else kind.make(data, i)  # type: ignore[index]
            i -= n
        raise AssertionError("unreachable")  # pragma: no cover

    def __iter__(self) -> Iterator[Event]:
        return iter(self.as_list())

    def __contains__(self, ev: object) -> bool:
        if self._all is not None or not isinstance(ev, dict):
            return ev in self.as_list()
        t = ev.get("t")
        for events, n, kind, data in self._parts:
            if kind is None:
                if ev in events:  # type: ignore[operator]
                    return True
            elif not kind.t or kind.t == t:
                if kind.locate is None:
                    if any(kind.make(data, i) == ev for i in range(n)):
                        return True
                else:
                    i = kind.locate(data, ev)
                    if i is not None and 0 <= i < n and kind.make(data, i) == ev:
                        return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Options):
            other = other.as_list()
        return isinstance(other, list) and self.as_list() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Options({self.as_list()!r})"
