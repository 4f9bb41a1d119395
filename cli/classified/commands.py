"""Classified Information's parts of the commands (cli/checks.py, cmd_sim.py, cmd_cards.py, cmd_play.py,
cmd_join.py call them through cli/clients.py): its profiles and bots, the checks of `play`, `join` and `sim`, and
its `sim`, `cards`, `rules`, offline game and a person's seat.

The table's part (games/classified/) registers the game by its entry-point line (pyproject.toml); `cards`, `rules`,
`sim` and `play --offline` work with the engine alone, `play` and `join` over the network need the table part (an
install without it says so)."""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.checks import given
from adp2p.cli.usage import UsageError
from adp2p.engine.classified.bots import STRATEGIES
from adp2p.engine.classified.profiles import PROFILES, get_profile

DEFAULT_RULES = "standard"
DEFAULT_BOT = "deduction"
__all__ = ["DEFAULT_BOT", "DEFAULT_RULES", "PROFILES", "STRATEGIES", "check", "profile_of"]
SIM_PLAYERS_DEFAULT, PLAY_BOTS_DEFAULT = 4, 3  # cli/main.py's defaults for the other games: read as "two players"
NOT_HERE = ("react", "react_seconds", "stalemate", "goal", "round_limit")  # options of the other games


def _profile(args: argparse.Namespace) -> Any:
    args.rules = args.rules or DEFAULT_RULES
    try:
        return get_profile(args.rules)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc} (--game classified)") from None


def profile_of(args: argparse.Namespace) -> Any:
    return _profile(args)


def table_ready() -> bool:
    """Whether the table's part of the game is installed (its registry line, games/classified/)."""
    from adp2p.p2p.game import UnknownGame, get_game

    try:
        get_game("classified")
    except (UnknownGame, ImportError):
        return False
    return True


def _refuse_others(args: argparse.Namespace) -> None:
    for dest in NOT_HERE:
        if given(args, dest) or (dest == "goal" and getattr(args, "goal", None) is not None):
            raise UsageError(f"--{dest.replace('_', '-')} is another game's; --game classified does not take it")


def check(cmd: str, args: argparse.Namespace) -> None:
    """`play`, `join` and `sim` of Classified Information: two players, its profiles (standard, four-card), its bots
    (default deduction)."""
    _refuse_others(args)
    _profile(args)
    if cmd in ("play", "join"):
        # the table has no stalemate, goal or round limit (its genesis names none; the other games' defaults aren't)
        args.stalemate, args.goal, args.round_limit = 0, None, None
    if cmd == "sim":
        args.bots = args.bots or [DEFAULT_BOT]
        bad = [b for b in args.bots if b not in STRATEGIES]
        if bad:
            raise UsageError(f"--bots: {bad[0]!r} is not a Classified Information bot; choose from "
                             f"{', '.join(STRATEGIES)}")
        if len(args.bots) > 2:
            raise UsageError("--bots: Classified Information is for two players: one or two strategies")
        if args.players not in (2, SIM_PLAYERS_DEFAULT):  # (the default is the other games'; not `given`)
            raise UsageError(f"--players: Classified Information is for 2 players, not {args.players}")
        args.players = 2
    elif cmd == "play":
        if args.bots not in (1, PLAY_BOTS_DEFAULT):  # (the default is the other games'; not `given`)
            raise UsageError(f"--bots: Classified Information is for two players: one bot, not {args.bots}")
        args.bots = 1
        args.strategy = args.strategy or DEFAULT_BOT
        if args.strategy not in STRATEGIES:
            raise UsageError(f"--strategy: {args.strategy!r} is not a Classified Information bot; choose "
                             f"{' or '.join(STRATEGIES)}")
        if not args.offline and not table_ready():
            raise UsageError("--game classified has no table part installed yet (games/classified/): play it with "
                             "--offline")
    elif cmd == "join":
        if not table_ready():
            raise UsageError("--game classified has no table part installed yet (games/classified/)")
        if args.bot is not None and args.bot not in STRATEGIES:
            raise UsageError(f"--game classified: --bot {' or '.join(STRATEGIES)}, or no --bot for your own seat")
        if args.players is None:
            args.players = 2
        if args.players != 2:
            raise UsageError(f"--players: Classified Information is for 2 players, not {args.players}")


def sim(args: argparse.Namespace) -> int:
    from adp2p.cli.classified.sim import run_sim

    return run_sim(args)


def cards(args: argparse.Namespace) -> int:
    from adp2p.cli.classified.reference import run_reference

    return run_reference(args, "cards")


def rules(args: argparse.Namespace) -> int:
    from adp2p.cli.classified.reference import run_reference

    return run_reference(args, "rules")


def offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> tuple[int, bool | None]:
    """`play --game classified --offline`: the engine alone (cli/classified/local.py), you against one bot."""
    from adp2p.cli.classified.play import run_offline

    return run_offline(args, out, inp)


def seat(args: argparse.Namespace) -> Any:
    """A person's seat at a Classified Information `join` table: its page and menu in the terminal."""
    from adp2p.cli.classified.seat import table_chooser

    return table_chooser(args.lang)
