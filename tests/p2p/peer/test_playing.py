"""Our part of the play (p2p/peer/playing.py), alone: our duty on a real seeded fold, authored, signed, on disk (its
secrets first) and sent; intake, the wire, the seat's files and catching up are recorders and plain values. No
network, no peer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import trio
from adp2p.crypto.entries import verify_entry
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.playing import Playing
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import Kind
from seeds import seeded_table


class Store(list):  # type: ignore[type-arg]
    """Our log, as entries."""

    @property
    def head_id(self) -> bytes:
        return self[-1].id


def playing(tmp_path: Any, *, behind: bool = False) -> tuple[Playing, Any, list[Any]]:
    """Seat 1's Playing at its `join` (the seeded table's second entry due), and what it did, in order."""
    t = seeded_table(3, 7, profile="classic", round_limit=4, bots="random")
    t.step()  # seat 0's join: seat 1's is due
    m = t.ms[1]
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    log.store = Store(frame(r) for r in t.raws)  # type: ignore[assignment]
    log.machine = m
    did: list[Any] = []

    async def broadcast(msg: dict[str, Any]) -> list[str]:
        did.append(("sent", msg))
        return []

    p = Playing(
        log, Narrator("en", lambda s: None), Patience(30.0), Abandonment(Patience(30.0)),
        SimpleNamespace(active=behind), SimpleNamespace(note_stall=lambda: None),
        SimpleNamespace(save_secrets=lambda: did.append(("secrets saved",))), SimpleNamespace(),
        SimpleNamespace(accept=lambda e, **k: did.append(("accepted", e, k))), SimpleNamespace(), SimpleNamespace(),
        SimpleNamespace(), cfg=PeerConfig(name="p1", data_dir=tmp_path), choose=lambda *a: None,
        me=lambda: t.ids[1], mesh=lambda: None, wire=lambda: SimpleNamespace(broadcast=broadcast),
        ended=lambda: None, decide=None, decide_window=None, finish=lambda: None,  # type: ignore[arg-type]
    )
    return p, m, did


def test_our_duty_is_signed_on_disk_after_its_secrets_then_sent(tmp_path: Any) -> None:
    p, m, did = playing(tmp_path)
    d = m.duty()
    assert d is not None and d.seat == 1 and d.kind == Kind.JOIN
    trio.run(p.our_duty, m, m, d, [])
    assert [x[0] for x in did] == ["secrets saved", "accepted", "sent"]
    e, how = did[1][1], did[1][2]
    assert how == {"own": True} and (e.seq, e.author, e.kind) == (2, 1, Kind.JOIN)
    assert e.prev_hash == p.log.store[-1].id  # type: ignore[index]
    verify_entry(e, m.ids[1])  # signed with our key
    assert did[2][1] == {"k": "entry", "raw": e.raw}


def test_nothing_is_signed_while_we_must_catch_up_first(tmp_path: Any) -> None:
    p, m, did = playing(tmp_path, behind=True)
    trio.run(p.our_duty, m, m, m.duty(), [])
    assert did == []  # (the table may have gone on without us)
