"""Seeded Hacker positions for the client's tests: planner-bot games run by an all-knowing referee (as the local
game does), with a copy of the state kept at decisions of every kind (and every `every`-th one besides)."""

from __future__ import annotations

import random
from functools import cache

from adp2p.engine.hacker.api import legal, new_game, pending, view
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.chance import chance_event
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.sim import referee_apply
from adp2p.engine.hacker.state import HState


@cache
def positions(seed: int, players: int = 4, profile: str = "basic", every: int = 40,
              max_events: int = 6000) -> tuple[HState, ...]:
    rng = random.Random(seed)
    st = new_game(get_profile(profile), players)
    bots = [make_bot("planner", seed * 10 + p) for p in range(players)]
    kept: list[HState] = []
    kinds: set[str] = set()
    for n in range(max_events):
        d = pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
        else:
            kind = f"{d.kind}:{d.info.get('what', '')}"
            if kind not in kinds or n % every == 0:
                kinds.add(kind)
                kept.append(st.clone())
            v = view(st, d.actor)
            ev = bots[d.actor](v, d.actor, legal(v, d.actor))
        st = referee_apply(st, ev, rng, f"local-{n}").state
    kept.append(st)
    return tuple(kept)
