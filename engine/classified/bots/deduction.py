"""The deduction bot: keeps the Cypher Wheel (wheel.py) of the opponent's Suitcase and plays for an Unguarded Match.

Each legal event is scored on the bot's own view:
- what a question is worth: the expected number of Suitcase Numbers it rules out (split of the wheel by the
  answer), while the game is young enough to use it;
- Guards: a Guard on a number of its own Code blocks the opponent's match (and every Guard counts at the end);
- assassinating an opponent's Guard (fewer Guards for them, a blocked number freed);
- the Final Card: the best match chance among the cards it keeps (weighted more as the deck runs out);
- the chance of winning as the end chart decides it (`_Context.win`): its own match, the opponent's (their Final
  Card as any card they may hold, against the numbers of its own Code its Guards leave open) and the Guard count
  after the event, weighted more as the deck runs out.
Answers are the engine's (only the truth is legal); Picking Petals names a number the opponent can rule out
already. The wheel also counts what it remembers of the opponent's mixed hand (memory.py: a card shown there, then
mixed, is among the new handles); a REACT is played only when the attacked Guard would fall (its own face-down
Guard's face tells whether an attempt fails anyway). The weights: docs/rules-classified.md "Bots" (branch bot31c:
more Guards, fewer assassinations, questions worth a little more).

With `deals` (off by default: measured no better than the noise, docs/rules-classified.md "Bots"), on the close
calls of the last turns the scores only shortlist: the determinized look-ahead (lookahead.py) deals the faces this
seat has not seen as its knowledge allows, plays each shortlisted event out to the end through the engine in every
deal (the opponent played as the random bot), and takes the one that wins most (bounded by counts, not the clock:
the same seed, the same choice)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from adp2p.engine.classified.catalog import NUMBERS, card, code, deck, near, touch
from adp2p.engine.classified.memory import mixed_faces
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import opponent
from adp2p.engine.classified.wheel import chance_in, possible, weights

Event = dict[str, Any]
INFO = (1.3, 0.5)  # what a Suitcase Number ruled out is worth: early (4+ cards left to draw), late
FINAL = (3.0, 6.0, 10.0)  # what the kept card's match chance is worth: early, late, the final turns
EQUAL = 1.0  # what Test Access Codes is worth (in Suitcase Numbers ruled out)
PETALS = 1.0  # what a number named by Picking Petals is worth
COVER = 0.5  # how much of a kept hand's worth is that some card of it matches (the rest: the best card)
PLAIN = 3.2  # a Guard on another number, while spots are spare
TIGHT = (1.2, 2.2)  # a Guard on another number in a spot the unguarded numbers of its Code may still want: early, late
THREAT = 3.5  # a Guard on a number of its own Code not yet guarded
WIN = (1.0, 3.0, 6.0)  # what the estimated chance of winning is worth: early, late, the final turns
TOUCH = 0.5  # the chance an attempt on a face-down Guard succeeds
LEADS = (0.15, 0.3, 0.45)  # how much a Guard more is worth at the count
LASTQ = 1.0  # with no card left to draw: what the match chance an answer adds among the cards kept is worth (x FINAL)
SPOT = 0.6  # what a Suitcase Number ruled out by Shine Spotlights' answers is worth (times INFO)
MEMORY = True  # remember the faces seen in the opponent's hand across a mix (memory.py)
WINDOW = True  # REACT only when the attacked Guard would fall (a failed attempt keeps it anyway: keep the card)
SHIELD = 0.0  # a Switch Places that guards an unguarded number of its Code with the discard pile's top
BLOCK = 0.0  # how much the chance that a number lies under a face-down Guard of theirs lowers its match chance
KILL = 1.8  # an Assassin against a Guard of theirs
TUCK = 2.0  # Extra Protection deployed (half a Guard more, and one Guard safe)
VALUE = 2.0  # what the match chance a question's answer is expected to add is worth (times FINAL)


def _best(ws: list[int], numbers: set[int]) -> float:
    """The best chance a card of these numbers has of being in the Code of a Suitcase in ws (uniform)."""
    if not ws:
        return 0.0
    have = set(ws)  # n is in the Code of s exactly when s is in the Code of n
    return max((len(have.intersection(code(n))) / len(ws) for n in numbers), default=0.0)


def _value_gain(ws: list[int], yes: set[int], held: set[int]) -> float:
    """How much a yes/no question (yes-set `yes`) raises the chance of holding a matching card: half for what any
    card could do, half for the cards held."""
    def value(w: list[int]) -> float:
        return 0.5 * _best(w, set(NUMBERS)) + 0.5 * _best(w, held)

    if not ws:
        return 0.0
    a = [s for s in ws if s in yes]
    b = [s for s in ws if s not in yes]
    return (len(a) * value(a) + len(b) * value(b)) / len(ws) - value(ws)


def _keep_gain(ws: dict[int, int], yes: set[int], held: set[int], blocked: set[int]) -> float:
    """How much a yes/no question (yes-set `yes`) raises the chance that the best of the cards held matches, the
    opponent's Suitcase weighted by the wheel (`blocked`: numbers on their face-up Guards, which never match): what
    an answer is worth when no card is left to draw and one of the held cards will be the Final Card."""
    total = sum(ws.values())
    cards = held - blocked
    if not total or not cards:
        return 0.0

    def best(part: dict[int, int]) -> float:  # the weight the best single card matches in this part of the wheel
        return max(sum(w for s, w in part.items() if n in code(s)) for n in cards)

    a = {s: w for s, w in ws.items() if s in yes}
    b = {s: w for s, w in ws.items() if s not in yes}
    return (best(a) + best(b) - best(ws)) / total


def _split_gain(ws: list[int], yes: set[int]) -> float:
    """Expected Suitcase Numbers ruled out by a yes/no question whose yes-set is `yes` (measured better than bits:
    benchmarks/classified_bots.py)."""
    if not ws:
        return 0.0
    a = sum(s in yes for s in ws)
    b = len(ws) - a
    return len(ws) - (a * a + b * b) / len(ws)


class DeductionBot:
    # the look-ahead (bots/lookahead.py): on the close calls of the last turns (the deck at EARLY cards or fewer,
    # LATE or more; the best CANDIDATES events scoring within MARGIN of the best), DEALS deals of the unseen faces,
    # each candidate played out to the end in every deal (the opponent as the random bot); the most wins decides,
    # the score breaks a tie. Off (DEALS 0), measured (docs/rules-classified.md "Bots"): mid-game with 8-16 deals
    # it did not pay; in the last turns (deck <= 2) with 48 deals 90.2 % against 90.0 % for the scores alone over
    # 4,000 games (within the noise, one seed worse) for 16 ms a decision (the slowest 0.5 s), and its play-outs
    # model the opponent as the random bot, which a person is not.
    DEALS = 0
    CANDIDATES = 3
    MARGIN = 1.0
    EARLY, LATE = 2, 0
    SURE = 0  # the play-outs overrule the best score only when they win more than this many deals more
    OPP = "random"  # the opponent's policy in the play-outs ("deduction": this bot's scores alone)

    def __init__(self, seed: int | None = None, deals: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.deals = self.DEALS if deals is None else deals
        self.looked = 0  # decisions the look-ahead made

    def __call__(self, view: CState, seat: int, legal: Sequence[Event]) -> Event:
        if len(legal) == 1:
            return legal[0]
        op = view.stack[-1]["op"] if view.stack else ""
        scorer = {"action": self._action, "window": self._window, "name": self._name, "pick": self._pick,
                  "choose": self._choose}.get(op)
        if scorer is None:
            return legal[self.rng.randrange(len(legal))]
        ctx = _Context(view, seat)
        scored = sorted(((scorer(ctx, ev) + self.rng.random() * 1e-6, i) for i, ev in enumerate(legal)),
                        reverse=True)
        if self.deals and op in ("action", "window") and self.EARLY >= len(view.deck) >= self.LATE:
            top: list[tuple[float, int]] = []
            seen: set[tuple] = set()
            for s, i in scored:  # the best few, one of each (the discards' order is not worth a play-out)
                key = tuple(sorted((k, str(v)) for k, v in legal[i].items() if k != "top"))
                if key not in seen and s >= scored[0][0] - self.MARGIN and len(top) < self.CANDIDATES:
                    seen.add(key)
                    top.append((s, i))
            if len(top) > 1:
                return legal[self._look(view, seat, legal, top)]
        return legal[scored[0][1]]

    def _look(self, view: CState, seat: int, legal: Sequence[Event], top: list[tuple[float, int]]) -> int:
        from adp2p.engine.classified.bots.lookahead import determinize, playout
        from adp2p.engine.classified.bots.random_bot import RandomBot

        self.looked += 1
        wins = dict.fromkeys((i for _, i in top), 0.0)
        for _ in range(self.deals):
            world = determinize(view, seat, self.rng)
            if world is None:
                break
            a, b, c = (self.rng.randrange(1 << 30) for _ in range(3))
            for _, i in top:  # every candidate in the same deal with the same randomness (a fair comparison)
                me = DeductionBot(a, deals=0)
                them: Any = RandomBot(b) if self.OPP == "random" else DeductionBot(b, deals=0)
                won = playout(world, legal[i], [me, them] if seat == 0 else [them, me], random.Random(c))
                wins[i] += 1.0 if won == [seat] else 0.5 if not won else 0.0
        best = max(top, key=lambda si: (wins[si[1]], si[0]))[1]
        return best if wins[best] > wins[top[0][1]] + self.SURE else top[0][1]

    # -- decisions ---------------------------------------------------------------------------------------

    def _choose(self, c: _Context, ev: Event) -> float:
        s = c.face(ev["suitcase"])
        rest = [c.face(h) for h in c.view.hands[c.seat] if h not in (ev["suitcase"], ev["encrypt"])]
        return sum(1.0 for f in rest if f and card(f).can_guard and f in code(s or 0)) + 0.1 * len(rest)

    def _window(self, c: _Context, ev: Event) -> float:
        """REACT (Extra Protection tucks the attacked Guard: the Guard kept, half a Guard more) or pass. The bot knows
        its own face-down Guard, so it knows whether an attempt on it fails anyway: then it passes and keeps the card
        (it may be its match, or Extra Protection for a Guard that would fall). Scoring the REACT as an action (the
        card given up, the action forgone, the Guard count) measured 0.3 % worse than this (docs/rules-classified.md
        "Bots")."""
        if ev["t"] == "pass":
            return 0.0
        g = c.view.stack[-1]["target"]
        attack = c.view.work.get("attack", {})
        f = c.face(g)
        falls = bool(attack.get("up")) or (f is not None and touch(attack.get("a", 0), f))
        if WINDOW and not falls:
            return -1.0
        return 1.5 if f in c.my_code else 1.0

    def _name(self, c: _Context, ev: Event) -> float:
        theirs = possible(c.view, c.seat, c.opp)  # (approximately) what the opponent can still think
        return 0.0 if ev["n"] in theirs else 1.0

    def _pick(self, c: _Context, ev: Event) -> float:
        f = c.face(ev["h"])
        return 1.0 if f is not None and f in c.wheel else 0.0

    def _action(self, c: _Context, ev: Event) -> float:
        h = ev["h"]
        keep = [x for x in c.view.hands[c.seat] if x != h]
        score = 0.0
        t = ev["t"]
        f = c.face(h) or 0
        threat = f in c.my_code and f not in c.my_guarded  # a card the opponent would match with
        if t == "encrypt":
            score += 1.2 if threat else 0.0  # out of the game: the opponent can never hold it
        elif t == "enlist" and ev["as"] == "guard":
            spare = c.spots_left - len({n for n in c.my_code - c.my_guarded if card(n).can_guard})
            score += THREAT if threat else (PLAIN if spare > 0 else TIGHT[c.late])
        elif t == "enlist":
            g = ev["target"]
            gf = c.face(g)
            score += KILL + (0.8 if gf is not None and gf in c.best_numbers else 0.0)
            if g not in c.view.up and g not in c.view.tucks:
                score -= 0.4  # an attempt may fail (and the defender learns nothing, the attacker sees a card)
            # the attacker orders the discards (003:38): on top the card worth taking back (Scavenge takes one of the
            # top three; Switch Places puts the top into a Guard spot: a number of its Code no Guard can hold)
            on_top = f if ev.get("top") == "assassin" else gf
            if on_top is not None:
                score += 0.01 * (c.match(on_top) + (1.0 if on_top in c.my_code - c.my_guarded else 0.0))
        elif t == "deploy":
            score += self._deploy(c, ev, keep)
            if ev.get("take") is not None:
                keep = [*keep, ev["take"]]
            if ev.get("drop") is not None:
                keep = [x for x in keep if x != ev["drop"]]
            if ev.get("mode") == "self":
                keep = [x for x in [*keep, ev["mine"]] if x != ev.get("drop")]
        chances = [*sorted((c.match(c.face(x)) for x in keep), reverse=True), 0.0, 0.0]
        react_kept = bool(c.view.guards[c.seat]) and any((f := c.face(x)) is not None and card(f).react for x in keep)
        cover = c.cover(keep) if not c.final else chances[0]  # before the last choice: any kept card may be it
        pm = COVER * cover + (1 - COVER) * chances[0]
        return score + c.final_weight * pm + WIN[c.stage] * c.win(pm, *self._counts(c, ev)) + (
            0.8 if react_kept and not c.late else 0.0)

    def _counts(self, c: _Context, ev: Event) -> tuple[float, float, set[int]]:
        """The Guard counts after ev (mine, theirs; an attempt on a face-down Guard as its chance) and the numbers
        my Guards then block."""
        mine, theirs = c.view.guard_count(c.seat), c.view.guard_count(c.opp)
        blocked = set(c.my_guarded)
        t = ev["t"]
        if t == "enlist" and ev["as"] == "guard":
            mine += 1
            blocked.add(c.face(ev["h"]))
        elif t == "enlist":
            g = ev["target"]
            loss = 0.5 if g in c.view.tucks else 1.0
            theirs -= loss if (g in c.view.up or g in c.view.tucks) else loss * TOUCH
        elif t == "deploy":
            ability = card(ev["card"]).ability
            if ability == "tuck":
                mine += 0.5
            elif ability == "switch" and ev["mode"] == "self":
                blocked.discard(c.face(ev["mine"]))
                blocked.add(ev["card"])
            elif ability == "switch":
                blocked.discard(c.face(ev["mine"]))
                if ev["mode"] == "swap":
                    blocked.add(c.face(ev["theirs"]))
                elif c.view.discard:
                    blocked.add(c.face(c.view.discard[-1]))
        return mine, theirs, blocked

    def _deploy(self, c: _Context, ev: Event, keep: list[int]) -> float:
        ability = card(ev["card"]).ability
        w = c.info_weight
        if ability in ("near", "code"):
            yes = {s for s in NUMBERS if (near(ev["n"], s) if ability == "near" else ev["n"] in code(s))}
            if not c.view.deck:  # nothing left to draw: the answer only picks among the cards kept
                return LASTQ * c.final_weight * _keep_gain(c.weights, yes, c.held(keep), c.their_up)
            return w * _split_gain(c.wheel, yes) + VALUE * c.final_weight * _value_gain(c.wheel, yes, c.held(keep))
        if ability == "wheel":
            f = c.face(ev["guard"])
            return w * _split_gain(c.wheel, {s for s in NUMBERS if f in code(s)}) - 0.3
        if ability == "equal":  # two of their cards seen, and one compared with the Suitcase
            return w * EQUAL
        if ability == "petals":  # they name one number (two with no Guard in play) that is not their Suitcase
            k = 2 if not any(c.view.guards) else 1
            return w * k * (len(c.wheel) - 1) / max(1, 8 - k) * PETALS
        if ability == "spotlights":
            # each Guard turned up asks whether its number is in their Code: the split, over what that number may be
            return w * SPOT * sum(c.guard_split(g) for g in ev["guards"])
        if ability == "tuck":
            return TUCK
        if ability == "scavenge":
            return 0.2
        if ability == "switch":
            if ev["mode"] == "swap":
                return 0.3
            if ev["mode"] == "discard" and c.view.discard:
                # the top of the discard pile into a Guard spot: the one way to guard a number of its Code that no
                # Guard can hold (003:50 "any card properly played to a Guard slot is treated as a Guard")
                top, mine = c.face(c.view.discard[-1]), c.face(ev["mine"])
                if SHIELD and top in c.my_code - c.my_guarded and mine not in c.my_code:
                    return SHIELD
            return -0.2
        return 0.0


class _Context:
    """What the bot works out once per decision."""

    def __init__(self, view: CState, seat: int) -> None:
        self.view, self.seat, self.opp = view, seat, opponent(seat)
        if MEMORY:
            self.remembered, pool = mixed_faces(view, self.opp, seat)
        else:
            self.remembered, pool = Counter(), set()
        self.weights = weights(view, self.opp, seat, self.remembered)
        self.wheel = sorted(self.weights)
        self.final = not view.deck
        mine = view.face(view.suitcase[seat], seat) if view.suitcase[seat] is not None else None  # type: ignore[arg-type]
        self.my_code = set(code(mine)) if mine else set()
        self.my_guarded = {view.face(g, seat) for g in view.guards[seat]}
        self.their_up = {f for g in view.guards[self.opp] if g in view.up and (f := view.face(g, seat)) is not None}
        self.spots_left = view.profile.guard_spots - len(view.guards[seat])
        self._match: dict[int, float] = {}
        left = len(view.deck)
        self.late = left < 4
        self.info_weight = INFO[0] if left >= 4 else INFO[1] if left >= 1 else 0.0
        self.final_weight = FINAL[0] if left >= 4 else FINAL[1] if left >= 1 else FINAL[2]
        self.stage = 0 if left >= 4 else 1 if left >= 1 else 2
        # the faces I have not seen, and the cards the opponent may end with (their hand and the deck)
        unseen = Counter(deck())
        for h in view.loc:
            f = self.face(h)
            if f is not None:
                unseen[f] -= 1
        unseen.subtract(self.remembered)
        self.unseen = unseen
        hand = [self.face(h) for h in view.hands[self.opp]]
        if pool and pool <= set(view.hands[self.opp]):  # the remembered faces are in their hand now
            left = list(self.remembered.elements())
            hand = [f if f is not None or h not in pool or not left else left.pop()
                    for h, f in zip(view.hands[self.opp], hand, strict=True)]
        self.theirs = [*hand, *(self.face(h) for h in view.deck)]
        chances = {n: self.match(n) for n in NUMBERS}
        top = max(chances.values())
        self.best_numbers = {n for n, v in chances.items() if v >= top - 1e-9 and v > 0}

    def opp_match(self, blocked: set[int]) -> float:
        """The chance the opponent's Final Card is a number of my Code that no Guard of mine blocks (their Final
        Card as any of their hand and the deck, uniformly: the opponent's plan is not modelled)."""
        bad = self.my_code - blocked
        total = sum(self.unseen.values())
        frac = sum(v for n, v in self.unseen.items() if n in bad) / total if total else 0.0
        if not self.theirs:
            return 0.0
        return sum((f in bad) if f is not None else frac for f in self.theirs) / len(self.theirs)

    def win(self, pm: float, mine: float, theirs: float, blocked: set[int]) -> float:
        """The chance of winning: my match alone, or the same match status and more Guards."""
        po = self.opp_match(blocked)
        lead = mine - theirs
        g = min(1.0, max(0.0, 0.5 + LEADS[self.stage] * lead - (0.25 if lead == 0 and self.stage == 2 else 0.0)))
        return pm * (1 - po) + (pm * po + (1 - pm) * (1 - po)) * g

    def guard_split(self, g: int) -> float:
        """The expected Suitcase Numbers ruled out by asking whether Guard g's number is in their Code (its face
        as known, else any number that can guard, as likely as its unseen copies)."""
        f = self.face(g)
        options = {f: 1} if f is not None else {n: self.unseen[n] for n in NUMBERS if card(n).can_guard
                                                and self.unseen[n] > 0}
        total = sum(options.values())
        if not total:
            return 0.0
        gains = (k * _split_gain(self.wheel, {s for s in NUMBERS if n in code(s)}) for n, k in options.items())
        return sum(gains) / total

    def cover(self, hs: list[int]) -> float:
        """The chance that some card of hs is a number of the opponent's Code (not on a face-up Guard of theirs)."""
        ns = {f for h in hs if (f := self.face(h)) is not None and self.match(f) > 0}
        total = sum(self.weights.values())
        return sum(w for s, w in self.weights.items() if ns & set(code(s))) / total if total else 0.0

    def held(self, hs: list[int]) -> set[int]:
        return {f for h in hs if (f := self.face(h)) is not None}

    def face(self, h: int) -> int | None:
        return self.view.face(h, self.seat)

    def match(self, n: int | None) -> float:
        if n is None:
            return 0.0
        if n not in self._match:
            m = chance_in(self.weights, self.view, self.opp, self.seat, n)
            self._match[n] = m * (1.0 - BLOCK * self.under_their_guards(n)) if m and BLOCK else m
        return self._match[n]

    def under_their_guards(self, n: int) -> float:
        """The chance that n lies under a face-down Guard of the opponent (which blocks it at the end as a face-up
        one does, 003:28): each such Guard any number that can guard, as likely as its unseen copies, less those
        the attempts on it ruled out (their "touch" answers)."""
        if not card(n).can_guard:
            return 0.0
        free = 1.0
        for g in self.view.guards[self.opp]:
            if g in self.view.up or self.face(g) is not None:
                continue
            said = [(item["question"]["a"], item["yes"]) for item in self.view.history if item.get("k") == "answer"
                    and item["question"].get("q") == "touch" and item["question"].get("g") == g]
            options = {m: self.unseen[m] for m in NUMBERS if card(m).can_guard and self.unseen[m] > 0
                       and all(touch(a, m) == yes for a, yes in said)}
            total = sum(options.values())
            if total:
                free *= 1.0 - options.get(n, 0) / total
        return 1.0 - free
