"""Hacker's rule profiles as values: the basic game, closed departments (with the 3-codes variant), the Advanced
game (every SUPERSPY, PARTNER, BLUFF; 6/5 codes) and its optional rule of SUPERSPY laid face down (004:239, with
004:249's SUPERSPY PROTECTION), as fields, never as forks of the rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from adp2p.engine.hacker.catalog import cards


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    min_players: int = 3
    max_players: int = 6
    closed_departments: bool = False  # 004:24: only as many departments as players (3-4 players)
    advanced: bool = False  # 004:233: every SUPERSPY, the PARTNER and BLUFF cards
    superspy_face_down: bool = False  # 004:239 and 004:249 (optional): engine/hacker/facedown.py
    goal: int | None = None  # codes to win; None = by players (004:19-22, 004:235)
    hand: int = 5  # hacker-setup.md
    start_time: int = 3
    start_prio: int = 5
    prio_max: int = 10  # the PRIO track is 1..10 (hacker-setup.md)
    prio_min: int = 1
    round_limit: int = 100  # H-LIMIT (not from the publisher): then most codes win

    def codes_to_win(self, n: int) -> int:
        if self.goal is not None:
            return self.goal
        if self.closed_departments:  # H-CLOSEDGOAL: a code per open department, so never more codes than those
            return min(5, len(self.departments(n)))
        if self.advanced:
            return 6 if n <= 4 else 5  # 004:235
        return 5 if n <= 4 else 4  # 004:21-22

    def deck_counts(self) -> dict[str, int]:
        """Copies of each card in this profile's deck (card key -> count)."""
        counts = {c.key: (c.count if self.advanced else c.basic) for c in cards()}
        return {k: v for k, v in counts.items() if v}

    def departments(self, n: int) -> list[int]:
        """The open departments (0-based; printed 1-6)."""
        return list(range(n)) if self.closed_departments else list(range(6))


BASIC = Profile("basic")
CLOSED = Profile("closed", max_players=4, closed_departments=True)
CLOSED3 = Profile("closed-3", max_players=4, closed_departments=True, goal=3)  # 004:24 "3 codes"
ADVANCED = Profile("advanced", advanced=True)
ADVANCED_SUPERSPY = Profile("advanced-superspy", advanced=True, superspy_face_down=True)

PROFILES: dict[str, Profile] = {p.name: p for p in (BASIC, CLOSED, CLOSED3, ADVANCED, ADVANCED_SUPERSPY)}


def get_profile(name: str = "basic", *, goal: int | None = None, round_limit: int | None = None) -> Profile:
    try:
        prof = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown Hacker profile {name!r}; choose one of {', '.join(PROFILES)}") from None
    if goal is not None:
        if not 1 <= goal <= 6:
            raise ValueError("the goal must be 1 to 6 codes")
        prof = replace(prof, goal=goal)
    if round_limit is not None:
        if round_limit < 1:
            raise ValueError("the round limit must be at least 1")
        prof = replace(prof, round_limit=round_limit)
    return prof
