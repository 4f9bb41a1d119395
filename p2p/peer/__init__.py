"""A table peer (`TablePeer`): one player at a table, on trio (docs/architecture-reference.md, "The peer").

`TablePeer` (table_peer.py) derives from nothing: it makes objects with one job each and wires them, each given the
seat's log state `SeatLog` (seat_log.py), the few objects it calls and plain callables, each tested alone
(tests/p2p/peer/). What acts: `Lobby` (lobby.py: who is here, the genesis), `Agreeing` (agreeing.py), `Seating`
(seating.py: a game begun or resumed), `Dialing` (dialing.py: addresses, mDNS, the address book), `Net` (net.py:
messages, heads and tokens gossiped), `Intake` (intake.py: an entry taken, one pipeline), `Playing` (playing.py: the
play loop, our decisions, a silent seat's patience), `Proofs` (evidence.py; `second_accuser.py`, `ending_version.py`:
two of its rulings), `Protest` (protest.py), `Abandoning` (abandon.py), `CatchingUp` (catchup.py), `GameEnd`
(game_end.py: the end for us, the outcome). What they hold: `Arrivals`, `Folds`, `EvidenceBook`, `Abandonment`,
`Patience`, `CatchUp` (stalls.py), `Heads`, `GameFiles`, `Draws`, `Wire`, `Narrator` (what the player is told);
`join_grace.py` (a `join` not due before the genesis); `common.py`: configuration, outcome, limits and helpers.
"""

from adp2p.p2p.peer.common import Outcome, PeerConfig, TableError, latest_game, root_cause, with_patience
from adp2p.p2p.peer.table_peer import TablePeer, state_of

__all__ = ["Outcome", "PeerConfig", "TableError", "TablePeer", "latest_game", "root_cause", "state_of", "with_patience"]
