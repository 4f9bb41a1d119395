"""The scenario API: a test position built through real events only, on a stacked deck.

`Scene(n, hands={seat: [card keys]}, deck=[card keys])` plays the real setup (the shuffle, with the faces learned in
the order that deals the named cards, the deal) and stops at the first decision (round 1, phase 6). Its methods
apply real events, sealing secret choices as a table would (the log gets the commitment, the scene's all-knowing
engine the value): `lay`, `start`, `play`, `discard`, `hack`, `roll`, `boss`, `place`, `to_phase`. The log replays
to the same state (`replayed()`). There are no staging events: every position is reached by play.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.hacker import api
from adp2p.engine.hacker.catalog import card, card_by_key
from adp2p.engine.hacker.facedown import kind_of
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import deck_faces


class Scene:
    def __init__(self, n: int = 3, profile: str = "basic", *, hands: dict[int, list[str]] | None = None,
                 deck: list[str] | None = None, **prof_kw: Any) -> None:
        self.profile = get_profile(profile, **prof_kw)
        self.st = api.new_game(self.profile, n, scenario=True)
        self.log: list[dict[str, Any]] = []
        self.secrets: list[tuple[int, str, int, Any]] = []
        self.faces: dict[int, int] = {}
        pool = deck_faces(self.st)
        order = _stack(n, self.profile.hand, pool, hands or {}, deck or [])
        first = self.st.next_handle
        self.do({"t": "shuffle"})
        new = dict(zip(range(first, self.st.next_handle), order, strict=True))
        self.st = api.learn(self.st, new)
        self.faces.update(new)

    # -- events -----------------------------------------------------------------------------------------
    def do(self, ev: dict[str, Any]) -> Scene:
        if "secret" in ev:
            what = "roll" if ev["t"] == "private_roll" else ev["what"]
            self.secrets.append((len(self.log), what, ev["p"], ev["secret"]))
            pub = {k: v for k, v in ev.items() if k != "secret"}
            pub["c"] = pub.get("c") or f"scene-{len(self.log)}"
            self.st = api.apply(self.st, {**pub, "secret": ev["secret"]})
            self.log.append(pub)
        else:
            self.st = api.apply(self.st, ev)
            self.log.append(ev)
        return self

    def replayed(self) -> HState:
        return api.replay(self.profile, self.st.n, self.log, self.faces, self.secrets, scenario=True)

    @property
    def pending(self) -> api.Decision | None:
        return api.pending(self.st)

    def h(self, p: int, key: str, where: str = "hand") -> int:
        """The handle of a `key` card in p's hand (or "laid_chance", "laid_term")."""
        pile = {"hand": self.st.hands, "laid_chance": self.st.laid_chance, "laid_term": self.st.laid_term}[where][p]
        want = card_by_key(key).id
        for h in pile:
            if self.st.faces.get(h) == want:
                return h
        raise LookupError(f"seat {p + 1} has no {key} in {where}")

    def lay(self, plan: dict[int, list[str]] | None = None) -> Scene:
        """Phase 6: every seat seals, then opens, the cards named for it (by key; each to its pile)."""
        plan = plan or {}
        chosen: dict[int, dict[str, list[int]]] = {}
        for p in range(self.st.n):
            hs: list[int] = []
            for key in plan.get(p, []):
                hs.append(next(h for h in self.st.hands[p] if self.st.faces[h] == card_by_key(key).id
                               and h not in hs))
            kinds = {h: kind_of(self.st, card(self.st.faces[h])) for h in hs}
            chosen[p] = {"chance": [h for h in hs if kinds[h] == "chance"],
                         "term": [h for h in hs if kinds[h] == "terminal"]}
            self.do({"t": "seal", "p": p, "what": "lay", "c": "", "secret": chosen[p]})
        for p in range(self.st.n):
            self.do({"t": "unseal", "p": p, "what": "lay", **chosen[p]})
        return self

    def start(self, p: int = 0) -> Scene:
        return self.do({"t": "start", "p": p})

    def play(self, p: int, key: str, **tg: Any) -> Scene:
        where = "laid_chance" if kind_of(self.st, card_by_key(key)) == "chance" else "laid_term"
        return self.do({"t": "play", "p": p, "h": self.h(p, key, where), "card": key, **tg})

    def discard(self, p: int, key: str) -> Scene:
        where = "laid_chance" if kind_of(self.st, card_by_key(key)) == "chance" else "laid_term"
        return self.do({"t": "discard", "p": p, "h": self.h(p, key, where), "card": key})

    def roll(self, *dice: int) -> Scene:
        return self.do({"t": "roll", "dice": list(dice)})

    def decline_all(self) -> Scene:
        """Answer the open SUPERSPY PROTECTION window with no protection."""
        while self.pending and self.pending.kind == "protect":
            self.do({"t": "decline", "p": self.pending.actor})
        return self

    def hack(self, p: int, roll: list[int], pad: list[str], path: list[str]) -> Scene:
        """p declares a hack; the controller's private roll and pad are sealed; p announces `path` (the controller
        answers truly, p turns over a laid HACK card on a check while it has one); the controller opens the pad."""
        self.do({"t": "hack", "p": p})
        ctrl = self.pending.info["p"]  # type: ignore[union-attr]
        self.do({"t": "private_roll", "p": ctrl, "c": "", "secret": roll})
        self.do({"t": "seal", "p": ctrl, "what": "pad", "c": "", "secret": pad})
        for sq in path:
            self.do({"t": "probe", "p": p, "sq": sq})
            self.do({"t": "answer", "p": ctrl, "check": sq in pad})
            if sq in pad:
                hacks = [h for h in self.st.laid_term[p] if self.st.faces[h] == card_by_key("hack").id]
                self.do({"t": "use_hack", "p": p, "h": hacks[0], "card": "hack"} if hacks else {"t": "eject", "p": p})
        return self.do({"t": "open_pad", "p": ctrl, "roll": roll, "checks": pad})

    def until(self, p: int, kind: str) -> Scene:
        """Default choices (as `finish_turns`) until seat p faces a decision of this kind."""
        while not (self.pending and self.pending.actor == p and self.pending.kind == kind):
            d = self.pending
            assert d is not None and d.actor is not None, f"no {kind} for seat {p + 1} before {d}"
            legal = api.legal(self.st, d.actor)
            self.do(next((e for e in legal if e["t"] in ("no_hack", "decline", "discard")), legal[0]))
        return self

    def finish_turns(self) -> Scene:
        """Every remaining decision of phase 8 by default: no hack, unplayable laid cards discarded, the first
        playable event otherwise."""
        while self.st.phase in ("chance", "terminal") and self.pending and self.pending.actor is not None:
            d = self.pending
            legal = api.legal(self.st, d.actor)  # type: ignore[arg-type]
            pick = next((e for e in legal if e["t"] in ("no_hack", "decline", "discard")), legal[0])
            self.do(pick)
        return self

    def to_phase(self, phase: str, *, boss_at: int | None = None, dice: int = 1, passing: dict[int, str] | None = None,
                 places: dict[int, int] | None = None) -> Scene:
        """Play on by default choices (pass the first card or the `passing` one, stay or go to `places`, lay nothing,
        start 0, no hack, dice all `dice` (duels: the first named wins), the Boss at the first place he may go or
        `boss_at`, exchange nothing) until `phase` begins."""
        while self.st.phase != phase and not self.st.over:
            d = self.pending
            assert d is not None
            if d.actor is None:
                self.do(self._chance(d, boss_at, dice))
                continue
            legal = api.legal(self.st, d.actor)
            pref = {"seal": lambda e: e["what"] != "lay" or not e["secret"]["chance"] + e["secret"]["term"],
                    "exchange": lambda e: not e["hs"]}.get(d.kind, lambda e: e["t"] in ("no_hack", "decline",
                                                                                         "discard", "pass", "give"))
            if d.kind == "seal" and d.info["what"] == "place":
                to = (places or {}).get(d.actor, self.st.where[d.actor])
                pick = next((e for e in legal if e["secret"] == to), legal[0])
            elif d.kind == "pass" and d.actor in (passing or {}):
                pick = {"t": "pass", "p": d.actor, "h": self.h(d.actor, passing[d.actor])}  # type: ignore[index]
            else:
                pick = next((e for e in legal if pref(e)), legal[0])
            self.do(pick)
        return self

    def _chance(self, d: api.Decision, boss_at: int | None, dice: int) -> dict[str, Any]:
        kind = d.kind.split(":")[1]
        if kind == "roll" and d.info["for"] == "duel":
            return {"t": "roll", "dice": [6, 1] * (d.info["k"] // 2)}  # the first named wins each duel
        if kind == "roll":
            return {"t": "roll", "dice": [dice] * d.info["k"]}
        if kind == "start":
            return {"t": "start", "p": 0}
        if kind == "boss":
            return {"t": "boss", "at": boss_at if boss_at in d.info["at"] else d.info["at"][0]}
        if kind == "shuffle":
            first = self.st.next_handle
            faces = deck_faces(self.st)
            self.do({"t": "shuffle"})
            new = dict(zip(range(first, self.st.next_handle), faces, strict=True))
            self.st = api.learn(self.st, new)
            self.faces.update(new)
            return {}
        raise AssertionError(d.kind)


def _stack(n: int, hand: int, pool: list[int], hands: dict[int, list[str]], deck: list[str]) -> list[int]:
    """The deck's faces, top first, so that the round-robin deal gives each seat its named cards then the named
    deck follows; filler from the rest (cards with no must-play rule first)."""
    rest = list(pool)

    def take(key: str) -> int:
        f = card_by_key(key).id
        rest.remove(f)
        return f

    named = {p: [take(k) for k in keys] for p, keys in hands.items()}
    top = [take(k) for k in deck]
    rest.sort(key=lambda f: (card(f).must_play_when_drawn, card(f).kind == "defence", f))
    order: list[int] = []
    for r in range(hand):
        for p in range(n):
            mine = named.get(p, [])
            order.append(mine[r] if r < len(mine) else _filler(rest))
    return order + top + rest


def _filler(rest: list[int]) -> int:
    for f in rest:
        if card(f).key in ("lock", "security", "terminal_defect"):
            rest.remove(f)
            return f
    return rest.pop(0)
