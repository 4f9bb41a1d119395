"""The command line checked against the rules and the OS before anything starts.

Every option a command takes is checked here (or by its argparse type): player counts against the chosen rule
profile, bot strategies, ports, peers, interfaces, times and counts. A bad value ends the command with one line
that says which option and why, and exit status 2: never a traceback, never a table that waits forever for a
player count its rules do not allow.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from adp2p.cli.clients import client, folders
from adp2p.cli.usage import UsageError
from adp2p.p2p.game import DEFAULT_GAME


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: "ad-p2p join: argument --port: ... (see ad-p2p join --help)"."""

    def error(self, message: str) -> Any:  # argparse's own: usage block + message; ours: one line
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class Noted(argparse.Action):
    """An option stored as argparse's `store` does, noting that it was given (`given(args, dest)`): an option another
    game does not take is refused only when it was asked for, not for its default."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given = {*getattr(namespace, "given", ()), self.dest}


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the option stored in `dest` was on the command line (an option with `action=Noted`)."""
    return dest in getattr(args, "given", ())


def whole(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number in lo..hi."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if v < lo or (hi is not None and v > hi):
            bound = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {v}")
        return v

    return parse


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds in lo..hi."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
        if not math.isfinite(v) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo:g}..{hi:g} seconds, got {text}")
        return v

    return parse


port = whole(0, 65535)


def commands(game: str) -> Any:
    """The game's parts of the commands: its client's `commands.py` (`PROFILES`, `STRATEGIES`, their defaults,
    `check`, `sim`, `cards`, `rules`, `offline`, `seat`)."""
    return client(game, "commands")


def every_game() -> list[str]:
    """Every registered game, the default first (the order names are listed in: Access Denied's, then the others')."""
    return [DEFAULT_GAME, *sorted(g for g in folders() if g != DEFAULT_GAME)]


def any_strategies(text: str) -> list[str]:
    """`sim --bots`: names of any game's bots; `check` then holds them to the chosen game's."""
    known = list(dict.fromkeys(s for g in every_game() for s in commands(g).STRATEGIES))
    names = [s.strip() for s in text.split(",")]
    for s in names:
        if s not in known:
            raise argparse.ArgumentTypeError(f"unknown bot strategy {s!r}; choose one of {', '.join(known)}")
    return names


def any_strategy(text: str) -> str:
    """`join --bot`: the name of either game's bot; `check` then holds it to the table's game."""
    if "," in text:
        raise argparse.ArgumentTypeError("one bot strategy for one seat")
    return any_strategies(text)[0]


def players_fit(prof: Any, n: int, what: str) -> None:
    """n players fit the profile (its `min_players`..`max_players`), or one line saying why not."""
    if not prof.min_players <= n <= prof.max_players:
        lo, hi = prof.min_players, prof.max_players
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"{what}: {prof.name} is for {span} players, not {n}")


def default_players(prof: Any) -> int:
    """How many players a table waits for unless told: three, or what the rules allow (two-player: 2)."""
    return min(max(3, prof.min_players), prof.max_players)


def _check_web(args: argparse.Namespace) -> None:
    """The page (`--web`, `--ui web`) is a seat's client at a table: not with the engine alone, a watched game, a
    bot's seat, or another screen."""
    if getattr(args, "offline", False):
        raise UsageError("--web plays at a table over the network; --offline has no page (drop one of them)")
    if getattr(args, "watch", False):
        raise UsageError("--web is your seat's page; with --watch a bot plays your seat (drop one of them)")
    if getattr(args, "bot", None):
        raise UsageError("--web is a person's page; a --bot seat needs none (drop one of them)")
    if getattr(args, "web", False) and given(args, "ui") and args.ui not in ("web", "auto"):
        raise UsageError(f"--web is the page; --ui {args.ui} is the terminal's (drop one of them)")


def _table_name(table: str) -> None:
    """A table's name: what peers match on (1..64 bytes of printable text, not only spaces)."""
    from adp2p.p2p.handshake import MAX_TABLE_BYTES

    if not (1 <= len(table.encode("utf-8")) <= MAX_TABLE_BYTES and table.strip() and table.isprintable()):
        raise UsageError(f"--table: a table's name is 1..{MAX_TABLE_BYTES} bytes of printable text, not {table!r}",
                         f"--table: der Name eines Tisches ist 1..{MAX_TABLE_BYTES} Bytes druckbarer Text, nicht "
                         f"{table!r}")


def check(args: argparse.Namespace) -> None:
    """Check a parsed command line against the rules and the OS; raise UsageError with the first problem."""
    cmd = args.cmd
    if cmd == "join" and getattr(args, "game", None):
        from adp2p.p2p.game import UnknownGame, get_game

        try:
            get_game(args.game)
        except UnknownGame as exc:  # an install whose entry points are stale: say so, not "internal error"
            raise UsageError(f"{exc} (not registered by this install: install the package again, e.g. ./dev)") from None
    if cmd in ("play", "join") and (getattr(args, "web", False) or getattr(args, "ui", None) == "web"):
        _check_web(args)
    if cmd == "join":
        _table_name(args.table)
    if cmd in ("sim", "play", "join"):  # the game's own: its profiles, bots, players (cli/<game>/commands.py)
        commands(getattr(args, "game", DEFAULT_GAME)).check(cmd, args)
    if getattr(args, "interface", None):
        from adp2p.p2p.discovery import resolve_interfaces

        try:
            resolve_interfaces(args.interface)
        except (ValueError, OSError) as exc:
            raise UsageError(f"--interface: {exc}") from None


def add_reaction_args(p: argparse.ArgumentParser) -> None:
    """The options of a person at the prompt (`play` and `join`): the screen, and the reaction windows."""
    p.add_argument(
        "--ui",
        choices=["auto", "full", "lines", "web"],
        default="auto",
        action=Noted,
        help="full: a full-screen client with a fixed layout; lines: the screen printed as lines and a line "
        "prompt; web: a page in your browser (as --web); auto (default): full in a terminal, lines when input or "
        "output is a pipe or a file",
    )
    p.add_argument("--web", action="store_true",
                   help="play from a page in your browser: served by your own peer on 127.0.0.1 only, behind a "
                   "secret link it prints (and opens where a browser is available)")
    p.add_argument(
        "--react-seconds",
        type=seconds(0, 3600),
        default=None,
        action=Noted,
        help="time to react before passing (default 15; 0: never ask)",
    )
    p.add_argument(
        "--react",
        choices=["mine", "all"],
        default="mine",
        action=Noted,
        help="when to ask for a reaction: mine (default: when it is about you, or a card made for that moment fits; "
        "never only for at-any-time cards) or all (every window a card of yours fits)",
    )
