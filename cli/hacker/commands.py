"""Hacker's parts of the commands (cli/checks.py, cmd_sim.py, cmd_cards.py, cmd_play.py, cmd_join.py call them through
cli/clients.py): its profiles and bots, the checks of `play`, `join` and `sim`, and its `sim`, `cards`, `rules`, offline
game and a person's seat."""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.checks import given, players_fit
from adp2p.cli.usage import UsageError
from adp2p.engine.hacker.bots import STRATEGIES
from adp2p.engine.hacker.profiles import PROFILES, get_profile

DEFAULT_RULES = "basic"
DEFAULT_BOT = "planner"
__all__ = ["DEFAULT_BOT", "DEFAULT_RULES", "PROFILES", "STRATEGIES", "check", "profile_of"]


def _hacker_profile(args: argparse.Namespace, where: str = "") -> Any:
    """Hacker's profile the options name (default basic), or one line saying why not."""
    args.rules = args.rules or "basic"
    try:
        return get_profile(args.rules, goal=args.goal, round_limit=args.round_limit)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}{where}") from None


def _hacker_table_rounds(limit: int | None) -> None:
    """A Hacker table's round limit: at most `MAX_ROUND_LIMIT` (its end-of-game secrets must fit one entry)."""
    from adp2p.games.hacker.game import MAX_ROUND_LIMIT  # (the table's part: not loaded to build the parser)

    if limit is not None and limit > MAX_ROUND_LIMIT:
        raise UsageError(f"--round-limit: a Hacker table plays at most {MAX_ROUND_LIMIT} rounds, not {limit}")


AD_ONLY_PLAY = ("react", "react_seconds", "stalemate")  # `play` options Hacker does not take (its seat: lines only)


def _check_hacker_play(args: argparse.Namespace) -> None:
    """`play --game hacker`: Hacker's profiles (default basic) and bots (default planner); an option only Access
    Denied takes is refused, not ignored."""
    for dest in AD_ONLY_PLAY:
        if given(args, dest):
            raise UsageError(f"--{dest.replace('_', '-')} is for Access Denied; --game hacker does not take it")
    if given(args, "ui") and args.ui == "full":
        raise UsageError("--ui full is Access Denied's screen; --game hacker's is a page of lines (--ui auto or lines)")
    args.strategy = args.strategy or "planner"
    if args.strategy not in STRATEGIES:
        raise UsageError(f"--strategy: {args.strategy!r} is not a Hacker bot; choose {' or '.join(STRATEGIES)}")
    prof = _hacker_profile(args, " (--game hacker)")
    if not args.offline:
        _hacker_table_rounds(args.round_limit)
    alone = args.watch and args.offline  # offline --watch: only bots
    players_fit(prof, args.bots + (0 if alone else 1),  # type: ignore[arg-type]
             "--bots" if alone else f"--bots {args.bots} and {'your seat' if args.watch else 'you'}")


def _check_hacker_join(args: argparse.Namespace) -> None:
    """`join --game hacker`: a person's seat (cli/hacker/seat.py) or one of Hacker's bots; Hacker's profiles."""
    if args.bot is not None and args.bot not in STRATEGIES:
        raise UsageError(f"--game hacker: --bot {' or '.join(STRATEGIES)}, or no --bot for your own seat")
    prof = _hacker_profile(args)
    _hacker_table_rounds(args.round_limit)
    if args.players is None:
        args.players = 4
    players_fit(prof, args.players, "--players")  # type: ignore[arg-type]


def profile_of(args: argparse.Namespace) -> Any:
    """The Hacker profile the options name (default basic), or one line saying why not."""
    try:
        return get_profile(args.rules or "basic", goal=args.goal, round_limit=args.round_limit)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}") from None


def check(cmd: str, args: argparse.Namespace) -> None:
    """`play`, `join` and `sim` of Hacker: its profiles (default basic), bots (default planner), players."""
    if cmd == "sim":
        args.bots = args.bots or ["planner"]
        bad = [b for b in args.bots if b not in STRATEGIES]
        if bad:
            raise UsageError(f"--bots: {bad[0]!r} is not a Hacker bot; choose from {', '.join(STRATEGIES)}")
        players_fit(_hacker_profile(args), args.players, "--players")  # type: ignore[arg-type]
    elif cmd == "play":
        _check_hacker_play(args)
    elif cmd == "join":
        _check_hacker_join(args)


def sim(args: argparse.Namespace) -> int:
    from adp2p.cli.hacker.sim import run_sim

    return run_sim(args)


def cards(args: argparse.Namespace) -> int:
    from adp2p.cli.hacker.reference import run_reference

    return run_reference(args, "cards")


def rules(args: argparse.Namespace) -> int:
    from adp2p.cli.hacker.reference import run_reference

    return run_reference(args, "rules")


def offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> tuple[int, bool | None]:
    """`play --game hacker --offline`: the engine alone (cli/hacker/local.py), your seat on its page or watched."""
    from adp2p.cli.hacker.play import run_offline

    return run_offline(args, out, inp)


def seat(args: argparse.Namespace) -> Any:
    """A person's seat at a Hacker `join` table: its page and menu in the terminal."""
    from adp2p.cli.hacker.seat import table_chooser

    return table_chooser(args.lang)
