"""The `ad-p2p` command line: argument parsing and dispatch to one module per command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print("ad-p2p: no commands yet", file=sys.stderr)
    return 2
