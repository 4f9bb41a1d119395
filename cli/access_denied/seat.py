"""A seat of Access Denied in this terminal: a person at the game screen and prompt (`human_chooser`), or a bot
watched on the full screen (`watching_chooser`, `play --watch`); each is the table's chooser (`TablePeer`), with the
end of a networked game on its full screen (`end_screen`) and the final board in lines (`final_screen`)."""

from __future__ import annotations

import io
import os
import sys
from typing import Any

from adp2p.cli.access_denied.ending import end_on_screen, layout_for, password_lines
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.prompt import DEFAULT_REACT_SECONDS, Prompt
from adp2p.cli.play_end import audit_line, named_violations
from adp2p.cli.tui.fullscreen import FullScreen, wanted
from adp2p.cli.verdicts import player_verdicts


def human_chooser(lang: str, react_seconds: float | None = None, react_to: str = "mine", ui: str = "auto") -> Any:
    """A person at this terminal: the game screen and prompt (prompt.py), full screen or lines (`ui`, see
    `--ui`). `choose.attach(peer)` lets the screen keep the checklist from the peer's event log, show the
    players' names, and (full screen) follow the game while nothing is asked; `choose.say` is where the peer's
    lines go (the log pane, or printed)."""
    react = DEFAULT_REACT_SECONDS if react_seconds is None else react_seconds
    full = FullScreen(layout_for, lang) if wanted(ui, sys.stdin, sys.stdout) else None
    prompt = Prompt(lang, sys.stdout, sys.stdin, react_seconds=react, react_to=react_to, ui=full)
    state: dict[str, Any] = {}

    def choose(st: Any, seat: int, options: list[dict[str, Any]]) -> dict[str, Any]:
        return prompt.ask(st, seat, options)

    def attach(peer: Any) -> None:
        prompt.events = lambda: list(peer.machine.events) if peer.machine is not None else []
        prompt._names = lambda: list(peer.machine.names) if peer.machine is not None else None
        prompt.notes = lambda: peer.private_notes
        state["peer"] = peer

    def say(line: str) -> None:
        prompt.log(line)
        peer = state.get("peer")
        m = peer.machine if peer is not None else None
        if m is not None and m.seat is not None and prompt.ui is not None:
            prompt.watch(m.game.view(m.state, m.seat), m.seat)

    choose.prompt = prompt  # type: ignore[attr-defined]
    choose.say = say if full is not None else (lambda line: print(line, flush=True))  # type: ignore[attr-defined]
    choose.attach = attach  # type: ignore[attr-defined]
    choose.end_screen = end_screen(prompt)  # type: ignore[attr-defined]
    return choose


def watching_chooser(bot: Any, lang: str, ui: str = "auto") -> Any:
    """`play --watch`: a bot plays the seat. In a terminal the full screen follows the game as it goes (the board, the
    seat's hand and password, the log; Ctrl-C leaves); piped, or with `--ui lines`, the bot as it is (the account
    printed line by line)."""
    if not wanted(ui, sys.stdin, sys.stdout):
        return bot
    prompt = Prompt(lang, sys.stdout, sys.stdin, ui=FullScreen(layout_for, lang))
    state: dict[str, Any] = {}

    def choose(st: Any, seat: int, options: list[dict[str, Any]]) -> dict[str, Any]:
        prompt.watch(st, seat)
        return bot(st, seat, options)  # type: ignore[no-any-return]

    def attach(peer: Any) -> None:
        prompt._names = lambda: list(peer.machine.names) if peer.machine is not None else None
        state["peer"] = peer

    def say(line: str) -> None:
        prompt.log(line)
        peer = state.get("peer")
        m = peer.machine if peer is not None else None
        if m is not None and m.seat is not None:
            prompt.watch(m.game.view(m.state, m.seat), m.seat)

    choose.prompt = prompt  # type: ignore[attr-defined]
    choose.say = say  # type: ignore[attr-defined]
    choose.attach = attach  # type: ignore[attr-defined]
    choose.end_screen = end_screen(prompt)  # type: ignore[attr-defined]
    return choose


def final_screen(peer: Any, lang: str, out: Any) -> None:
    """The end screen of a network game, from this peer's own fold of the log."""
    m = peer.machine
    if m is None:
        return
    seat = m.seat
    st = m.state if seat is None else m.game.view(m.state, seat)
    Prompt(lang, out, io.StringIO(), events=lambda: list(m.events), names=list(m.names)).show(st, seat)


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


def end_screen(prompt: Any) -> Any:
    """The end of a networked game on this prompt's full screen: (peer, outcome, lang, ask, key, fields) -> the line
    typed (cli/cmd_play.py, cli/cmd_join.py call it when the seat's prompt has a full screen)."""

    def end(peer: Any, outcome: Any, lang: str, ask: bool, key: str = "rematch_ask", fields: Any = None) -> str:
        return end_on_full_screen(peer, prompt, outcome, lang, ask, key, fields)

    return end
