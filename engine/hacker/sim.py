"""In-process Hacker games: bots against bots through the engine, an all-knowing referee resolving CHANCE (and the
private rolls) from a seeded RNG and sealing each seat's secret choices. Used by `ad-p2p sim --game hacker`, the
property tests and the benchmark."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adp2p.engine.hacker.api import apply, learn, legal, new_game, pending, split_secret, view
from adp2p.engine.hacker.chance import chance_event
from adp2p.engine.hacker.profiles import Profile
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import deck_faces

Chooser = Callable[[HState, int, Sequence[dict[str, Any]]], dict[str, Any]]


@dataclass
class GameRecord:
    state: HState
    events: list[dict[str, Any]] = field(default_factory=list)  # the public log (no secrets)
    faces: dict[int, int] = field(default_factory=dict)
    secrets: list[tuple[int, str, int, Any]] = field(default_factory=list)  # (event index, what, seat, value)


@dataclass
class Step:
    """What the referee did with one event: the state after it, the faces it dealt (a shuffle), the event as the
    public log holds it (a sealed value taken out) and the sealed value (what, seat, value), if any."""
    state: HState
    faces: dict[int, int]
    public: dict[str, Any]
    sealed: tuple[str, int, Any] | None = None


def referee_apply(st: HState, ev: dict[str, Any], rng: random.Random, tag: str) -> Step:
    """Apply `ev` as the all-knowing referee: a shuffle deals the deck's faces in an order from `rng` (and the
    engine learns them), a sealed choice is sealed under `tag` and the engine learns its value with the event."""
    if ev["t"] == "shuffle":
        faces = deck_faces(st)
        rng.shuffle(faces)
        first = st.next_handle
        st = apply(st, ev, inplace=True)
        new = dict(zip(range(first, st.next_handle), faces, strict=True))
        return Step(learn(st, new, inplace=True), new, ev)
    if "secret" in ev:
        pub, what, seat, secret = split_secret(ev, tag)
        return Step(apply(st, {**pub, "secret": secret}, inplace=True), {}, pub, (what, seat, secret))
    return Step(apply(st, ev, inplace=True), {}, ev)


def play_game(profile: Profile, bots: Sequence[Chooser], seed: int, *, max_events: int = 500_000,
              use_views: bool = True) -> GameRecord:
    rng = random.Random(seed)
    st = new_game(profile, len(bots))
    rec = GameRecord(st)
    for _ in range(max_events):
        d = pending(st)
        if d is None:
            break
        if d.actor is None:
            ev = chance_event(st, d, rng)
        else:
            seen = view(st, d.actor) if use_views else st
            ev = bots[d.actor](seen, d.actor, legal(seen, d.actor))
        step = referee_apply(st, ev, rng, f"sim-{len(rec.events)}")
        st = step.state
        rec.faces.update(step.faces)
        if step.sealed is not None:
            rec.secrets.append((len(rec.events), *step.sealed))
        rec.events.append(step.public)
    rec.state = st
    return rec


def simulate(profile: Profile, players: int, games: int, strategies: Sequence[str], seed: int) -> dict[str, Any]:
    """`games` bot games, strategies rotated around the table: rounds per game, wins by strategy, speed."""
    import statistics
    import time
    from collections import Counter

    from adp2p.engine.hacker.bots import make_bot

    strat_wins: Counter[str] = Counter()
    strat_seats: Counter[str] = Counter()
    rounds: list[int] = []
    limit_hits = unfinished = 0
    t0 = time.perf_counter()
    for g in range(games):
        seats = [strategies[(i + g) % len(strategies)] for i in range(players)]
        bots = [make_bot(name, seed * 1_000_003 + g * 17 + i) for i, name in enumerate(seats)]
        st = play_game(profile, bots, seed * 7919 + g).state
        unfinished += not st.over
        rounds.append(st.round_no)  # (the round the game ended in: at the limit, the last one played)
        limit_hits += st.end_reason == "round_limit"
        strat_seats.update(seats)
        strat_wins.update(seats[w] for w in st.winners if st.end_reason == "codes")
    dt = time.perf_counter() - t0
    return {
        "game": "hacker", "profile": profile.name, "players": players, "games": games, "strategies": list(strategies),
        "wins_by_strategy": dict(strat_wins),
        "win_rate_per_seat_by_strategy": {k: round(strat_wins[k] / strat_seats[k], 4) for k in strat_seats},
        "rounds_mean": round(statistics.mean(rounds), 2) if rounds else 0,
        "rounds_median": statistics.median(rounds) if rounds else 0, "rounds_max": max(rounds) if rounds else 0,
        "ended_by_round_limit": limit_hits, "unfinished": unfinished,
        "seconds": round(dt, 3), "games_per_second": round(games / dt, 2) if dt else 0.0,
    }
