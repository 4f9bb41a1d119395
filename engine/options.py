"""Options: the legal events of one decision as a sequence built on demand.

`legal` lists every event a player may append; most of a list is families of like events (an attempt with each
set of cards on each sector, a trade of each card to each player, a discard of each set of cards). A chooser
that picks one event by its position (the random bot) needs the count and that one event only, so a family is
kept as a `Family` (count, kind, data) and its events are built when asked for. Iterating and comparing build the whole
list once (`as_list`), in the same order as the positions: `options[i] == options.as_list()[i]`.

A chooser that scores the events can read the families instead (`parts`): each says the type of its events and what
they differ by (`Family.data`, e.g. an attempt family's sector and card sets), so it can score a card set without
building its event, and build only the one it picks. `in` finds an event's place in a family (`Kind.locate`)
instead of building the family. A family's kind is a constant (its type, how an event is made from the data and
where one could be), so making a family costs one small tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple, overload

Event = dict[str, Any]


class Kind(NamedTuple):
    """What the families of one kind share."""

    t: str  # the type ("t") of every event of such a family ("": not said)
    make: Callable[[Any, int], Event]  # (the family's data, i) -> its i-th event
    locate: Callable[[Any, Event], int | None] | None = None  # (data, event) -> the only place it could be, or None


class Family(NamedTuple):
    """n like events: the i-th (0 <= i < n) is kind.make(data, i)."""

    n: int
    kind: Kind
    data: Any  # what the events differ by, for a reader that scores them unbuilt (engine.legal says what for each kind)

    @property
    def t(self) -> str:
        return self.kind.t

    def build(self, i: int) -> Event:
        return self.kind.make(self.data, i)


def parts(options: Sequence[Event]) -> list[tuple[list[Event], None] | tuple[None, Family]]:
    """The options in order as (built events, None) and (None, family) parts; a plain list is one built part."""
    if isinstance(options, Options):
        return options._parts
    return [(options if isinstance(options, list) else list(options), None)]


class Options(Sequence[Event]):
    """The events of one decision: lists of built events and families built on demand, in order."""

    __slots__ = ("_all", "_len", "_parts")

    def __init__(self, events: list[Event] | None = None) -> None:
        self._parts: list[tuple[list[Event], None] | tuple[None, Family]] = []
        self._len = 0
        self._all: list[Event] | None = None
        if events:
            self.extend(events)

    def extend(self, events: list[Event]) -> None:
        """Append events already built."""
        if events:
            self._parts.append((events, None))
            self._len += len(events)
            self._all = None

    def family(self, n: int, kind: Kind, data: Any) -> None:
        """Append n events; the i-th (0 <= i < n) is `kind.make(data, i)`, built only when asked for."""
        if n > 0:
            self._parts.append((None, Family(n, kind, data)))
            self._len += n
            self._all = None

    def as_list(self) -> list[Event]:
        """Every event, built once."""
        if self._all is None:
            out: list[Event] = []
            for events, fam in self._parts:
                if fam is None:
                    out += events  # type: ignore[operator]
                else:
                    out += map(partial(fam.kind.make, fam.data), range(fam.n))
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
        for events, fam in self._parts:
            n = len(events) if fam is None else fam.n  # type: ignore[arg-type]
            if i < n:
                return events[i] if fam is None else fam.build(i)  # type: ignore[index]
            i -= n
        raise AssertionError("unreachable")  # pragma: no cover

    def __iter__(self) -> Iterator[Event]:
        return iter(self.as_list())

    def __contains__(self, ev: object) -> bool:
        if self._all is not None or not isinstance(ev, dict):
            return ev in self.as_list()
        t = ev.get("t")
        for events, fam in self._parts:
            if fam is None:
                if ev in events:  # type: ignore[operator]
                    return True
            elif not fam.kind.t or fam.kind.t == t:
                locate = fam.kind.locate
                if locate is None:
                    if any(fam.build(i) == ev for i in range(fam.n)):
                        return True
                else:
                    i = locate(fam.data, ev)
                    if i is not None and 0 <= i < fam.n and fam.build(i) == ev:
                        return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Options):
            other = other.as_list()
        return isinstance(other, list) and self.as_list() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Options({self.as_list()!r})"
