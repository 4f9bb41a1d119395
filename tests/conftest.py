"""Test helpers shared by every test directory live in tests/support (importable as top-level modules)."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "support"))

# `./dev test` sets ADP2P_COMMAND (how a player re-runs us, for resume hints): the tests expect the plain
# console-script name in every hint, so neither they nor the processes they start see it
import os

os.environ.pop("ADP2P_COMMAND", None)

# Ctrl-C reaches the processes the tests start as it reaches a player's: a suite started in the background by a
# non-interactive shell (`nohup ./dev test &`) inherits SIGINT *ignored*, and every peer, client and pty it starts
# would inherit that too, so the tests of Ctrl-C failed (seen: SigIgn bit 2 set in every process of such a run). A
# handled signal is reset to its default at exec, so restoring Python's own handler here (the main process and every
# xdist worker import this file in their main thread) gives each child the default a terminal gives it.
import signal

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# --- the order the workers run the tests in (`./dev test`: pytest-xdist, --dist worksteal) ----------------------------
# worksteal hands worker i the i-th contiguous slice of the collection (equal counts) and an idle worker later takes
# the second half of a busy worker's queue. In collection order the long process and browser tests bunch up in a few
# directories, so one worker was left running them for the last minutes. Here the tests whose duration is recorded in
# tests/durations.json (seconds, the slow ones) are dealt out longest first, each to the slice with the least time so
# far, every slice starting with its long tests; the rest fill the slices up to equal counts in collection order
# (so the quick tests are what gets stolen at the end). Tests that share a module- or class-scoped fixture move as one.
# `./dev test --record-durations` updates the file with the figures of the tests it ran (those of 1 s or more; run it
# on an idle machine, or the order follows the noise). Order only: nothing is skipped, nothing is timed against a limit.
DURATIONS = Path(__file__).parent / "durations.json"
RECORD_MIN = 1.0  # seconds: quicker tests are not recorded (they are the filler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-durations", action="store_true",
                     help=f"write each test's duration (>= {RECORD_MIN} s) to {DURATIONS.name} at the end")


def _unit(item: pytest.Item) -> str:
    """Items that must run together on one worker: those sharing a module- or class-scoped fixture of their own."""
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        if defs and defs[-1].scope in ("module", "class", "package"):
            return item.nodeid.split("::")[0]
    return item.nodeid


@pytest.hookimpl(trylast=True)  # after pytest's own grouping of parametrized fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2 or not DURATIONS.exists():
        return
    known: dict[str, float] = json.loads(DURATIONS.read_text())
    units: dict[str, list[pytest.Item]] = {}
    for it in items:
        units.setdefault(_unit(it), []).append(it)
    cost = {k: sum(known.get(it.nodeid, 0.0) for it in v) for k, v in units.items()}
    slow = sorted((k for k in units if cost[k] > 0), key=lambda k: -cost[k])  # (stable: same on every worker)
    quick = [k for k in units if cost[k] <= 0]
    bins: list[list[pytest.Item]] = [[] for _ in range(workers)]
    spent = [0.0] * workers
    for k in slow:
        i = min(range(workers), key=lambda j: (spent[j], j))
        bins[i].extend(units[k])
        spent[i] += cost[k]
    share = -(-len(items) // workers)
    for k in quick:
        i = next((j for j in range(workers) if len(bins[j]) < share), workers - 1)
        bins[i].extend(units[k])
    items[:] = [it for b in bins for it in b]


_took: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not session.config.getoption("record_durations") or hasattr(session.config, "workerinput"):
        return
    got: dict[str, float] = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    for k, v in _took.items():  # the tests run now replace their old figure (a test now quick is dropped)
        got.pop(k, None)
        if v >= RECORD_MIN:
            got[k] = round(v, 1)
    DURATIONS.write_text(json.dumps(dict(sorted(got.items())), indent=0) + "\n")
