"""In-process Classified Information games: bots against bots through the engine, an all-knowing referee dealing
the shuffle's faces and resolving CHANCE from a seeded RNG; every bot decides on its own view. Used by
`sim --game classified` (later), the property tests and benchmarks/classified_bots.py."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adp2p.engine.classified.api import learn, legal, new_game, pending, view
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.profiles import STANDARD, Profile
from adp2p.engine.classified.state import CState

Chooser = Callable[[CState, int, Sequence[dict[str, Any]]], dict[str, Any]]


@dataclass
class GameRecord:
    state: CState
    events: list[dict[str, Any]] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)


def play_game(bots: Sequence[Chooser], seed: int, profile: Profile = STANDARD, *, max_events: int = 10_000,
              start: int | None = None) -> GameRecord:
    """One game; `start` fixes the first player (else CHANCE picks it)."""
    rng = random.Random(seed)
    st = new_game(profile)
    rec = GameRecord(st)
    for _ in range(max_events):
        d = pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "start" and start is not None:
                ev = {"t": "start", "p": start}
            if ev["t"] == "shuffle":
                faces = deck_faces(st)
                rng.shuffle(faces)
                rec.faces = dict(enumerate(faces))
                st = learn(st, rec.faces, inplace=True)
        else:
            ev = bots[d.actor](view(st, d.actor), d.actor, legal(view(st, d.actor), d.actor))
        first = st.next_handle
        st = apply_known(st, ev, rng, inplace=True)
        rec.events.append(ev)
        rec.faces.update({h: st.faces[h] for h in range(first, st.next_handle)})  # a hand mixed (ruling C-MIX)
    rec.state = st
    return rec


def simulate(games: int, strategies: Sequence[str], seed: int, profile: Profile = STANDARD) -> dict[str, Any]:
    """`games` games of two strategies, seats and the first player alternating: wins per strategy, ties, speed."""
    from adp2p.engine.classified.bots import make_bot

    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    unfinished = 0
    events = 0
    t0 = time.process_time()
    for g in range(games):
        seats = [strategies[(i + g) % 2] for i in range(2)]
        bots = [make_bot(name, seed * 1_000_003 + g * 17 + i) for i, name in enumerate(seats)]
        rec = play_game(bots, seed * 7919 + g, profile, start=(g // 2) % 2)
        st = rec.state
        unfinished += not st.over
        events += len(rec.events)
        reasons[st.end_reason or "unfinished"] += 1
        wins.update(seats[w] for w in st.winners)
        if st.over and not st.winners:
            wins["tie"] += 1
    dt = time.process_time() - t0
    return {"game": "classified", "profile": profile.name, "games": games, "strategies": list(strategies),
            "wins": dict(wins), "reasons": dict(reasons), "unfinished": unfinished,
            "events_mean": round(events / games, 1) if games else 0, "cpu_seconds": round(dt, 3)}
