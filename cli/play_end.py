"""The end of a networked game (`play` and `join`), from this peer's own fold of the log: the audit's verdict (the
summary, then "honest" or the violations of each player: cli/verdicts.py), in lines or for a game's end screen (the
final board and the end on the full screen are the game's: e.g. cli/access_denied/ending.py)."""

from __future__ import annotations

from typing import Any

from adp2p.cli.verdicts import player_verdicts, unattributed
from adp2p.cli.words import msg


def audit_line(outcome: Any, lang: str, named: list[str] | None = None, game: Any = None) -> str:
    """The verdict: a cheat proven during play first, then the audit's summary (what was checked: `game`'s words, by
    default Access Denied's) and its violations (`named`: the violations in words naming their player, else the
    outcome's own list)."""
    first = [msg("verdict", lang, verdict=outcome.verdict)] if outcome.verdict else []
    if outcome.audit_ok:
        ok = msg("audit_ok", lang, checked=checked_words(game, lang))
        return "\n".join([*first, ok + " " + msg("audit_entries", lang, n=outcome.entries)])
    if outcome.audit_ok is False:
        if named is not None:
            return "\n".join([*first, msg("audit_bad", lang), *named])
        return "\n".join([*first, "\n  ".join([msg("audit_bad", lang), *outcome.violations])])
    return "\n".join([*first, msg("audit_none", lang, line=outcome.said or outcome.line)])


def checked_words(game: Any, lang: str) -> str:
    """What a clean audit of `game` checked, in words (a game's own: p2p/game.py `checked_words`)."""
    if game is None:
        from adp2p.p2p.game import get_game

        game = get_game()
    return str(game.checked_words(lang, brief=True))


def printed_audit(peer: Any, outcome: Any, lang: str) -> list[str]:
    """The verdict for the printed end: the summary, then every player's verdict on a line of its own (honest, or
    its violations under it)."""
    m = peer.machine
    if m is None:
        return [audit_line(outcome, lang)]
    per_player = [v.line(lang) for v in player_verdicts(m, lang)]
    return [audit_line(outcome, lang, named=[], game=m.game), *per_player, *unattributed(m, lang)]


def named_violations(m: Any, lang: str) -> list[str]:
    """Every violation in words, naming its player (the end screen's lines under the summary)."""
    named = [msg("audit.named", lang, who=v.name, what=d) for v in player_verdicts(m, lang) for d in v.details]
    return [*named, *unattributed(m, lang)]
