"""Access Denied as a `Game` (p2p/game.py): engine/api.py's rules behind the table core's interface, the CHANCE events
it derives from the joint beacon, its 63-card deck and reshuffled discard piles, its words, its bots, and its table
part (part.py: password commitments, proved answers and link proofs, its checks and evidence)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from adp2p.crypto.beacon import permutation, sample, uniform_int
from adp2p.engine.access_denied import api
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.catalog import card
from adp2p.engine.access_denied.narration import text
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.state import GameState
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.words import pick
from adp2p.games.access_denied import words
from adp2p.games.access_denied.part import BOOL_FIELDS, AccessDeniedPart
from adp2p.p2p.game import Chooser, Decision, Event, Game, NotForPlayers, Outcome

CHANCE_EVENTS = ("sectors", "shuffle", "first", "random")  # the events only CHANCE makes (never authored)


class AccessDenied(Game):
    name = "access-denied"
    title = "Access Denied"
    deck_size = 63
    event_fields = frozenset({"commit", "codes", "distinct", "proof", "code_link"})
    secret_fields = frozenset({"openings"})
    evidence_fields = frozenset({"seq", "h", "ha", "hb", "code", "salt"})
    bool_fields = BOOL_FIELDS
    illegal = IllegalEvent
    quick_table = MappingProxyType({"players": 3, "profile": "classic", "round_limit": 8, "bots": "deduction"})

    def table_part(self) -> AccessDeniedPart:
        """Password commitments and their proofs, answer and link proofs, its checks and evidence (part.py)."""
        return AccessDeniedPart()

    def card_attributes(self) -> tuple[int, ...]:
        """A card's code (0..5 = A..F): what a password's commitments hold and its link proof is about."""
        return tuple(card(i).code for i in range(self.deck_size))

    def configure(self, settings: Mapping[str, Any], n: int) -> Any:
        profile = get_profile(
            settings["profile"],
            goal=settings.get("goal"),
            round_limit=settings.get("round_limit"),
            stalemate_rounds=settings.get("stalemate"),
        )
        if not profile.min_players <= n <= profile.max_players:
            raise NotForPlayers(f"{profile.name} is not for {n} players")
        return profile

    def new_game(self, config: Any, n: int, *, strict: bool = False) -> GameState:
        return api.new_game(config, n, strict=strict)

    def pending(self, st: GameState) -> api.Decision | None:
        return api.pending(st)

    def legal(self, st: GameState, player: int) -> list[Event]:
        return api.legal(st, player)

    def apply(self, st: GameState, event: Event) -> GameState:
        return api.apply(st, event)

    def apply_in_place(self, st: GameState, event: Event) -> GameState:
        return api.apply(st, event, inplace=True)  # (the strict replay: no copy of the state an event at a time)

    def learn(self, st: GameState, faces: Mapping[int, int]) -> GameState:
        return api.learn(st, faces)

    def view(self, st: GameState, player: int) -> GameState:
        return api.view(st, player)

    def result(self, st: GameState) -> Outcome:
        res = api.result(st)
        return Outcome(res.winners, res.reason)

    def same_end(self, a: GameState, b: GameState) -> bool:
        return a.winners == b.winners and a.access == b.access

    def blame(self, st: GameState, exc: Exception, faces: Mapping[int, int], author: int | None) -> int | None:
        """A broken trade promise is the promiser's, not the recipient's who accepted it."""
        if getattr(exc, "rule", None) == "trade_promise" and st.stack and st.stack[-1].get("op") == "trade_reply":
            ctx = st.ctx[st.stack[-1]["ctx"]]
            if ctx.get("promise") is not None and card(faces[ctx["card"]]).code != ctx["promise"]:
                return ctx["p"]
        return author

    def chance_event(self, d: Decision, seed: bytes, n: int) -> Event:
        what = d.kind.split(":", 1)[1]
        if what == "sectors":
            return {"t": "sectors", "perm": permutation(seed, 6)}
        if what == "first":
            return {"t": "first", "p": uniform_int(seed, n)}
        pool = list(d.info["from"])
        return {"t": "random", "picks": [pool[i] for i in sample(seed, len(pool), d.info["k"])]}

    def is_chance_event(self, ev: Event) -> bool:
        return ev.get("t") in CHANCE_EVENTS

    def pile_faces(self, st: GameState) -> list[int] | None:
        if st.next_handle == 0:
            return None
        return [st.faces[h] for h in st.discard]  # the discard pile: face up, known to every peer

    def claims(self, ev: Event) -> list[tuple[int, int, int]]:
        """A card played face down is played as the face it names (and its Backdoor's)."""
        if ev.get("t") != "play":
            return []
        out = [(ev["card"], ev["face"], ev["p"])]
        if ev.get("backdoor") is not None:
            out.append((ev["backdoor"], ev["backdoor_face"], ev["p"]))
        return out

    def in_play(self, st: GameState, h: int) -> bool:
        return st.loc.get(h, ("gone",))[0] != "gone"

    def face_title(self, face: int) -> str:
        return card(face).title

    def narrate(self, item: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return text(item, lang, list(names) if names is not None else None)

    def is_turn_start(self, item: Any) -> bool:
        return getattr(item, "key", None) == "turn"

    def started(self, st: GameState) -> bool:
        return st.turn_no != 0

    def end_lines(self, st: GameState, faces: Mapping[int, int], names: Sequence[str], lang: str) -> list[str]:
        return words.end_lines(st, faces, names, lang)

    def learned_lines(self, st: GameState, handles: Sequence[int], seat: int | None, lang: str) -> list[str]:
        return words.learned_lines(st, handles, seat, lang)

    audit_checks = words.AUDIT_CHECKS

    def checked_words(self, lang: str, brief: bool = False) -> str:
        return pick(words.CHECKED_BRIEF if brief else words.CHECKED, lang)

    def make_bot(self, strategy: str, seed: int) -> Chooser:
        return make_bot(strategy, seed)


GAME = AccessDenied()
