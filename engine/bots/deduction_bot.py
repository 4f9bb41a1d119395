"""The deduction bot: keeps the password checklist from everything its seat sees and plays with purpose.

It is called with successive views of one seat of one game and keeps state across calls:

* the checklist (`engine.checklist.Checklist`), synced with every view (shown codes, its own passwords,
  Scramble Password), plus the answers to its own attempts (where the handed cards went: returned =
  code in, kept = code out; nothing when Firewall or Route Trace intervened), Wiretap evidence (the
  faces it was shown and the public answer) and code-requiring upgrades played by single-sector players;
* attempts are scored by expected value: the chance all codes are in (uniform over the passwords still
  possible), the value of the level gained (Root on controlled sectors most of all, a win above all),
  the information the answer gives (bits) and the expected value of the cards the controller keeps;
  cards the hand limit will discard anyway count for little (so uncontrolled sectors are bought with
  surplus cards when it pays);
* cards are played by a value table per effect (access gains, Guru, upgrades, information, attacks
  aimed at the leader), reactions when they pay (Firewall on a succeeding attempt on its sector, Route
  Trace / CancelBot against the leader, Backup, Press Pass, Anti-Virus, Counter-Virus, Mocking Bird,
  Wiretap for information);
* the password is built from rare codes, from cards it least wants to play, and with the codes its
  upgrades need; discards drop the cards least useful against the passwords it is attacking.
"""

from __future__ import annotations

import random
from typing import Any

from adp2p.engine.api import pending
from adp2p.engine.catalog import OPER, ROOT, USER, card
from adp2p.engine.checklist import Checklist
from adp2p.engine.rules import bonus_of, goal_count, hand_limit, requirement_of
from adp2p.engine.state import GameState

Event = dict[str, Any]
CODE_COUNT = (8, 9, 10, 11, 12, 13)  # cards per code A..F

UPGRADE_VALUE = {
    "extra_action": 5.0,
    "extra_draw": 3.0,
    "hand_limit_plus2": 3.5,
    "extra_free_attempt": 3.0,
    "virus_immunity": 1.0,
}
NO_ANSWER = {"firewall", "route_trace", "route_trace_ends_turn"}  # an attempt that ends without an answer
TRADES = {"trade_offer", "trade_declined", "trade"}
HINDER = {"no_actions_next", "no_attempts_next", "no_draw_next", "sol", "beta_site"}
STATIC_PLAY = {  # rough worth of holding a card for its play (not its code)
    "guru": 5.0,
    "gain_user": 3.0,
    "bank_error": 3.0,
    "firewall": 2.5,
    "route_trace": 1.5,
    "backup": 1.5,
    "cancelbot": 1.5,
    "wiretap": 1.0,
    "mocking_bird": 1.0,
    "show_random_code": 1.5,
    "anti_virus": 1.0,
    "counter_virus": 1.0,
    "press_pass": 1.0,
    "olfactopeg": 2.0,
    "nsa": 2.0,
    "human_services": 1.5,
    "draw_six": 2.5,
    "draw_three_more": 1.5,
    "remove_marker": 1.0,
    "multi_virus": 1.5,
    "discard_all_others": 1.5,
    "take_upgrade": 1.0,
    "copybot": 1.0,
}


class DeductionBot:
    name = "deduction"
    raise_errors = False  # tests set this to see a strategy bug instead of the safe fallback

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.cl: Checklist | None = None
        self._attempt: dict[str, Any] | None = None  # own attempt awaiting its outcome
        self._taps: list[dict[str, Any]] = []  # wiretapped attempts awaiting their answer
        self._upg_seen: set[int] = set()
        self._pw_seen: dict[int, tuple[int, ...]] = {}
        self._cv: dict[int, float] = {}  # card values, for one decision
        self._lead: int | None = None  # the leader, for one decision

    # ================================================================================================
    # entry point

    def __call__(self, st: GameState, seat: int, options: list[Event]) -> Event:
        if not options:
            raise ValueError(f"seat {seat} was asked to decide with no legal events")
        if self.cl is None:
            self.seat = seat
            self.cl = Checklist(seat)
        self._learn(st)
        if len(options) == 1:
            return options[0]
        self._cv = {}
        self._lead = None
        d = pending(st)
        kind = d.kind if d is not None else ""
        try:
            ev = self._decide(st, kind, d.info if d is not None else {}, options)
        except Exception:  # pragma: no cover - a bot never breaks a game; fall back to a safe choice
            if self.raise_errors:
                raise
            ev = None
        if ev is None or ev not in options:
            ev = self._fallback(options)
        if ev["t"] == "attempt":
            self._note_attempt(st, ev)
        elif ev["t"] == "play" and card(ev["face"]).effect == "wiretap":
            self._note_wiretap(st)
        return ev

    def _fallback(self, options: list[Event]) -> Event:
        for t in ("pass", "done", "begin"):
            for ev in options:
                if ev["t"] == t:
                    return ev
        for ev in options:
            if ev["t"] == "trade_reply" and not ev.get("accept"):
                return ev
        return options[0]

    # ================================================================================================
    # learning from views

    def _learn(self, st: GameState) -> None:
        cl = self.cl
        assert cl is not None
        cl.sync(st)
        p = self.seat
        if self._attempt is not None:
            a = self._attempt
            if not any(st.loc.get(h) == ("att",) for h in a["cards"]):
                self._attempt = None
                new = st.history[a["hist"] :]
                if (
                    a["ctrl"] is not None
                    and not any(h.key in NO_ANSWER for h in new)
                    and tuple(sorted(st.passwords.get(a["s"], []))) == a["pw"]
                ):
                    if st.access[p][a["s"]] >= a["level"]:
                        for c in a["codes"]:
                            cl.note(a["s"], c, True)
                    else:
                        for h, c in zip(a["cards"], a["codes"], strict=True):
                            where = st.loc.get(h)
                            if where == ("hand", p):
                                cl.note(a["s"], c, True)
                            elif where == ("hand", a["ctrl"]):
                                cl.note(a["s"], c, False)
        if self._taps:
            keep = []
            for w in self._taps:
                done = self._resolve_tap(st, w)
                if not done:
                    keep.append(w)
            self._taps = keep
        # upgrades needing a password code, played by a player with one sector and an unchanged password
        owned: dict[int, list[int]] = {}
        for s, q in enumerate(st.controller):
            if q is not None:
                owned.setdefault(q, []).append(s)
        for q in range(st.n):
            if q == p:
                continue
            own = owned.get(q, [])
            for s in own:
                hs = tuple(sorted(st.passwords.get(s, [])))
                changed = self._pw_seen.get(s) != hs
                self._pw_seen[s] = hs
                for h in st.upgrades[q]:
                    if h in self._upg_seen:
                        continue
                    self._upg_seen.add(h)
                    code = card(st.faces[h]).password_code
                    if code is not None and len(own) == 1 and not changed:
                        cl.note(s, code, True)
            if not own:
                self._upg_seen.update(st.upgrades[q])

    def _resolve_tap(self, st: GameState, w: dict[str, Any]) -> bool:
        new = st.history[w["hist"] :]
        faces = [st.face(h, self.seat) for h in w["cards"]]
        w["codes"] = [None if f is None else card(f).code for f in faces]
        for said in new:
            if said.key in NO_ANSWER:
                return True
            if said.key == "grants":
                for c in w["codes"]:
                    if c is not None:
                        self.cl.note(w["s"], c, True)  # type: ignore[union-attr]
                return True
            if said.key == "denied":
                kept = said.args["n"]
                if any(x.key in TRADES for x in new):
                    return True
                ctrl_side = [st.loc.get(h) == ("hand", w["ctrl"]) for h in w["cards"]]
                att_side = [st.loc.get(h) == ("hand", w["p"]) for h in w["cards"]]
                if sum(ctrl_side) == kept and sum(att_side) == len(w["cards"]) - kept:
                    for c, out in zip(w["codes"], ctrl_side, strict=True):
                        if c is not None:
                            self.cl.note(w["s"], c, not out)  # type: ignore[union-attr]
                return True
        return not any(st.loc.get(h) == ("att",) for h in w["cards"]) and len(new) > 40

    def _note_attempt(self, st: GameState, ev: Event) -> None:
        s = ev["s"]
        codes = [card(st.faces[h]).code for h in ev["cards"]]
        self._attempt = {
            "s": s,
            "cards": list(ev["cards"]),
            "codes": codes,
            "level": st.access[self.seat][s] + 1,
            "ctrl": st.controller[s],
            "hist": len(st.history),
            "pw": tuple(sorted(st.passwords.get(s, []))),
        }

    def _note_wiretap(self, st: GameState) -> None:
        task = st.stack[-1]
        ctx = st.ctx.get(task.get("ctx"))
        if not ctx or ctx.get("kind") != "attempt":
            return
        self._taps.append(
            {
                "p": ctx["p"],
                "s": ctx["s"],
                "ctrl": st.controller[ctx["s"]],
                "cards": list(ctx["cards"]),
                "codes": None,
                "hist": len(st.history),
            }
        )

    # ================================================================================================
    # valuations

    def _counts(self, st: GameState, s: int) -> bool:
        return st.controller[s] is not None or st.profile.counts_uncontrolled(st.n)

    def level_value(self, st: GameState, s: int, level: int) -> float:
        prof = st.profile
        p = self.seat
        counts = self._counts(st, s)
        if level == USER:
            v = 2.5 if prof.hand_limit == "accesses" else 0.3
            return v + (1.5 if counts else 0.0)
        if level == OPER:
            v = 2.0 if prof.draws == "oper_root" else 0.3
            return v + (2.5 if counts else 0.0)
        v = (2.0 if prof.actions == "roots" else 0.0) + 1.0
        if counts:
            if goal_count(st, p) + 1 >= prof.goal:
                return 1000.0
            v += 7.0
        return v

    def _leader(self, st: GameState) -> int:
        """The most threatening other player (computed once per decision)."""
        if self._lead is None:
            self._lead = max(st.others(self.seat), key=lambda q: (self._threat(st, q), -q))
        return self._lead

    def _threat(self, st: GameState, q: int) -> float:
        t = 10.0 * goal_count(st, q)
        for s in range(6):
            if self._counts(st, s) and st.controller[s] != q:
                t += st.access[q][s]
        return t

    def _target_weight(self, st: GameState, s: int) -> float:
        """How much this seat cares about learning sector s's password."""
        p = self.seat
        ctrl = st.controller[s]
        if ctrl is None or ctrl == p or st.access[p][s] >= ROOT:
            return 0.0
        return 0.6 + 0.3 * st.access[p][s]

    def card_value(self, st: GameState, h: int) -> float:
        """Worth of keeping hand card h (codes for attempts, the card's own play)."""
        v = self._cv.get(h)
        if v is not None:
            return v
        f = st.face(h, self.seat)
        if f is None:
            return 1.0
        c = card(f)
        if c.is_harmful:
            v = -2.0
        else:
            code_use = 0.4
            cl = self.cl
            assert cl is not None
            for s in cl.sectors():
                w = self._target_weight(st, s)
                if w:
                    code_use = max(code_use, w * (0.3 + 1.7 * cl.p_in(s, c.code)))
            play = STATIC_PLAY.get(c.effect, 0.0)
            if c.is_upgrade:
                play = UPGRADE_VALUE.get(c.effect, 1.0) * 0.7
            r = requirement_of(c, st)
            if r is not None and st.access[self.seat][r[0]] < r[1]:
                play *= 0.4
            v = max(code_use, 0.5 * code_use + play * 0.6)
        self._cv[h] = v
        return v

    def _effective_values(self, st: GameState) -> dict[int, float]:
        """Card values with the cards the hand limit will discard anyway counted as nearly worthless."""
        p = self.seat
        hand = st.hands[p]
        vals = {h: self.card_value(st, h) for h in hand}
        limit = hand_limit(st, p)
        surplus = len(hand) - limit - 1  # one card will be used this turn at least
        if surplus > 0:
            for h in sorted(hand, key=lambda x: vals[x])[:surplus]:
                vals[h] = min(vals[h], 0.15)
        return vals

    # ================================================================================================
    # decisions

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
            for ev in options:
                if ev.get("accept") and not ev["cards"]:
                    return ev
            return None
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

    def _password(self, st: GameState, options: list[Event]) -> Event | None:
        p = self.seat
        hand_codes = {card(st.faces[h]).code for h in st.hands[p] if st.face(h, p) is not None}
        wanted = {
            card(st.faces[h]).password_code
            for h in st.hands[p]
            if st.face(h, p) is not None and card(st.faces[h]).password_code is not None
        }
        best = None
        for ev in options:
            if ev["t"] != "password":
                continue
            cs = [card(st.faces[h]) for h in ev["cards"]]
            score = sum((13 - CODE_COUNT[c.code]) * 0.35 for c in cs)
            score -= sum(STATIC_PLAY.get(c.effect, 0.0) + (2.0 if c.is_upgrade else 0.0) for c in cs)
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

    # -- the free attempt and the actions ------------------------------------------------------------

    def _act(self, st: GameState, options: list[Event], *, free: bool) -> Event | None:
        p = self.seat
        vals = self._effective_values(st)
        best: tuple[float, Event] | None = None
        for ev in options:
            t = ev["t"]
            if t == "attempt":
                score = self._attempt_score(st, ev, vals)
            elif t == "univ":
                score = self.level_value(st, ev["s"], USER) + (
                    1.0 if st.controller[ev["s"]] not in (None, p) else 0.0
                )
            elif t == "play":
                score = self._play_score(st, ev, vals)
            elif t == "tele_action":
                score = 1.5 - sum(vals.get(h, 1.0) for h in ev["cards"])
            else:
                continue
            if best is None or score > best[0]:
                best = (score, ev)
        if best is not None and best[0] > 0.05:
            return best[1]
        for ev in options:
            if ev["t"] == "done":
                return ev
        return None

    def _attempt_score(self, st: GameState, ev: Event, vals: dict[int, float]) -> float:
        p = self.seat
        s = ev["s"]
        hs = ev["cards"]
        level = st.access[p][s] + 1
        gain = self.level_value(st, s, level)
        if st.controller[s] is None:
            return gain - sum(vals.get(h, 1.0) for h in hs) - 0.2
        codes = [card(st.faces[h]).code for h in hs]
        cl = self.cl
        assert cl is not None
        odds = cl.attempt_odds(s, codes)
        if odds is None:
            return -5.0
        p_ok, bits, p_in = odds
        loss = 0.0
        for h, c in zip(hs, codes, strict=True):
            loss += (1.0 - p_in[c]) * vals.get(h, 1.0)
        return p_ok * gain + 0.9 * self._target_weight(st, s) * bits - loss

    def _play_score(self, st: GameState, ev: Event, vals: dict[int, float]) -> float:
        p = self.seat
        h = ev["card"]
        c = card(ev["face"])
        eff = c.effect
        keep = vals.get(h, self.card_value(st, h))
        if c.is_harmful:
            keep = 0.0
        if "backdoor" in ev:
            keep += vals.get(ev["backdoor"], 1.0)
        leader = self._leader(st)
        q = ev.get("q")
        s = ev.get("s")
        lead_bonus = 1.5 if q is not None and q == leader else 0.0
        v = 0.0
        if eff == "gain_user":
            s = s if s is not None else c.param_sector
            v = self.level_value(st, s, USER) + (1.0 if st.controller[s] not in (None, p) else 0.0)
        elif eff == "guru":
            v = self.level_value(st, s, st.access[p][s] + 1) + 0.5
        elif c.is_upgrade:
            v = UPGRADE_VALUE.get(eff, 1.0)
            if eff == "hand_limit_plus2" and st.profile.hand_limit != "accesses":
                v = 2.0
        elif eff == "show_random_code":
            v = 2.0 * self._target_weight(st, s) * (1.0 if self.cl.remaining(s) > 1 else 0.0) + 0.3
        elif eff in ("packet_sniffer", "logic_bomb"):
            others_oper = sum(1 for x in st.others(p) if st.access[x][s] >= OPER)
            v = 0.6 + 0.4 * others_oper
        elif eff == "satan":
            v = 2.5 if any(bonus_of(st, x, s) for x in st.others(p)) and not bonus_of(st, p, s) else -1.0
        elif eff == "retro_virus":
            v = 1.8 if st.controller[s] == p else 0.3
        elif eff == "remove_sector_card":
            u = ev["u"]
            uc = card(st.faces[u])
            owner = st.card_owner.get(u)
            where = st.loc[u][1]
            if owner == p:
                v = -1.0
            elif uc.effect == "satan":
                v = 2.0 if st.access[p][where] == ROOT else 0.2
            else:
                v = 1.5 if st.access[p][where] >= USER or st.controller[where] == p else 0.3
        elif eff == "remove_marker":
            lvl = st.access[q][s]
            v = 0.8 + lvl + lead_bonus if self._counts(st, s) else 0.2
        elif eff == "bank_error":
            v = 4.0
        elif eff == "olfactopeg":
            v = 0.8 * sum(1 for x in st.others(p) if st.hands[x])
        elif eff == "ignore_limit":
            v = 0.8
        elif eff == "multi_virus":
            v = sum(0.45 * len(st.hands[x]) for x in st.others(p) if st.access[x][s] >= USER)
        elif eff == "discard_all_others":
            v = sum(0.45 * len(st.hands[x]) for x in st.others(p) if st.access[x][2] >= USER)
        elif eff == "discard3_others":
            v = sum(0.4 * min(3, len(st.hands[x])) for x in st.others(p) if st.access[x][2] >= USER)
        elif eff == "discard3_all":
            v = sum(0.4 * min(3, len(st.hands[x])) for x in st.others(p) if st.access[x][0] >= USER)
            if st.access[p][0] >= USER:
                v -= sum(sorted(vals.values())[:3]) if vals else 0.0
        elif eff == "discard3_target":
            v = 0.4 * min(3, len(st.hands[q])) + lead_bonus
        elif eff == "nsa":
            v = 2.0 + 0.5 * lead_bonus if st.hands[q] else 0.3
        elif eff == "human_services":
            v = 1.8 + 0.5 * lead_bonus if st.hands[q] else 0.2
        elif eff == "fdic":
            v = 0.6 * ((len(st.hands[q]) + 1) // 2)
        elif eff == "take_upgrade":
            v = UPGRADE_VALUE.get(card(st.faces[ev["u"]]).effect, 1.0) * 0.8
        elif eff == "burnout":
            v = 2.5 + lead_bonus
        elif eff in HINDER:
            v = 0.9 + lead_bonus + 0.1 * self._threat(st, q) / 10.0
        elif eff == "lose_action_others":
            v = 0.5 * (st.n - 1)
        elif eff == "give_harmful":
            v = 2.5 + lead_bonus
        elif eff == "copybot":
            if st.discard:
                f = st.face(st.discard[-1], p)
                if f is not None and not card(f).is_harmful:
                    v = 1.0 + 0.8 * STATIC_PLAY.get(card(f).effect, 0.5)
        elif eff == "winzap":
            mine = st.access[p][2] >= USER
            v = (2.0 if mine else 0.0) - 0.8 * sum(1 for x in st.others(p) if st.access[x][2] >= USER)
        else:
            v = -1.0  # spam, scramble, no_etaxes, reactions out of place: keep
        # traps on the sector the card requires
        r = requirement_of(c, st)
        if r is not None and "backdoor" not in ev:
            for u in st.sector_cards.get(r[0], []):
                if st.card_owner.get(u) == p:
                    continue
                ue = card(st.faces[u]).effect
                if ue == "logic_bomb":
                    v -= sum(vals.values())
                elif ue == "packet_sniffer":
                    v -= 0.5
        return v - keep

    # -- discards and draws --------------------------------------------------------------------------

    def _discard(self, st: GameState, options: list[Event]) -> Event | None:
        best = None
        for ev in options:
            if ev["t"] != "discard":
                continue
            score = -sum(self.card_value(st, h) for h in ev["cards"])
            if best is None or score > best[0]:
                best = (score, ev)
        return best[1] if best else None

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

    # -- reaction windows ----------------------------------------------------------------------------

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
        leader = self._leader(st)
        if kind == "attempt":
            a, s, level = ctx.get("p"), ctx.get("s"), ctx.get("level", 1)
            if "firewall" in by_eff and st.controller[s] == p:
                from adp2p.engine.flow import answer_truth

                truth = answer_truth(st, s, ctx.get("cards", []), p)
                if truth is not None and all(truth) and (level >= OPER or a == leader):
                    return by_eff["firewall"]
            if "route_trace" in by_eff and a != p:
                close = goal_count(st, a) + 1 >= st.profile.goal and self._counts(st, s)
                if level == ROOT and (close or a == leader):
                    return by_eff["route_trace"]
                if st.controller[s] == p:
                    from adp2p.engine.flow import answer_truth

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
                if "cancelbot" in by_eff and (harm >= 2.0 or (by == leader and self._benefit(st, pc) >= 3.0)):
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

    def _harm_to_me(self, st: GameState, c: Any, ctx: dict[str, Any]) -> float:
        p = self.seat
        eff = c.effect
        if ctx.get("q") == p:
            return 2.5
        if eff == "multi_virus":
            return 0.5 * len(st.hands[p]) if st.access[p][ctx.get("s", 0)] >= USER else 0.0
        if eff in ("discard_all_others", "discard3_others"):
            return 0.5 * len(st.hands[p]) if st.access[p][2] >= USER else 0.0
        if eff == "discard3_all":
            return 1.5 if st.access[p][0] >= USER else 0.0
        if eff == "satan":
            return 3.0 if bonus_of(st, p, ctx.get("s", 0)) else 0.0
        if eff == "retro_virus":
            return 1.0
        if eff == "lose_action_others":
            return 1.0
        if eff == "remove_marker" and ctx.get("q") == p:
            return 3.0
        return 0.0

    def _benefit(self, st: GameState, c: Any) -> float:
        if c.effect in ("guru", "gain_user", "bank_error"):
            return 3.5
        if c.is_upgrade:
            return UPGRADE_VALUE.get(c.effect, 1.0)
        return 1.0
