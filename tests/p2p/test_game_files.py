"""A game's directory after the game: a finished game is never reopened. Through the library API, peers that reuse
a finished game's keys and data directories (the command line makes a fresh key per join) meet again at the same
table, and its genesis (seeded: the very bytes of the first game's) is offered again: every peer refuses it, its
log and secrets file stay byte for byte as they were, and its audit still names nobody (before: the peers reopened
its log with fresh secrets and overwrote its secrets file, and the audit of the finished game named a player)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.audit import audit_log
from adp2p.p2p.peer import Outcome, PeerConfig, TableError, TablePeer, root_cause
from seeds import draw, seeded_peer

N = 3


async def play(tmp_path: Path, lobby_timeout: float) -> list[Outcome | BaseException]:
    """One game of N seeded peers (the same keys, data directories and genesis every time)."""
    seeds = draw(N, 9)
    results: list[Outcome | BaseException] = [TableError("never ran")] * N
    ports: list[int] = []
    up = trio.Event()

    def cfg(i: int) -> PeerConfig:
        return PeerConfig(
            name=f"p{i}", table="again", want=N, round_limit=2, data_dir=tmp_path / f"p{i}", abandon_after=30.0,
            lobby_timeout=lobby_timeout, heartbeat=0.5, peers=[("127.0.0.1", ports[0])] if i else [],
        )  # fmt: skip

    async def run(i: int, **kw: object) -> None:
        bot = make_bot("random", 70 + i)
        p = seeded_peer(TablePeer, seeds)(cfg(i), bot, say=lambda _l: None, identity=seeds.ids[i])
        try:
            results[i] = await p.run(**kw)  # type: ignore[arg-type]
        except (TableError, BaseExceptionGroup) as exc:
            results[i] = root_cause(exc)
        finally:
            if i == 0 and not up.is_set():
                up.set()

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: run(0, on_listening=lambda p: (ports.append(p), up.set())))
            await up.wait()
            for i in range(1, N):
                nursery.start_soon(run, i)
    return results


def files(tmp_path: Path) -> dict[str, bytes]:
    return {str(f.relative_to(tmp_path)): f.read_bytes() for f in sorted(tmp_path.rglob("*")) if f.is_file()}


@pytest.mark.slow
async def test_a_finished_game_is_never_reopened_by_a_replay_of_its_genesis(tmp_path: Path) -> None:
    first = await play(tmp_path, lobby_timeout=30.0)
    for o in first:
        assert isinstance(o, Outcome) and o.audit_ok is True and o.abandoned_by is None, o
    log = first[0].log_path  # type: ignore[union-attr]
    assert log is not None and audit_log(log).ok
    before = files(tmp_path)
    again = await play(tmp_path, lobby_timeout=4.0)
    for i, o in enumerate(again):
        assert isinstance(o, TableError), (i, o)
    # the genesis author says why; the others refused the genesis and left the lobby with one line
    assert "already played here" in str(again[0]) and "never reopened" in str(again[0]), again[0]
    assert files(tmp_path) == before  # not one byte of the finished game changed (no secrets file rewritten)
    for i in range(N):
        res = audit_log(tmp_path / f"p{i}" / log.relative_to(tmp_path / "p0"))
        assert res.ok, res.text()
