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

from adp2p.cli.usage import UsageError
from adp2p.engine.access_denied.bots import STRATEGIES
from adp2p.engine.access_denied.profiles import PROFILES, Profile, get_profile


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


def strategy(text: str) -> str:
    if text not in STRATEGIES:
        raise argparse.ArgumentTypeError(f"unknown bot strategy {text!r}; choose one of {', '.join(STRATEGIES)}")
    return text


def strategies(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",")]
    for s in names:
        strategy(s)
    return names


def any_strategies(text: str) -> list[str]:
    """`sim --bots`: names of either game's bots; `check` then holds them to the chosen game's."""
    from adp2p.engine.hacker.bots import STRATEGIES as HACKER_STRATEGIES

    names = [s.strip() for s in text.split(",")]
    for s in names:
        if s not in STRATEGIES and s not in HACKER_STRATEGIES:
            known = ", ".join(dict.fromkeys([*STRATEGIES, *HACKER_STRATEGIES]))
            raise argparse.ArgumentTypeError(f"unknown bot strategy {s!r}; choose one of {known}")
    return names


def _check_hacker_join(args: argparse.Namespace) -> None:
    """`join --game hacker`: a person's seat (cli/hacker/seat.py) or one of Hacker's bots; Hacker's profiles."""
    from adp2p.engine.hacker.bots import STRATEGIES as HACKER_STRATEGIES

    if args.bot is not None and args.bot not in HACKER_STRATEGIES:
        raise UsageError(f"--game hacker: --bot {' or '.join(HACKER_STRATEGIES)}, or no --bot for your own seat")
    prof = _hacker_profile(args)
    _hacker_table_rounds(args.round_limit)
    if args.players is None:
        args.players = 4
    _players(prof, args.players, "--players")  # type: ignore[arg-type]


def _hacker_profile(args: argparse.Namespace, where: str = "") -> Any:
    """Hacker's profile the options name (default basic), or one line saying why not."""
    from adp2p.engine.hacker.profiles import get_profile

    args.rules = args.rules or "basic"
    try:
        return get_profile(args.rules, goal=args.goal, round_limit=args.round_limit)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}{where}") from None


def _hacker_table_rounds(limit: int | None) -> None:
    """A Hacker table's round limit: at most `MAX_ROUND_LIMIT` (its end-of-game secrets must fit one entry)."""
    from adp2p.games.hacker.game import MAX_ROUND_LIMIT

    if limit is not None and limit > MAX_ROUND_LIMIT:
        raise UsageError(f"--round-limit: a Hacker table plays at most {MAX_ROUND_LIMIT} rounds, not {limit}")


AD_ONLY_PLAY = ("react", "react_seconds", "stalemate")  # `play` options Hacker does not take (its seat: lines only)


def _check_hacker_play(args: argparse.Namespace) -> None:
    """`play --game hacker`: Hacker's profiles (default basic) and bots (default planner); an option only Access
    Denied takes is refused, not ignored."""
    from adp2p.engine.hacker.bots import STRATEGIES as HACKER_STRATEGIES

    for dest in AD_ONLY_PLAY:
        if given(args, dest):
            raise UsageError(f"--{dest.replace('_', '-')} is for Access Denied; --game hacker does not take it")
    if given(args, "ui") and args.ui == "full":
        raise UsageError("--ui full is Access Denied's screen; --game hacker's is a page of lines (--ui auto or lines)")
    args.strategy = args.strategy or "planner"
    if args.strategy not in HACKER_STRATEGIES:
        raise UsageError(f"--strategy: {args.strategy!r} is not a Hacker bot; choose {' or '.join(HACKER_STRATEGIES)}")
    prof = _hacker_profile(args, " (--game hacker)")
    if not args.offline:
        _hacker_table_rounds(args.round_limit)
    alone = args.watch and args.offline  # offline --watch: only bots
    _players(prof, args.bots + (0 if alone else 1),  # type: ignore[arg-type]
             "--bots" if alone else f"--bots {args.bots} and {'your seat' if args.watch else 'you'}")


def strategy_check(name: str) -> None:
    """An Access Denied seat's bot (what `strategy` checked when `join --bot` took only those)."""
    try:
        strategy(name)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"--bot: {exc}") from None


def any_strategy(text: str) -> str:
    """`join --bot`: the name of either game's bot; `check` then holds it to the table's game."""
    if "," in text:
        raise argparse.ArgumentTypeError("one bot strategy for one seat")
    return any_strategies(text)[0]


def _check_sim(args: argparse.Namespace) -> None:
    """`sim`: each game's own defaults, profiles and bots."""
    if args.game == "hacker":
        from adp2p.engine.hacker.bots import STRATEGIES as HACKER_STRATEGIES

        args.bots = args.bots or ["planner"]
        bad = [b for b in args.bots if b not in HACKER_STRATEGIES]
        if bad:
            raise UsageError(f"--bots: {bad[0]!r} is not a Hacker bot; choose from {', '.join(HACKER_STRATEGIES)}")
        _players(_hacker_profile(args), args.players, "--players")  # type: ignore[arg-type]
        return
    args.rules = args.rules or "classic"
    args.bots = args.bots or ["deduction"]
    bad = [b for b in args.bots if b not in STRATEGIES]
    if bad:
        raise UsageError(f"--bots: unknown bot strategy {bad[0]!r}; choose one of {', '.join(STRATEGIES)}")
    _players(profile_of(args), args.players, "--players")


def profile_of(args: argparse.Namespace) -> Profile:
    """The rule profile the options ask for (--rules, --goal, --round-limit, --stalemate); a usage error if none."""
    try:
        return get_profile(
            args.rules, goal=args.goal, round_limit=args.round_limit, stalemate_rounds=args.stalemate or None
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _players(prof: Profile, n: int, what: str) -> None:
    if not prof.min_players <= n <= prof.max_players:
        lo, hi = prof.min_players, prof.max_players
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"{what}: {prof.name} is for {span} players, not {n}")


def default_players(prof: Profile) -> int:
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
    if cmd == "sim":
        _check_sim(args)
    elif cmd == "play" and getattr(args, "game", "access-denied") == "hacker":
        _check_hacker_play(args)
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
        _players(prof, n, what)
    elif cmd == "join" and getattr(args, "game", "access-denied") == "hacker":
        _check_hacker_join(args)
    elif cmd == "join":
        args.rules = args.rules or "classic"
        if args.bot is not None:
            strategy_check(args.bot)
        prof = profile_of(args)
        if args.players is None:
            args.players = default_players(prof)
        _players(prof, args.players, "--players")
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
