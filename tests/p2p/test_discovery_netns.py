"""Real mDNS between network namespaces: 3 players on one bridge find each other.

Each player is a separate process (tests/p2p/_mdns_peer.py) running inside its own
namespace; it advertises, browses until it has seen the two others, says hello to each
over TCP with the framing layer, and reports what it saw as one JSON line.
"""

from __future__ import annotations

import json
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

HELPER = Path(__file__).with_name("_mdns_peer.py")
NAMES = ["ann", "bob", "cyd"]
DISCOVERY_TIMEOUT = 20.0


@pytest.mark.parametrize("probe", [True, False], ids=["probe", "no-probe"])
async def test_three_namespaces_discover_each_other(probe: bool) -> None:
    with NetnsLab(3) as lab:
        t_start = time.monotonic()
        procs: list[subprocess.Popen[str]] = []
        for i, name in enumerate(NAMES):
            cmd = [
                sys.executable, str(HELPER),
                "--name", name, "--port", str(7100 + i), "--table", "lab-table",
                "--fp", f"{i + 1:02d}" * 16, "--seats", "3", "--interface", lab.ifname,
                "--expect", "2", "--timeout", str(DISCOVERY_TIMEOUT), "--linger", "30",
                *([] if probe else ["--no-probe"]),
            ]  # fmt: skip
            procs.append(
                lab.popen(
                    i, cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                )
            )
        reports: list[dict[str, Any]] = [{} for _ in procs]
        try:
            with trio.fail_after(DISCOVERY_TIMEOUT + 10):
                async with trio.open_nursery() as nursery:
                    for i, proc in enumerate(procs):

                        async def read_report(i: int = i, proc: subprocess.Popen[str] = proc) -> None:
                            assert proc.stdout is not None
                            line = await trio.to_thread.run_sync(proc.stdout.readline, abandon_on_cancel=True)
                            reports[i] = json.loads(line) if line.strip() else {"no_output": True}
                            reports[i]["wall"] = time.monotonic() - t_start

                        nursery.start_soon(read_report)
        finally:
            # communicate() closes stdin: each peer then withdraws its advertisement and exits.
            stderr = []
            for proc in procs:
                try:
                    _, err = proc.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    _, err = proc.communicate()
                stderr.append(err)
        diag = json.dumps(reports, indent=1) + "\n" + "\n---\n".join(stderr)
        assert [p.returncode for p in procs] == [0, 0, 0], diag

        instances = [r["self"] for r in reports]
        for i, report in enumerate(reports):
            assert report["ok"], diag
            others = {r["instance"]: r for r in report["seen"]}
            expected = {instances[j] for j in range(3) if j != i}
            assert set(others) == expected, diag
            for j in range(3):
                if j == i:
                    continue
                peer = others[instances[j]]
                assert peer["addresses"] == [lab.addresses[j]], diag
                assert peer["port"] == 7100 + j, diag
                assert peer["txt"] == {
                    "v": "1", "table": "lab-table", "pk": f"{j + 1:02d}" * 16, "name": NAMES[j], "seats": "3",
                }, diag  # fmt: skip
                hello = report["hellos"][instances[j]]
                assert hello == {"hello": NAMES[j], "pk": f"{j + 1:02d}" * 16, "you": NAMES[i]}, diag
        slowest = max(r["discovered_after"] for r in reports)
        last_seen = max(t for r in reports for t in r["first_seen"].values())
        print(
            f"\n3 namespaces ({'probe' if probe else 'no probe'}): every peer saw both others "
            f"{slowest:.2f}s after its own start (latest first sighting {last_seen:.2f}s, "
            f"registration done by {max(r['registered_after'] for r in reports):.2f}s); "
            f"wall clock from spawning to the last report {max(r['wall'] for r in reports):.2f}s"
        )
        assert slowest < DISCOVERY_TIMEOUT
