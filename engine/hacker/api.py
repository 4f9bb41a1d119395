"""Hacker's public shape, the same as `adp2p.engine.access_denied.api`: new_game, pending, to_move, legal, apply, learn,
learn_secret, view, is_over, result, replay. Events are exactly what goes into the game log; the state is a fold over
them (plus the faces and sealed values this instance has been shown)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from adp2p.engine import stacked
from adp2p.engine.hacker import flow, rounds, sealing
from adp2p.engine.hacker.legal import legal as _legal
from adp2p.engine.hacker.obligations import broken as _broken
from adp2p.engine.hacker.profiles import Profile
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]


class Decision(NamedTuple):
    """Who must decide what now. actor None = CHANCE (the caller's shared randomness resolves it; "private_roll" is
    a private 2d6 for the seat in info["p"], known to that seat only)."""

    actor: int | None
    kind: str  # a task op ("pass", "seal", "play", "probe", ...) or "chance:<what>"
    info: dict[str, Any]


@dataclass(frozen=True)
class Result:
    winners: list[int]
    reason: str | None  # "codes" | "round_limit"; None while it runs
    codes: list[int]  # per seat


def new_game(profile: Profile, n_players: int, *, scenario: bool = False) -> HState:
    if not profile.min_players <= n_players <= profile.max_players:
        raise ValueError(f"{profile.name} is for {profile.min_players} to {profile.max_players} players")
    n = n_players
    st = HState(profile=profile, n=n, scenario=scenario)
    st.hands, st.laid_chance, st.laid_term = [[] for _ in range(n)], [[] for _ in range(n)], [[] for _ in range(n)]
    st.passing, st.place, st.where = [None] * n, [None] * n, [0] * n
    st.time, st.prio, st.used = [None] * n, [profile.start_prio] * n, [0] * n
    st.pw, st.pwx, st.code = ([[False] * 6 for _ in range(n)] for _ in range(3))
    st.in_system, st.spotted = [None] * n, [False] * n
    st.found, st.front = [[] for _ in range(n)], [[] for _ in range(n)]
    st.open_depts = profile.departments(n)
    st.dept = [[] for _ in range(6)]
    flow.advance(st)
    return st


def split_secret(intent: Event, commitment: str) -> tuple[Event, str, int, Any]:
    """A sealing intent (a `legal` seal event, or a CHANCE `private_roll`, carrying `secret`) as (the log entry with
    the caller's commitment and no secret, what was sealed, whose, the value): the table posts the entry and gives
    the value to `learn_secret` on the sealing seat's own engine; the opening is checked against it there and, by
    the commitment, by everyone."""
    entry = {k: v for k, v in intent.items() if k != "secret"}
    entry["c"] = commitment
    what = "roll" if intent["t"] == "private_roll" else intent["what"]
    return entry, what, intent["p"], intent["secret"]


def pending(st: HState) -> Decision | None:
    if st.over or not st.stack:
        return None
    task = st.stack[-1]
    info = {k: v for k, v in task.items() if k not in ("op", "actor")}
    if task["op"] == "boss":
        info["at"] = rounds.occupied(st)
    if task["op"] in ("probe", "answer", "pass_check", "open_pad"):  # the attempt's public course
        a = st.work["hack"]
        info |= {"hacker": a["p"], "controller": a["ctrl"], "d": a["d"], "pos": a["pos"],
                 "cleared": list(a["cleared"]), "checks_found": list(a["hit"])}
    if task["actor"] is None:
        return Decision(None, f"chance:{task['op']}", info)
    return Decision(task["actor"], task["op"], info)


def to_move(st: HState) -> int | None:
    return stacked.to_move(st)


def legal(st: HState, player: int) -> list[Event]:
    return _legal(st, player)


def apply(st: HState, event: Event, *, inplace: bool = False) -> HState:
    """A new state with `event` applied; on IllegalEvent the given state is unchanged (inplace=True: undefined)."""
    return stacked.apply(flow.apply_event, st, event, inplace=inplace)


def learn(st: HState, faces: Mapping[int, int], *, inplace: bool = False) -> HState:
    return stacked.learn(st, faces, inplace=inplace)


def learn_secret(st: HState, what: str, player: int, value: Any, *, inplace: bool = False) -> HState:
    """This instance now knows a sealed value ("place", "lay", "pad", "roll") of `player`."""
    new = st if inplace else st.clone()
    return sealing.learn_secret(new, what, player, value)


def view(st: HState, player: int) -> HState:
    """What `player` may know: faces it knows, its own sealed values. Read-only; shares the other containers."""
    new = stacked.view_faces(st, player)
    new.secrets = {k: v for k, v in st.secrets.items() if k.endswith(f":{player}")}
    return new


def broken_obligations(st: HState) -> list[dict[str, Any]]:
    """Rules this instance could not check when their events came (unknown faces) that the faces it knows now show
    broken: each {"rule", "seat", "hs", "bad", "why"} (engine/hacker/obligations.py)."""
    return _broken(st)


def is_over(st: HState) -> bool:
    return st.over


def result(st: HState) -> Result:
    return Result(list(st.winners), st.end_reason, [st.codes(p) for p in range(st.n)])


def replay(profile: Profile, n_players: int, events: Iterable[Event], faces: Mapping[int, int] | None = None,
           secrets: Iterable[tuple[int, str, int, Any]] = (), *, scenario: bool = False) -> HState:
    """Fold events from a new game. faces: handle -> card id; secrets: (event index, what, seat, value), each
    learned just before the event with that index (as the sealing seat's engine did)."""
    st = new_game(profile, n_players, scenario=scenario)
    if faces:
        st.faces = dict(faces)
    by_index: dict[int, list[tuple[str, int, Any]]] = {}
    for i, what, p, v in secrets:
        by_index.setdefault(i, []).append((what, p, v))
    for i, ev in enumerate(events):
        for what, p, v in by_index.get(i, []):
            sealing.learn_secret(st, what, p, v)
        st = apply(st, ev)
    return st
