"""Hacker (seed 004), the table's second game: hacker/ holds its rules; this package adapts them to the table core
(`game.py`: the `Game`, with the events the table derives), its sealed values and private dice at the table
(`seals.py`: real commitments made, kept and opened, checked by every peer at once), and its words (`words.py`)."""

from adp2p.games.hacker.game import GAME, Hacker

__all__ = ["GAME", "Hacker"]
