"""A table peer (`TablePeer`): one player at a table, on trio. Its parts, one job each:

- `table_peer.py`: `TablePeer` itself: `run()` and the play loop (our decisions, looked ahead in reaction windows);
- `lobby.py`: the lobby and the genesis; `files.py`: the game's files, secrets and resume;
- `intake.py`: entries coming in; `evidence.py`: proof posted, weighed and adopted;
- `abandon.py`: a silent seat and the abandon that names it; `net.py`: the mesh, heads, tokens and messages;
- `words.py`: what the player is told; `common.py`: configuration, outcome, limits and helpers.
"""

from adp2p.p2p.peer.common import Outcome, PeerConfig, TableError, latest_game, root_cause, state_of, with_patience
from adp2p.p2p.peer.table_peer import TablePeer

__all__ = ["Outcome", "PeerConfig", "TableError", "TablePeer", "latest_game", "root_cause", "state_of", "with_patience"]
