"""The state the table holds of a Classified Information game: the engine's `CState` (whose faces are Card Numbers
1..9, two cards of each) beside the faces the table's pile holds (one index 0..17 per physical card, unique, as the
table core's card table needs: `faces`). Physical card f is Card Number f // 2 + 1 (`number`), which is also its
linked attribute (`Game.card_attributes`). Everything else the table reads (`known`, `reveals`, `next_handle`,
`over`, `winners`, `history`, `all_mask`) is the engine's. Setting `faces` (the audit refolds with every face) sets
both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adp2p.engine.classified.catalog import deck
from adp2p.engine.classified.state import CState

DECK_SIZE = len(deck())


def number(face: int) -> int:
    """The Card Number of physical card `face` (0..17)."""
    return face // 2 + 1


def first_copy(n: int) -> int:
    """The first physical card of Card Number n (what a claim of that number names)."""
    return 2 * (n - 1)


class TableState:
    """An engine state and the physical faces of its handles (see the module docstring)."""

    def __init__(self, eng: CState, faces: Mapping[int, int] | None = None) -> None:
        self.eng = eng
        self._faces: dict[int, int] = dict(faces or {})

    @property
    def faces(self) -> dict[int, int]:
        return self._faces

    @faces.setter
    def faces(self, value: Mapping[int, int]) -> None:
        self._faces = dict(value)
        self.eng = self.eng.clone()
        self.eng.faces = {h: number(f) for h, f in self._faces.items()}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("eng", "_faces"):
            raise AttributeError(name)
        return getattr(self.eng, name)

    def synced(self) -> CState:
        """The engine's state, knowing every face this state knows (a caller may have added to `faces` in place:
        then the engine's state is replaced by a copy that knows them too, never changed where another holds it)."""
        eng = self.eng
        missing = {h: number(f) for h, f in self._faces.items() if h not in eng.faces}
        if missing:
            eng = eng.clone()
            eng.faces.update(missing)
            self.eng = eng
        return eng

    def after(self, eng: CState) -> TableState:
        """The state after an engine step: the physical faces of the handles the engine still knows."""
        return TableState(eng, {h: f for h, f in self._faces.items() if h in eng.faces})
