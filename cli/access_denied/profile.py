"""The Access Denied profile the command line asks for."""

from __future__ import annotations

import argparse

from adp2p.cli.usage import UsageError
from adp2p.engine.access_denied.profiles import Profile, get_profile


def profile_of(args: argparse.Namespace) -> Profile:
    """The rule profile the options ask for (--rules, --goal, --round-limit, --stalemate); a usage error if none."""
    try:
        return get_profile(
            args.rules, goal=args.goal, round_limit=args.round_limit, stalemate_rounds=args.stalemate or None
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
