"""Acting: the free attempt and the actions, each attempt scored by expected value and information, each card play by
its effect.

One part of `DeductionBot` (engine/access_denied/bots/deduction/bot.py): its methods work on its shared state."""

from __future__ import annotations

from collections.abc import Sequence

from adp2p.engine.access_denied.bots.deduction.common import (
    HINDER,
    STATIC_PLAY,
    UPGRADE_VALUE,
    Event,
)
from adp2p.engine.access_denied.catalog import OPER, ROOT, USER, card
from adp2p.engine.access_denied.checklist import evidence_odds, evidence_p_in
from adp2p.engine.access_denied.options import parts
from adp2p.engine.access_denied.rules import bonus_of, requirement_of
from adp2p.engine.access_denied.state import GameState

# What every attempt on one sector shares within one decision (a plain tuple: one is made per sector and decision):
# (gain: the value of the next level there, weight: how much learning the password is worth (`_target_weight`),
#  card_loss: per hand card, the expected value lost by handing it over (None: an uncontrolled sector),
#  code_bit: per hand card, its code as a bit, by_codes: per code set (bits), the score before the cards' loss
#  (None: no password fits), evidence: the checklist's for the sector)
AttemptTerms = tuple[float, float, dict[int, float] | None, dict[int, int], dict[int, float | None], tuple[int, int]]


class ActingPart:
    """Acting."""

    def _act(self, st: GameState, options: Sequence[Event], *, free: bool) -> Event | None:
        p = self.seat
        vals = self._effective_values(st)
        best: tuple[float, Event] | None = None
        for events, n, kind, data in parts(options):  # in order: the first best event wins
            if kind is not None:
                if kind.t == "attempt":  # scored by card set, only the best one built
                    _, s, combos = data
                    score, i = self._best_attempt(st, s, combos, vals)
                    if best is None or score > best[0]:
                        best = (score, kind.make(data, i))
                    continue
                if kind.t == "trade":  # never scored (the loop below skips them too)
                    continue
                events = [kind.make(data, i) for i in range(n)]
            for ev in events:  # type: ignore[union-attr]
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
        return self._best_attempt(st, ev["s"], (ev["cards"],), vals)[0]

    def _best_attempt(
        self, st: GameState, s: int, combos: Sequence[Sequence[int]], vals: dict[int, float]
    ) -> tuple[float, int]:
        """The best score of the attempts on s with these card sets, and the first card set that has it."""
        terms = self._sector_terms.get(s)
        if terms is None:
            terms = self._sector_terms[s] = self._attempt_terms(st, s, vals)
        gain, weight, card_loss, code_bit, by_codes, evidence = terms
        top = 0.0
        at = -1
        if card_loss is None:  # an uncontrolled sector: the cards are discarded
            vget = vals.get
            for i, hs in enumerate(combos):
                score = gain - sum(vget(h, 1.0) for h in hs) - 0.2
                if at < 0 or score > top:
                    top, at = score, i
            return top, at
        for i, hs in enumerate(combos):
            need = 0  # the codes as a bit set
            loss = 0.0
            for h in hs:
                need |= code_bit[h]
                loss += card_loss[h]
            if need in by_codes:  # attempts with the same codes have the same odds
                base = by_codes[need]
            else:
                odds = evidence_odds(evidence, need)
                base = by_codes[need] = None if odds is None else odds.all_in * gain + 0.9 * weight * odds.bits
            score = -5.0 if base is None else base - loss
            if at < 0 or score > top:  # the first best (as max)
                top, at = score, i
        return top, at

    def _attempt_terms(self, st: GameState, s: int, vals: dict[int, float]) -> AttemptTerms:
        """What every attempt on sector s shares, once per decision."""
        p = self.seat
        gain = self.level_value(st, s, st.access[p][s] + 1)
        weight = self._target_weight(st, s)
        if st.controller[s] is None:
            return (gain, weight, None, {}, {}, (0, 0))
        cl = self.cl
        assert cl is not None
        if not self._code_of:  # the hand's codes, their bits and values, once per decision
            self._code_of = {h: card(st.faces[h]).code for h in st.hands[p]}
            self._code_bit = {h: 1 << c for h, c in self._code_of.items()}
            self._code_val = [(h, c, vals.get(h, 1.0)) for h, c in self._code_of.items()]
        evidence = cl.evidence(s)
        p_in = evidence_p_in(evidence)
        card_loss = {h: (1.0 - p_in[c]) * v for h, c, v in self._code_val}
        # the score before the cards' loss, per code set: a function of the evidence, the gain and the weight only,
        # so kept across decisions for as long as these are the same
        key = (evidence, gain, weight)
        by_codes = self._bases.get(key)
        if by_codes is None:
            by_codes = self._bases[key] = {}
        return (gain, weight, card_loss, self._code_bit, by_codes, evidence)

    def _play_score(self, st: GameState, ev: Event, vals: dict[int, float]) -> float:
        p = self.seat
        h = ev["card"]
        c = card(ev["face"])
        eff = c.effect
        keep = vals[h] if h in vals else self.card_value(st, h)
        if c.is_harmful:
            keep = 0.0
        if "backdoor" in ev:
            keep += vals.get(ev["backdoor"], 1.0)
        q = ev.get("q")
        s = ev.get("s")
        lead_bonus = 1.5 if q is not None and q == self._leader(st) else 0.0  # (the leader only asked for then)
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
