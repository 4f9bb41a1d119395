"""`ad-p2p cards` and `ad-p2p rules`: the card reference and the profiles of the game `--game` names, from its
client (cli/<game>/commands.py)."""

from __future__ import annotations

import argparse

from adp2p.cli.checks import commands
from adp2p.p2p.game import DEFAULT_GAME


def run_cards(args: argparse.Namespace) -> int:
    """The game's cards as text (every word in the chosen language) or JSON."""
    return commands(getattr(args, "game", DEFAULT_GAME)).cards(args)


def run_rules(args: argparse.Namespace) -> int:
    """The game's rule profiles as text or JSON."""
    return commands(getattr(args, "game", DEFAULT_GAME)).rules(args)
