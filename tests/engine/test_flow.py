"""flow's validation fast paths agree with the option lists they stand for, on seeded bot games:
a draw event is accepted exactly when it is one of `draw_options` (checked without building them)."""

from __future__ import annotations

import random
import sys

import pytest
from adp2p.engine.api import apply, learn, legal, new_game, pending, view
from adp2p.engine.bots import make_bot
from adp2p.engine.chance import chance_event, deck_faces
from adp2p.engine.profiles import get_profile

flow = sys.modules["adp2p.engine.flow"]

COUNTS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 2.0, True, None, "2", [2]]


def _draw_states(profile: str, n: int, seed: int):  # type: ignore[no-untyped-def]
    bots = [make_bot("random", seed * 10 + i) for i in range(n)]
    rng = random.Random(seed)
    st = new_game(get_profile(profile, round_limit=60), n)
    while (d := pending(st)) is not None:
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                faces = deck_faces(st)
                rng.shuffle(faces)
                first = st.next_handle
                st = apply(st, ev, inplace=True)
                st = learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)), inplace=True)
                continue
        else:
            if d.kind == "draw":
                yield st
            seen = view(st, d.actor)
            ev = bots[d.actor](seen, d.actor, legal(seen, d.actor))
        st = apply(st, ev, inplace=True)


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
