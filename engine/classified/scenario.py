"""The scenario API: a test position built through real events only, on a stacked deck.

`Scene(hands={0: [2, 5], 1: [...]}, suitcases={0: 6, 1: 2}, encrypted=[...], deck=[...], start=0)` plays the
real setup (the shuffle, with the faces learned in the order that deals the named cards; CHANCE's first player) and
stops at the first player's action. Cards are named by Card Number. Its methods apply real events: `encrypt`,
`guard`, `assassin`, `deploy`, `answer` (the truth unless told), `name`, `pick`, `pass_`, `react`, `show`,
`reveal_all`, `mix` (made by `do` when the rules ask for it), and `play_out` (every seat encrypts until the
end). The log replays to the same state (`replayed()`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adp2p.engine.classified import api
from adp2p.engine.classified.catalog import deck
from adp2p.engine.classified.legal import legal
from adp2p.engine.classified.profiles import get_profile
from adp2p.engine.classified.questions import known_truth
from adp2p.engine.classified.state import CState


class Scene:
    def __init__(self, profile: str = "standard", *, hands: dict[int, list[int]] | None = None,
                 suitcases: dict[int, int] | None = None, encrypted: list[int] | None = None,
                 deck: list[int] | None = None, start: int = 0, strict: bool = False) -> None:
        self.profile = get_profile(profile)
        self.st = api.new_game(self.profile, strict=strict, scenario=True)
        self.log: list[dict[str, Any]] = []
        self.faces = dict(enumerate(_stack(self.profile.choose, hands or {}, suitcases or {}, encrypted or [],
                                           deck or [])))
        self.st = api.learn(self.st, self.faces)
        self.do({"t": "shuffle"})
        if not self.profile.choose:
            self.do({"t": "start", "p": start})
        self.start = start

    # -- events -----------------------------------------------------------------------------------------
    def do(self, ev: dict[str, Any]) -> Scene:
        """Apply `ev`; a hand mix the rules ask for first (ruling C-MIX) is made before it (`mix`)."""
        if ev.get("t") != "mix":
            self._settle()
        return self._do(ev)

    def _settle(self) -> None:
        while (d := self.pending) is not None and d.kind == "mix":
            self.mix()

    def _do(self, ev: dict[str, Any]) -> Scene:
        self.st = api.apply(self.st, ev)
        self.log.append(ev)
        return self

    def mix(self) -> Scene:
        """The pending hand mix (ruling C-MIX): the new handles take the old ones' faces in hand order (the
        scenario's permutation is the identity; at the table it is the owner's secret)."""
        p = self.actor
        old, first = list(self.st.hands[p]), self.st.next_handle
        self._do({"t": "mix", "p": p})
        new = {first + j: self.faces[o] for j, o in enumerate(old)}
        self.faces.update(new)
        self.st = api.learn(self.st, new)
        return self

    def replayed(self, *, strict: bool = True) -> CState:
        return api.replay(self.profile, 2, self.log, self.faces, strict=strict)

    @property
    def pending(self) -> api.Decision | None:
        return api.pending(self.st)

    @property
    def actor(self) -> int:
        d = self.pending
        assert d is not None and d.actor is not None, d
        return d.actor

    def h(self, p: int, number: int, where: str = "hand") -> int:
        """The handle of a card with this number in p's hand (or "guard": among p's Guards), after any hand mix the
        rules ask for now."""
        self._settle()
        pile = self.st.hands[p] if where == "hand" else self.st.guards[p]
        for h in pile:
            if self.st.faces.get(h) == number:
                return h
        raise LookupError(f"seat {p + 1} has no {number} in {where}")

    def choose(self, p: int, suitcase: int, encrypt: int) -> Scene:
        s = self.h(p, suitcase)
        e = next(h for h in self.st.hands[p] if self.st.faces[h] == encrypt and h != s)
        return self.do({"t": "choose", "p": p, "suitcase": s, "encrypt": e})

    def encrypt(self, p: int, number: int) -> Scene:
        return self.do({"t": "encrypt", "p": p, "h": self.h(p, number)})

    def guard(self, p: int, number: int) -> Scene:
        return self.do({"t": "enlist", "p": p, "h": self.h(p, number), "as": "guard"})

    def assassin(self, p: int, number: int, target: int, top: str = "assassin") -> Scene:
        return self.do({"t": "enlist", "p": p, "h": self.h(p, number), "as": "assassin", "card": number,
                        "target": target, "top": top})

    def deploy(self, p: int, number: int, **params: Any) -> Scene:
        return self.do({"t": "deploy", "p": p, "h": self.h(p, number), "card": number, **params})

    def answer(self, yes: bool | None = None) -> Scene:
        """The pending answer: the truth (from the all-knowing state) unless `yes` is given."""
        task = self.st.stack[-1]
        if yes is None:
            yes = known_truth(self.st, task["question"])
        return self.do({"t": "answer", "p": task["actor"], "yes": yes})

    def name(self, n: int) -> Scene:
        return self.do({"t": "name", "p": self.actor, "n": n})

    def pick(self, h: int) -> Scene:
        return self.do({"t": "pick", "p": self.actor, "h": h})

    def pass_(self) -> Scene:
        return self.do({"t": "pass", "p": self.actor})

    def react(self, p: int) -> Scene:
        return self.do({"t": "react", "p": p, "h": self.h(p, 6), "card": 6})

    def show(self, i: int = 0) -> Scene:
        return self.do({"t": "show", "i": i})

    def reveal_all(self) -> Scene:
        while self.pending and self.pending.kind == "reveal":
            self.do(legal(self.st, self.actor)[0])
        return self

    def play_out(self, keep: dict[int, int] | None = None) -> Scene:
        """Every remaining action: the actor encrypts a card (not its card numbered keep[seat] while it has one
        other); windows passed, answers true; then the Big Reveal."""
        keep = keep or {}
        while self.pending is not None:
            d = self.pending
            if d.kind == "action":
                hand = self.st.hands[d.actor]  # type: ignore[index]
                kept = [h for h in hand if self.st.faces[h] == keep.get(d.actor)][:1]
                self.do({"t": "encrypt", "p": d.actor, "h": next(h for h in hand if h not in kept)})
            elif d.kind == "window":
                self.pass_()
            elif d.kind == "answer":
                self.answer()
            elif d.kind == "chance:show":
                self.show()
            elif d.kind == "mix":
                self.mix()
            else:
                self.do(legal(self.st, self.actor)[0])
        return self


def _stack(choose: bool, hands: dict[int, list[int]], suitcases: dict[int, int], encrypted: list[int],
           top: list[int]) -> list[int]:
    """The deck's faces in handle order such that the deal gives the named cards (the rest filled from what is
    left, lowest first)."""
    pool = Counter(deck())
    named = [*hands.get(0, []), *hands.get(1, []), *suitcases.values(), *encrypted, *top]
    for n in named:
        if pool[n] <= 0:
            raise ValueError(f"the deck has only two of {n}")
        pool[n] -= 1
    rest = sorted(pool.elements())

    def take(want: list[int], k: int) -> list[int]:
        if len(want) > k:
            raise ValueError(f"{want} is more than {k} cards")
        return [*want, *[rest.pop(0) for _ in range(k - len(want))]]

    size = 4 if choose else 2
    order = take(hands.get(0, []), size) + take(hands.get(1, []), size)
    if not choose:
        order += take([suitcases[0]] if 0 in suitcases else [], 1) + take([suitcases[1]] if 1 in suitcases else [], 1)
    if not choose:
        order += take(encrypted, 2)
    order += [*top, *rest]
    return order
