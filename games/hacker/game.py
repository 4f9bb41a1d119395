"""Hacker as a `Game` (p2p/game.py): hacker/api.py's rules behind the table core's interface (on a `TableState`:
the engine's state and the physical faces of the table's piles), the CHANCE events it derives from the joint beacon,
the private roll's two steps at the table (the controller's commitment, then a beacon pick: `private_roll`,
`roll_beacon`), its words, its bots, and its table part (part.py: sealed values and private dice)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from adp2p.crypto.beacon import permutation, uniform_int
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.catalog import card, card_by_key
from adp2p.engine.hacker.profiles import get_profile
from adp2p.games.hacker import words
from adp2p.games.hacker.part import HackerPart
from adp2p.games.hacker.table_events import to_engine, to_log
from adp2p.games.hacker.table_state import TableState, physical, profile_deck
from adp2p.p2p.game import Chooser, Decision, Event, Game, NotForPlayers, Outcome

CHANCE_EVENTS = ("shuffle", "roll", "start", "boss", "deal", "pairs", "roll_beacon")  # only CHANCE makes these
CLAIMING = ("play", "discard", "use_hack", "activate", "protect")  # events that turn over a card they name
BEACON = "roll_beacon"  # work key: the private roll of this seat waits for its beacon pick
DICE = [[a, b] for a in range(1, 7) for b in range(1, 7)]
# The longest round limit a table may name (a genesis may name up to 10,000 rounds): every pile is shuffled by every
# seat, whose `secrets` carry a witness of 35 bytes a card and 32 a pile (p2p/secrets_size.py). Cards reach a pile
# only from the first deck (its size) or by a draw (a hand refilled to 5, once a round), so after R rounds an honest
# seat's witnesses are at most 67 * (deck + 5 * 6 * (R + 1)) bytes: 413,212 bytes with the openings at 200 rounds,
# within the 448 KiB a secrets entry may have (more rounds, and players who prolong the game could push an honest
# seat's secrets past it: dropped unread, that seat would be named as silent).
MAX_ROUND_LIMIT = 200


class Hacker(Game):
    name = "hacker"
    title = "Hacker"
    deck_size = len(physical())
    secret_fields = frozenset({"seals"})
    event_fields = frozenset({"commits", "opening", "openings", "roll"})
    illegal = IllegalEvent
    bool_fields = MappingProxyType({"check": False})
    quick_table = MappingProxyType({"players": 3, "profile": "advanced", "round_limit": 2, "bots": "random"})

    def table_part(self) -> HackerPart:
        """Its seals and private dice, and the openings of the seals left unopened at the end (part.py)."""
        return HackerPart()

    def configure(self, settings: Mapping[str, Any], n: int) -> Any:
        limit = settings.get("round_limit")
        if limit is not None and limit > MAX_ROUND_LIMIT:
            raise ValueError(f"a Hacker table plays at most {MAX_ROUND_LIMIT} rounds (its end-of-game secrets must fit "
                             f"one entry), not {limit}")
        profile = get_profile(settings.get("profile") or "basic", goal=settings.get("goal"), round_limit=limit)
        if not profile.min_players <= n <= profile.max_players:
            raise NotForPlayers(f"Hacker ({profile.name}) is not for {n} players")
        return profile

    def new_game(self, config: Any, n: int, *, strict: bool = False) -> TableState:
        return TableState(api.new_game(config, n))

    def pending(self, st: TableState) -> Decision | None:
        eng = st.eng
        if eng.work.get(BEACON) is not None and not eng.over:
            return api.Decision(None, "chance:roll_beacon", {"p": eng.work[BEACON]})
        d = api.pending(eng)
        if d is not None and d.kind == "chance:private_roll":  # at the table: the seat commits first
            return api.Decision(d.info["p"], "private_roll", dict(d.info))
        return d

    def legal(self, st: TableState, player: int) -> list[Event]:
        d = self.pending(st)
        if d is None or d.actor != player:
            return []
        if d.kind == "private_roll":  # the table's roll is the dice protocol's (seals.py); `secret`: a referee's
            return [{"t": "private_roll", "p": player, "c": "", "secret": dice} for dice in DICE]
        return [to_log(ev) for ev in api.legal(st.eng, player)]

    def apply(self, st: TableState, event: Event) -> TableState:
        if not isinstance(event, dict):
            raise IllegalEvent("bad_event", "an event is a dict")
        eng = st.eng
        waiting = eng.work.get(BEACON)
        if waiting is not None or event.get("t") == "roll_beacon":
            b = event.get("b")
            if waiting is None or event.get("t") != "roll_beacon" or event.get("p") != waiting or not (
                    isinstance(b, str) and len(b) == 32 and set(b) <= set("0123456789abcdef")) or len(event) != 3:
                raise IllegalEvent("not_now", "the private roll waits for its beacon pick")
            new = eng.clone()
            new.reveals = []
            new.work.pop(BEACON)
            return st.after(new)
        new = api.apply(eng, to_engine(event))
        if event.get("t") == "private_roll":
            new.work[BEACON] = event["p"]
        return st.after(new)

    def learn(self, st: TableState, faces: Mapping[int, int]) -> TableState:
        kinds = physical()
        eng = api.learn(st.eng, {h: kinds[f] for h, f in faces.items()})
        out = TableState(eng, st.faces)
        for h, f in faces.items():
            if out.faces.get(h, f) != f:
                raise IllegalEvent("face_mismatch", f"handle {h} was already known to be another card")
            out.faces[h] = f
        return out

    def learn_secret(self, st: TableState, what: str, player: int, value: Any) -> TableState:
        """A sealed value of `player` this instance now knows (its own)."""
        return st.after(api.learn_secret(st.eng, what, player, value))

    def view(self, st: TableState, player: int) -> TableState:
        eng = api.view(st.eng, player)
        return TableState(eng, {h: f for h, f in st.faces.items() if h in eng.faces})

    def result(self, st: TableState) -> Outcome:
        res = api.result(st.eng)
        return Outcome(res.winners, res.reason)

    def same_end(self, a: TableState, b: TableState) -> bool:
        return list(a.winners) == list(b.winners) and api.result(a.eng).codes == api.result(b.eng).codes

    def chance_event(self, d: Decision, seed: bytes, n: int) -> Event:
        what = d.kind.split(":", 1)[1]
        if what == "roll":
            return {"t": "roll", "dice": [1 + uniform_int(_sub(seed, i), 6) for i in range(d.info["k"])]}
        if what == "start":
            return {"t": "start", "p": uniform_int(seed, n)}
        if what == "boss":
            at = list(d.info["at"])
            return {"t": "boss", "at": at[uniform_int(seed, len(at))]}
        if what in ("deal", "pairs"):
            return {"t": what, "perm": permutation(seed, n if what == "deal" else 6)}
        if what == "roll_beacon":
            return {"t": "roll_beacon", "p": d.info["p"], "b": seed[:16].hex()}
        raise ValueError(f"no CHANCE event for {d.kind}")

    def is_chance_event(self, ev: Event) -> bool:
        return ev.get("t") in CHANCE_EVENTS

    def card_attributes(self) -> tuple[int, ...]:
        """A physical card's kind (its catalog id): the attribute a Hacker answer about a hidden card would commit to
        and link in constant size (crypto/card_link.py); every copy of a card shares it."""
        return physical()

    def pile_faces(self, st: TableState) -> list[int] | None:
        if st.next_handle == 0:
            return profile_deck(st.eng.profile)
        return [st.faces[h] for h in st.eng.discard]  # the discard pile: face up, known to every peer

    def claims(self, ev: Event) -> list[tuple[int, int, int]]:
        """A card turned over by its player (a laid card played or discarded, a HACK card used, a SUPERSPY turned
        over, SUPERSPY PROTECTION shown) is claimed as the card its event names: its shares, public right after
        the event, must open to a copy of that card (else the verdict names the player, p2p/machine/reveals.py)."""
        if ev.get("t") not in CLAIMING:
            return []
        return [(ev["h"], first_copy(ev["card"]), ev["p"])]

    def same_card(self, claimed: int, face: int) -> bool:
        kinds = physical()
        return kinds[claimed] == kinds[face]

    def in_play(self, st: TableState, h: int) -> bool:
        return h in st.eng.loc

    def face_title(self, face: int) -> str:
        return card(physical()[face]).name()

    def narrate(self, item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return words.narrate(item, lang, names)

    def is_turn_start(self, item: Any) -> bool:
        return isinstance(item, dict) and item.get("k") == "round"

    def started(self, st: TableState) -> bool:
        return st.eng.start is not None

    def end_lines(self, st: TableState, faces: Mapping[int, int], names: Sequence[str], lang: str) -> list[str]:
        return words.end_lines(st.eng, names, lang)

    audit_checks = words.AUDIT_CHECKS

    def checked_words(self, lang: str, brief: bool = False) -> str:
        return words.checked(lang, brief)

    def make_bot(self, strategy: str, seed: int) -> Chooser:
        bot = make_bot(strategy, seed)
        return lambda seen, seat, options: bot(seen.eng, seat, options)


def first_copy(key: str) -> int:
    """The first physical card of a card's copies (what a claim of that card names)."""
    return physical().index(card_by_key(key).id)


def _sub(seed: bytes, i: int) -> bytes:
    return hashlib.blake2b(seed + bytes([i]), digest_size=32).digest()


GAME = Hacker()
