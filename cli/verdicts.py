"""The audit's verdict per player, in words: "honest", or each violation naming that player, from a peer's own fold
of the log (`Machine.audit_report`, the verdict proven during play, the seat an abandon named).

`player_verdicts` gives one `PlayerVerdict` per seat; the end screen puts its `short` word in the standings and its
`details` under them (access_denied/ending.py), the printed end a line per player (`audit_lines`). `ad-p2p audit` prints
the same per seat from the log file alone (p2p/audit.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adp2p.cli.words import msg
from adp2p.p2p.machine.finality import silence_suspends
from adp2p.p2p.violations import words as violation_words


@dataclass
class PlayerVerdict:
    name: str
    state: str  # "honest", "violation", "silent" (stopped answering, its secrets unrevealed), "unchecked", "unfinished"
    # (did not answer at a table of two before the game's end: the game is suspended, nobody named)
    details: list[str] = field(default_factory=list)  # each violation naming this player, in words

    def short(self, lang: str) -> str:
        """The one word for the standings: honest, VIOLATION (or n VIOLATIONS), silent, not checked."""
        if self.state == "violation" and len(self.details) > 1:
            return msg("audit.violations_n", lang, n=len(self.details))
        return msg(f"audit.{self.state}", lang)

    def line(self, lang: str) -> str:
        """The player's verdict as one line for the printed end (its violations each on its own line after it)."""
        head = msg("audit.player", lang, who=self.name, verdict=self.short(lang))
        return "\n".join([head, *(msg("audit.detail", lang, what=d) for d in self.details)])


def _words(v: Any, lang: str) -> str:
    """A violation in words: in English the rule and the machine's account; in another language the rule in that
    language (the English account stays in the log and in `ad-p2p audit`)."""
    where = msg("audit.entry", lang, seq=v.seq) if getattr(v, "seq", None) is not None else ""
    if lang == "en":
        return msg("audit.breach", lang, rule=v.rule, where=where, why=v.msg)
    return msg("audit.breach_words", lang, rule=violation_words(v.rule, lang), where=where)


def player_verdicts(m: Any, lang: str) -> list[PlayerVerdict]:
    """One verdict per seat of the machine `m` (a peer's fold after the game): with the audit's report, "honest" or
    its violations (and a cheat proven during play, once); without one (the game did not reach the audit), a cheat
    proven during play, the silent seat, and "not checked" for the others. [] without a machine."""
    if m is None:
        return []
    rep, proven, silent = getattr(m, "audit_report", None), getattr(m, "verdict", None), getattr(m, "abandoned", None)
    out = []
    for seat, name in enumerate(m.names):
        found = [v for v in (rep.violations if rep is not None else []) if v.seat == seat]
        if proven is not None and proven.seat == seat and not any(v.rule == proven.rule for v in found):
            found.insert(0, proven)
        details = [_words(v, lang) for v in found]
        if found:
            state = "violation"
        elif seat == silent:  # at two seats a silence before the end suspends the game: a claim, never a verdict
            state = "unfinished" if silence_suspends(len(m.names), _over(m)) else "silent"
        else:
            state = "honest" if rep is not None else "unchecked"
        out.append(PlayerVerdict(name, state, details))
    return out


def _over(m: Any) -> bool:
    st = getattr(m, "state", None)
    return bool(getattr(st, "over", False))


def unattributed(m: Any, lang: str) -> list[str]:
    """Violations the audit could not pin on a single player, as lines."""
    rep = getattr(m, "audit_report", None) if m is not None else None
    if rep is None:
        return []
    return [msg("audit.nobody", lang, what=_words(v, lang)) for v in rep.violations if v.seat is None]


def audit_lines(m: Any, lang: str) -> list[str]:
    """The verdict per player for the printed end: a line per player, each violation under its player."""
    return [*(v.line(lang) for v in player_verdicts(m, lang)), *unattributed(m, lang)]
