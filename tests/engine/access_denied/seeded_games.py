"""Seeded all-knowing bot games for the engine's equivalence tests: the same game on every run (CHANCE and the
deck order from the seed, every face learned after a shuffle), paused before each player's decision."""

from __future__ import annotations

import random
from collections.abc import Iterator

from adp2p.engine.access_denied.api import Decision, apply, learn, legal, new_game, pending, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.chance import chance_event, deck_faces
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.state import GameState


def decisions(profile: str, n: int, bot: str, seed: int, round_limit: int = 60) -> Iterator[tuple[GameState, Decision]]:
    """(the whole state, the decision due) before each player's decision of a seeded game of `bot`s; the state is
    the game's own (read it, do not change it), and the bot decides on its view once the caller resumes."""
    bots = [make_bot(bot, seed * 10 + i) for i in range(n)]
    rng = random.Random(seed)
    st = new_game(get_profile(profile, round_limit=round_limit), n)
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
            yield st, d
            seen = view(st, d.actor)
            ev = bots[d.actor](seen, d.actor, legal(seen, d.actor))
        st = apply(st, ev, inplace=True)
