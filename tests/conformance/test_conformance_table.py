"""Conformance at the table (every registered game): an honest table, in one process and over loopback TCP with real
peers, plays a whole game to its end; every seat folds the same game, the networked peers end with byte-identical
logs, and every audit (each seat's, and the offline audit of the written log) is clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from _net import net_game
from _zoo import Table
from adp2p.p2p.audit import audit_log
from adp2p.p2p.protocol import Kind

from games import GAMES, game_of


def quick(name: str) -> dict[str, object]:
    q = game_of(name).quick_table
    return {"profile": q["profile"], "round_limit": q["round_limit"], "bots": q["bots"], "game": name}


@pytest.mark.parametrize("name", GAMES)
def test_an_honest_table_in_one_process_ends_complete_and_clean(name: str, tmp_path: Path) -> None:
    n = game_of(name).quick_table["players"]
    t = Table(n, seed=1, **quick(name)).run()  # type: ignore[arg-type]
    ref = t.ms[0]
    assert t.complete and ref.game.is_over(ref.state) and t.abandoned is None
    assert t.stats.kinds[Kind.EVIDENCE].entries == 0
    for m in t.ms:
        assert m.game is ref.game and m.verdict is None
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
        assert m.events == ref.events and m.entries == ref.entries == len(t.raws)
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok and res.tampered is None, res.text()


@pytest.mark.parametrize("name", GAMES)
async def test_an_honest_networked_table_ends_with_byte_identical_logs_and_a_clean_audit(
    name: str, tmp_path: Path
) -> None:
    q = game_of(name).quick_table
    n = q["players"]
    table = {"profile": q["profile"], "round_limit": q["round_limit"], "bots": q["bots"]}
    g = await net_game(tmp_path, n, 1, {}, game=name, **table)
    logs = g.honest_logs()
    assert len(logs) == n and all(log == logs[0] for log in logs), "the peers ended with different logs"
    for i in range(n):
        o = g.outcomes[i]
        assert o is not None and o.verdict is None and o.audit_ok is True and not o.violations, g.heard(i)
        m = g.peers[i].machine
        assert m is not None and m.game is game_of(name) and m.complete
    res = g.audit()
    assert res.ok and res.tampered is None, res.text()
