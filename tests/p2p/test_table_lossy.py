"""A game over a bad network: three `ad-p2p join` peers in network namespaces joined by a userspace switch
(tests/support/lossy_lan.py) that drops 10 % of the packets and delays the rest by 50-100 ms, reordering them.
The game must complete with one log everywhere, a clean audit and nobody abandoned or named."""

from __future__ import annotations

from pathlib import Path

import pytest
from _table_procs import Table
from lossy_lan import LossyLan, tun_unavailable_reason
from netns import NetnsLab, netns_available, netns_unavailable_reason
from test_table_faults import check_same_log

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(not netns_available(), reason=f"netns unavailable: {netns_unavailable_reason()}"),
    pytest.mark.skipif(
        netns_available() and tun_unavailable_reason() is not None, reason=f"no TUN: {tun_unavailable_reason()}"
    ),
]


def test_a_game_completes_over_a_lossy_slow_reordering_network(tmp_path: Path) -> None:
    with (
        NetnsLab(3) as lab,
        LossyLan(lab, loss=0.10, delay=0.05, jitter=0.05, seed=4) as lan,
        Table(tmp_path, 3, round_limit=1, abandon_after=30, seed=9, lab=lab, addresses=lan.addresses) as table,
    ):
        table.start_all()
        codes = table.wait(timeout=300)
        assert codes == [0, 0, 0], table.diagnostics()
        check_same_log(table)
    assert lan.stats["dropped"] > 0.05 * lan.stats["forwarded"] > 0, lan.stats  # the network really was that bad
