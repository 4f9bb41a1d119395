"""A whole game over real mDNS: three `ad-p2p join` processes, each in its own network namespace on one bridge.

No `--peer`: every player finds the others by mDNS on its namespace's address, they agree on a roster, play a
short game (deduction bots, round limit 2, no think delay; and the same with Hacker's random bots) and each writes
its outcome as JSON. All must exit 0 within a bounded time with the same head, the same number of entries and a
clean audit.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import trio
from netns import NetnsLab, netns_available, netns_unavailable_reason

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(not netns_available(), reason=f"netns unavailable: {netns_unavailable_reason()}"),
]

GAME_TIMEOUT = 90.0


@pytest.mark.parametrize(
    "bot,n",
    [(["--bot", "deduction"], 3), (["--game", "hacker", "--bot", "random"], 4)],
    ids=["access-denied", "hacker"],
)
async def test_namespaces_play_a_game_over_mdns(bot: list[str], n: int, tmp_path: Path) -> None:
    """Access Denied with 3 peers, Hacker with 4, each peer in a namespace of its own, found over mDNS."""
    table = f"lab-{secrets.token_hex(4)}"
    with NetnsLab(n) as lab:
        t0 = time.monotonic()
        procs: list[subprocess.Popen[str]] = []
        results = [tmp_path / f"result{i}.json" for i in range(n)]
        for i, ip in enumerate(lab.addresses):
            cmd = [
                sys.executable, "-m", "adp2p.cli", "join", *bot, "--seed", str(i),
                "--name", f"bot{i}", "--table", table, "--players", str(n), "--interface", ip,
                "--data-dir", str(tmp_path / f"d{i}"), "--round-limit", "2", "--think", "0",
                "--abandon-after", "30", "--quiet", "--result-json", str(results[i]),
            ]  # fmt: skip
            procs.append(lab.popen(i, cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outs: list[tuple[str, str]] = [("", "")] * n
        walls = [0.0] * n

        async def wait(i: int) -> None:
            outs[i] = await trio.to_thread.run_sync(procs[i].communicate, abandon_on_cancel=True)
            walls[i] = time.monotonic() - t0

        try:
            with trio.move_on_after(GAME_TIMEOUT):
                async with trio.open_nursery() as nursery:
                    for i in range(n):
                        nursery.start_soon(wait, i)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
        diag = "\n---\n".join(f"rc={p.returncode}\n{o}\n{e[-3000:]}" for p, (o, e) in zip(procs, outs, strict=True))
        assert [p.returncode for p in procs] == [0] * n, diag
        reports: list[dict[str, Any]] = [json.loads(r.read_text()) for r in results]
        assert len({r["game_id"] for r in reports}) == 1, reports
        assert len({r["head"] for r in reports}) == 1, reports
        assert len({r["entries"] for r in reports}) == 1, reports
        for r in reports:
            assert r["audit_ok"] is True and r["verdict"] is None and r["abandoned_by"] is None, r
            assert "round limit" in r["line"] or "winner" in r["line"], r
        logs = [Path(r["log"]).read_bytes() for r in reports]
        assert all(log == logs[0] for log in logs)  # byte-identical logs (same entries, same order)
        print(f"\nmDNS game in {n} namespaces: {reports[0]['entries']} entries, all done after {max(walls):.1f} s")
