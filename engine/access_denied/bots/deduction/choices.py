"""The other decisions: the password, the start of a turn, discards, draws, Spam gifts and reaction windows.

One part of `DeductionBot` (engine/access_denied/bots/deduction/bot.py): its methods work on its shared state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from adp2p.engine.access_denied.bots.deduction.common import (
    CODE_COUNT,
    STATIC_PLAY,
    Event,
)
from adp2p.engine.access_denied.catalog import OPER, ROOT, card
from adp2p.engine.access_denied.options import parts
from adp2p.engine.access_denied.rules import goal_count
from adp2p.engine.access_denied.state import GameState


class ChoicesPart:
    """The other decisions."""

    def _decide(self, st: GameState, kind: str, info: dict[str, Any], options: list[Event]) -> Event | None:
        if kind == "password":
            return self._password(st, options)
        if kind == "turn_start":
            return self._turn_start(st, options)
        if kind in ("free", "actions"):
            return self._act(st, options, free=kind == "free")
        if kind == "discard":
            return self._discard(st, options)
        if kind == "draw":
            return self._draw(st, options)
        if kind == "window":
            return self._window(st, info, options)
        if kind == "trade_reply":
            return self._trade_reply(st, info, options)
        if kind == "nsa_take":
            return max(options, key=lambda ev: self.card_value(st, ev["card"]))
        if kind == "hs_give":
            weakest = min(st.others(self.seat), key=lambda q: (self._threat(st, q), q))
            best = None
            for ev in options:
                score = -self.card_value(st, ev["card"]) + (1.0 if ev["q"] == weakest else 0.0)
                if best is None or score > best[0]:
                    best = (score, ev)
            return best[1] if best else None
        if kind == "fdic_give":
            return min(options, key=lambda ev: sum(self.card_value(st, h) for h in ev["cards"]))
        if kind == "spam_give":
            return self._spam_give(st, options)
        return None

    def _password(self, st: GameState, options: Sequence[Event]) -> Event | None:
        p = self.seat
        known = [h for h in st.hands[p] if st.face(h, p) is not None]
        hand = {h: card(st.faces[h]) for h in known}
        hand_codes = {c.code for c in hand.values()}
        wanted = {c.password_code for c in hand.values() if c.password_code is not None}
        # each card's terms once (the same sums in the same order as card by card per option)
        rare = {h: (13 - CODE_COUNT[c.code]) * 0.35 for h, c in hand.items()}
        kept = {h: STATIC_PLAY.get(c.effect, 0.0) + (2.0 if c.is_upgrade else 0.0) for h, c in hand.items()}
        best = None
        for ev in options:
            if ev["t"] != "password":
                continue
            hs = ev["cards"]
            cs = [hand[h] for h in hs]
            score = sum(rare[h] for h in hs)
            score -= sum(kept[h] for h in hs)
            score += sum(2.0 for c in cs if c.code in wanted)
            score += sum(1.5 for c in cs if c.is_harmful)
            # keep a variety of codes in hand for probing
            rest = hand_codes - {c.code for c in cs}
            score += 0.2 * len(rest)
            score += self.rng.random() * 0.01
            if best is None or score > best[0]:
                best = (score, ev)
        return best[1] if best else None

    def _turn_start(self, st: GameState, options: list[Event]) -> Event | None:
        p = self.seat
        kinds = {ev["t"]: ev for ev in options}
        if "gov_draw" in kinds and st.discard:
            top = st.discard[-1]
            f = st.face(top, p)
            if f is not None and not card(f).is_harmful:
                return kinds["gov_draw"]
        if "news_skip" in kinds and len(st.hands[p]) <= 1:
            return kinds["news_skip"]
        return kinds.get("begin")

    def _discard(self, st: GameState, options: Sequence[Event]) -> Event | None:
        value = self._hand_values(st)
        best: tuple[float, Callable[[], Event]] | None = None  # in order: the first best card set wins
        for events, n, kind, data in parts(options):
            if kind is not None:
                if kind.t != "discard":
                    events = [kind.make(data, i) for i in range(n)]
                else:  # a family of card sets: scored unbuilt, the best one built
                    scores = [-sum(value[h] for h in hs) for hs in data[1]]
                    top = max(scores)
                    if best is None or top > best[0]:
                        best = (top, partial(kind.make, data, scores.index(top)))
                    continue
            for ev in events:  # type: ignore[union-attr]
                if ev["t"] == "discard":
                    score = -sum(value[h] for h in ev["cards"])
                    if best is None or score > best[0]:
                        best = (score, partial(dict, ev))
        return best[1]() if best else None

    def _draw(self, st: GameState, options: list[Event]) -> Event | None:
        for eff in ("draw_six", "draw_three_more"):
            for ev in options:
                if ev["t"] == "play" and card(ev["face"]).effect == eff:
                    return ev
        draws = [ev for ev in options if ev["t"] == "draw"]
        if not draws:
            return None
        bank = [ev for ev in draws if ev.get("bank")]
        if bank:
            return bank[0]
        return max(draws, key=lambda ev: ev["n"])

    def _trade_reply(self, st: GameState, info: dict[str, Any], options: Sequence[Event]) -> Event | None:
        """Accept every offer (the card comes free), giving back the set of cards worth most to give: each card's
        worth to keep (cards the hand limit will discard anyway count little) against what it does to the offerer
        (a harmful card hurts them, any other helps them, the leader most). In practice: the harmful cards held,
        else nothing. Each family of card sets is scored unbuilt; the first best reply wins."""
        q = info.get("offer_by")
        vals = self._effective_values(st)
        lead = 1.5 if q is not None and q == self._leader(st) else 1.0
        gain: dict[int, float] = {}
        for h in st.hands[self.seat]:
            f = st.face(h, self.seat)
            harmful = f is not None and card(f).is_harmful
            gain[h] = -vals[h] + (1.0 * lead if harmful else -0.5 * lead)
        best: tuple[float, Callable[[], Event]] | None = None
        for events, n, kind, data in parts(options):
            if kind is not None and kind.t == "trade_reply":
                scores = [sum(gain[h] for h in hs) for hs in data[1]]
                top = max(scores)
                if best is None or top > best[0]:
                    best = (top, partial(kind.make, data, scores.index(top)))
                continue
            for ev in events if kind is None else [kind.make(data, i) for i in range(n)]:  # type: ignore[union-attr]
                if ev["t"] == "trade_reply" and ev.get("accept"):
                    score = sum(gain[h] for h in ev["cards"])
                    if best is None or score > best[0]:
                        best = (score, partial(dict, ev))
        return best[1]() if best else None

    def _spam_give(self, st: GameState, options: list[Event]) -> Event | None:
        for ev in options:
            if len(ev["cards"]) == 1:
                f = st.face(ev["cards"][0], self.seat)
                if f is not None and card(f).is_harmful:
                    return ev
        for ev in options:
            if not ev["cards"]:
                return ev
        return None

    def _window(self, st: GameState, info: dict[str, Any], options: list[Event]) -> Event | None:
        p = self.seat
        kind = info.get("window")
        ctx = info.get("ctx", {})
        plays = [ev for ev in options if ev["t"] == "play"]
        pass_ev = next((ev for ev in options if ev["t"] == "pass"), None)
        if not plays:
            return pass_ev
        by_eff: dict[str, Event] = {}
        for ev in plays:
            by_eff.setdefault(card(ev["face"]).effect, ev)
        if kind == "attempt":
            a, s, level = ctx.get("p"), ctx.get("s"), ctx.get("level", 1)
            if "firewall" in by_eff and st.controller[s] == p:
                from adp2p.engine.access_denied.flow import answer_truth

                truth = answer_truth(st, s, ctx.get("cards", []), p)
                if truth is not None and all(truth) and (level >= OPER or a == self._leader(st)):
                    return by_eff["firewall"]
            if "route_trace" in by_eff and a != p:
                close = goal_count(st, a) + 1 >= st.profile.goal and self._counts(st, s)
                if level == ROOT and (close or a == self._leader(st)):
                    return by_eff["route_trace"]
                if st.controller[s] == p:
                    from adp2p.engine.access_denied.flow import answer_truth

                    truth = answer_truth(st, s, ctx.get("cards", []), p)
                    if truth is not None and all(truth) and level >= OPER:
                        return by_eff["route_trace"]
            if "wiretap" in by_eff and a != p and self._target_weight(st, s) and self.cl.remaining(s) > 1:
                return by_eff["wiretap"]
        elif kind == "card":
            face = ctx.get("face")
            by = ctx.get("p")
            if face is not None and by != p:
                pc = card(face)
                harm = self._harm_to_me(st, pc, ctx)
                if "mocking_bird" in by_eff:
                    return by_eff["mocking_bird"]
                if pc.is_virus and harm > 0:
                    for eff in ("counter_virus", "anti_virus"):
                        if eff in by_eff:
                            return by_eff[eff]
                if "cancelbot" in by_eff and (harm >= 2.0 or (by == self._leader(st) and self._benefit(st, pc) >= 3.0)):
                    return by_eff["cancelbot"]
        elif kind == "lose_cards":
            if "backup" in by_eff and ctx.get("victim") == p and len(st.hands[p]) >= 3:
                return by_eff["backup"]
        elif kind == "lose_actions":
            if "press_pass" in by_eff and ctx.get("victim") == p:
                return by_eff["press_pass"]
        elif kind == "end":
            ev = by_eff.get("copybot")
            if ev is not None and st.discard:
                f = st.face(st.discard[-1], p)
                if f is not None and not card(f).is_harmful:
                    mine = self.card_value(st, ev["card"])
                    theirs = STATIC_PLAY.get(card(f).effect, 0.0) + (2.0 if card(f).is_upgrade else 0.0)
                    if theirs > mine + 0.5:
                        return ev
        return pass_ev
