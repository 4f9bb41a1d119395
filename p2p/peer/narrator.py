"""What the player is told, in its language: the account of the game, what it was shown privately, cheating found, how
the game ended, the outcome.

`Narrator` says lines (through the `say` function it is given) and remembers what it said; the fold it tells about is
an argument of each call (`m`: the peer's machine now), and so are the end's facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.p2p.machine import Machine
from adp2p.p2p.notices import notice, result_words
from adp2p.p2p.peer.common import Outcome, _names, log
from adp2p.p2p.protocol import Kind
from adp2p.p2p.violations import words as violation_words


class Narrator:
    """What the player is told, in its language, and what it was told already."""

    def __init__(self, lang: str, say: Callable[[str], None]) -> None:
        self.lang = lang
        self.say = say
        self.shown = 0  # history lines of the fold told
        self.told_faces: set[int] = set()  # handles whose face the player has been told (or that are public)
        self.private_notes: list[str] = []  # what the player was shown privately, as told (p2p/notices.py learned_*)
        self._last_progress: tuple[Any, int] | None = None
        self._dealt_said = False
        self._verdict_said = False
        self._seats_told: set[int | None] = set()  # seats a verdict named that the player was told of

    def say_verdict(self, m: Machine | None, ended: bool) -> None:
        """Tell the verdicts `m` holds (once each), unless the game ended for us otherwise (`ended`)."""
        if m is None or m.verdict is None or ended:
            return
        if self._verdict_said:  # every proven cheat names its cheater: a later verdict naming another seat is told too
            told = self._seats_told or {m.verdict.seat}
            for _, accuser, v in m.evidence_seen:
                if v.seat not in told:
                    told.add(v.seat)
                    proof = notice("proof_by", self.lang, who=self.who(m, accuser))
                    why = v.msg if self.lang == "en" else violation_words(v.rule, self.lang)
                    self.tell("cheating", who=self.who(m, v.seat), why=why, proof=proof)
            self._seats_told = told
            return
        self._verdict_said = True
        v = m.verdict
        accuser = next((a for seq, a, w in m.evidence_seen if w is v), None)
        lang = self.lang
        proof = notice("proof_by", lang, who=self.who(m, accuser)) if accuser is not None else ""
        who = self.who(m, v.seat) if v.seat is not None else notice("nobody_named", lang)
        why = v.msg  # in English the machine's own account; in another language the rule in its words and the entry
        if lang != "en":
            why = violation_words(v.rule, lang) + (notice("at_entry", lang, seq=v.seq) if v.seq is not None else "")
        self.tell("cheating", who=who, why=why, proof=proof)
        self.tell("stops")

    def progress_line(self, m: Machine, duty: Any) -> None:
        """One line when setup moves on (keys, shuffle steps, the deal), so nobody wonders what is going on."""
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

    def detail(self, why: object) -> str:
        """The technical account of a fault (an exception's words) for the player: as it is in English; in another
        language "details in the log", the account going to the log (it is English)."""
        if self.lang == "en":
            return str(why)
        log.info("detail: %s", why)
        return notice("see_log", self.lang)

    def tell(self, what: str, /, **args: Any) -> None:
        """Tell the player one notice (p2p/notices.py) in its language."""
        self.say(notice(what, self.lang, **args))

    def result_words(self, m: Machine | None, line: str) -> str:
        """The outcome line in the player's language where the game simply ended (else the line as it is)."""
        if self.lang == "en" or m is None or not m.state.over or m.verdict is not None:
            return line
        res = m.game.result(m.state)
        if res.reason is None or line != _names(m.result_line(), m.names):
            return line
        who = [m.names[w] for w in m.standing_winners()]
        return result_words(who, len(m.names), m.game.narrate(res.reason, self.lang, m.names), self.lang)

    def who(self, m: Machine | None, seat: int | None, lang: str | None = None) -> str:
        """How the player is told of the player at `seat` of `m` (name, seat, key)."""
        lang = lang or self.lang
        if seat is None or m is None:
            return notice("someone", lang)
        return notice("who", lang, name=m.names[seat], seat=seat + 1, key=m.ids[seat].fingerprint())

    def finish(self, m: Machine, o: Outcome, ended: str | None, ended_words: str | None) -> None:
        """The end, told, and written into the outcome `o` (the log's length and head are the caller's): `ended` is why
        the game ended for us in English (None: it simply ended), `ended_words` the same in the player's language."""
        if m.verdict is not None:  # every proven cheat names its cheater: the first verdict, then any other
            said = [m.verdict]
            for _, _, v in m.evidence_seen:
                if all(v.seat != w.seat for w in said):
                    said.append(v)
            o.verdict = "; ".join(
                f"{self.who(m, v.seat) if v.seat is not None else 'no single seat'}: {v.rule}: {v.msg}" for v in said
            )
        if ended:
            o.line = o.said = ended
            said = ended_words or ended
            if m.state.over:  # results are final: the game was won before the stall (but for a seat named)
                o.winners = [m.names[w] for w in m.standing_winners()]
                reached = _names(m.result_line(), m.names)
                o.line = notice("then", "en", result=reached, ended=ended)
                o.said = notice("then", self.lang, result=self.result_words(m, reached), ended=said)
                if m.abandoned is not None:
                    o.violations = [
                        f"{self.who(m, m.abandoned)}: unchecked: did not reveal its secrets, so what they would prove "
                        "(its shuffles, its answers, its password) is unchecked"
                    ]
            else:
                o.said = said
            self.tell("game_over_log", line=o.said, log=o.log_path)
            return
        o.winners = [m.names[w] for w in m.standing_winners()]  # once the audit ran: a seat it names wins nothing
        over = m.state.over  # results stand: a verdict after the game was over (on a secrets entry) keeps its result
        o.line = f"stopped by evidence: {o.verdict}" if o.verdict and not over else _names(m.result_line(), m.names)
        o.said = self.result_words(m, o.line)
        if m.verdict is not None and self.lang != "en":  # the rule in the player's words, not the English account
            o.said = notice("stopped_by", self.lang, what=self.violation_words(m, m.verdict))
            if over:
                res = m.game.result(m.state)
                who = [m.names[w] for w in m.standing_winners()]
                why = m.game.narrate(res.reason, self.lang, m.names) if res.reason is not None else ""
                o.said = notice("then", self.lang, result=result_words(who, len(m.names), why, self.lang),
                                ended=o.said)
        rep = m.audit_report
        if rep is not None:
            o.audit_ok = rep.ok
            o.violations = [f"{self.who(m, v.seat)}: {v.rule}: {v.msg}" for v in rep.violations]
        self.tell("game_over", line=o.said)
        if o.audit_ok:
            apart = notice("apart", self.lang) if o.verdict else ""
            self.tell("audit_ok", apart=apart, checked=m.game.checked_words(self.lang), n=o.entries)
        elif o.audit_ok is False and rep is not None:
            told = o.violations if self.lang == "en" else [self.violation_words(m, v) for v in rep.violations]
            self.say(notice("audit_bad", self.lang) + "\n  " + "\n  ".join(told))
        o.summary = self._tell_the_end(m, rep.faces if rep is not None else {})
        self.tell("log", log=o.log_path)

    def violation_words(self, m: Machine, v: Any) -> str:
        """A verdict or violation in the player's language: who, the rule in words, the entry."""
        lang = self.lang
        who = self.who(m, v.seat) if v.seat is not None else notice("nobody_named", lang)
        at = notice("at_entry", lang, seq=v.seq) if v.seq is not None else ""
        return f"{who}: {violation_words(v.rule, lang)}{at}"

    def _tell_the_end(self, m: Machine, faces: dict[int, int]) -> list[str]:
        """The game's lines at the end (Access Denied: standings and, once the audit has every face, every
        password), told and returned."""
        lines = m.game.end_lines(m.state, faces, m.names, self.lang)
        for line in lines:
            self.say(line)
        return lines

    def show(self, m: Machine | None) -> None:
        """The account of the game since the last call, then what the player was just shown privately."""
        if m is None:
            return
        hist = m.state.history
        for line in hist[self.shown :]:
            self.say("  " + m.game.narrate(line, self.lang, m.names))
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
        for line in m.game.learned_lines(st, new, m.seat, self.lang):
            self.private_notes.append(line)  # (the prompt shows them again by the next decision)
            self.say(line)
