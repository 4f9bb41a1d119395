"""In-process games: bots against bots through the engine, with an omniscient referee resolving CHANCE
from a seeded RNG. Used by `ad-p2p sim`, the property tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adp2p.engine.access_denied.api import apply, learn, new_game, options, pending, to_move, view
from adp2p.engine.access_denied.chance import chance_event, deck_faces
from adp2p.engine.access_denied.profiles import Profile
from adp2p.engine.access_denied.state import GameState

Chooser = Callable[[GameState, int, Sequence[dict[str, Any]]], dict[str, Any]]


@dataclass
class GameRecord:
    state: GameState
    events: list[dict[str, Any]] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)


def play_game(
    profile: Profile, bots: Sequence[Chooser], seed: int, *, max_events: int = 200_000, use_views: bool = True
) -> GameRecord:
    """Play one game; `bots[i]` chooses for seat i from (its view, its seat, its legal events: `api.options`, a
    sequence built on demand)."""
    rng = random.Random(seed)
    st = new_game(profile, len(bots))
    rec = GameRecord(st)
    record = rec.events.append
    for _ in range(max_events):
        who = to_move(st)
        if who is None:
            d = pending(st)
            if d is None:
                break
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                faces = deck_faces(st)
                rng.shuffle(faces)
                first = st.next_handle
                st = apply(st, ev, inplace=True)
                new = dict(zip(range(first, st.next_handle), faces, strict=True))
                st = learn(st, new, inplace=True)
                rec.faces.update(new)
                record(ev)
                continue
        else:
            seen = view(st, who) if use_views else st
            ev = bots[who](seen, who, options(seen, who))
        st = apply(st, ev, inplace=True)
        record(ev)
    rec.state = st
    return rec
