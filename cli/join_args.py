"""`ad-p2p join`'s options: the argument parser's part of the command, apart from the table it starts (building
the parser for any command, `ad-p2p audit` among them, must not import the network stack: trio and the peer)."""

from __future__ import annotations

import argparse

from adp2p.cli.checks import add_reaction_args, any_strategy, port, seconds, whole


def parse_peer(text: str) -> tuple[str, int]:
    host, _, num = text.rpartition(":")
    if not host or not num.isdigit() or not 1 <= int(num) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT with a port 1..65535, got {text!r}")
    return host, int(num)


def table_word(text: str) -> str:
    """`--word`: 1..256 bytes once trimmed ('-': asked for at the terminal, not shown)."""
    if text == "-":
        import getpass

        text = getpass.getpass("table word: ")
    if not 1 <= len(text.strip().encode("utf-8")) <= 256:
        raise argparse.ArgumentTypeError("a table word is 1 to 256 bytes (not only spaces)")
    return text


def add_join_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument("--table", default="default", help="table name (peers with the same name play together)")
    p.add_argument(
        "--players",
        type=whole(0, 99),
        default=None,
        help="how many players the table waits for (default 3; 2 in two-player)",
    )
    p.add_argument("--yes", action="store_true",
                   help="start with whoever the table seats, without asking (a bot always does)")
    p.add_argument("--bot", type=any_strategy, default=None,
                   help="let a bot play this seat (random or deduction; --game hacker: random or planner)")
    p.add_argument("--peer", type=parse_peer, action="append", default=[], help="a peer's HOST:PORT (repeatable)")
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1, or 0.0.0.0 with mDNS)")
    p.add_argument("--port", type=port, default=0, help="port to listen on (default: any free port)")
    p.add_argument("--interface", default=None, help="network interface name or IPv4 address for mDNS")
    p.add_argument("--no-mdns", action="store_true", help="do not use mDNS (only --peer addresses)")
    p.add_argument(
        "--word",
        type=table_word,
        default=None,
        help="a word your friends type too and strangers do not know: only players who know it can sit at the "
        "table (never sent; '-' asks for it without showing it; give it again with --resume)",
    )
    p.add_argument("--data-dir", default=None, help="where keys and game logs are kept")
    p.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        default=None,
        help="rejoin a game after a crash (its directory, or the latest)",
    )
    p.add_argument(
        "--patience",
        "--abandon-after",
        dest="patience",
        type=seconds(1, 86400),
        default=120.0,
        help="seconds a player may stay silent on its turn before the game ends as abandoned; every other "
        "timeout (lobby, heartbeats, dead connections) scales with it: raise it on a slow network",
    )
    p.add_argument("--think", type=seconds(0, 60), default=None, help="bot decision delay in seconds (no tells)")
    p.add_argument("--lang", choices=["en", "de"], default="en", help="language of the game screen")
    add_reaction_args(p)
    p.add_argument("--result-json", default=None, help="write the outcome as JSON to this file")
    p.add_argument("--quiet", action="store_true", help="print only the outcome")
    p.add_argument("--seed", type=int, default=None, help="bot seed")
    p.add_argument("--timings", default=None, help=argparse.SUPPRESS)  # benchmarks: per-entry times to FILE
