"""`ad-p2p play`'s pieces of Access Denied (cli/play_game.py's `PlayGame`): its profile, your seat (the full screen,
the line prompt or the page), its bots' options, its final screen."""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.play_game import PlayGame


def play_game(args: argparse.Namespace, seed: int) -> PlayGame:
    """Access Denied's pieces: its profile, the full screen or the line prompt (cli/access_denied/), its bots."""
    from adp2p.cli.access_denied.profile import profile_of
    from adp2p.cli.access_denied.seat import final_screen, human_chooser, watching_chooser
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
