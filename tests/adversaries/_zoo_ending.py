"""The equivocated ending entry (issue 34): a seat whose event ends the game signs a second, different event for that
seq that ends it too, and the networked zoo (_net.ZooPeer) sends one version to one peer and the other to the rest."""

from __future__ import annotations

from typing import Any

from _zoo import Blind, SeesOwnFaces
from adp2p.p2p.protocol import Kind, ProtocolError


class EndingEquivocator(SeesOwnFaces):
    """Honest until its own event would end the game; then it also prepares another legal event that ends it (the
    peer sends the two versions to different halves of the table). The second body is kept with the fold's authoring
    part (`extra_entry`): the peer authors on a fork of its machine, which shares that part (not on the class: every
    table's cheater is of this one class). Its bot chooses knowing its own faces (`SeesOwnFaces`: as a plain `Blind` it
    played blind to its hand, and broke rules of its own, e.g. kept back a card it must lay)."""

    @property
    def extra_entry(self) -> dict[str, Any] | None:
        return getattr(self.authoring, "extra_entry", None)

    @extra_entry.setter
    def extra_entry(self, body: dict[str, Any] | None) -> None:
        self.authoring.extra_entry = body  # type: ignore[attr-defined]

    class Author(SeesOwnFaces.Author):
        @staticmethod
        def ends(fold: Any, body: dict[str, Any]) -> bool:
            t = fold.snapshot()
            try:
                t.apply(fold.seat, Kind.EVENT, body, prev=bytes(32))
            except ProtocolError:
                return False
            return bool(t.state.over)

        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.EVENT or fold.cheat_seq is not None or "passes" in out[1]:
                return out
            if not self.ends(fold, out[1]):
                return out
            seen = fold.game.view(fold.state, fold.seat)
            for ev in fold.game.legal(seen, fold.seat):
                if ev == out[1].get("ev"):
                    continue
                alt = Blind.Author.author_next(self, fold.snapshot(), lambda *_, e=ev: e)
                if alt is not None and alt[0] == Kind.EVENT and alt[1] != out[1] and self.ends(fold, alt[1]):
                    fold.extra_entry = alt[1]  # (on a fork too: its authoring part is its machine's)
                    fold.cheated()
                    break
            return out

    author = Author()
