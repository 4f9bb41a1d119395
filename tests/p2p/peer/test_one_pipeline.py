"""One pipeline for an entry at the peer (p2p/pipeline.py; docs/architecture.md): an entry that arrives from the table,
followed from the message to the fold and the disk, is framed once, its signature verified once and its body decoded
once — each step's output handed to the next, never worked out again. A real peer on a real seeded log; the spies
count the real functions wherever a module bound them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from adp2p.crypto import entries
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p import protocol
from adp2p.p2p.local import LocalTable
from adp2p.p2p.paths import write_secret
from adp2p.p2p.peer import PeerConfig, TablePeer
from seeds import seeded_table

ME = 0


class Wire:
    """What the peer sends, recorded."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        self.sent.append(msg)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        self.sent.append(msg)
        return []


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Count the calls of `owner.name` from every module that holds it (its own and those that imported it)."""
    real, calls = getattr(owner, name), [0]

    def counted(*a: Any, **k: Any) -> Any:
        calls[0] += 1
        return real(*a, **k)

    for mod in list(sys.modules.values()):
        if getattr(mod, name, None) is real:
            monkeypatch.setattr(mod, name, counted)
    return calls


def _peer_at(t: LocalTable, tmp_path: Path) -> TablePeer:
    """Our seat's peer, resumed from the table's log as it is now."""
    gdir = tmp_path / "games" / "g"
    gdir.mkdir(parents=True)
    t.write_log(gdir / "log")
    me = t.ms[ME].me
    assert me is not None
    write_secret(gdir / "secrets", me.to_bytes())
    p = TablePeer(PeerConfig(name="p0", data_dir=tmp_path, abandon_after=30.0), make_bot("random", 1),
                  say=lambda _: None)
    p.seating.load(gdir)
    p.wire = Wire()
    return p


@pytest.mark.parametrize("steps", [6, 40])
def test_an_arriving_entry_is_framed_verified_and_its_body_decoded_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, steps: int
) -> None:
    t = seeded_table(3, 7, profile="classic", round_limit=4, bots="random")
    for _ in range(steps):
        t.step()
    while (d := t.ms[t.referee].duty()) is None or d.seat == ME:
        assert t.step()
    p = _peer_at(t, tmp_path)
    kind, body = t.ms[d.seat].author_next(t.bots[d.seat])  # type: ignore[misc]
    raw = t.sign(d.seat, kind, body)
    author = t.ms[ME].ids[d.seat].fingerprint()
    frames, verifies = _spy(monkeypatch, entries, "decode_entry"), _spy(monkeypatch, entries, "verify_entry")
    bodies = _spy(monkeypatch, protocol, "decode_body")
    trio.run(p.handle, author, f"p{d.seat}", {"k": "entry", "raw": raw})
    assert p.store is not None and p.store[len(p.store) - 1].raw == raw  # taken: on disk, folded
    assert (frames[0], verifies[0], bodies[0]) == (1, 1, 1)


def test_an_entry_held_ahead_of_the_log_is_not_framed_or_verified_again_when_its_turn_comes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The entry after next arrives first: framed and its signature checked as it is held (garbage there would stall
    us), then taken once the next one came, from what those steps made."""
    t = seeded_table(3, 7, profile="classic", round_limit=4, bots="random")
    for _ in range(6):
        t.step()
    for _ in range(200):  # a point where the next two entries are the others'
        d = t.ms[t.referee].duty()
        if d is not None and d.seat != ME:
            n = len(t.raws)
            p = _peer_at(t, tmp_path / str(n))
            t.step()
            t.step()
            later = [entries.decode_entry(r) for r in t.raws[n:n + 2]]
            if all(e.author != ME for e in later):
                break
        else:
            assert t.step()
    else:
        raise AssertionError("no two entries of the others in a row")
    first, second = later
    frames, verifies = _spy(monkeypatch, entries, "decode_entry"), _spy(monkeypatch, entries, "verify_entry")
    bodies = _spy(monkeypatch, protocol, "decode_body")
    for e in (second, first):
        trio.run(p.handle, t.ms[ME].ids[e.author].fingerprint(), f"p{e.author}", {"k": "entry", "raw": e.raw})
    assert p.store is not None and [x.raw for x in p.store.since(n)] == [first.raw, second.raw]
    assert (frames[0], verifies[0], bodies[0]) == (2, 2, 2)
