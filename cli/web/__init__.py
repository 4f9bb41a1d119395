"""The page: a second client of a seat, in the browser, beside the terminal's (`--web`, `--ui web`).

`server.py` serves one player's page on 127.0.0.1 behind a secret token; `seat.py` is the table's chooser that shows
the seat's view there and takes the player's clicks; `menu.py` a decision's stages. Each game's page module,
`cli/<game>/web.py` (found by cli/clients.py), turns its engine view into what the page draws (`static/<game>.js`
draws it).
"""

from __future__ import annotations

import argparse
from typing import Any

from adp2p.cli.clients import client


def wanted(args: argparse.Namespace) -> bool:
    """Does the player want the page (`--web` or `--ui web`)?"""
    return bool(getattr(args, "web", False)) or getattr(args, "ui", None) == "web"


def page_module(game: str) -> Any:
    """The game's page module (what the page draws of its view, how it asks its decisions)."""
    return client(game, "web")


def web_seat(args: argparse.Namespace, game: str) -> Any:
    """The seat played from the page; one per command, so the page (its URL) stays across a rematch."""
    from adp2p.cli.web.seat import WebSeat
    from adp2p.p2p.paths import data_dir

    seat = getattr(args, "_web_seat", None)
    if seat is None:
        react = getattr(args, "react_seconds", None)
        seat = WebSeat(page_module(game), args.lang, react_seconds=15.0 if react is None else react,
                       react_to=getattr(args, "react", None) or "mine",
                       launcher_dir=data_dir(getattr(args, "data_dir", None)))
        args._web_seat = seat
    return seat
