"""The start race (issue 34): a seat that takes the genesis a few seconds after its author (its lobby refused it for a
moment) is not abandoned at its `join` by peers that held the genesis first (p2p/peer/join_grace.py). Real
`TablePeer`s on 127.0.0.1 (tests/adversaries/_net.py), short patience; one seat refuses every genesis for longer than
three periods of patience, then takes it. On main the genesis author wrote the abandon after one period, the other seat
applied it after its own, and the genesis author left after lingering two periods, before the late seat's join could
beat the abandon: the honest late seat was named "abandoned" at entry 2 (and when it came sooner, the abandon was
written and then set aside). Now nobody writes an abandon: the late seat's patience starts when it holds the game."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
from _net import ZooPeer, net_game

PATIENCE = 2.0
LATE = 7.0  # seconds the late seat refuses every genesis: more than three periods of patience (the abandon, then
# its author's lingering for two periods), less than the grace (10 s)


class LateToSit(ZooPeer):
    """Seat 2's peer refuses the genesis (as a lobby whose views differ does, naming nobody) for `LATE` seconds after
    it first sees one, then takes it when it comes again (a waiting peer asks for the log every second)."""

    first_seen: float | None = None

    def accepts_genesis(self, raw: bytes, label: str) -> bool:
        if self.cfg.name == "p1":
            now = time.monotonic()
            if self.first_seen is None:
                self.first_seen = now
            if now - self.first_seen < LATE:
                return False
        return bool(super().accepts_genesis(raw, label))


async def test_a_seat_that_takes_the_genesis_late_is_not_abandoned_at_its_join(tmp_path: Path) -> None:
    g = await net_game(tmp_path, 3, 1, {}, peer_class=LateToSit, abandon_after=PATIENCE, round_limit=1)
    late: Any = g.peers[1]
    assert late.first_seen is not None, "the late seat never saw a genesis"
    for i in range(3):
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by is None and o.verdict is None, (i, o, g.heard(i)[-800:])
        assert "abandon" not in g.heard(i), g.heard(i)[:1500]  # (not even one set aside when the seat came)
    logs = g.honest_logs()
    assert len(set(logs)) == 1, [len(x) for x in logs]
    res = g.audit(0)
    assert not res.findings and res.abandoned_by is None, res.text()
