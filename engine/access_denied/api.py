"""The engine's public shape (OpenSpiel / boardgame.io style): new_game, pending, to_move, legal, options, apply, learn,
view, is_over, result, replay; and the quantities the rules derive (actions_left, hand_limit, draws_allowed,
goal, bonuses) and the card -> handle lookup (handles_of). Events are exactly what goes into the game log;
the state is a fold over them (plus, for a live peer, the faces it has been shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from adp2p.engine.access_denied import flow
from adp2p.engine.access_denied import rules as _rules
from adp2p.engine.access_denied.catalog import card_by_key
from adp2p.engine.access_denied.legal import legal as _legal
from adp2p.engine.access_denied.legal import options as _options
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.profiles import Profile
from adp2p.engine.access_denied.state import GameState, PlayerStatus, SeenFaces
from adp2p.engine.access_denied.tasks import standings_key
from adp2p.engine.errors import IllegalEvent

Event = dict[str, Any]


class Decision(NamedTuple):
    """Who must decide what now. actor None = CHANCE (the caller's shared randomness resolves it)."""

    actor: int | None
    kind: str  # a task op ("free", "actions", "window", "answer", ...) or "chance:<what>"
    info: dict[str, Any]


@dataclass(frozen=True)
class Result:
    winners: list[int]
    reason: Happening | None  # why it ended (engine.narration; str() gives English); None while it runs
    standings: list[tuple[int, int, int]]  # per seat: (Roots, Opers, Users)


def new_game(profile: Profile, n_players: int, *, strict: bool = False, scenario: bool = False) -> GameState:
    """A game before its setup. scenario=True: a test position that accepts staging events (scenario.py);
    a live table never sets it."""
    if not profile.min_players <= n_players <= profile.max_players:
        raise ValueError(
            f"{profile.name} is for {profile.min_players} to {profile.max_players} players, not {n_players}"
        )
    st = GameState(profile=profile, n=n_players, strict=strict, scenario=scenario)
    st.hands = [[] for _ in range(n_players)]
    st.upgrades = [[] for _ in range(n_players)]
    st.access = [[0] * 6 for _ in range(n_players)]
    st.status = [PlayerStatus() for _ in range(n_players)]
    st.stack = flow.initial_stack()
    return st


def pending(st: GameState) -> Decision | None:
    if st.over or not st.stack:
        return None
    task = st.stack[-1]
    who = flow.actor(st, task)
    op = task["op"]
    if who is None:
        info = {k: v for k, v in task.items() if k in ("from", "k", "purpose")}
        if task["what"] == "shuffle":
            info["size"] = 63 if st.next_handle == 0 else len(st.discard)
        return Decision(None, f"chance:{task['what']}", info)
    info: dict[str, Any] = {}
    if op == "window":
        info = {"window": task["kind"], "ctx": dict(st.ctx.get(task["ctx"], {}))}
    elif op == "answer":
        ctx = st.ctx[task["ctx"]]
        info = {"attempt_by": ctx["p"], "s": ctx["s"], "cards": list(ctx["cards"])}
    elif op == "password":
        info = {"s": task["s"]}
    elif op == "trade_reply":
        ctx = st.ctx[task["ctx"]]
        info = {"offer_by": ctx["p"], "promise": ctx["promise"]}
    return Decision(who, op, info)


def to_move(st: GameState) -> int | None:
    """The seat whose decision is next; None when CHANCE decides or nothing is pending (`pending` says which).
    `pending(st).actor` without building the decision's details."""
    if st.over or not st.stack:
        return None
    task = st.stack[-1]
    if task["op"] == "window":  # the most frequent decision (`flow.actor`'s first case, inline)
        return task["order"][task["i"]]
    return flow.actor(st, task)


def legal(st: GameState, player: int) -> list[Event]:
    """The events `player` may append now, judged on what that player knows."""
    return _legal(st, player)


def options(st: GameState, player: int) -> Sequence[Event]:
    """`legal`'s events, in its order, as a sequence whose families of like events (attempts, trades, discards)
    are built only when read (engine/access_denied/options.py): a chooser that picks by position builds one event."""
    return _options(st, player)


def apply(st: GameState, event: Event, *, inplace: bool = False) -> GameState:
    """A new state with `event` applied; on IllegalEvent the given state is unchanged.

    inplace=True skips the copy (for trusted replays and simulations): an illegal event then leaves the
    state undefined.
    """
    new = st if inplace else st.clone()
    if inplace:
        new.reveals = []
    flow.apply_event(new, event)
    return new


def learn(st: GameState, faces: Mapping[int, int], *, inplace: bool = False) -> GameState:
    """This instance now knows these faces (shown to it, or the whole deck in the audit)."""
    new = st if inplace else st.clone()
    for h, f in faces.items():
        old = new.faces.get(h)
        if old is not None and old != f:
            raise IllegalEvent("face_mismatch", f"handle {h} was already known to be another card")
        new.faces[h] = f
    return new


# per player, the last filter built and the dicts it reads: reused while a state has these very dicts
_seen_faces: dict[int, tuple[dict[int, int], dict[int, int], SeenFaces]] = {}


def view(st: GameState, player: int) -> GameState:
    """What `player` may see: every face not known to them is hidden.

    A view copies nothing: it reads `st`'s own containers through a filter on the faces (`SeenFaces`). It is
    read-only, and valid until `st` is changed in place (`apply(..., inplace=True)`); `apply` and `learn` on a
    view work on a copy as on any state.
    """
    last = _seen_faces.get(player)
    if last is not None and last[0] is st.faces and last[1] is st.known:
        seen = last[2]
    else:
        seen = SeenFaces(st.faces, st.known, player)
        _seen_faces[player] = (st.faces, st.known, seen)
    new = object.__new__(GameState)  # `st.shallow()`, inline: a view is built for every decision
    d = new.__dict__ = st.__dict__.copy()
    d["faces"] = seen
    d["obligations"] = []
    d["reveals"] = []
    return new


def is_over(st: GameState) -> bool:
    return st.over


def result(st: GameState) -> Result:
    return Result(list(st.winners), st.end_reason, [standings_key(st, p) for p in range(st.n)])


def replay(
    profile: Profile,
    n_players: int,
    events: Iterable[Event],
    faces: Mapping[int, int] | None = None,
    *,
    strict: bool = False,
    scenario: bool = False,
) -> GameState:
    """Fold events from a new game. With `faces` (handle -> card for every handle), strict replay. scenario=True
    folds a scenario's log (its staging events are legal there only)."""
    st = new_game(profile, n_players, strict=strict, scenario=scenario)
    if faces:
        st.faces = dict(faces)
    for ev in events:
        st = apply(st, ev)
    return st


# ----------------------------------------------------------------------------------------------------------
# derived quantities: the numbers the rules compute, as the engine itself uses them (the client and the tests
# read them here, never from `rules`/`flow` internals)


def actions_left(st: GameState) -> int | None:
    """Actions the player whose turn it is may still take (None between turns). On a view, caps known only to that
    player's hand (Bug) count only where the hand is known."""
    return flow.actions_available(st) if st.turn is not None else None


def hand_limit(st: GameState, player: int) -> int:
    """The player's hand limit now (access count or the profile's, Micronopoly, upgrades, Beta Site)."""
    return _rules.hand_limit(st, player)


def draws_allowed(st: GameState) -> int | None:
    """Cards the player whose turn it is may draw in its Draw Cards step now, every modifier applied (None
    between turns)."""
    return _rules.max_draw(st, st.turn.player) if st.turn is not None else None


def goal(st: GameState) -> tuple[int, list[int]]:
    """(Root accesses needed to win, each player's count toward it: controlled sectors, or every sector where the
    profile counts uncontrolled ones)."""
    return st.profile.goal, _rules.goal_counts(st)


def bonuses(st: GameState, player: int) -> dict[int, str]:
    """The sector bonuses the player holds now: sector -> bonus name (`rules.BONUS_TABLES`)."""
    out = {s: _rules.bonus_of(st, player, s) for s in range(6)}
    return {s: b for s, b in out.items() if b is not None}


def handles_of(st: GameState, key: str) -> list[int]:
    """The handles whose face this state knows to be the card `key` (a card's key in data/cards.toml);
    an all-knowing state finds every copy, a player's view only those it has seen."""
    want = card_by_key(key).id
    return sorted(h for h, f in st.faces.items() if f == want)
