"""Classified Information's public shape, the same as `adp2p.engine.hacker.api` and
`adp2p.engine.access_denied.api`: new_game, pending, to_move, legal, apply, learn, view, is_over, result, replay,
broken_obligations. Events are exactly what goes into the game log; the state is a fold over them (plus the faces
this instance has been shown)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from adp2p.engine import stacked
from adp2p.engine.classified import flow
from adp2p.engine.classified.legal import legal as _legal
from adp2p.engine.classified.profiles import Profile
from adp2p.engine.classified.questions import broken
from adp2p.engine.classified.state import CState

Event = dict[str, Any]

# what each decision asks, in the words of `Decision.kind` (actor None: CHANCE)
KINDS = ("chance:shuffle", "chance:start", "chance:show", "choose", "action", "window", "answer", "name", "pick",
         "reveal", "mix")


class Decision(NamedTuple):
    """Who must decide what now. actor None = CHANCE (the caller's shared randomness resolves it: "shuffle" the
    deck, "start" the first player, "show" the random card of info["p"]'s hand shown to info["to"] alone)."""

    actor: int | None
    kind: str
    info: dict[str, Any]


@dataclass(frozen=True)
class Result:
    winners: list[int]  # [] on a tie
    reason: str | None  # "unguarded_match" | "guards" | "tie"; None while it runs
    matches: list[bool]  # an Unguarded Match per seat
    guard_counts: list[float]  # Guards per seat, Extra Protection as half


def new_game(profile: Profile, n_players: int = 2, *, strict: bool = False, scenario: bool = False) -> CState:
    if not profile.min_players <= n_players <= profile.max_players:
        raise ValueError("Classified Information is a game for two players")
    st = CState(profile=profile, n=n_players, strict=strict, scenario=scenario)
    st.hands, st.guards, st.forgo, st.suitcase = [[], []], [[], []], [False, False], [None, None]
    st.stack = flow.initial_stack()
    return st


def pending(st: CState) -> Decision | None:
    if st.over or not st.stack:
        return None
    task = st.stack[-1]
    op = task["op"]
    info: dict[str, Any] = {}
    if op == "shuffle":
        info = {"size": 18}
    elif op == "show":
        info = {"p": task["p"], "to": task["to"], "n": len(st.hands[task["p"]])}
    elif op == "answer":
        info = {"question": dict(task["question"]), "asker": task["asker"]}
    elif op == "name":
        info = {"asker": task["asker"], "left": task["left"], "named": list(task["named"])}
    elif op == "pick":
        info = {"from": task["from"], "hs": list(st.hands[task["from"]])}
    elif op == "window":
        info = {"target": task["target"], "attack": dict(st.work.get("attack", {}))}
    elif op == "action":
        info = {"final": st.final_turn, "deck": len(st.deck)}
    elif op == "mix":
        info = {"n": len(st.hands[task["actor"]])}
    if task["actor"] is None:
        return Decision(None, f"chance:{op}", info)
    return Decision(task["actor"], op, info)


def to_move(st: CState) -> int | None:
    return stacked.to_move(st)


def legal(st: CState, player: int) -> list[Event]:
    return _legal(st, player)


def apply(st: CState, event: Event, *, inplace: bool = False) -> CState:
    """A new state with `event` applied; on IllegalEvent the given state is unchanged (inplace=True: undefined)."""
    return stacked.apply(flow.apply_event, st, event, inplace=inplace)


def learn(st: CState, faces: Mapping[int, int], *, inplace: bool = False) -> CState:
    return stacked.learn(st, faces, inplace=inplace)


def view(st: CState, player: int) -> CState:
    """What `player` may know: the faces shown to it. Read-only; shares the other containers."""
    return stacked.view_faces(st, player)


def broken_obligations(st: CState) -> list[dict[str, Any]]:
    """Answers this instance could not check when they came (unknown faces) that the faces it knows now show false:
    each names its seat ("seat"), its question ("q", ...) and what was said ("said")."""
    return broken(st)


def is_over(st: CState) -> bool:
    return st.over


def result(st: CState) -> Result:
    return Result(list(st.winners), st.end_reason, list(st.matches), list(st.guard_counts))


def replay(profile: Profile, n_players: int, events: Iterable[Event], faces: Mapping[int, int] | None = None, *,
           strict: bool = False, scenario: bool = False) -> CState:
    """Fold events from a new game (faces: handle -> Card Number; strict: every face must be known), as
    `adp2p.engine.access_denied.api.replay` and `adp2p.engine.hacker.api.replay` do."""
    st = new_game(profile, n_players, strict=strict, scenario=scenario)
    if faces:
        st.faces = dict(faces)
    for ev in events:
        st = apply(st, ev)
    return st
