"""The game state: where every card handle is, who knows which faces, the board, the turn, and the stack of
pending work. A plain value: `clone()` gives an independent copy; only engine modules mutate a fresh clone.

Handles: every physical card on the table has a public handle (an int). Where each handle is, is public;
which card (face) it is, is known only to the players in `known[h]` (a bit mask; all bits = public). This
engine instance's own knowledge of faces is `faces` (all of them in the audit and in simulations, only a
peer's own in live play); `view(state, p)` filters it down to one player.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.profiles import Profile

# ("deck",) ("hand", p) ("pw", sector) ("discard",) ("upg", p) ("sec", sector) ("play",) ("att",) ("gone",)
Loc = tuple


@dataclass
class PlayerStatus:
    """Lasting effects on one player (cards played against them, until-next-turn flags)."""

    no_attempts_next: bool = False  # Whoops! Disconnect, Red Tape
    no_actions_next: bool = False  # Fifteen Minutes, Line Spike, Burnout
    lose_actions_next: int = 0  # Net Volley-Ball, Spam
    no_draw_next: bool = False  # Direct Deposit
    extra_actions_next: int = 0  # WinZap
    etaxes_next: int = 0  # No eTaxes: ignore the hand limit and draw 2 more, next turn
    ignore_limit: bool = False  # Bank Error, OlfactoPEG, Loan Default: until the player's next turn
    sol: bool = False  # S.O.L.: at most 1 action per turn until Oper in TeleComm
    beta: bool = False  # Beta Site: hand limit -1 until Oper in Micronopoly

    def copy(self) -> PlayerStatus:
        """An independent copy (`copy.copy`, without its generic protocol: a clone copies every player's)."""
        new = object.__new__(PlayerStatus)
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class Turn:
    """What holds for the active player during this turn only."""

    player: int
    start_hand: tuple[int, ...] = ()
    harmful: frozenset[str] | None = None  # effects of harmful cards held at turn start; None = unknown here
    no_attempts: bool = False
    no_draw: bool = False  # no Draw Cards step (Worm held at turn start, or Direct Deposit)
    no_draw_any: bool = False  # Direct Deposit: no card drawn this turn by any means (R31)
    ignore_limit: bool = False
    extra_draws: int = 0
    free_left: int = 1
    used_univ: bool = False
    actions_left: int = 0
    max_actions: int | None = None  # public cap (S.O.L.)
    bug: bool = False  # Bug held at turn start (hidden: only where the hand is known)
    actions_taken: int = 0
    attempts_made: int = 0
    tele_used: bool = False
    loss: int = 0  # actions lost this turn (Net Volley-Ball, Spam)
    no_actions: bool = False  # Fifteen Minutes, Line Spike, Burnout
    winzap: int = 0
    protected: bool = False  # Press Pass played or TeleComm immunity
    gov_taken: bool = False
    draw_mode: str = "normal"  # normal | six (Good Day) | none
    draw_bonus: int = 0  # Easy Credit
    draw_three: bool = False  # 001's Easy Credit: "draw 3 cards" instead of the step's count (R40)
    drawn: int = 0
    ended: bool = False

    def copy(self) -> Turn:
        """An independent copy (`copy.copy`, without its generic protocol)."""
        new = object.__new__(Turn)
        new.__dict__.update(self.__dict__)
        return new


class SeenFaces(Mapping[int, int]):
    """The faces one player knows, read through the state's own `faces` and `known` without copying them: a
    player's view (`engine.api.view`) costs O(1) however many cards are on the table."""

    __slots__ = ("_bit", "_faces", "_fget", "_kget", "_known")

    def __init__(self, faces: Mapping[int, int], known: dict[int, int], player: int) -> None:
        self._faces = faces
        self._known = known
        self._bit = 1 << player
        self._fget = faces.get  # the lookups every reader makes (a filter is reused while it reads the same dicts)
        self._kget = known.get

    def __getitem__(self, h: int) -> int:
        f = self._faces[h]
        if self._known.get(h, 0) & self._bit:
            return f
        raise KeyError(h)

    def get(self, h: int, default: Any = None) -> Any:  # type: ignore[override]
        f = self._faces.get(h)
        return f if f is not None and self._known.get(h, 0) & self._bit else default

    def face(self, h: int, viewer: int | None) -> int | None:
        """The face as this player knows it, and as `viewer` does too (None: this player only)."""
        f = self._faces.get(h)
        if f is None:
            return None
        k = self._known.get(h, 0)
        if not k & self._bit or (viewer is not None and not k >> viewer & 1):
            return None
        return f

    def knows_any(self, hs: list[int], viewer: int, wanted: frozenset[int]) -> bool:
        """Is `face(h, viewer)` in `wanted` for some handle in hs?"""
        fget, kget, bits = self._faces.get, self._known.get, self._bit | 1 << viewer
        if wanted.isdisjoint(map(fget, hs)):  # no such face at all (most calls): no need to ask who knows it
            return False
        return any(fget(h) in wanted and kget(h, 0) & bits == bits for h in hs)

    def reads(self, faces: Mapping[int, int], known: dict[int, int]) -> bool:
        """Does this filter read these very dicts?"""
        return self._faces is faces and self._known is known

    def faces_seen(self, hs: list[int], viewer: int) -> list[int | None]:
        """`face(h, viewer)` for each handle in hs."""
        fget, kget, bits = self._faces.get, self._known.get, self._bit | 1 << viewer
        return [fget(h) if kget(h, 0) & bits == bits else None for h in hs]

    def __contains__(self, h: object) -> bool:
        return h in self._faces and bool(self._known.get(h, 0) & self._bit)  # type: ignore[call-overload]

    def __iter__(self) -> Iterator[int]:
        known, bit = self._known, self._bit
        return (h for h in self._faces if known.get(h, 0) & bit)

    def __len__(self) -> int:
        return sum(1 for _ in self)


@dataclass
class GameState:
    profile: Profile
    n: int
    seq: int = 0
    # cards
    loc: dict[int, Loc] = field(default_factory=dict)
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    discard: list[int] = field(default_factory=list)  # last is the top
    hands: list[list[int]] = field(default_factory=list)
    passwords: dict[int, list[int]] = field(default_factory=dict)  # sector -> 3 handles
    upgrades: list[list[int]] = field(default_factory=list)
    sector_cards: dict[int, list[int]] = field(default_factory=dict)
    card_owner: dict[int, int] = field(default_factory=dict)  # sector card handle -> who played it
    faces: dict[int, int] = field(default_factory=dict)  # a SeenFaces in a player's view (read-only)
    known: dict[int, int] = field(default_factory=dict)
    next_handle: int = 0
    strict: bool = False
    scenario: bool = False  # a test position (engine.scenario): staging events allowed; never at a table
    # board
    controller: list[int | None] = field(default_factory=lambda: [None] * 6)
    access: list[list[int]] = field(default_factory=list)
    status: list[PlayerStatus] = field(default_factory=list)
    # turn
    first: int | None = None
    active: int | None = None
    turn_no: int = 0
    round_no: int = 0
    changed_round: int = 0  # the round in which someone's access last changed (the stalemate rule)
    turn: Turn | None = None
    last_played: dict[int, int] = field(default_factory=dict)  # player -> handle they last played
    # work
    stack: list[dict[str, Any]] = field(default_factory=list)
    ctx: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_ctx: int = 0
    # outcome
    over: bool = False
    winners: list[int] = field(default_factory=list)
    end_reason: Happening | None = None  # why the game ended (str() gives its English words)
    # for the caller
    obligations: list[dict[str, Any]] = field(default_factory=list)
    reveals: list[tuple[int, int]] = field(default_factory=list)  # (handle, mask) granted by the last event
    history: list[Happening] = field(default_factory=list)  # the public account (engine.narration)

    @property
    def all_mask(self) -> int:
        return (1 << self.n) - 1

    def shallow(self) -> GameState:
        """A new state object sharing every container with this one (for read-only views)."""
        new = object.__new__(GameState)
        new.__dict__ = self.__dict__.copy()
        return new

    def clone(self) -> GameState:
        new = self.shallow()
        new.loc = dict(self.loc)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.passwords = {k: list(v) for k, v in self.passwords.items()}
        new.upgrades = [list(u) for u in self.upgrades]
        new.sector_cards = {k: list(v) for k, v in self.sector_cards.items()}
        new.card_owner = dict(self.card_owner)
        new.faces = dict(self.faces)
        new.known = dict(self.known)
        new.controller = list(self.controller)
        new.access = [list(a) for a in self.access]
        new.status = [s.copy() for s in self.status]
        new.turn = self.turn.copy() if self.turn is not None else None
        new.last_played = dict(self.last_played)
        new.stack = list(self.stack)  # tasks are replaced, never mutated in place (engine.tasks)
        new.ctx = dict(self.ctx)  # likewise
        new.winners = list(self.winners)
        new.obligations = list(self.obligations)
        new.reveals = []
        new.history = list(self.history)
        return new

    # -- small accessors used everywhere ---------------------------------------------------------------
    def sectors_of(self, p: int) -> list[int]:
        return [s for s in range(6) if self.controller[s] == p]

    def password_handles(self, p: int) -> list[int]:
        return [h for s in self.sectors_of(p) for h in self.passwords.get(s, [])]

    def others(self, p: int) -> list[int]:
        """The other players in seat order, starting at p's left."""
        return list(_others(self.n, p))

    def knows(self, viewer: int | None, h: int) -> bool:
        return h in self.faces and (viewer is None or bool(self.known.get(h, 0) >> viewer & 1))

    # In a player's view (`faces` is a SeenFaces), a face counts as known to `viewer` when it is known to both the
    # view's player and the viewer: the three readers below apply both filters in one pass over the underlying dicts
    # (SeenFaces's own, read here in its module rather than through a second call: they run for nearly every event).

    def faces_seen(self, hs: list[int], viewer: int) -> list[int | None]:
        """The face of each handle in hs as `viewer` knows it (None where unknown): `face` for many handles."""
        faces = self.faces
        if type(faces) is SeenFaces:
            fget, kget, bits = faces._fget, faces._kget, faces._bit | 1 << viewer
        else:
            fget, kget, bits = faces.get, self.known.get, 1 << viewer
        return [fget(h) if kget(h, 0) & bits == bits else None for h in hs]

    def knows_any(self, hs: list[int], viewer: int, wanted: frozenset[int]) -> bool:
        """Does `viewer` know a card among hs to be one of `wanted`? (`face` for many handles, stopping early)"""
        faces = self.faces
        if type(faces) is SeenFaces:
            fget, kget, bits = faces._fget, faces._kget, faces._bit | 1 << viewer
        else:
            fget, kget, bits = faces.get, self.known.get, 1 << viewer
        if wanted.isdisjoint(map(fget, hs)):  # no such face at all (most calls): no need to ask who knows it
            return False
        return any(fget(h) in wanted and kget(h, 0) & bits == bits for h in hs)

    def face(self, h: int, viewer: int | None = None) -> int | None:
        """The face of handle h as `viewer` knows it (None: this instance's whole knowledge)."""
        faces = self.faces
        if type(faces) is SeenFaces:
            f = faces._fget(h)
            if f is None:
                return None
            k = faces._kget(h, 0)
            if not k & faces._bit or (viewer is not None and not k >> viewer & 1):
                return None
            return f
        f = faces.get(h)
        if f is None or viewer is None:
            return f
        return f if self.known.get(h, 0) >> viewer & 1 else None


@cache
def _others(n: int, p: int) -> tuple[int, ...]:
    return tuple((p + i) % n for i in range(1, n))
