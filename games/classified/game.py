"""Classified Information as a `Game` (p2p/game.py): engine/classified/'s rules behind the table core's interface
(on a `TableState`: the engine's state and the physical faces of the table's pile), the CHANCE events it derives
from the joint beacon (the first player; the random card shown after a failed attempt, `show`), its words, its bots,
and its table part (part.py: every answer about a hidden card proved at once, docs/protocol.md "Classified
Information at the table")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from adp2p.crypto.beacon import uniform_int
from adp2p.engine.classified import api
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.catalog import card
from adp2p.engine.classified.profiles import get_profile
from adp2p.engine.errors import IllegalEvent
from adp2p.games.classified import words
from adp2p.games.classified.part import ClassifiedPart
from adp2p.games.classified.table_events import to_engine, to_log
from adp2p.games.classified.table_state import DECK_SIZE, TableState, first_copy, number
from adp2p.p2p.game import Chooser, Decision, Event, Game, NotForPlayers, Outcome

CHANCE_EVENTS = ("shuffle", "start", "show")  # only CHANCE makes these
CLAIMING = ("deploy", "react", "enlist")  # events that turn over a card of the hand they name (`card`)


class Classified(Game):
    name = "classified"
    title = "Classified Information"
    deck_size = DECK_SIZE
    event_fields = frozenset({"hidden", "mix"})
    illegal = IllegalEvent
    bool_fields = MappingProxyType({"yes": False})
    quick_table = MappingProxyType({"players": 2, "profile": "standard", "round_limit": None, "bots": "random"})

    def table_part(self) -> ClassifiedPart:
        """Its proved answers about hidden cards (part.py)."""
        return ClassifiedPart()

    def configure(self, settings: Mapping[str, Any], n: int) -> Any:
        if settings.get("goal") is not None or settings.get("round_limit") is not None:
            raise ValueError("Classified Information has no goal and no round limit")
        profile = get_profile(settings.get("profile") or "standard")
        if not profile.min_players <= n <= profile.max_players:
            raise NotForPlayers("Classified Information is a game for two players")
        return profile

    def new_game(self, config: Any, n: int, *, strict: bool = False) -> TableState:
        if n != 2:
            raise NotForPlayers("Classified Information is a game for two players")
        return TableState(api.new_game(config, n, strict=strict))

    def pending(self, st: TableState) -> Decision | None:
        return api.pending(st.synced())

    def legal(self, st: TableState, player: int) -> list[Event]:
        eng = st.synced()
        d = api.pending(eng)
        if d is None or d.actor != player:
            return []
        return [to_log(ev) for ev in api.legal(eng, player)]

    def apply(self, st: TableState, event: Event) -> TableState:
        if not isinstance(event, dict):
            raise IllegalEvent("bad_event", "an event is a dict")
        return st.after(api.apply(st.synced(), to_engine(event)))

    def learn(self, st: TableState, faces: Mapping[int, int]) -> TableState:
        eng = api.learn(st.synced(), {h: number(f) for h, f in faces.items()})
        out = TableState(eng, st.faces)
        for h, f in faces.items():
            if out.faces.get(h, f) != f:
                raise IllegalEvent("face_mismatch", f"handle {h} was already known to be another card")
            out.faces[h] = f
        return out

    def view(self, st: TableState, player: int) -> TableState:
        eng = api.view(st.synced(), player)
        return TableState(eng, {h: f for h, f in st.faces.items() if h in eng.faces})

    def result(self, st: TableState) -> Outcome:
        res = api.result(st.eng)
        return Outcome(res.winners, res.reason)

    def same_end(self, a: TableState, b: TableState) -> bool:
        ra, rb = api.result(a.eng), api.result(b.eng)
        return ra.winners == rb.winners and ra.reason == rb.reason and ra.guard_counts == rb.guard_counts

    def chance_event(self, d: Decision, seed: bytes, n: int) -> Event:
        what = d.kind.split(":", 1)[1]
        if what == "start":
            return {"t": "start", "p": uniform_int(seed, n)}
        if what == "show":  # the random card of the defender's hand, shown to the attacker alone (the rules' reveals)
            return {"t": "show", "i": uniform_int(seed, d.info["n"])}
        raise ValueError(f"no CHANCE event for {d.kind}")

    def is_chance_event(self, ev: Event) -> bool:
        return ev.get("t") in CHANCE_EVENTS

    def card_attributes(self) -> tuple[int, ...]:
        """A physical card's Card Number: the attribute every answer about a hidden card is proved against."""
        return tuple(number(f) for f in range(DECK_SIZE))

    def moved_faces(self, before: TableState, after: TableState) -> dict[int, int]:
        """A hand mixed (ruling C-MIX): new handle `first + j` holds the card of the hand's `j`-th handle before it
        (an all-knowing driver's choice of the secret permutation: the identity)."""
        out: dict[int, int] = {}
        for x in after.eng.history[len(before.eng.history):]:
            if x.get("k") == "mix":
                for j, h in enumerate(before.eng.hands[x["p"]][: x["n"]]):
                    if h in before.faces:
                        out[x["first"] + j] = before.faces[h]
        return out

    def claims(self, ev: Event) -> list[tuple[int, int, int]]:
        """A card of the hand turned face up by its player (Deployed, a REACT, an Assassin enlisted) is claimed as the
        Card Number its event names: its shares, public right after, must open to a card of that number."""
        if ev.get("t") not in CLAIMING or type(ev.get("card")) is not int or not 1 <= ev["card"] <= 9:
            return []
        return [(ev["h"], first_copy(ev["card"]), ev["p"])]

    def same_card(self, claimed: int, face: int) -> bool:
        return number(claimed) == number(face)

    def in_play(self, st: TableState, h: int) -> bool:
        return h in st.eng.loc

    def face_title(self, face: int) -> str:
        return card(number(face)).name()

    def narrate(self, item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return words.narrate(item, lang, names)

    def is_turn_start(self, item: Any) -> bool:
        return isinstance(item, dict) and item.get("k") == "turn"

    def started(self, st: TableState) -> bool:
        return st.eng.phase != "setup"

    def end_lines(self, st: TableState, faces: Mapping[int, int], names: Sequence[str], lang: str) -> list[str]:
        res = api.result(st.eng)
        out = []
        for p in range(2):
            name = names[p] if p < len(names) else f"seat {p + 1}"
            count = res.guard_counts[p] if p < len(res.guard_counts) else 0
            match = res.matches[p] if p < len(res.matches) else False
            out.append(words.end_line(name, count, bool(match), lang))
        return out

    audit_checks = words.AUDIT_CHECKS

    def checked_words(self, lang: str, brief: bool = False) -> str:
        return words.checked(lang, brief)

    def make_bot(self, strategy: str, seed: int) -> Chooser:
        bot = make_bot(strategy, seed)

        def choose(seen: TableState, seat: int, options: list[Event]) -> Event:
            return to_log(bot(seen.eng, seat, [to_engine(o) for o in options]))

        return choose


GAME = Classified()
