"""A table peer (`TablePeer`): one player at a table, on trio (docs/architecture.md, `peer/`).

Objects with one job each, made and wired by `TablePeer`, each tested alone (tests/p2p/peer/): `Arrivals`
(arrivals.py), `Folds` (folds.py), `EvidenceBook` (evidence_book.py), `Abandonment` (abandonment.py), `Patience`
(patience.py), `CatchUp` (stalls.py), `Heads` (heads.py), `GameFiles` (game_files.py), `Draws` (draws.py), `Wire`
(wire.py), `Narrator` (narrator.py: what the player is told).

What acts on them, by job: `table_peer.py` (`run()`, the play loop, our decisions), `lobby.py` (lobby, genesis),
`seating.py` (a game begun or resumed), `intake.py` (an entry taken; still `TablePeer`'s base class), `evidence.py`
(`Proofs`: proof posted, weighed, adopted; `second_accuser.py`, `ending_version.py`: two of its rulings),
`join_grace.py` (a `join` not due before the genesis), `abandon.py` (`Abandoning`: a silent seat), `catchup.py`
(catch up before signing), `net.py` (`Net`: messages, heads and tokens gossiped); `common.py`: configuration, outcome,
limits and helpers.
"""

from adp2p.p2p.peer.common import Outcome, PeerConfig, TableError, latest_game, root_cause, with_patience
from adp2p.p2p.peer.table_peer import TablePeer, state_of

__all__ = ["Outcome", "PeerConfig", "TableError", "TablePeer", "latest_game", "root_cause", "state_of", "with_patience"]
