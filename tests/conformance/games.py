"""What the conformance suite plays: every registered game (p2p/game.py), a small quick table of each
(`Game.quick_table`), and an all-knowing driver of its rules alone: CHANCE from a seeded rng (a shuffled pile's faces
learned at once), each player's event chosen at random among what `legal` offers on its view."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from adp2p.p2p.game import Event, Game, get_game, register, registered
from toy import GAME as HIGH_CARD

register(HIGH_CARD)  # a toy game written against p2p/game.py alone: the core runs a game that is not Access Denied
GAMES = sorted(registered())  # every installed game (Access Denied, Hacker), and the toy


def game_of(name: str) -> Game:
    return get_game(name)


def settings(game: Game) -> dict[str, Any]:
    q = game.quick_table
    return {"profile": q.get("profile"), "goal": None, "round_limit": q.get("round_limit"), "stalemate": None}


@dataclass
class Step:
    st: Any  # the whole state after the event (every face known)
    ev: Event
    actor: int | None  # None: CHANCE


@dataclass
class Played:
    game: Game
    config: Any
    n: int
    events: list[Event] = field(default_factory=list)
    st: Any = None


def play(game: Game, seed: int, *, max_steps: int = 5000) -> Iterator[Step]:
    """One all-knowing game of random legal play; yields after every event. Raises whatever the rules raise."""
    n = game.quick_table["players"]
    config = game.configure(settings(game), n)
    rng = random.Random(seed)
    st = game.new_game(config, n)
    for _ in range(max_steps):
        d = game.pending(st)
        if d is None:
            return
        if d.actor is None and d.kind == "chance:shuffle":
            faces = game.pile_faces(st)
            faces = list(range(game.deck_size)) if faces is None else list(faces)
            rng.shuffle(faces)
            first = st.next_handle
            ev = game.shuffle_event()
            st = game.apply(st, ev)
            st = game.learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)))
        elif d.actor is None:
            ev = game.chance_event(d, rng.randbytes(32), n)
            st = game.apply(st, ev)
        else:
            seen = game.view(st, d.actor)
            options = game.legal(seen, d.actor)
            assert options, f"{d.kind}: seat {d.actor} must decide but has no legal event"
            ev = rng.choice(options)
            before, st = st, game.apply(st, ev)
            moved = game.moved_faces(before, st)  # cards in play under new handles (Classified's hand mix)
            if moved:
                st = game.learn(st, moved)
        yield Step(st, ev, d.actor)
    raise AssertionError(f"no end after {max_steps} events")


def whole_game(game: Game, seed: int) -> Played:
    n = game.quick_table["players"]
    out = Played(game, game.configure(settings(game), n), n)
    for step in play(game, seed):
        out.events.append(step.ev)
        out.st = step.st
    return out
