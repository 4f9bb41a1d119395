"""Learning: the checklist kept from every view, the answers to its own attempts and to wiretapped ones (read from the
account's keys, never its words), code-requiring upgrades.

One part of `DeductionBot` (engine/access_denied/bots/deduction/bot.py): its methods work on its shared state."""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.bots.deduction.common import (
    NO_ANSWER,
    TRADES,
    Event,
)
from adp2p.engine.access_denied.catalog import card
from adp2p.engine.access_denied.state import GameState


class LearningPart:
    """Learning."""

    def _learn(self, st: GameState) -> None:
        """Everything this view teaches: the outcomes, then the whole view (when there is a choice to make)."""
        assert self.cl is not None
        self.cl.sync(st)
        self._take_in_outcomes(st)
        self._take_in_upgrades(st)

    def _take_in_outcomes(self, st: GameState) -> None:
        """The answers to its own attempt and to wiretapped ones. Taken in at every call: where the handed cards went
        is read from where they are now, which the next moves may change."""
        cl = self.cl
        assert cl is not None
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

    def _take_in_upgrades(self, st: GameState) -> None:
        """Upgrades needing a password code, played by a player with one sector and a password unchanged since the
        last look (`_learn` syncs the checklist first, so `password_new` says what changed since that look)."""
        cl = self.cl
        assert cl is not None
        p = self.seat
        seen = self._upg_seen
        for q, ups in enumerate(st.upgrades):
            if q == p or not ups or seen.issuperset(ups):  # no upgrade it has not looked at (most calls)
                continue
            own = st.sectors_of(q)
            for h in ups:
                if h in seen:
                    continue
                seen.add(h)
                code = card(st.faces[h]).password_code
                if code is not None and len(own) == 1 and not cl.password_new(own[0]):
                    cl.note(own[0], code, True)

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
