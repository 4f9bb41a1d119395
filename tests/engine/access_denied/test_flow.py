"""flow's validation fast paths agree with the option lists they stand for, on seeded bot games:
a draw event is accepted exactly when it is one of `draw_options` (checked without building them)."""

from __future__ import annotations

import sys

import pytest
from seeded_games import decisions

flow = sys.modules["adp2p.engine.access_denied.flow"]

COUNTS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 2.0, True, None, "2", [2]]


def _draw_states(profile: str, n: int, seed: int):  # type: ignore[no-untyped-def]
    return (st for st, d in decisions(profile, n, "random", seed) if d.kind == "draw")


@pytest.mark.parametrize("profile, n, seed", [("classic", 6, 0), ("retro2013", 4, 1), ("classic-de", 3, 2)])
def test_draw_allowed_is_membership_in_draw_options(profile: str, n: int, seed: int) -> None:
    states = 0
    for st in _draw_states(profile, n, seed):
        states += 1
        p = st.turn.player
        offered = flow.draw_options(st)
        for k in COUNTS:
            for bank in (False, True):
                clean = {"t": "draw", "p": p, "n": k, **({"bank": True} if bank else {})}
                assert flow._draw_allowed(st, k, bank) == (clean in offered), (k, bank)
    assert states > 0
