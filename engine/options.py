"""Options: the legal events of one decision as a sequence built on demand.

`legal` lists every event a player may append; most of a list is families of like events (an attempt with each
set of cards on each sector, a trade of each card to each player, a discard of each set of cards). A chooser
that picks one event by its position (the random bot) needs the count and that one event only, so a family is
kept as (count, builder) and its events are built when asked for. Iterating, `in` and comparing build the whole
list once (`as_list`), in the same order as the positions: `options[i] == options.as_list()[i]`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

Event = dict[str, Any]
Builder = Callable[[int], Event]


class Options(Sequence[Event]):
    """The events of one decision: lists of built events and families built on demand, in order."""

    __slots__ = ("_all", "_len", "_parts")

    def __init__(self, events: list[Event] | None = None) -> None:
        self._parts: list[tuple[int, Builder | None, list[Event] | None]] = []
        self._len = 0
        self._all: list[Event] | None = None
        if events:
            self.extend(events)

    def extend(self, events: list[Event]) -> None:
        """Append events already built."""
        if events:
            self._parts.append((len(events), None, events))
            self._len += len(events)
            self._all = None

    def family(self, n: int, build: Builder) -> None:
        """Append n events; the i-th (0 <= i < n) is `build(i)`, built only when asked for."""
        if n > 0:
            self._parts.append((n, build, None))
            self._len += n
            self._all = None

    def as_list(self) -> list[Event]:
        """Every event, built once."""
        if self._all is None:
            out: list[Event] = []
            for n, build, events in self._parts:
                if build is None:
                    out += events  # type: ignore[arg-type]
                else:
                    out += map(build, range(n))
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
        for n, build, events in self._parts:
            if i < n:
                return events[i] if build is None else build(i)  # type: ignore[index]
            i -= n
        raise AssertionError("unreachable")  # pragma: no cover

    def __iter__(self) -> Iterator[Event]:
        return iter(self.as_list())

    def __contains__(self, ev: object) -> bool:
        return ev in self.as_list()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Options):
            other = other.as_list()
        return isinstance(other, list) and self.as_list() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Options({self.as_list()!r})"
