"""What the player is told, in its language: the account of the game, what it was shown privately, cheating found, how
the game ended, the outcome.

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

from typing import Any

from adp2p.p2p.machine import Machine
from adp2p.p2p.notices import notice
from adp2p.p2p.peer.common import (
    _names,
    log,
)
from adp2p.p2p.protocol import Kind
from adp2p.p2p.violations import words as violation_words


class WordsPart:
    """What the player is told, in its language."""

    def _say_verdict(self) -> None:
        m = self.machine
        if m is None or m.verdict is None or self.ended:
            return
        if self._verdict_said:  # every proven cheat names its cheater: a later verdict naming another seat is told too
            told = self._seats_told or {m.verdict.seat}
            for _, accuser, v in m.evidence_seen:
                if v.seat not in told:
                    told.add(v.seat)
                    proof = notice("proof_by", self.cfg.lang, who=self._who(accuser))
                    why = v.msg if self.cfg.lang == "en" else violation_words(v.rule, self.cfg.lang)
                    self.tell("cheating", who=self._who(v.seat), why=why, proof=proof)
            self._seats_told = told
            return
        self._verdict_said = True
        v = m.verdict
        accuser = next((a for seq, a, w in m.evidence_seen if w is v), None)
        lang = self.cfg.lang
        proof = notice("proof_by", lang, who=self._who(accuser)) if accuser is not None else ""
        who = self._who(v.seat) if v.seat is not None else notice("nobody_named", lang)
        why = v.msg  # in English the machine's own account; in another language the rule in its words and the entry
        if lang != "en":
            why = violation_words(v.rule, lang) + (notice("at_entry", lang, seq=v.seq) if v.seq is not None else "")
        self.tell("cheating", who=who, why=why, proof=proof)
        self.tell("stops")

    def _progress_line(self, duty: Any) -> None:
        """One line when setup moves on (keys, shuffle steps, the deal), so nobody wonders what is going on."""
        m = self.machine
        assert m is not None
        key = (duty.kind, duty.seat if duty.kind in (Kind.SHUFFLE,) else -1)
        if key == self._last_progress:
            return
        self._last_progress = key
        if duty.kind == Kind.JOIN and duty.seat == 0:
            self.tell("setup_keys")
        elif duty.kind == Kind.SHUFFLE:
            if duty.seat == m.seat:
                self.tell("shuffling_you", k=duty.seat + 1, n=m.n)
            else:
                self.tell("shuffling", who=m.names[duty.seat], k=duty.seat + 1, n=m.n)
        elif duty.kind == Kind.SHARES and not m.game.started(m.state) and not self._dealt_said:
            self._dealt_said = True
            self.tell("dealing")

    def _detail(self, why: object) -> str:
        """The technical account of a fault (an exception's words) for the player: as it is in English; in another
        language "details in the log", the account going to the log (it is English)."""
        if self.cfg.lang == "en":
            return str(why)
        log.info("detail: %s", why)
        return notice("see_log", self.cfg.lang)

    def tell(self, what: str, /, **args: Any) -> None:
        """Tell the player one notice (p2p/notices.py) in its language."""
        self.say(notice(what, self.cfg.lang, **args))

    def _result_words(self, line: str) -> str:
        """The outcome line in the player's language where the game simply ended (else the line as it is)."""
        m = self.machine
        if self.cfg.lang == "en" or m is None or not m.state.over or m.verdict is not None:
            return line
        res = m.game.result(m.state)
        if res.reason is None or line != _names(m.result_line(), m.names):
            return line
        who = ", ".join(m.names[w] for w in m.standing_winners())
        return notice("result", self.cfg.lang, who=who, why=m.game.narrate(res.reason, self.cfg.lang, m.names))

    def _who(self, seat: int | None, lang: str | None = None) -> str:
        m, lang = self.machine, lang or self.cfg.lang
        if seat is None or m is None:
            return notice("someone", lang)
        return notice("who", lang, name=m.names[seat], seat=seat + 1, key=m.ids[seat].fingerprint())

    def _end(self, what: str, **args: Any) -> None:
        """The game ends here for us, and why: `ended` in English (the outcome), `ended_words` in the player's
        language (an argument may be a function of the language)."""
        def words(lang: str) -> str:
            return notice(what, lang, **{k: v(lang) if callable(v) else v for k, v in args.items()})

        self.ended, self.ended_words = words("en"), words(self.cfg.lang)

    def _finish(self) -> None:
        m, store = self.machine, self.store
        assert m is not None and store is not None
        o = self.outcome
        o.entries = len(store)
        o.head = store.head_id
        if m.verdict is not None:  # every proven cheat names its cheater: the first verdict, then any other
            said = [m.verdict]
            for _, _, v in m.evidence_seen:
                if all(v.seat != w.seat for w in said):
                    said.append(v)
            o.verdict = "; ".join(
                f"{self._who(v.seat) if v.seat is not None else 'no single seat'}: {v.rule}: {v.msg}" for v in said
            )
        if self.ended:
            o.line = o.said = self.ended
            said = self.ended_words or self.ended
            if m.state.over:  # results are final: the game was won before the stall (but for a seat named)
                o.winners = [m.names[w] for w in m.standing_winners()]
                reached = _names(m.result_line(), m.names)
                o.line = notice("then", "en", result=reached, ended=self.ended)
                o.said = notice("then", self.cfg.lang, result=self._result_words(reached), ended=said)
                if m.abandoned is not None:
                    o.violations = [
                        f"{self._who(m.abandoned)}: unchecked: did not reveal its secrets, so what they would prove "
                        "(its shuffles, its answers, its password) is unchecked"
                    ]
            else:
                o.said = said
            self.tell("game_over_log", line=o.said, log=o.log_path)
            return
        o.winners = [m.names[w] for w in m.standing_winners()]  # once the audit ran: a seat it names wins nothing
        over = m.state.over  # results stand: a verdict after the game was over (on a secrets entry) keeps its result
        o.line = f"stopped by evidence: {o.verdict}" if o.verdict and not over else _names(m.result_line(), m.names)
        o.said = self._result_words(o.line)
        if m.verdict is not None and self.cfg.lang != "en":  # the rule in the player's words, not the English account
            o.said = notice("stopped_by", self.cfg.lang, what=self._violation_words(m.verdict))
            if over:
                res = m.game.result(m.state)
                who = ", ".join(m.names[w] for w in m.standing_winners())
                why = m.game.narrate(res.reason, self.cfg.lang, m.names) if res.reason is not None else ""
                o.said = notice("then", self.cfg.lang, result=notice("result", self.cfg.lang, who=who, why=why),
                                ended=o.said)
        rep = m.audit_report
        if rep is not None:
            o.audit_ok = rep.ok
            o.violations = [f"{self._who(v.seat)}: {v.rule}: {v.msg}" for v in rep.violations]
        self.tell("game_over", line=o.said)
        if o.audit_ok:
            apart = notice("apart", self.cfg.lang) if o.verdict else ""
            self.tell("audit_ok", apart=apart, checked=m.game.checked_words(self.cfg.lang), n=o.entries)
        elif o.audit_ok is False and rep is not None:
            told = o.violations if self.cfg.lang == "en" else [self._violation_words(v) for v in rep.violations]
            self.say(notice("audit_bad", self.cfg.lang) + "\n  " + "\n  ".join(told))
        self._tell_the_end(m, rep.faces if rep is not None else {})
        self.tell("log", log=o.log_path)

    def _violation_words(self, v: Any) -> str:
        """A verdict or violation in the player's language: who, the rule in words, the entry."""
        lang = self.cfg.lang
        who = self._who(v.seat) if v.seat is not None else notice("nobody_named", lang)
        at = notice("at_entry", lang, seq=v.seq) if v.seq is not None else ""
        return f"{who}: {violation_words(v.rule, lang)}{at}"

    def _tell_the_end(self, m: Machine, faces: dict[int, int]) -> None:
        """The game's lines at the end (Access Denied: standings and, once the audit has every face, every
        password)."""
        lines = m.game.end_lines(m.state, faces, m.names, self.cfg.lang)
        self.outcome.summary = lines
        for line in lines:
            self.say(line)

    def _show(self) -> None:
        m = self.machine
        if m is None:
            return
        hist = m.state.history
        for line in hist[self.shown :]:
            self.say("  " + m.game.narrate(line, self.cfg.lang, m.names))
        self.shown = len(hist)
        self._tell_learned(m)

    def _tell_learned(self, m: Machine) -> None:
        """Tell the player the faces it has just been shown privately (its new cards, the cards handed to it as
        controller, password codes shown to it): once each; public faces are in the account and on the board."""
        st = m.state
        new = [h for h in st.faces if h not in self.told_faces]
        if not new:
            return
        self.told_faces.update(new)
        for line in m.game.learned_lines(st, new, m.seat, self.cfg.lang):
            self.private_notes.append(line)  # (the prompt shows them again by the next decision)
            self.say(line)
