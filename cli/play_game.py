"""What `ad-p2p play` needs to know of the game it plays (`PlayGame`), and Access Denied's pieces.

`cmd_play.run_networked` is one for every game: it starts our peer and the bot peers and prints the end. What differs
per game is here, as a value: the profile and its words, your seat's chooser (a person, or a bot with --watch), the
game's options for each bot peer, and the final screen. Hacker's pieces are in cli/hacker/play.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayGame:
    name: str  # the genesis's game (p2p/game.py)
    profile: Any  # the game's rule profile: `name`, `min_players`, `max_players`
    rules_words: str  # the profile in a few words, in the player's language (the intro line)
    stalemate: int | None  # the table's stalemate setting (None: the game has none)
    bot_args: list[str]  # the game's options for each bot peer's `join`
    seat: Callable[[], Any]  # your seat's chooser (`TablePeer`'s `choose`, with `say`/`attach`/`prompt` if it has them)
    final_screen: Callable[[Any, Any, Any], None]  # (peer, outcome, out): the final board, printed in lines
    watch_think: float = 0.6  # --watch at a terminal: the bots' longest pause, so a person can follow each move


def access_denied(args: argparse.Namespace, seed: int) -> PlayGame:
    """Access Denied's pieces: its profile, the full screen or the line prompt (cli/tui/), its bots."""
    from adp2p.cli.checks import profile_of
    from adp2p.cli.cmd_join import human_chooser, watching_chooser
    from adp2p.cli.play_end import final_screen
    from adp2p.engine.access_denied.bots import make_bot

    prof = profile_of(args)
    ui = getattr(args, "ui", "auto")

    def seat() -> Any:
        from adp2p.cli import web

        if web.wanted(args) and not args.watch:  # the page in the browser (cli/web/)
            return web.web_seat(args, "access-denied")
        if args.watch:
            return watching_chooser(make_bot(args.strategy, seed), args.lang, ui)
        return human_chooser(args.lang, getattr(args, "react_seconds", None), getattr(args, "react", None) or "mine",
                             ui)

    return PlayGame(
        name="access-denied",
        profile=prof,
        rules_words=prof.describe(args.lang),
        stalemate=args.stalemate or None,
        bot_args=["--rules", args.rules, "--stalemate", str(args.stalemate)],
        seat=seat,
        final_screen=lambda peer, _outcome, out: final_screen(peer, args.lang, out),
    )


def play_game(args: argparse.Namespace, seed: int) -> PlayGame:
    """The pieces of the game `args.game` names (checked by cli/checks.py)."""
    if getattr(args, "game", "access-denied") == "hacker":
        from adp2p.cli.hacker.play import hacker

        return hacker(args, seed)
    return access_denied(args, seed)
