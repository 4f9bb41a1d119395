"""High Card, a toy game for the conformance suite: the smallest game that uses everything the table core offers
(a shuffled pile, two CHANCE picks from the beacon, a private deal, public reveals, decisions), written against
p2p/game.py alone, so the suite shows that the core runs a game that is not Access Denied.

Eight cards, faces 0..7. CHANCE shuffles the pile, picks the first player (who is dealt to first) and a lucky face.
Each player is dealt one card (seen by it alone), then each in turn from the first shows it or folds, and the first
player closes the game (once every card shown is open to all: the event that ends a game shows nothing, and whether
it is over never depends on a face only some know). The highest card shown wins (the lucky face beats every other);
if nobody shows, the first player wins.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from adp2p.crypto.beacon import uniform_int
from adp2p.p2p.game import Chooser, Decision, Event, Game, NotForPlayers, Outcome

DECK = 8


class Illegal(Exception):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule, self.message = rule, message


class Due(NamedTuple):
    actor: int | None
    kind: str
    info: dict[str, Any]


@dataclass
class State:
    n: int
    all_mask: int
    faces: dict[int, int] = field(default_factory=dict)
    known: dict[int, int] = field(default_factory=dict)
    reveals: list[tuple[int, int]] = field(default_factory=list)
    next_handle: int = 0
    first: int | None = None
    lucky: int | None = None
    decided: list[tuple[int, bool]] = field(default_factory=list)  # (seat, shown) in turn order
    over: bool = False
    winners: list[int] = field(default_factory=list)
    history: list[str] = field(default_factory=list)


class HighCard(Game):
    name = "high-card"
    title = "High Card"
    deck_size = DECK
    illegal = Illegal
    quick_table = MappingProxyType({"players": 3, "profile": "standard", "round_limit": None, "bots": "random"})

    def configure(self, settings: Mapping[str, Any], n: int) -> Any:
        if settings.get("profile") != "standard":
            raise ValueError("High Card has one profile: standard")
        if not 2 <= n <= 4:
            raise NotForPlayers(f"High Card is not for {n} players")
        return "standard"

    def new_game(self, config: Any, n: int, *, strict: bool = False) -> State:
        return State(n, (1 << n) - 1)

    def pending(self, st: State) -> Decision | None:
        if st.over:
            return None
        if st.next_handle == 0:
            return Due(None, "chance:shuffle", {"size": DECK})
        if st.first is None:
            return Due(None, "chance:first", {})
        if st.lucky is None:
            return Due(None, "chance:lucky", {})
        if len(st.decided) == st.n:
            return Due(st.first, "close", {})
        return Due((st.first + len(st.decided)) % st.n, "decide", {})

    def legal(self, st: State, player: int) -> list[Event]:
        d = self.pending(st)
        if d is None or d.actor != player:
            return []
        if d.kind == "close":
            return [{"t": "close", "p": player}]
        return [{"t": "show", "p": player}, {"t": "fold", "p": player}]

    def apply(self, st: State, event: Event) -> State:
        d = self.pending(st)
        if d is None:
            raise Illegal("over", "the game is over")
        new = copy.deepcopy(st)
        new.reveals = []
        t = event.get("t")
        if d.kind == "chance:shuffle" and event == {"t": "shuffle"}:
            new.next_handle = DECK
            new.history.append("the deck is shuffled")
        elif d.kind == "chance:first" and t == "first" and event.get("p") in range(st.n) and len(event) == 2:
            new.first = event["p"]
            for k in range(st.n):  # deal: the first player's card is handle 0, and so on round the table
                seat = (new.first + k) % st.n
                new.known[k] = 1 << seat
                new.reveals.append((k, 1 << seat))
            new.history.append(f"seat {new.first + 1} is first")
        elif d.kind == "chance:lucky" and t == "lucky" and event.get("face") in range(DECK) and len(event) == 2:
            new.lucky = event["face"]
            new.history.append(f"the lucky card is {event['face']}")
        elif d.kind == "close" and event in self.legal(st, d.actor):
            self._end(new)
        elif d.actor is not None and event in self.legal(st, d.actor):
            k = len(st.decided)
            shown = t == "show"
            new.decided.append((d.actor, shown))
            if shown:
                new.known[k] = st.all_mask
                new.reveals.append((k, st.all_mask))
            new.history.append(f"seat {d.actor + 1} {'shows' if shown else 'folds'}")
        else:
            raise Illegal("not_legal", f"{event!r} is not legal now")
        return new

    def _end(self, st: State) -> None:
        """Every seat has decided and every card shown is open to all."""
        shown = [(k, seat) for k, (seat, s) in enumerate(st.decided) if s]
        if any(k not in st.faces for k, _ in shown):
            raise Illegal("not_open", "a card shown is not open yet")
        st.over = True
        if not shown:
            st.winners = [st.first] if st.first is not None else []
        else:
            best = max(shown, key=lambda ks: (st.faces[ks[0]] == st.lucky, st.faces[ks[0]]))
            st.winners = [best[1]]
        st.history.append("the game ends")

    def learn(self, st: State, faces: Mapping[int, int]) -> State:
        new = copy.deepcopy(st)
        for h, f in faces.items():
            if new.faces.get(h, f) != f:
                raise Illegal("face_mismatch", f"handle {h} was already known to be another card")
            new.faces[h] = f
        return new

    def view(self, st: State, player: int) -> State:
        new = copy.copy(st)
        new.faces = {h: f for h, f in st.faces.items() if st.known.get(h, 0) >> player & 1}
        return new

    def result(self, st: State) -> Outcome:
        return Outcome(list(st.winners), "the game ends" if st.over else None)

    def chance_event(self, d: Decision, seed: bytes, n: int) -> Event:
        if d.kind == "chance:first":
            return {"t": "first", "p": uniform_int(seed, n)}
        return {"t": "lucky", "face": uniform_int(seed, DECK)}

    def is_chance_event(self, ev: Event) -> bool:
        return ev.get("t") in ("shuffle", "first", "lucky")

    def make_bot(self, strategy: str, seed: int) -> Chooser:
        if strategy != "random":
            raise ValueError(f"High Card has one bot: random, not {strategy!r}")
        rng = random.Random(seed)
        return lambda seen, seat, options: rng.choice(options)

    def narrate(self, item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return str(item)


GAME = HighCard()
