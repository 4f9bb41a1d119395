"""The state the table holds of a Hacker game: the engine's `HState` (whose faces are card kinds: a deck holds
several copies of a card) beside the faces the table's piles hold (one number per physical card, unique, as the
table core's card table needs: `faces`). Everything else the table reads (`known`, `reveals`, `next_handle`,
`over`, `winners`, `history`, `all_mask`) is the engine's. Setting `faces` (the audit and evidence refold with every
face) sets both; a physical card's kind is `PHYSICAL[face]`."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from adp2p.engine.hacker.catalog import cards
from adp2p.engine.hacker.profiles import Profile
from adp2p.engine.hacker.state import HState


@cache
def physical() -> tuple[int, ...]:
    """Card kind of each physical card 0..D-1 of the full deck (every copy of every card, in catalog order)."""
    return tuple(c.id for c in cards() for _ in range(max(c.count, c.basic)))


def profile_deck(profile: Profile) -> list[int]:
    """The physical cards a profile's deck holds: of each card, its first copies (as many as the profile counts)."""
    counts = profile.deck_counts()
    out, seen = [], dict.fromkeys(counts, 0)
    for f, kind in enumerate(physical()):
        key = cards()[kind].key
        if seen.get(key, 0) < counts.get(key, 0):
            seen[key] += 1
            out.append(f)
    return out


class TableState:
    """An engine state and the physical faces of its handles (see the module docstring)."""

    def __init__(self, eng: HState, faces: Mapping[int, int] | None = None) -> None:
        self.eng = eng
        self._faces: dict[int, int] = dict(faces or {})

    @property
    def faces(self) -> dict[int, int]:
        return self._faces

    @faces.setter
    def faces(self, value: Mapping[int, int]) -> None:
        kinds = physical()
        self._faces = dict(value)
        self.eng = self.eng.clone()
        self.eng.faces = {h: kinds[f] for h, f in self._faces.items()}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("eng", "_faces"):
            raise AttributeError(name)
        return getattr(self.eng, name)

    def after(self, eng: HState) -> TableState:
        """The state after an engine step: the physical faces of the handles the engine still knows."""
        return TableState(eng, {h: f for h, f in self._faces.items() if h in eng.faces})
