"""The `ad-p2p` command line: argument parsing and dispatch to one module per command."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from adp2p.cli.checks import (
    Noted,
    Parser,
    UsageError,
    add_reaction_args,
    any_strategies,
    any_strategy,
    check,
    commands,
    every_game,
    seconds,
    whole,
)
from adp2p.cli.clients import folders

DEFAULT_ROUND_LIMIT = 200  # far beyond a real game (15-40 rounds): it ends bot tables that no longer progress
DEFAULT_STALEMATE = 20  # whole rounds in which nobody's access changed: a table stuck repeating moves


GAMES = sorted(folders())  # every registered game (pyproject.toml's `adp2p.games`): `--game`'s choices

def _add_rules(p: argparse.ArgumentParser, *, stalemate: int = DEFAULT_STALEMATE) -> None:
    names = every_game()
    games = [commands(g) for g in names]  # each game's profiles; the default is each game's own (cli/checks.py)
    defaults = "; ".join([f"default {games[0].DEFAULT_RULES}",
                          *(f"--game {g}: {c.DEFAULT_RULES}" for g, c in zip(names[1:], games[1:], strict=True))])
    p.add_argument("--rules", default=None, choices=list(dict.fromkeys(n for c in games for n in c.PROFILES)),
                   help=f"rule profile ({defaults})")
    p.add_argument("--goal", type=int, choices=[3, 4, 5, 6], default=None,
                   help="Root accesses needed to win (--game hacker: codes)")
    p.add_argument(
        "--round-limit",
        type=whole(1, 10000),
        default=DEFAULT_ROUND_LIMIT,
        help=f"agreed limit in rounds: the game then ends with the standings (default {DEFAULT_ROUND_LIMIT})",
    )
    p.add_argument(
        "--stalemate",
        type=whole(0, 10000),
        default=stalemate,
        action=Noted,
        metavar="ROUNDS",
        help=f"end with the standings after this many rounds in which nobody's access changed (0: never; default "
        f"{stalemate or 'never'})",
    )


def parser() -> argparse.ArgumentParser:
    ap = Parser(prog="ad-p2p", description="Access Denied, peer to peer on your LAN.")
    ap.add_argument("--version", action="version", version=f"ad-p2p {_version()}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    c = sub.add_parser("cards", help="the card reference")
    c.add_argument("--game", choices=GAMES, default="access-denied",
                   help="which game's cards (default access-denied)")
    c.add_argument("--lang", choices=["en", "de"], default="en", help="language of the card texts")
    c.add_argument("--json", action="store_true", help="machine-readable output")

    r = sub.add_parser("rules", help="the rule profiles")
    r.add_argument("--game", choices=GAMES, default="access-denied",
                   help="which game's rules (default access-denied)")
    r.add_argument("--lang", choices=["en", "de"], default="en", help="language of the description")
    r.add_argument("--json", action="store_true", help="machine-readable output")

    s = sub.add_parser("sim", help="in-process bot games: win rates, turns, speed")
    s.add_argument("--game", choices=GAMES, default="access-denied",
                   help="which game's engine (default access-denied)")
    s.add_argument("--players", type=whole(0, 99), default=4, help="players at each table (default 4)")
    s.add_argument("--games", type=whole(1, 1_000_000), default=100, help="how many games (default 100)")
    s.add_argument(
        "--bots", type=any_strategies, default=None,
        help="comma-separated strategies, rotated around the table (default deduction; --game hacker: planner)",
    )
    s.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules(s, stalemate=0)

    p = sub.add_parser("play", help="a whole game on this machine against bots")
    p.add_argument("--game", choices=GAMES, default="access-denied",
                   help="which game (default access-denied)")
    p.add_argument("--bots", type=whole(0, 99), default=3, help="number of bot opponents besides your seat (default 3)")
    p.add_argument("--watch", action="store_true", help="a bot plays your seat too; you watch the game")
    p.add_argument("--name", default=None, help="your name at the table (default: Player, or Spieler with --lang de)")
    p.add_argument("--strategy", type=any_strategy, default=None,
                   help="bot strategy (default deduction; --game hacker: planner, or random)")
    p.add_argument("--lang", choices=["en", "de"], default="en", help="language of the game screen")
    p.add_argument("--seed", type=int, default=None, help="the game's seed (default: a random one)")
    p.add_argument("--think", type=seconds(0, 60), default=None, help="bots' decision delay in seconds")
    p.add_argument("--data-dir", default=None, help="where keys and game logs are kept")
    p.add_argument("--offline", action="store_true", help="no network: the engine in-process only")
    add_reaction_args(p)
    _add_rules(p)

    j = sub.add_parser("join", help="sit down at a table on the LAN and play")
    from adp2p.cli.join_args import add_join_args

    add_join_args(j)
    j.add_argument("--game", choices=GAMES, default="access-denied",
                   help="the table's game (default access-denied; hacker: your seat, or --bot random or planner)")
    _add_rules(j)

    # (the replay's options here, not in cli/tui/replay.py: building the parser must not import the screen)
    rp = sub.add_parser("replay", help="step through a finished game from its log, turn by turn")
    rp.add_argument("log", help="a game log (…/games/<id>/log) or its game directory")
    rp.add_argument("--lang", choices=["en", "de"], default="en", help="language of the game screen")
    rp.add_argument("--all", action="store_true", help="print every turn without waiting for Enter")
    rp.add_argument("--width", type=whole(40, 1000), default=None, help="screen width (default: the terminal's)")
    rp.add_argument("--web", action="store_true", help="step through it on a page in your browser (127.0.0.1 only, "
                    "behind a secret link it prints)")

    t = sub.add_parser("tables", help="tables and players seen on the LAN")
    t.add_argument("--seconds", type=seconds(0.1, 600), default=2.0, help="how long to listen (default 2)")
    t.add_argument("--interface", default=None, help="network interface name or IPv4 address for mDNS")
    t.add_argument("--json", action="store_true", help="machine-readable output")
    from adp2p.cli.cmd_audit import add_audit_args

    # `replay` is registered above (cli/tui/replay.py: the game screen, turn by turn)
    add_audit_args(sub.add_parser("audit", help="check a finished game's log: who cheated, with proof"))
    return ap


def main(argv: list[str] | None = None) -> int:
    # the table's diagnostics (bad messages, dropped connections) are for ADP2P_LOG=info (cmd_join), never raw
    # lines on a player's terminal: without a handler Python would print every warning, with its traceback
    logging.getLogger("adp2p").addHandler(logging.NullHandler())
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    try:
        if args.cmd == "join" and args.resume is not None:  # the game directory says what the flags need not
            from adp2p.cli.seat_file import resume_args

            args.saved = resume_args(args, given_options(argv))
        check(args)
    except UsageError as exc:
        print(f"ad-p2p {args.cmd}: {exc.said(getattr(args, 'lang', None))}", file=sys.stderr)
        return 2
    if os.environ.get("ADP2P_DEBUG"):
        return _run(args)
    try:
        return _run(args)
    except BrokenPipeError:  # the reader went away (`ad-p2p cards | head`): nothing more to say
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except UsageError as exc:  # a bad input found while running (a file that is no game log): one line
        print(f"ad-p2p {args.cmd}: {exc.said(getattr(args, 'lang', None))}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, BaseExceptionGroup) as exc:  # Ctrl-C: one line (join and play say how to resume)
        if not _interrupted(exc):
            if isinstance(exc, Exception):
                return _internal(args, exc)
            raise
        print("\n" + f"ad-p2p {args.cmd}: " + ("abgebrochen" if getattr(args, "lang", None) == "de" else "interrupted"),
              file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, never a traceback (ADP2P_DEBUG=1 shows it)
        return _internal(args, exc)


def _interrupted(exc: BaseException) -> bool:
    """Ctrl-C, alone or inside trio's exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_interrupted(e) for e in exc.exceptions)
    return isinstance(exc, KeyboardInterrupt)


def _internal(args: argparse.Namespace, exc: BaseException) -> int:
    """A bug: one line, never a traceback (ADP2P_DEBUG=1 shows it)."""
    print(f"ad-p2p {args.cmd}: internal error ({type(exc).__name__}: {exc}); ADP2P_DEBUG=1 shows where",
          file=sys.stderr)
    return 1


def given_options(argv: list[str]) -> set[str]:
    """The dests of the options on the command line (not those at their defaults): the same parser with every
    default suppressed, so only what was typed lands in the namespace."""
    ap = parser()
    for sub in ap._actions:  # (argparse has no public walk of its subparsers)
        for p in [ap, *getattr(sub, "choices", None).values()] if isinstance(sub, argparse._SubParsersAction) else []:
            for action in p._actions:
                action.default = argparse.SUPPRESS
    return set(vars(ap.parse_args(argv))) - {"cmd"}


def _version() -> str:
    try:
        return version("ad-p2p")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without installing
        return "unknown"


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "cards":
        from adp2p.cli.cmd_cards import run_cards

        return run_cards(args)
    if args.cmd == "rules":
        from adp2p.cli.cmd_cards import run_rules

        return run_rules(args)
    if args.cmd == "sim":
        from adp2p.cli.cmd_sim import run_sim

        return run_sim(args)
    if args.cmd == "join" and getattr(args, "saved", {}).get("play"):  # a `play` game resumed: its bots come back
        from adp2p.cli.cmd_play import resume_play

        return resume_play(args, args.saved)
    if args.cmd == "join":
        from adp2p.cli.cmd_join import run_join

        return run_join(args)
    if args.cmd == "tables":
        from adp2p.cli.cmd_tables import run_tables

        return run_tables(args)
    if args.cmd == "replay" and args.web:  # the page (cli/web/replay.py)
        from adp2p.cli.web.replay import run_replay_web

        return run_replay_web(args)
    if args.cmd == "replay":
        from adp2p.cli.tui.replay import run_replay

        return run_replay(args)
    if args.cmd == "play":
        from adp2p.cli.cmd_play import run_play

        return run_play(args)
    if args.cmd == "audit":
        from adp2p.cli.cmd_audit import run_audit

        return run_audit(args)
    return 2
