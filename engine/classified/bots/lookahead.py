"""The deduction bot's determinized look-ahead: deal the faces its seat has not seen in ways consistent with
everything that seat knows (its own faces, the faces shown to it, every answer the opponent gave), play each
candidate event in every such deal through the real engine to the end, and count the wins.

- `determinize(view, seat, rng)`: a full state whose unseen faces are one deal drawn from what the seat may believe:
  the opponent's Suitcase from the Cypher Wheel's weights (wheel.py: the answers about the Suitcase alone, each
  number as likely as its unseen copies), the other unseen faces uniformly at random; a deal that breaks another
  answer of the opponent (an Assassination Attempt's touch) or puts a card that cannot guard on a face-down Guard
  is drawn again (rejection: the deals come out as likely as the seat's knowledge makes them). Only faces the seat
  knows (`view.face(h, seat)`) are kept; every other face is drawn, so the deal cannot carry another seat's secret.
- `playout(world, event, policies, rng)`: the event applied, then every decision to the end by the engine
  (`api.pending`, `api.legal`, `api.apply`), CHANCE from rng; returns the winners.
Bounded by counts (deals, candidates), never by the clock, so a decision is the same on every machine for a seed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from adp2p.engine.classified import api
from adp2p.engine.classified.catalog import card, deck
from adp2p.engine.classified.chance import chance_event
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.questions import truth
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import opponent
from adp2p.engine.classified.wheel import weights

Event = dict[str, Any]
Policy = Callable[[CState, int, Sequence[Event]], Event]
TRIES = 200  # deals drawn per deal kept, at most (rejection)


def determinize(view: CState, seat: int, rng: random.Random) -> CState | None:
    """One deal of the faces `seat` has not seen, consistent with what it knows; None if none was found."""
    opp = opponent(seat)
    known = {h: f for h in view.loc if (f := view.face(h, seat)) is not None}
    unknown = sorted(h for h in view.loc if h not in known)
    pool = Counter(deck())
    pool.subtract(known.values())
    if any(v < 0 for v in pool.values()) or sum(pool.values()) != len(unknown):
        return None
    sh = view.suitcase[opp]
    ws = weights(view, opp, seat) if sh is not None and sh in unknown else {}
    rest_handles = [h for h in unknown if h != sh] if ws else unknown
    checks = [item for item in view.history if item.get("k") in ("answer", "named") and item.get("p") == opp]
    hidden_guards = [g for g in view.guards[opp] if g in unknown]
    numbers = sorted(ws)
    for _ in range(TRIES):
        faces = dict(known)
        left = Counter(pool)
        if ws:
            s = rng.choices(numbers, [ws[n] for n in numbers])[0]
            faces[sh] = s  # type: ignore[index]
            left[s] -= 1
        rest = sorted(left.elements())
        rng.shuffle(rest)
        faces.update(zip(rest_handles, rest, strict=True))
        if any(not card(faces[g]).can_guard for g in hidden_guards):
            continue
        if all(_holds(item, faces) for item in checks):
            world = view.clone()
            world.faces = faces
            world.strict = False
            world.obligations = []
            return world
    return None


def _holds(item: dict[str, Any], faces: dict[int, int]) -> bool:
    said = item["yes"] if item["k"] == "answer" else True
    t = truth(item["question"], faces.get)
    return t is None or t == said


def playout(world: CState, event: Event, policies: Sequence[Policy], rng: random.Random,
            max_events: int = 400) -> list[int]:
    """Apply event to a copy of world, then play to the end through the engine; the winners ([] on a tie)."""
    st = apply_known(world, event)
    for _ in range(max_events):
        d = api.pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
        else:
            seen = api.view(st, d.actor)
            options = api.legal(seen, d.actor)
            ev = options[0] if len(options) == 1 else policies[d.actor](seen, d.actor, options)
        st = apply_known(st, ev, inplace=True)  # a hand mixed keeps its faces, in hand order (ruling C-MIX)
    return list(st.winners) if st.over else []
