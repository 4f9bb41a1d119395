"""A local Classified Information game in process: the human at one seat (cli/classified/human.py), a bot of
`engine/classified/bots` at the other, an all-knowing referee dealing the shuffle's faces and resolving CHANCE
from a seeded RNG (as engine/classified/sim.py does). The human's screen and menu see only `view(state, seat)` and
`legal(view, seat)`: every answer about the player's own cards is offered only as the truth."""

from __future__ import annotations

import random
from typing import Any

from adp2p.cli.classified.human import Quit
from adp2p.engine.classified.api import Result, learn, legal, new_game, pending, result, view
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.profiles import get_profile
from adp2p.engine.classified.state import CState


def play_local(human: Any, *, seat: int = 0, profile: str = "standard", bot: str = "deduction",
               seed: int | None = None, wait_at_end: bool = True,
               max_events: int = 10_000, record: list[dict[str, Any]] | None = None) -> tuple[Result | None, CState]:
    """Play one game; returns its result (None if the human quit) and the final (all-knowing) state. `record`: a
    list that gets every event applied, in order (what a table's log would hold: an offline audit replays it)."""
    seed = random.randrange(1 << 30) if seed is None else seed
    rng = random.Random(seed)
    st = new_game(get_profile(profile))
    other = make_bot(bot, seed * 31 + 1 - seat)
    try:
        for _ in range(max_events):
            d = pending(st)
            if d is None:
                break
            if d.actor is None:
                ev = chance_event(st, d, rng)
                if ev["t"] == "shuffle":
                    faces = deck_faces(st)
                    rng.shuffle(faces)
                    st = learn(st, dict(enumerate(faces)))
            else:
                v = view(st, d.actor)
                opts = legal(v, d.actor)
                ev = human.choose(v, seat, d, opts) if d.actor == seat else other(v, d.actor, opts)
            st = apply_known(st, ev, rng)  # a hand mixed: the referee deals its faces (ruling C-MIX)
            if record is not None:
                record.append(ev)
    except Quit:
        return None, st
    human.finish(view(st, seat), seat, "", wait_at_end)
    return result(st), st
