"""A seat that left after an abandonment it saw stand is never named for the game its victim reopened (issue 34's
race, found by issue 35's chaos run, kill1 n=4 seed 392741): four bot peers, each its own OS process on loopback.

The interleaving is made on purpose, each step awaited, no timing margin: V is stopped (SIGSTOP) until A, the first
seat that may give up on it, has written the abandon and every other peer has applied it; A then leaves (killed:
to the others the same as a linger that ran out); V is continued while the others still linger, catches up, and its
own entry beats the abandon, so the game reopens without A. When A's duty comes, A is gone. Before: the table
abandoned A — an honest seat that had left on a result it saw stand — and named it everywhere and in the audit.
Now (docs/protocol.md, "Abandonment and resume", rule 7): the abandon naming A carries A's own abandon that the
returning seat's entry set aside, and names nobody; the game ends there, unfinished, with one log."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _table_procs import Peer, Table, log_records
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.protocol import Genesis, Kind, decode_body


def _last(p: Peer) -> object | None:
    lp = p.log_path()
    recs = log_records(lp) if lp is not None else []
    return decode_entry(recs[-1]) if recs else None


def _until(what: str, ok: object, table: Table, limit: float = 120.0) -> None:
    """Wait for `ok()` (bounded only so a broken run ends: never a margin the test needs)."""
    deadline = time.monotonic() + limit
    while not ok():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what}\n{table.diagnostics()}"
        time.sleep(0.02)


def _audit(log: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "adp2p.cli", "audit", str(log), "--json"], capture_output=True, text=True, timeout=120
    )
    return json.loads(out.stdout)


@pytest.mark.slow
def test_a_seat_that_left_after_the_abandonment_is_not_named_when_the_victim_reopens_the_game(tmp_path: Path) -> None:
    with Table(tmp_path, 4, round_limit=30, think=0.01, abandon_after=6.0, seed=34) as table:
        table.start_all()
        v = table.peers[3]
        table.wait_entries(v, 30)
        table.signal_nowait(v, signal.SIGSTOP)
        others = [p for p in table.peers if p is not v]
        try:

            def abandoned() -> bool:
                return any((e := _last(p)) is not None and e.kind == Kind.ABANDON for p in others)  # type: ignore[union-attr]

            _until("nobody abandoned the stopped peer", abandoned, table)
            first = next(e for p in others if (e := _last(p)) is not None and e.kind == Kind.ABANDON)  # type: ignore[union-attr]
            genesis = Genesis.from_body(decode_body(decode_entry(log_records(v.log_path())[0]).body))  # type: ignore[arg-type]
            names = genesis.names()
            a = next(p for p in others if p.name == names[first.author])  # type: ignore[attr-defined]
            rest = [p for p in others if p is not a]

            def applied() -> bool:
                return all((e := _last(p)) is not None and e.id == first.id for p in rest)  # type: ignore[union-attr,attr-defined]

            _until("the others did not apply the abandon", applied, table)
            table.signal(a, signal.SIGKILL)  # A leaves with the abandon it wrote standing at every peer
        finally:
            table.signal_nowait(v, signal.SIGCONT)
        codes = table.wait([v, *rest], timeout=180)
        diag = table.diagnostics()
        assert None not in codes, diag
        assert any("answered after all" in p.output() for p in rest), "the race did not happen (no reopen)\n" + diag
        assert codes == [5, 5, 5], diag  # the game could not go on without A: it ended there, unfinished
        for p in [v, *rest]:
            o = p.outcome()
            assert o["abandoned_by"] != a.name, (p.name, o, diag)
            assert o["left_by"] == a.name and o["abandoned_by"] is None, (p.name, o, diag)
            assert o["verdict"] is None, (p.name, o, diag)
            rep = _audit(p.log_path())  # type: ignore[arg-type]
            bad = [pl["name"] for pl in rep.get("players", []) if pl["violations"]]
            assert a.name not in bad and rep["abandoned_by"] is None, (p.name, rep, diag)
            assert any(f["rule"] == "left" for f in rep["unattributed"]), (p.name, rep)
        blobs = {p.log_path().read_bytes() for p in [v, *rest]}  # type: ignore[union-attr]
        assert len(blobs) == 1, "the peers still there hold different logs\n" + diag
