"""Whole games between bot peers, each its own OS process (`ad-p2p join --bot deduction`), on loopback.

Every process is given only the first peer's address (a fixed port); the lobby spreads the others. Every
peer must end with exit code 0 and the same outcome (game id, winners, entry count, head hash, audit ok),
and the log files must be byte-identical: one replicated log, no entry lost or duplicated anywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _table_procs import Table, log_records
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.logstore import LogStore

# seconds per game on a laptop: about 3 (3 peers) .. 12 (6 peers) with --round-limit 20 and --think 0. The bounds
# only catch a hang: on a 2-core machine at load ~30 the 6-peer game took over 75 s (a CI run), so they are ~25x that.
TIMEOUT = {3: 150.0, 4: 200.0, 5: 250.0, 6: 300.0}


def check_same_game(table: Table) -> dict[str, object]:
    """Every peer's outcome and log agree; returns the common outcome."""
    outs = [p.outcome() for p in table.peers]
    first = outs[0]
    for p, o in zip(table.peers, outs, strict=True):
        assert o["game_id"] == first["game_id"], p.name
        assert o["head"] == first["head"], f"{p.name} ended on another head"
        assert o["entries"] == first["entries"], p.name
        assert o["winners"] == first["winners"], p.name
        assert o["audit_ok"] is True, (p.name, o["violations"])
        assert o["violations"] == [] and o["verdict"] is None and o["abandoned_by"] is None, (p.name, o)
    assert first["winners"], "a finished game names its winner(s)"
    logs = [p.log_path() for p in table.peers]
    assert all(lp is not None and lp.parent.name == first["game_id"] for lp in logs)
    blobs = [lp.read_bytes() for lp in logs if lp is not None]
    assert all(b == blobs[0] for b in blobs), "the log files differ between peers"
    records = log_records(logs[0])  # type: ignore[arg-type]
    assert len(records) == first["entries"]
    seqs = [decode_entry(r).seq for r in records]
    assert seqs == list(range(len(records))), "every seq exactly once, in order"
    return first


def verify_log(path: Path, n_entries: int) -> None:
    """The log reopens and its whole chain verifies with the log store (signatures, seqs, hashes)."""
    from adp2p.p2p.protocol import Genesis, decode_body

    g = Genesis.from_body(decode_body(decode_entry(log_records(path)[0]).body))
    store = LogStore.open(path, g.identities(), g.game_id)
    try:
        assert len(store) == n_entries
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 6])
def test_bot_game_between_processes(tmp_path: Path, n: int) -> None:
    with Table(tmp_path, n, round_limit=20, seed=n) as table:
        table.start_all()
        codes = table.wait(timeout=TIMEOUT[n])
        assert codes == [0] * n, table.diagnostics()
        common = check_same_game(table)
        assert common["entries"] > 20
        verify_log(table.peers[0].log_path(), common["entries"])  # type: ignore[arg-type]
        for p in table.peers:
            out = p.output()
            assert f"Game over — {common['line']}" in out and "Audit: every shuffle" in out, out[-2000:]
            assert "Traceback" not in out and "Rejected" not in out, out[-2000:]
