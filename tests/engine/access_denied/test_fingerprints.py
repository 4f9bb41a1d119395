"""Seeded bot games, pinned: the same seeds must play the very same games, event for event.

The engine and the bots are deterministic for a seed, so a speed-up (views, caches, incremental checklists) that
changes any decision or any rule outcome shows up here as a different event list. A deliberate change of a rule
or of a bot's play changes these fingerprints too: regenerate them then (print `_fingerprint(...)` for each row)
and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.sim import play_game

PINNED = [  # profile, players, bot, seed, events, sha256 of the event list (first 16 hex digits)
    ("classic", 6, "random", 0, 2714, "39e2710bc01dfa0b"),
    ("classic", 6, "deduction", 1, 597, "85670355ccd87746"),
    ("retro2013", 4, "random", 1, 3547, "ea17199af047e334"),
    ("retro2013", 4, "deduction", 0, 264, "87a295f5a733dc90"),
    ("two-player", 2, "random", 0, 662, "14ff82e4248b0148"),
    ("two-player", 2, "deduction", 2, 132, "132c3bbebb925852"),
    ("classic-de", 3, "random", 2, 730, "873dca03ae9403b3"),
    ("classic-de", 3, "deduction", 1, 253, "92ad15f846778710"),
]


def _fingerprint(profile: str, n: int, bot: str, seed: int) -> tuple[int, str]:
    rec = play_game(get_profile(profile, round_limit=200), [make_bot(bot, seed * 10 + i) for i in range(n)], seed=seed)
    return len(rec.events), hashlib.sha256(json.dumps(rec.events, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("profile, n, bot, seed, events, digest", PINNED)
def test_seeded_games_are_unchanged(profile: str, n: int, bot: str, seed: int, events: int, digest: str) -> None:
    assert _fingerprint(profile, n, bot, seed) == (events, digest)
