"""The end of a networked game (`play` and `join`), from this peer's own fold of the log: the final board as lines,
the audit's verdict (the summary, then "honest" or the violations of each player: cli/verdicts.py), the end screen's
facts, and the end on the full screen with its question (cli/access_denied/ending.py draws it)."""

from __future__ import annotations

import io
import os
from typing import Any

from adp2p.cli.access_denied.ending import end_on_screen, password_lines
from adp2p.cli.access_denied.prompt import Prompt
from adp2p.cli.verdicts import player_verdicts, unattributed
from adp2p.cli.words import msg


def final_screen(peer: Any, lang: str, out: Any) -> None:
    """The end screen of a network game, from this peer's own fold of the log."""
    m = peer.machine
    if m is None:
        return
    seat = m.seat
    st = m.state if seat is None else m.game.view(m.state, seat)
    Prompt(lang, out, io.StringIO(), events=lambda: list(m.events), names=list(m.names)).show(st, seat)


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


def end_lines(peer: Any, outcome: Any, lang: str) -> list[str]:
    """What the end screen says under the standings (which give each player's verdict): every password (the audit's
    faces), the verdict's summary with every violation naming its player, how to replay the game from its log."""
    m = peer.machine
    rep = getattr(m, "audit_report", None) if m is not None else None
    faces = rep.faces if rep is not None else {}
    passwords = password_lines(m.state, faces, list(m.names), lang) if m is not None else []
    if not passwords:
        passwords = [msg("end.no_passwords", lang)]
    command = os.environ.get("ADP2P_COMMAND") or "ad-p2p"  # as the player can type it (see paths.resume_command)
    log = [msg("end.replay", lang, command=command, path=outcome.log_path)] if outcome.log_path else []
    summary = audit_line(outcome, lang, named=named_violations(m, lang) if m is not None else None,
                         game=m.game if m is not None else None)
    return [*passwords, summary, *log]


def end_on_full_screen(
    peer: Any, prompt: Any, outcome: Any, lang: str, ask: bool, key: str = "rematch_ask", fields: Any = None
) -> str:
    """The end of a networked game (`play` or `join`) on the full screen, from this peer's own fold of the log; `ask`:
    the rematch question `key` (a complete game), else Enter leaves. Returns the line typed."""
    m = peer.machine
    if m is None:
        return ""
    st = m.state if m.seat is None else m.game.view(m.state, m.seat)
    question = msg(key, lang, **(fields or {})) if ask else msg("end_leave", lang)
    audit = player_verdicts(m, lang)
    return end_on_screen(prompt, st, m.seat, end_lines(peer, outcome, lang), question, audit)
