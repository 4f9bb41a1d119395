"""Classified Information (seed 003), the table's third game: engine/classified/ holds its rules; this package adapts
them to the table core (`game.py`: the `Game`), its proved answers about hidden cards at the table (`part.py` on
`hidden_numbers.py` and `claims.py`: every answer about a Suitcase or a face-down Guard proved against the very card
when it is given, checked by every peer at once), and its words (`words.py`). docs/protocol.md, "Classified
Information at the table"."""

from adp2p.games.classified.game import GAME, Classified

__all__ = ["GAME", "Classified"]
