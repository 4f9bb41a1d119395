"""The replicated game machine (`Machine`) of one peer, in parts with one job each:

- `machine.py`: `Machine` itself: the duty order, checking and applying an entry, pass tokens, forks;
- `setup.py`: joins, beacon links, shuffles; `events.py`: game events through the engine;
- `reveals.py`: the reveal rounds (decryption shares, certificates, openings);
- `evidence.py`: immediate checks and evidence re-verified; `ending.py`: the secrets entries and the audit;
- `authoring.py`: this seat's next entry; `common.py`: records, limits and helpers.
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
