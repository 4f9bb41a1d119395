"""A player killed in the lobby (issue 35 item 4), with real processes on loopback: whenever the kill lands (before
the others met it, while the genesis is signed, just after), the players left either play one game (the same game
id, the same ending) or each leaves the lobby with one line; never two games, never a game that one of them refuses.

Before, a peer killed a moment after sitting down was still seated by the genesis author while the third player,
who had never met it, refused that genesis: the author played alone and ended "abandoned" (exit 5), the others
waited out the lobby (exit 3)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from _table_procs import Table


@pytest.mark.slow
@pytest.mark.parametrize(("victim", "stagger"), [(0, 0.7), (2, 0.0)], ids=["hub", "last"])
def test_a_player_killed_in_the_lobby_never_splits_the_table(tmp_path: Path, victim: int, stagger: float) -> None:
    with Table(tmp_path, 3, round_limit=3, abandon_after=10, seed=victim + 5) as table:
        for p in table.peers:
            table.start(p)
            time.sleep(stagger)
        v = table.peers[victim]
        deadline = time.monotonic() + 30
        while "sat down" not in v.output():
            assert time.monotonic() < deadline, v.output()
            time.sleep(0.02)
        time.sleep(1.0)
        table.signal(v, signal.SIGKILL)
        others = [p for p in table.peers if p is not v]
        codes = table.wait(others, timeout=120)
        outputs = [p.output() for p in others]
        assert codes[0] == codes[1] and codes[0] in (0, 3, 5), (codes, table.diagnostics())
        games = {p.game_dir().name for p in others if p.game_dir() is not None}  # type: ignore[union-attr]
        if codes[0] == 3:  # nobody began: one line each, no game directory
            assert games == set(), table.diagnostics()
            for out in outputs:
                assert sum(line.startswith("ad-p2p join:") for line in out.splitlines()) == 1, out
        else:  # one game, the same for both, ended the same way
            assert len(games) == 1 and all(p.game_dir() is not None for p in others), table.diagnostics()
            assert others[0].outcome()["head"] == others[1].outcome()["head"], table.diagnostics()
            assert others[0].outcome()["abandoned_by"] == others[1].outcome()["abandoned_by"]
        assert not any("Refused the genesis" in out for out in outputs), table.diagnostics()
        assert not any("Traceback" in out for out in outputs), table.diagnostics()
