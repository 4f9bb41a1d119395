"""The replicated game machine (`Machine`) of one peer, game-neutral: the fold owns the log's state and holds its parts,
each an object with one job, called with the fold as an explicit argument (no mixins sharing one `self`):

- `machine.py`: `Machine` itself: the log state, the duty order, checking and applying an entry, snapshot and fork, and
  its public interface (delegated to the parts); a machine is always of one game (p2p/game.py), whose table part
  (`Game.table_part()`) it calls through its hooks;
- `setup.py` (`Setup`): joins, beacon links, shuffles; `steps.py` (`Steps`): one event through the game's rules;
  `passes.py` (`Passes`): reaction windows and pass tokens;
- `reveals.py` (`Reveals`): the reveal rounds (decryption shares, certificates, openings shown with a card);
- `evidence.py` (`Evidence`): immediate checks and evidence re-verified; `ending.py` (`Ending`): the secrets entries
  and the audit;
- `finality.py` (`Finality`): results are final (what the log shows of who signed what where, which evidence may take
  a seq already held, `refused` evidence, the result that stands); `departure.py`: the abandon entry and `left`;
  `second_accuser.py`: `also` evidence;
- `authoring.py` (`Authoring`): this seat's next entry, and `Author`, what this seat sends (a seam the fold holds);
  `dealer.py`: its shuffle steps and shares (`Dealer`, a seam the fold holds); `referee.py`: how an event goes through
  the rules (`Referee`, a seam); `common.py`: records, limits and helpers;
- `game_part.py`: `TablePart`, the object a game supplies for its committed secrets (its hooks and their defaults),
  and `Fold`, what such a part sees of the fold.
"""

from adp2p.p2p.machine.authoring import Author
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
    "MAX_PASSES", "AuditReport", "Author", "Chooser", "Duty", "Event", "Machine", "ProtocolError", "SeatSecrets",
    "Verdict",
]
