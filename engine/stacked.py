"""The plumbing every game whose state is a stack of tasks shares (Hacker, Classified Information): whose move it
is, applying an event through the game's own flow, learning faces, and the view of one seat's faces.

A game's `api` module keeps its own state type and rules; these functions take the game's `flow.apply_event` (or
read only fields every such state has: `over`, `stack`, `faces`, `known`, `reveals`, `clone()`), so no rule lives
here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from adp2p.engine.errors import IllegalEvent


class Stacked(Protocol):
    over: bool
    stack: list[dict[str, Any]]
    faces: dict[int, int]
    known: dict[int, int]
    reveals: list[Any]

    def clone(self) -> Any: ...


S = TypeVar("S", bound=Stacked)


def to_move(st: Stacked) -> int | None:
    return None if st.over or not st.stack else st.stack[-1]["actor"]


def apply(apply_event: Callable[[Any, Any], None], st: S, event: Any, *, inplace: bool = False) -> S:
    """A new state with `event` applied by the game's flow; on IllegalEvent the given state is unchanged
    (inplace=True: undefined)."""
    new = st if inplace else st.clone()
    new.reveals = []
    apply_event(new, event)
    return new


def learn(st: S, faces: Mapping[int, int], *, inplace: bool = False) -> S:
    """This instance now knows these faces (handle -> card); a face that contradicts one known is refused."""
    new = st if inplace else st.clone()
    for h, f in faces.items():
        if new.faces.get(h, f) != f:
            raise IllegalEvent("face_mismatch", f"handle {h} was already known to be another card")
        new.faces[h] = f
    return new


def view_faces(st: S, player: int) -> S:
    """A read-only copy holding only the faces `player` knows (the other containers shared), nothing revealed."""
    new = copy.copy(st)
    bit = 1 << player
    new.faces = {h: f for h, f in st.faces.items() if st.known.get(h, 0) & bit}
    new.reveals = []
    return new
