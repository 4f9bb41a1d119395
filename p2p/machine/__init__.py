"""The replicated game machine (`Machine`) of one peer, game-neutral, in parts with one job each:

- `machine.py`: `Machine` itself: the duty order, checking and applying an entry, pass tokens, forks; a machine is
  always of one game (p2p/game.py), whose table part (`Game.table_part()`) it calls through its hooks;
- `setup.py`: joins, beacon links, shuffles; `steps.py`: one event through the game's rules;
- `reveals.py`: the reveal rounds (decryption shares, certificates, openings shown with a card);
- `evidence.py`: immediate checks and evidence re-verified; `ending.py`: the secrets entries and the audit;
- `finality.py`: results are final (which evidence may take a seq already held, `refused` evidence, the result that
  stands);
- `authoring.py`: this seat's next entry; `dealer.py`: its shuffle steps and shares (`Dealer`, an object the fold
  holds); `referee.py`: how an event goes through the rules (`Referee`); `common.py`: records, limits and helpers;
- `game_part.py`: `TablePart`, the object a game supplies for its committed secrets (its hooks and their defaults),
  and `Fold`, what such a part sees of the fold.
"""

from adp2p.p2p.machine.common import (
    MAX_PASSES,
    AuditReport,
    Chooser,
    Duty,
    Event,
    Verdict,
)
from adp2p.p2p.machine.machine import Machine
from adp2p.p2p.protocol import ProtocolError
from adp2p.p2p.seat_secrets import SeatSecrets

__all__ = [
    "MAX_PASSES", "AuditReport", "Chooser", "Duty", "Event", "Machine", "ProtocolError", "SeatSecrets", "Verdict",
]
