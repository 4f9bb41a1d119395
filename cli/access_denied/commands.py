"""Access Denied's parts of the commands (cli/checks.py, cmd_sim.py, cmd_cards.py, cmd_play.py, cmd_join.py call them
through cli/clients.py): its profiles and bots, the checks of `play`, `join` and `sim`, and its `sim`, `cards`, `rules`,
offline game and a person's seat."""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.access_denied.profile import profile_of
from adp2p.cli.checks import default_players, players_fit
from adp2p.cli.usage import UsageError
from adp2p.engine.access_denied.bots import STRATEGIES
from adp2p.engine.access_denied.profiles import PROFILES

DEFAULT_RULES = "classic"
DEFAULT_BOT = "deduction"
__all__ = ["DEFAULT_BOT", "DEFAULT_RULES", "PROFILES", "STRATEGIES", "check", "profile_of"]


def strategy_check(name: str) -> None:
    """An Access Denied seat's bot."""
    if name not in STRATEGIES:
        raise UsageError(f"--bot: unknown bot strategy {name!r}; choose one of {', '.join(STRATEGIES)}")


def check(cmd: str, args: argparse.Namespace) -> None:
    """`play`, `join` and `sim` of Access Denied: its profiles (default classic), bots (default deduction), players."""
    if cmd == "sim":
        args.rules = args.rules or "classic"
        args.bots = args.bots or ["deduction"]
        bad = [b for b in args.bots if b not in STRATEGIES]
        if bad:
            raise UsageError(f"--bots: unknown bot strategy {bad[0]!r}; choose one of {', '.join(STRATEGIES)}")
        players_fit(profile_of(args), args.players, "--players")
    elif cmd == "play":
        args.rules = args.rules or "classic"
        args.strategy = args.strategy or "deduction"
        if args.strategy not in STRATEGIES:
            raise UsageError(f"--strategy: {args.strategy!r} is a Hacker bot; Access Denied's: {', '.join(STRATEGIES)} "
                             "(or add --game hacker)")
        if args.rules not in PROFILES:
            raise UsageError(f"--rules: {args.rules!r} is a Hacker profile; Access Denied's: {', '.join(PROFILES)} "
                             "(or add --game hacker)")
        prof = profile_of(args)
        alone = args.watch and args.offline  # offline --watch: only bots; on the network a bot takes your seat
        n = args.bots + (0 if alone else 1)
        what = "--bots" if alone else f"--bots {args.bots} and {'your seat' if args.watch else 'you'}"
        players_fit(prof, n, what)
    elif cmd == "join":
        args.rules = args.rules or "classic"
        if args.bot is not None:
            strategy_check(args.bot)
        prof = profile_of(args)
        if args.players is None:
            args.players = default_players(prof)
        players_fit(prof, args.players, "--players")


def sim(args: argparse.Namespace) -> int:
    from adp2p.cli.access_denied.sim import run_sim

    return run_sim(args)


def cards(args: argparse.Namespace) -> int:
    from adp2p.cli.access_denied.cards import run_cards

    return run_cards(args)


def rules(args: argparse.Namespace) -> int:
    from adp2p.cli.access_denied.cards import run_rules

    return run_rules(args)


def offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> tuple[int, bool | None]:
    """`play --offline`: the engine alone in this process, your seat at the prompt (or watched)."""
    from adp2p.cli.access_denied.offline import run_offline

    return run_offline(args, out, inp)


def seat(args: argparse.Namespace) -> Any:
    """A person's seat at a `join` table: the full screen or the line prompt."""
    from adp2p.cli.access_denied.seat import human_chooser

    return human_chooser(args.lang, args.react_seconds, args.react, args.ui)
