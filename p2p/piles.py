"""The deck's piles and handles: which ciphertext each engine handle stands for.

A `Pile` is one shuffled pile (the initial 63-card deck, or a reshuffled discard pile with its public faces),
its starting ciphertexts and every seat's shuffle step; a `HandleMap` maps engine handle ``first + j`` to
position j of each pile's final ciphertexts, pile after pile (public: every peer computes the same). `bits`
lists the seats of a seat mask. Pure data, no checks of the crypto (see `p2p.machine`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adp2p.crypto.deck import Ciphertext
from adp2p.crypto.hashing import u32


@dataclass
class Pile:
    """One shuffled pile: the initial deck (faces None = the 63 cards) or a reshuffled discard pile."""

    index: int
    first: int  # engine handle of position 0
    faces: list[int] | None
    start: list[Ciphertext]
    steps: list[tuple[int, list[Ciphertext]]] = field(default_factory=list)  # (shuffler seat, output)

    @property
    def final(self) -> list[Ciphertext]:
        return self.steps[-1][1] if self.steps else self.start

    @property
    def handles(self) -> range:
        return range(self.first, self.first + len(self.start))

    def context(self) -> bytes:
        return b"initial" if self.index == 0 else b"reshuffle" + u32(self.index)


class HandleMap:
    """Engine handle -> ciphertext, extended by every shuffled pile (public: every peer computes the same)."""

    def __init__(self) -> None:
        self._ct: dict[int, Ciphertext] = {}
        self.piles: list[Pile] = []

    def add_pile(self, pile: Pile) -> range:
        if pile.first != len(self._ct):
            raise ValueError(f"pile {pile.index} starts at handle {pile.first}, not {len(self._ct)}")
        for j, ct in enumerate(pile.final):
            self._ct[pile.first + j] = ct
        self.piles.append(pile)
        return pile.handles

    def add_mixed(self, first: int, cts: list[Ciphertext]) -> range:
        """A game's re-shuffle of cards already in play under fresh handles (Classified's hand mix): handle
        ``first + j`` is `cts[j]`."""
        if first != len(self._ct):
            raise ValueError(f"a mix starts at handle {first}, not {len(self._ct)}")
        for j, ct in enumerate(cts):
            self._ct[first + j] = ct
        return range(first, first + len(cts))

    def __getitem__(self, h: int) -> Ciphertext:
        try:
            return self._ct[h]
        except KeyError:
            raise KeyError(f"handle {h} has no ciphertext (no shuffled pile holds it)") from None

    def __contains__(self, h: object) -> bool:
        return h in self._ct

    def __len__(self) -> int:
        return len(self._ct)

    @property
    def next_handle(self) -> int:
        return len(self._ct)


def bits(mask: int) -> list[int]:
    """The seats of a seat mask (bit i = seat i), in order."""
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out
