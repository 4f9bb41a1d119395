"""A local Hacker game in process: the human at one seat (cli/hacker/human.py), `engine/hacker/bots` at the others, an
all-knowing referee resolving CHANCE from a seeded RNG and keeping every sealed value (engine/hacker/sim.py
`referee_apply`). The human's screen and menu see only `view(state, seat)` and `legal(view, seat)`."""

from __future__ import annotations

import random
from typing import Any

from adp2p.cli.hacker.human import Human, Quit
from adp2p.cli.hacker.words import say, seat_name
from adp2p.engine.hacker.api import Result, legal, new_game, pending, result, view
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.chance import chance_event
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.sim import referee_apply
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]


def play_local(human: Human, *, seat: int = 0, players: int = 4, profile: str = "basic", bots: str = "planner",
               seed: int | None = None, round_limit: int | None = None, goal: int | None = None,
               wait_at_end: bool = True,
               max_events: int = 200_000) -> tuple[Result | None, HState]:
    """Play one game; returns its result (None if the human quit) and the final (all-knowing) state."""
    seed = random.randrange(1 << 30) if seed is None else seed
    rng = random.Random(seed)
    st = new_game(get_profile(profile, goal=goal, round_limit=round_limit), players)
    others = {p: make_bot(bots, seed * 31 + p) for p in range(players) if p != seat}
    try:
        for n in range(max_events):
            d = pending(st)
            if d is None:
                break
            if d.actor is None:
                ev = chance_event(st, d, rng)
            else:
                v = view(st, d.actor)
                opts = legal(v, d.actor)
                ev = human.choose(v, seat, d, opts) if d.actor == seat else others[d.actor](v, d.actor, opts)
            st = referee_apply(st, ev, rng, f"local-{n}").state
    except Quit:
        return None, st
    res = result(st)
    lang = human.lang
    who = ", ".join(seat_name(p, seat, lang, human.names) for p in res.winners)
    human.finish(view(st, seat), seat, say("winners", lang, who=who or "-", why=say(f"why_{res.reason}", lang)),
                 wait_at_end)
    return res, st
