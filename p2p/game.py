"""The game interface: everything the table core (p2p/, crypto/) needs from a game, and the registry of games.

The table is game-neutral: it runs a replicated signed log, mental-poker piles of cards, beacon CHANCE and
reveal rounds, and it asks the game (an object of this `Game` shape) for the rest. A game is a plug-in: its rules
engine (the shape of engine/api.py: new_game, pending -> Decision(actor, kind, info) with actor None = CHANCE,
legal, apply raising an `IllegalEvent` with `.rule` and `.message`, learn, view, is_over, result, replay) wrapped
in an object that also says how CHANCE is resolved from the joint beacon, which faces a shuffled pile holds, what
the account and the faces are called in words, which bots play it, and the object that holds its own committed
secrets at the table (`table_part()`: a `TablePart`, p2p/machine/game_part.py). docs/architecture-reference.md,
"Adding a game", says how to write one.

A game's state is the engine's own object; the table reads only this contract of it:
- `faces: dict[handle, face]` (the faces this instance knows), `known: dict[handle, seats mask]` (who may know
  each face), `all_mask` (every seat), `reveals: list[(handle, mask)]` (what the last event showed to whom);
- `next_handle` (handles dealt so far: piles are numbered on from it), `over`, `winners`, `history` (the account:
  items `narrate` turns into words).
Every seat folds the same public game from its own faces, so `pending`, `over` and `reveals` may depend on public
information only (never on a face some seat does not know), and the event that ends the game shows nothing (the
table goes to the end-of-game secrets at once: a reveal it opened would not be played; the audit shows every face).

Games are found by name through the ``adp2p.games`` entry points (pyproject.toml), so p2p/ imports no game: the
genesis names the game (absent: `DEFAULT_GAME`), the machine asks `get_game` for it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

Event = dict[str, Any]
State = Any  # the game's own state object (see the contract above)
Chooser = Callable[[State, int, list[Event]], Event]  # (a player's view, its seat, its legal events) -> one of them

DEFAULT_GAME = "access-denied"  # the game a genesis that names none is of (every log before games were named)
ENTRY_POINTS = "adp2p.games"  # the entry-point group games register under: name -> module:object (a `Game`)


class Decision(Protocol):
    """Who must decide what now (engine/api.py's `Decision`): actor None = CHANCE, resolved by the table."""

    actor: int | None
    kind: str  # CHANCE decisions: "chance:<what>"; "chance:shuffle" is a pile the table shuffles
    info: dict[str, Any]


class Outcome(NamedTuple):
    """How a game ended, as the table reports it."""

    winners: list[int]
    reason: Any  # why it ended (an account item `narrate` words; None while it runs)


class Game(ABC):
    """One game, as the table core sees it. Subclass it, register it (`ENTRY_POINTS`), pass tests/conformance."""

    name: str  # the name a genesis gives (lower case, dashes)
    title: str  # what players call it
    deck_size: int  # faces 0..deck_size-1: the cards of the first pile, one each (crypto.group.CardTable)
    event_fields: frozenset[str] = frozenset()  # extra fields of an event entry body (commitments, proofs)
    secret_fields: frozenset[str] = frozenset()  # extra fields of a secrets entry body (openings)
    evidence_fields: frozenset[str] = frozenset()  # extra fields of an evidence entry body
    bool_fields: Mapping[str, bool] = MappingProxyType({})  # event fields that hold a bool (True: a list of bools)
    illegal: type[Exception]  # what the rules raise on an illegal event (with `.rule` and `.message`)
    # a small, quick game for tests/conformance: players, profile, round_limit, bots (a strategy `make_bot` knows)
    quick_table: Mapping[str, Any] = MappingProxyType({})

    # ------------------------------------------------------------------ settings and the rules surface

    @abstractmethod
    def configure(self, settings: Mapping[str, Any], n: int) -> Any:
        """The game's configuration from the genesis's settings (profile, goal, round limit, stalemate, and the log's
        protocol version `version`, absent: this code's) for n players; NotForPlayers if the game is not for them
        (ValueError for settings it does not know)."""

    @abstractmethod
    def new_game(self, config: Any, n: int, *, strict: bool = False) -> State:
        """A game before its setup; strict: every face is known and every obligation is checked (the audit)."""

    @abstractmethod
    def pending(self, st: State) -> Decision | None:
        """Who must decide what now (None: nothing, the game is over)."""

    @abstractmethod
    def legal(self, st: State, player: int) -> list[Event]:
        """The events `player` may append now, judged on what that player knows (`st` may be its view)."""

    @abstractmethod
    def apply(self, st: State, event: Event) -> State:
        """A new state with `event` applied (the given one unchanged); raises the game's IllegalEvent."""

    def apply_in_place(self, st: State, event: Event) -> State:
        """`apply` for a replay that keeps no earlier state (the audit's strict replay): it may change `st` and
        return it; after an illegal event `st` is undefined. A game whose rules can skip the copy says so here."""
        return self.apply(st, event)

    @abstractmethod
    def learn(self, st: State, faces: Mapping[int, int]) -> State:
        """A new state that also knows these faces (shown to this peer)."""

    @abstractmethod
    def view(self, st: State, player: int) -> State:
        """What `player` may see of `st`: every face it may not know hidden."""

    @abstractmethod
    def result(self, st: State) -> Outcome:
        """The winners and why the game ended."""

    def is_over(self, st: State) -> bool:
        return bool(st.over)

    def replay(self, config: Any, n: int, events: Sequence[Event], faces: Mapping[int, int]) -> State:
        """Strict replay of a whole game with every face known (the audit's; raises the game's IllegalEvent)."""
        st = self.new_game(config, n, strict=True)
        st.faces = dict(faces)
        for ev in events:
            st = self.apply(st, ev)
        return st

    def same_end(self, a: State, b: State) -> bool:
        """Whether two folds of one game ended alike (the audit's strict replay against the live game)."""
        return list(a.winners) == list(b.winners)

    def blame(self, st: State, exc: Exception, faces: Mapping[int, int], author: int | None) -> int | None:
        """The seat a rule broken in strict replay names: the event's author, unless the game says whose
        obligation it was (`st`: the state before the event)."""
        return author

    # ------------------------------------------------------------------ CHANCE, piles, claims

    @abstractmethod
    def chance_event(self, d: Decision, seed: bytes, n: int) -> Event:
        """The event of a CHANCE decision (not a shuffle) from 32 bytes of joint beacon randomness
        (crypto.beacon's permutation / sample / uniform_int make them uniform)."""

    def shuffle_event(self) -> Event:
        """The event that says a pile was shuffled (the table adds it once every seat has shuffled)."""
        return {"t": "shuffle"}

    window_kind: str = "window"  # the decision kind of a reaction window: a seat may pass it with a pass token

    def pass_event(self, seat: int) -> Event:
        """The event of `seat` passing a reaction window (a pass token stands for it, docs/protocol.md)."""
        return {"t": "pass", "p": seat}

    def is_pass(self, ev: Any, seat: int) -> bool:
        return isinstance(ev, dict) and ev.get("t") == "pass" and ev.get("p") == seat

    def is_chance_event(self, ev: Event) -> bool:
        """Whether an event is one only the table derives (never authored by a seat)."""
        return ev.get("t") in ("shuffle",)

    def card_attributes(self) -> tuple[int, ...]:
        """The linked attribute of each face 0..deck_size-1 (an int below 2^16), encoded in its card point from
        protocol version 5 (`a·G + (face+1)·J`, crypto/group.py) so that a commitment to it is proved to be the
        card's in constant size (crypto/card_link.py): Access Denied's code, Hacker's card kind. Default: 0."""
        return (0,) * self.deck_size

    def pile_faces(self, st: State) -> list[int] | None:
        """The faces of the pile to shuffle next, public to all (None: the full deck, 0..deck_size-1)."""
        return None

    def moved_faces(self, before: State, after: State) -> dict[int, int]:
        """For an all-knowing driver of the rules alone (the conformance suite): the faces of the handles the event
        that led from `before` to `after` gave to cards already in play (Classified's hand mix); at the table such
        handles open by a reveal round. {}: none (most games)."""
        return {}

    def claims(self, ev: Event) -> list[tuple[int, int, int]]:
        """The (handle, face, claimant seat) an event claims for cards shown later (checked when their shares open:
        a claim the card belies names the claimant)."""
        return []

    def same_card(self, claimed: int, face: int) -> bool:
        """Whether a card that opens to `face` is the card a claim of `claimed` names (a game whose deck holds copies
        of a card says a copy is that card)."""
        return claimed == face

    def in_play(self, st: State, h: int) -> bool:
        """Whether handle h is still a card in play (two live handles may not hold one face)."""
        return True

    # ------------------------------------------------------------------ committed secrets

    def table_part(self) -> Any:
        """A new table part for one fold: the object that holds the game's own committed secrets and is called
        through its hooks (a `TablePart`, p2p/machine/game_part.py); None: the game has none (the hooks' defaults).
        The fields its entries carry beside the core's are `event_fields`, `secret_fields`, `evidence_fields`."""
        return None

    # ------------------------------------------------------------------ words

    def face_title(self, face: int) -> str:
        return f"card {face}"

    def narrate(self, item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """An item of the account (`st.history`, a result's reason) in words."""
        return str(item)

    def is_turn_start(self, item: Any) -> bool:
        """Whether an item of the account starts a turn (a replay steps turn by turn)."""
        return False

    def started(self, st: State) -> bool:
        """Whether play has begun (the table says "dealing" before)."""
        return bool(st.history)

    def end_lines(self, st: State, faces: Mapping[int, int], names: Sequence[str], lang: str) -> list[str]:
        """Lines told at the end: standings, and (with every face from the audit) what was hidden."""
        return []

    def learned_lines(self, st: State, handles: Sequence[int], seat: int | None, lang: str) -> list[str]:
        """Lines that tell a player the faces it has just been shown privately."""
        return []

    # what a clean audit checked of this game beside the core's signatures, proofs, shuffles and shares: in English
    # for `ad-p2p audit`'s "checked:" line (its secrets opened against their commitments, the strict replay)
    audit_checks: tuple[str, ...] = ("strict replay of every move with every face known",)

    def checked_words(self, lang: str, brief: bool = False) -> str:
        """What a clean audit checked, in the player's words ("every shuffle, card and move"), for the end's line
        (`brief`: the end screen's shorter form, one line at 80 columns)."""
        from adp2p.p2p.notices import notice

        return notice("checked_any", lang)

    # ------------------------------------------------------------------ players

    @abstractmethod
    def make_bot(self, strategy: str, seed: int) -> Chooser:
        """A seeded bot of a named strategy (tests and `ad-p2p play --bots`)."""


class NotForPlayers(ValueError):
    """A game (or its configuration) is not for this many players."""


class UnknownGame(LookupError):
    """A genesis names a game this peer does not have."""


_in_process: dict[str, Game] = {}  # games registered by `register` (tests), beside the installed ones


def register(game: Game) -> None:
    """Register a game in this process only (a test's game; an installed game registers by entry point)."""
    _in_process[game.name] = game


def registered() -> dict[str, str]:
    """Every game this process can play: name -> 'module:object' (the entry points; 'process' for `register`)."""
    return {**_entry_points(), **{name: "process" for name in _in_process}}


@cache
def _entry_points() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS)}


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The game registered under `name` (UnknownGame if none is)."""
    if name in _in_process:
        return _in_process[name]
    return _installed(name)


@cache
def _installed(name: str) -> Game:
    for ep in entry_points(group=ENTRY_POINTS):
        if ep.name == name:
            game = ep.load()
            if not isinstance(game, Game) or game.name != name:
                raise UnknownGame(f"the entry point of game {name!r} is not a Game of that name")
            return game
    raise UnknownGame(f"no game {name!r} is installed here")
