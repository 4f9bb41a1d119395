"""Access Denied, the table's first game: engine/ holds its rules; this package adapts them to the table core
(`game.py`: the `Game`) and holds what the table needs of Access Denied beyond its rules: the password commitments
and their openings (`openings.py`), the proved answers (`answers.py`), its event entries (`events.py`), its immediate
checks and evidence (`checks.py`), its words about cards (`words.py`)."""

from adp2p.games.access_denied.game import GAME, AccessDenied

__all__ = ["GAME", "AccessDenied"]
