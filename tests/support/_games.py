"""Fixed-seed offline games for the screen tests: every decision of seat 0 with its view and legal events."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from adp2p.engine.access_denied.api import Decision, apply, learn, legal, new_game, pending, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.chance import chance_event, deck_faces
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.state import GameState


@dataclass
class Moment:
    view: GameState  # seat 0's view
    decision: Decision | None
    options: list[dict[str, Any]]
    events: list[dict[str, Any]]  # the log so far


def moments(seed: int = 7, n: int = 3, rules: str = "classic", rounds: int = 12) -> Iterator[Moment]:
    """Seat 0's decisions (played by a deduction bot), then the end of the game (decision None)."""
    rng = random.Random(seed)
    bots = {p: make_bot("deduction", seed + p) for p in range(n)}
    st = new_game(get_profile(rules, round_limit=rounds), n)
    events: list[dict[str, Any]] = []
    while (d := pending(st)) is not None:
        if d.actor is None:
            ev = chance_event(st, d, rng)
            if ev["t"] == "shuffle":
                faces = deck_faces(st)
                rng.shuffle(faces)
                first = st.next_handle
                st = apply(st, ev)
                events.append(ev)
                st = learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)))
                continue
        else:
            seen = view(st, d.actor)
            options = legal(seen, d.actor)
            if d.actor == 0:
                yield Moment(seen, d, options, list(events))
            ev = bots[d.actor](seen, d.actor, options)
        st = apply(st, ev)
        events.append(ev)
    yield Moment(view(st, 0), None, [], list(events))


def first_moment(pred: Any, **kw: Any) -> Moment:
    for m in moments(**kw):
        if pred(m):
            return m
    raise LookupError("no such moment in this game")
