"""Chaos at a table of bot peers, each its own OS process on loopback (tests/p2p/_table_procs.py): random faults
at random moments, then a judgement of every game. Scenarios:

  control     no fault
  kill1       SIGKILL one peer, resume it after 0-6 s
  kill2       SIGKILL two peers, resume both after 0-6 s
  stop_short  SIGSTOP one peer for less than the abandon period, then SIGCONT
  stop_long   SIGSTOP one peer for longer than the abandon period, then SIGCONT (its own entry beats the abandon
              while the others linger; otherwise it learns it was abandoned, or leaves naming nobody)
  gone        SIGKILL one peer for good: it must be abandoned and named within a bound
  lobby_kill  SIGKILL one peer before the game begins, for good: the others must leave the lobby with a clear
              line within a bound (the roster keeps only players alive now)
  torn_tail   SIGKILL one peer, cut its log inside one of its last three records (the disk lost the end of a
              record, with entries it had sent), resume it after 0-3 s: it takes its own entries back from the table
  first_write SIGKILL one peer right after the genesis reaches its log (0-40 ms later: while or just after it
              writes its first secrets file), resume it with `--resume latest`: the game must go on with it
  disk_full   the disk under one peer's data directory (a 4 MiB tmpfs) fills up mid-game: it must stop with one
              line; the disk is freed and it resumes
  flood_resume  SIGKILL one peer; an outsider keeps 300 idle connections open to the one peer it is told to dial,
              from its own address (127.0.0.1), while it resumes on a new port: it must get back in (the others'
              handshake slots give way to a seated player's; it also dials the addresses it learned for the game)
  lobby_stop  one more peer than the table's players; one peer, at random, is stopped (SIGSTOP) in the lobby for
              1.5 times the time a seat may hold the table up (the patience, at least 10 s), then continued: the
              table must go on without it if it held the table up (it had not agreed, or held the pen: the roster
              agreement passes it over) and play one game; the one left out leaves with one line (exit 3), nobody
              named
  lobby_gone  one more peer than the table's players; one peer, at random, is killed in the lobby for good: the
              others play one game (the spare takes its seat), the spare left out leaves with one line
  agree_kill  SIGKILL one peer as soon as its roster agreement is on disk (its lobby note: before or after the
              table heard it, before any genesis reached its disk), resume it with `--resume latest` after 0-2 s:
              it must find its game (or be told in one line that the table went on without it)
  partition   every peer in a network namespace of its own (NetnsLab); the LAN is split in two random groups for
              0.5-2.5 abandon periods, then heals. Halves of equal size must both wait (nobody named); a smaller
              group cut off past the patience may be named (to the others it stopped answering), and if it is back
              only after the others left, its log agrees with theirs up to their abandon (counted as late)

Columns: games, completed (or, in the lobby, every peer left with a clear line), abandoned-and-named (only a
faulted peer: killed or stopped, it was silent past the patience), hangs (no end within the bound), differing logs
(the final logs of the peers still there not byte-identical), unclean audits (`ad-p2p audit` names a peer that was
never faulted), tracebacks, honest named (a never-faulted peer named anywhere: an abandonment, a verdict, an audit
violation). Seeded: a run can be repeated.

    .venv/bin/python benchmarks/bench_chaos.py [--games N] [--players 3-5] [--seed S] [--scenario NAME ...]
                                               [--keep DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "p2p"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from _outsiders import flood
from _table_procs import Table, free_port, log_records
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.protocol import Kind, decode_body
from adp2p.p2p.roster import MIN_PATIENCE
from netns import NetnsLab
from small_disk import fill, mount_small, unmount

PATIENCE = 4.0  # --abandon-after of every peer (seconds)
BOUND = 90.0  # a game that has not ended by then is a hang


@dataclass
class Judged:
    completed: int = 0
    abandoned_named: int = 0
    hangs: int = 0
    differing: int = 0
    unclean: int = 0
    tracebacks: int = 0
    late: int = 0  # a faulted peer back after the others left: a prefix of their log, exit 6
    left: int = 0  # a peer that left on its abandon before the seat it named came back and the game reopened (rule 7)
    honest_named: int = 0
    notes: list[str] = field(default_factory=list)


def _audit(log: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "adp2p.cli", "audit", str(log), "--json"], capture_output=True, text=True, timeout=60
    )
    return json.loads(out.stdout)


def play(
    root: Path, scenario: str, n: int, seed: int, rng: random.Random, stack: contextlib.ExitStack
) -> tuple[Table, set[int], set[int], list[int | None]]:
    """One game; returns the table, the peers that vanished for good, the peers hit by a fault (a killed or
    stopped peer may rightly be abandoned and named: it was silent), and the exit codes. What must outlive the
    game until it is judged (a lab, a mounted disk) goes on `stack`."""
    lab = stack.enter_context(NetnsLab(n)) if scenario == "partition" else None
    spare = scenario in ("lobby_stop", "lobby_gone")  # one peer more than the table seats
    table = Table(
        root, n + spare, round_limit=6, abandon_after=PATIENCE, think=0.01, seed=seed, quiet=False, lab=lab,
        players=n,
    )
    gone: set[int] = set()
    faulted: set[int] = set()
    small = table.peers[rng.randrange(n)] if scenario == "disk_full" else None
    if small is not None:
        why = mount_small(small.data_dir)
        if why is not None:
            raise SystemExit(f"bench_chaos: disk_full needs a small tmpfs: {why}")
        stack.callback(unmount, small.data_dir)
    with table:
        table.start_all()
        peers = table.peers
        if scenario == "disk_full":
            assert small is not None
            with contextlib.suppress(AssertionError):
                table.wait_entries(small, rng.randrange(12, 60), timeout=30)
            filler = fill(small.data_dir)
            faulted.add(small.index)
            [rc] = table.wait([small], timeout=BOUND)
            filler.unlink()
            if rc not in (0, None) and small.game_dir() is not None:
                table.start(small, resume=small.game_dir(), peer_addr=peers[1].port if small.index == 0 else None)
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "partition":
            assert lab is not None
            order = rng.sample(range(n), n)
            cut = rng.randint(1, n // 2)
            minority, rest = sorted(order[:cut]), sorted(order[cut:])
            with contextlib.suppress(AssertionError):
                table.wait_entries(peers[rest[0]], rng.randrange(12, 60), timeout=30)
            lab.split([minority, rest])
            time.sleep(rng.uniform(0.5, 2.5) * PATIENCE)
            lab.heal()
            if 2 * len(minority) < n:
                faulted.update(minority)  # to the others they stopped answering: they may rightly be named
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "torn_tail":
            v = peers[rng.randrange(n)]
            with contextlib.suppress(AssertionError):
                table.wait_entries(v, rng.randrange(12, 60), timeout=30)
            if v.proc is not None and v.proc.poll() is None and v.log_path() is not None:
                table.signal(v, signal.SIGKILL)
                faulted.add(v.index)
                path = v.log_path()
                assert path is not None
                records = log_records(path)
                i = rng.randrange(max(0, len(records) - 3), len(records))
                start = sum(4 + len(r) for r in records[:i])
                path.write_bytes(path.read_bytes()[: start + rng.randrange(1, 4 + len(records[i]))])
                time.sleep(rng.uniform(0, 3))
                table.start(v, resume=v.game_dir(), peer_addr=peers[1].port if v.index == 0 else None)
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "first_write":
            v = peers[rng.randrange(n)]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and v.entries() == 0:
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.04))
            table.signal(v, signal.SIGKILL)
            faulted.add(v.index)
            time.sleep(rng.uniform(0, 2))
            table.start(v, resume=Path("latest"), peer_addr=peers[1].port if v.index == 0 else None)
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "agree_kill":
            v = peers[rng.randrange(n)]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not any((v.data_dir / "lobby").glob("[!.]*")):
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.05))
            table.signal(v, signal.SIGKILL)
            faulted.add(v.index)
            time.sleep(rng.uniform(0, 2))
            table.start(v, resume=Path("latest"), peer_addr=peers[1].port if v.index == 0 else None)
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "flood_resume":
            v = peers[rng.randrange(n)]
            target = peers[1] if v.index == 0 else peers[0]
            with contextlib.suppress(AssertionError):
                table.wait_entries(v, rng.randrange(12, 60), timeout=30)
            if v.proc is not None and v.proc.poll() is None and v.game_dir() is not None:
                table.signal(v, signal.SIGKILL)
                faulted.add(v.index)
                stop, held = threading.Event(), [0]
                args = (target.port, stop, held, 300, ["127.0.0.1"])
                flooder = threading.Thread(target=flood, args=args, daemon=True)
                flooder.start()
                stack.callback(flooder.join, 10)
                stack.callback(stop.set)
                time.sleep(rng.uniform(0.5, 2.0))
                v.port = free_port()
                table.start(v, resume=v.game_dir(), peer_addr=target.port)
            codes = table.wait(timeout=BOUND)
            return table, gone, faulted, codes
        if spare:
            v = peers[rng.randrange(len(peers))]
            time.sleep(rng.uniform(0.3, 2.0))
            if v.entries() == 0:  # still in the lobby
                faulted.add(v.index)
                if scenario == "lobby_gone":
                    table.signal(v, signal.SIGKILL)
                    gone.add(v.index)
                else:
                    table.signal_nowait(v, signal.SIGSTOP)
                    time.sleep(1.5 * max(PATIENCE, MIN_PATIENCE))  # past the time a seat may hold the table up
                    table.signal_nowait(v, signal.SIGCONT)
            codes = table.wait([p for p in peers if p.index not in gone], timeout=BOUND)
            return table, gone, faulted, codes
        if scenario == "lobby_kill":
            v = peers[rng.randrange(1, n)]
            time.sleep(rng.uniform(0.2, 0.8))
            if v.entries() == 0:  # still in the lobby (else this game tests nothing: judged as it is)
                table.signal(v, signal.SIGKILL)
                gone.add(v.index)
                faulted.add(v.index)
            codes = table.wait([p for p in peers if p.index not in gone], timeout=BOUND)
            return table, gone, faulted, codes
        if scenario != "control":
            at = rng.randrange(12, 60)
            victims = rng.sample(peers, 2 if scenario == "kill2" else 1)
            with contextlib.suppress(AssertionError):  # the game ended first: nothing to break
                table.wait_entries(victims[0], at, timeout=30)
            for v in victims:
                if v.proc is None or v.proc.poll() is not None:
                    continue
                faulted.add(v.index)
                if scenario in ("kill1", "kill2", "gone"):
                    table.signal(v, signal.SIGKILL)
                else:
                    table.signal_nowait(v, signal.SIGSTOP)
            if scenario in ("kill1", "kill2"):
                time.sleep(rng.uniform(0, 6))
                for v in victims:
                    if v.proc is not None and v.proc.returncode is not None:
                        if v.game_dir() is not None:  # a returning hub is told another player's address
                            others = [p for p in peers if p not in victims]
                            table.start(v, resume=v.game_dir(), peer_addr=others[0].port if v.index == 0 else None)
                        else:  # killed before it had a game to resume: it is gone
                            gone.add(v.index)
            elif scenario in ("stop_short", "stop_long"):
                time.sleep(rng.uniform(0.5, PATIENCE * 0.6) if scenario == "stop_short" else PATIENCE * 1.5)
                for v in victims:
                    table.signal_nowait(v, signal.SIGCONT)
            elif scenario == "gone":
                gone.update(v.index for v in victims)
        codes = table.wait([p for p in peers if p.index not in gone], timeout=BOUND)
    return table, gone, faulted, codes


def _agrees_until_abandoned(mine: bytes, theirs: bytes, their_path: Path) -> bool:
    """A late peer's log is a prefix of the others', or (a group cut off, which went on alone) equal to theirs
    up to their last entry, an abandon naming it."""
    if theirs.startswith(mine):
        return True
    recs = log_records(their_path)
    return bool(recs) and decode_entry(recs[-1]).kind == Kind.ABANDON and mine.startswith(theirs[: -len(recs[-1]) - 4])


def _left_before_reopen(mine: bytes, their_path: Path) -> bool:
    """A peer that left on the abandonment it wrote, before the seat it named answered after all and the others went on
    (docs/protocol.md, "Abandonment" rule 7): its log is theirs up to that seq and then its own abandon, which their
    last entry carries as `left` (the game ended there naming nobody)."""
    recs = log_records(their_path)
    if not recs:
        return False
    last = decode_entry(recs[-1])
    if last.kind != Kind.ABANDON:
        return False
    left = decode_body(last.body).get("left")
    if not isinstance(left, bytes) or not mine.endswith(left):
        return False
    k = decode_entry(left).seq
    return mine[: -len(left) - 4] == b"".join(len(r).to_bytes(4, "big") + r for r in recs[:k])


def judge(table: Table, gone: set[int], faulted: set[int], codes: list[int | None], j: Judged, label: str) -> None:
    live = [p for p in table.peers if p.index not in gone]
    if any(c is None for c in codes):
        j.hangs += 1
        j.notes.append(f"{label}: hang (exit codes {codes})")
        return
    # a peer the table did not seat (one more than its players came, or one passed over in the lobby) leaves with
    # one line and no game of its own: apart from the game's judgement
    out = [(p, c) for p, c in zip(live, codes, strict=True) if c == 3 and p.log_path() is None and len(live) > 2]
    if out and len(out) < len(live):
        for p, _c in out:
            tail = [ln for ln in p.output().strip().splitlines() if ln.startswith("ad-p2p join:")]
            if len(tail) != 1:
                j.notes.append(f"{label}: {p.name} left out without one clear line")
        keep = [(p, c) for p, c in zip(live, codes, strict=True) if (p, c) not in out]
        gone = gone | {p.index for p, _ in out}
        live, codes = [p for p, _ in keep], [c for _, c in keep]
    if any(c is None for c in codes):
        j.hangs += 1
        j.notes.append(f"{label}: hang (exit codes {codes})")
        return
    if any("Traceback" in p.output() for p in table.peers):
        j.tracebacks += 1
        j.notes.append(f"{label}: traceback in " + ", ".join(p.name for p in table.peers if "Traceback" in p.output()))
    outs: list[dict] = []
    for p in live:
        try:
            outs.append(p.outcome())
        except (OSError, ValueError):
            outs.append({})
    # a faulted peer that came back after every other peer had left (exit 6, "lost contact") cannot learn the end:
    # its log must be a prefix of the others' (counted apart, not as a split table)
    late = [p for p, c in zip(live, codes, strict=True) if c == 6 and p.index in faulted]
    stay = [p for p in live if p not in late and p.log_path() is not None]
    logs = {p.log_path().read_bytes() for p in stay}  # type: ignore[union-attr]
    gone_first = [  # left on the abandonment it wrote before the game reopened without it (rule 7): not a split
        p for p in live if p not in late and p.log_path() is not None and len(stay) > 1
        and any(q is not p and _left_before_reopen(p.log_path().read_bytes(), q.log_path()) for q in stay)  # type: ignore[union-attr,arg-type]
    ]
    if gone_first:
        j.left += len(gone_first)
        j.notes.append(f"{label}: {', '.join(p.name for p in gone_first)} left on its abandon before the game reopened")
        stay = [p for p in stay if p not in gone_first]
        logs = {p.log_path().read_bytes() for p in stay}  # type: ignore[union-attr]
    for p in late:
        mine = p.log_path().read_bytes() if p.log_path() is not None else b""  # type: ignore[union-attr]
        if len(logs) == 1 and _agrees_until_abandoned(mine, next(iter(logs)), stay[0].log_path()):  # type: ignore[arg-type]
            j.late += 1
        else:
            logs.add(mine)
    if len(logs) > 1:
        j.differing += 1
        j.notes.append(f"{label}: {len(logs)} different logs among {len(live)} peers")
    names = {p.name: p.index for p in table.peers}
    named: set[int] = set()
    for o in outs:
        if o.get("abandoned_by") in names:
            named.add(names[o["abandoned_by"]])
        for v in [o.get("verdict") or "", *o.get("violations", [])]:
            named.update(i for nm, i in names.items() if v.startswith(nm + " "))
    for p in live:
        if p.log_path() is None:
            continue
        rep = _audit(p.log_path())  # type: ignore[arg-type]
        bad = {names.get(pl["name"], -1) for pl in rep.get("players", []) if pl["violations"]}  # seat -> peer
        named |= bad
        if bad - faulted:
            j.unclean += 1
            j.notes.append(f"{label}: audit of {p.name}'s log names seats {sorted(bad)}")
            break
    if named - faulted:
        j.honest_named += 1
        j.notes.append(f"{label}: honest seats named {sorted(named - faulted)}; outcomes {outs}")
    if all(c == 0 for c in codes):
        j.completed += 1
    elif not named and all(c == 5 for c in codes) and all(o.get("left_by") for o in outs if o):
        j.abandoned_named += 1  # ended where a seat that had left was due (rule 7): nobody named, counted here
        j.notes.append(f"{label}: ended where {outs[0].get('left_by')} was due, who had left (rule 7): nobody named")
    elif named and named <= faulted and all(c == 5 or (c == 6 and p in late) for c, p in zip(codes, live, strict=True)):
        j.abandoned_named += 1
    elif gone and not named and all(c == 3 for c in codes):  # the lobby: every peer left with a clear line
        j.completed += 1
    else:
        j.notes.append(f"{label}: exit codes {codes}")


def player_range(text: str) -> tuple[int, int] | None:
    """`--players`: a count ("4") or a range ("3-5") of 2..6 players; None when it is neither."""
    parts = text.split("-")
    if len(parts) not in (1, 2) or not all(p.isdigit() for p in parts):
        return None
    lo, hi = int(parts[0]), int(parts[-1])
    return (lo, hi) if 2 <= lo <= hi <= 6 else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=7, help="games per scenario")
    ap.add_argument("--players", default="3-5")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None, help="copy the directory of every game with a note here")
    ap.add_argument(
        "--scenario",
        nargs="*",
        default=[
            *("control", "kill1", "kill2", "stop_short", "stop_long", "gone", "lobby_kill", "disk_full", "partition"),
            *("torn_tail", "first_write"),
            "flood_resume",
            *("lobby_stop", "lobby_gone", "agree_kill"),
        ],
    )
    args = ap.parse_args()
    counts = player_range(args.players)
    if counts is None:
        ap.error(f"--players {args.players!r}: a count (4) or a range (3-5) of 2 to 6")
    lo, hi = counts
    rng = random.Random(args.seed)
    print(
        f"{'scenario':<11} games completed abandoned-named hangs differing unclean tracebacks honest-named "
        "late-prefix left  s/game  load"
    )
    failures = 0
    for scenario in args.scenario:
        j = Judged()
        t0 = time.monotonic()
        for k in range(args.games):
            n = rng.randint(lo, hi)
            seed = rng.randrange(10**6)
            with tempfile.TemporaryDirectory() as d, contextlib.ExitStack() as stack:
                table, gone, faulted, codes = play(Path(d), scenario, n, seed, rng, stack)
                before = len(j.notes)
                judge(table, gone, faulted, codes, j, f"{scenario} #{k} (n={n}, seed={seed})")
                if args.keep is not None and len(j.notes) > before:  # the peers' outputs and logs, to read
                    shutil.copytree(d, args.keep / f"{scenario}-{k}", dirs_exist_ok=True)
        bad = j.hangs + j.differing + j.unclean + j.tracebacks + j.honest_named
        failures += bad
        per = (time.monotonic() - t0) / max(1, args.games)
        print(
            f"{scenario:<11} {args.games:5d} {j.completed:9d} {j.abandoned_named:15d} {j.hangs:5d} {j.differing:9d} "
            f"{j.unclean:7d} {j.tracebacks:10d} {j.honest_named:12d} {j.late:11d} {j.left:4d}  {per:6.1f}  "
            f"{os.getloadavg()[0]:.1f}",
            flush=True,
        )
        for note in j.notes:
            print(f"    {note[:400]}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
