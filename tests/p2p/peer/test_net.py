"""The peer's net (p2p/peer/net.py), alone: the log is a list of plain entries (real signed ones where one is decoded),
the fold its seats, the lobby a plain record, the wire a recorder; what it does through the peer (take an entry in,
tell the player) is recorded. No network, no peer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.common import MAX_REFUSALS_TOLD, PeerConfig
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.net import Net
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.stalls import CatchUp
from adp2p.p2p.protocol import Kind, encode_body

KEYS = [SecretIdentity.generate() for _ in range(3)]
IDS = [k.public for k in KEYS]
FPS = [i.fingerprint() for i in IDS]
GAME = b"g" * 32
STRANGER = SecretIdentity.generate().public.fingerprint()


class Store(list):  # type: ignore[type-arg]
    """Our log, as entries."""

    @property
    def head_id(self) -> bytes:
        return self[-1].id

    def since(self, seq: int) -> list[Any]:
        return self[seq:]


class Wire:
    """What we send, recorded."""

    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict[str, Any]]] = []

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        self.sent.append((fp, msg))

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        self.sent.append((None, msg))
        return []


def entry(seq: int, prev: bytes, author: int, kind: Kind, body: dict[str, Any]) -> bytes:
    return encode_entry(KEYS[author], GAME, seq, prev, author, int(kind), encode_body(body))


def net(tmp_path: Any, *, seated: bool = True, mesh: bool = True) -> tuple[Net, Wire, dict[str, list[Any]]]:
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    if seated:
        raws = [entry(0, b"\0" * 32, 0, Kind.GENESIS, {})]
        raws += [entry(i, decode_entry(raws[-1]).id, 0, Kind.EVENT, {"ev": {}}) for i in (1, 2)]
        log.store = Store(decode_entry(r) for r in raws)  # type: ignore[assignment]
        log.machine = SimpleNamespace(ids=IDS, n=3, seat=0, complete=False)  # type: ignore[assignment]
    wire = Wire()
    did: dict[str, list[Any]] = {"told": [], "accepted": [], "genesis": []}
    lobby = SimpleNamespace(genesis_raw=None, playing=None)

    async def handle(fp: str, label: str, msg: dict[str, Any]) -> None:
        return None

    async def nothing() -> None:
        return None

    def accepts(raw: bytes, label: str) -> bool:
        did["genesis"].append(label)
        return True

    n = Net(
        log, Heads(), CatchUp(), Abandonment(Patience(10.0)), lobby, SimpleNamespace(),  # type: ignore[arg-type]
        cfg=PeerConfig(name="p", data_dir=tmp_path, abandon_after=10.0), me=lambda: FPS[0],
        mesh=lambda: SimpleNamespace(peers=set(FPS)) if mesh else None, wire=lambda: wire,
        ended=lambda: None, reopened=lambda: False, handle=handle, accepts_genesis=accepts,
        accept=lambda raw, **kw: did["accepted"].append((raw, kw)), take=lambda raw, **kw: None,
        drain_pending=lambda: None, post_pending_evidence=lambda: None, share_proofs=nothing,
        fp_of=lambda seat: FPS[seat], tell=lambda what, **kw: did["told"].append((what, kw)), detail=str,
    )
    return n, wire, did


async def test_a_genesis_is_taken_once_the_peer_accepts_it(tmp_path: Any) -> None:
    n, _wire, did = net(tmp_path, seated=False)
    raw = entry(0, b"\0" * 32, 1, Kind.GENESIS, {})
    await n.handle(FPS[1], "p1", {"k": "entry", "raw": raw})
    assert did["genesis"] == ["p1"] and n.lobby.genesis_raw == raw and n.progress.is_set()


async def test_an_entry_from_a_peer_not_seated_is_ignored(tmp_path: Any) -> None:
    n, wire, did = net(tmp_path)
    n.lobby.genesis_raw = b"taken"
    store = n.log.store
    assert store is not None
    await n.handle(STRANGER, "stranger", {"k": "entry", "raw": entry(3, store.head_id, 1, Kind.EVENT, {"ev": {}})})
    assert [w for w, _ in did["told"]] == ["ignored_not_seated"] and did["accepted"] == [] and wire.sent == []


async def test_a_longer_head_is_fetched_and_a_get_is_served(tmp_path: Any) -> None:
    n, wire, _did = net(tmp_path)
    await n.handle(FPS[1], "p1", {"k": "head", "seq": 7, "id": b"x" * 32})
    assert n.heads.last[FPS[1]] == (7, b"x" * 32)
    assert wire.sent == [(FPS[1], {"k": "get", "from": 2})]  # from our last entry: a fork there shows
    wire.sent.clear()
    await n.handle(FPS[2], "p2", {"k": "get", "from": 1})
    store = n.log.store
    assert store is not None
    assert wire.sent == [(FPS[2], {"k": "entry", "raw": e.raw}) for e in store[1:]]


async def test_our_head_goes_out_once_per_head(tmp_path: Any) -> None:
    n, wire, _did = net(tmp_path)
    await n.send_head_now()
    await n.send_head_now()
    store = n.log.store
    assert store is not None
    assert wire.sent == [(None, {"k": "head", "seq": 3, "id": store.head_id})]


async def test_the_outbox_waits_for_the_mesh_and_then_goes_out(tmp_path: Any) -> None:
    n, wire, _did = net(tmp_path, mesh=False)
    n.outbox.append(b"raw")
    await n.flush()
    assert n.outbox == [b"raw"] and wire.sent == []  # no mesh yet: kept
    n._mesh = lambda: SimpleNamespace(peers=set())
    await n.flush()
    assert n.outbox == [] and wire.sent == [(None, {"k": "entry", "raw": b"raw"})]


def test_a_refusal_is_told_once_per_peer_and_a_bounded_number_of_times(tmp_path: Any) -> None:
    n, _wire, _did = net(tmp_path)
    assert n.first_refusal("word", "a") and not n.first_refusal("word", "a") and n.first_refusal("version", "a")
    told = sum(n.first_refusal("word", f"peer {i}") for i in range(3 * MAX_REFUSALS_TOLD))
    assert told == MAX_REFUSALS_TOLD - 2 and len(n.refusals_told) == MAX_REFUSALS_TOLD
