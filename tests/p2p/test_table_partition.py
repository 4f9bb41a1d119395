"""A table cut in two by a network partition that heals: one game, one log, nobody named.

Four bot peers, each `ad-p2p join` in a network namespace of its own on one bridge (`NetnsLab`). Mid-game the
LAN is split 2|2 (`NetnsLab.split`: a cut cable, nothing tells either side) for longer than the patience, so
each half sees a seat on duty fall silent; neither half holds a majority of the seats, so neither may end the
game naming the other. The LAN heals, the peers redial, and the game must complete with byte-identical logs,
a clean audit and nobody abandoned or accused.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from _table_procs import Table
from netns import NetnsLab, netns_available, netns_unavailable_reason
from test_table_faults import check_same_log

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(not netns_available(), reason=f"netns unavailable: {netns_unavailable_reason()}"),
]

PATIENCE = 8.0  # --abandon-after: a seat silent this long on its turn may be given up on (by a majority)
WAITED = "Waiting for"  # a peer's line when a seat on duty has been silent for a whole patience period


def _halves_past_patience(table: Table, halves: list[list[int]], before: list[int]) -> int:
    """How many halves hold a peer that has said, since the cut, that a seat on duty was silent past the patience."""
    return sum(any(table.peers[i].output().count(WAITED) > before[i] for i in half) for half in halves)


def test_a_two_two_partition_longer_than_the_patience_heals_into_one_game(tmp_path: Path) -> None:
    with NetnsLab(4) as lab, Table(tmp_path, 4, round_limit=6, abandon_after=PATIENCE, seed=5, lab=lab) as table:
        table.start_all()
        table.wait_entries(table.peers[0], 40, timeout=60)
        halves = [[0, 1], [2, 3]]
        before = [p.output().count(WAITED) for p in table.peers]
        lab.split(halves)
        # the cut lasts until both halves have seen a seat on duty silent past the patience (they may not name it)
        # (an event, not a sleep: a loaded machine takes as long as it needs; the deadline only bounds a broken run)
        deadline = time.monotonic() + 240
        while _halves_past_patience(table, halves, before) < len(halves):
            assert time.monotonic() < deadline, table.diagnostics()
            time.sleep(0.1)
        during = [p.entries() for p in table.peers]
        lab.heal()
        codes = table.wait(timeout=180)
        assert codes == [0, 0, 0, 0], table.diagnostics()
        end = check_same_log(table)
        # the cut really stopped the game: the halves had drifted apart or stood still, and it went on after
        assert end["entries"] > max(during), (during, end["entries"])  # type: ignore[operator]
        said = "".join(p.output() for p in table.peers)
        assert "Waiting for" in said and "disconnected" in said, table.diagnostics()
