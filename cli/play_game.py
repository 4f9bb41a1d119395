"""What `ad-p2p play` needs to know of the game it plays (`PlayGame`).

`cmd_play.run_networked` is one for every game: it starts our peer and the bot peers and prints the end. What differs
per game is here, as a value: the profile and its words, your seat's chooser (a person, or a bot with --watch), the
game's options for each bot peer, and the final screen. Each game's pieces are in its `cli/<game>/play.py`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adp2p.cli.clients import client


@dataclass(frozen=True)
class PlayGame:
    name: str  # the genesis's game (p2p/game.py)
    profile: Any  # the game's rule profile: `name`, `min_players`, `max_players`
    rules_words: str  # the profile in a few words, in the player's language (the intro line)
    stalemate: int | None  # the table's stalemate setting (None: the game has none)
    bot_args: list[str]  # the game's options for each bot peer's `join`
    seat: Callable[[], Any]  # your seat's chooser (`TablePeer`'s `choose`, with `say`/`attach`/`prompt` if it has them)
    final_screen: Callable[[Any, Any, Any], None]  # (peer, outcome, out): the final board, printed in lines
    watch_think: float = 0.6  # --watch at a terminal: the bots' longest pause, so a person can follow each move


def play_game(args: argparse.Namespace, seed: int) -> PlayGame:
    """The pieces of the game `args.game` names (checked by cli/checks.py): its client's `play.play_game`."""
    return client(getattr(args, "game", "access-denied"), "play").play_game(args, seed)
