"""Multi-game mode (003 "Multi-Game Mode"): best of three or five games, as a fold over the games' results.

Rulings (docs/rules-classified.md C-MATCH): a tied game counts for neither player; the match ends when a player has
won a majority (2 of 3, 3 of 5), or after twice as many games as the match is long (6 or 10), when more wins win
and equal wins are a tied match; the first player of each game is CHANCE's, as in a single game; the winner's right
to "create the deck for the next round" has nothing to choose from while only the Citrine deck exists."""

from __future__ import annotations

from dataclasses import dataclass, field

from adp2p.engine.classified.api import Result

LENGTHS = (3, 5)


@dataclass
class Match:
    best_of: int = 3
    wins: list[int] = field(default_factory=lambda: [0, 0])
    games: list[list[int]] = field(default_factory=list)  # each game's winners ([] = a tie)

    def __post_init__(self) -> None:
        if self.best_of not in LENGTHS:
            raise ValueError(f"a match is best of {' or '.join(map(str, LENGTHS))} games, not {self.best_of}")

    @property
    def needed(self) -> int:
        return self.best_of // 2 + 1

    @property
    def over(self) -> bool:
        return max(self.wins) >= self.needed or len(self.games) >= 2 * self.best_of

    @property
    def winners(self) -> list[int]:
        """The match's winner ([] while it runs, or for a tied match)."""
        if not self.over or self.wins[0] == self.wins[1]:
            return []
        return [0 if self.wins[0] > self.wins[1] else 1]

    def record(self, result: Result) -> Match:
        if self.over:
            raise ValueError("the match is over")
        if result.reason is None:
            raise ValueError("a game still running has no result")
        self.games.append(list(result.winners))
        for w in result.winners:
            self.wins[w] += 1
        return self
