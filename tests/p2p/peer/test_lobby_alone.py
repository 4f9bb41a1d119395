"""The lobby alone (p2p/peer/lobby.py): its decisions from lobby messages, with plain values for everything else — the
mesh a set of connected fingerprints, the wire a list of what went out, the roster agreement a stand-in that leaves
nobody out. No network, no peer."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from adp2p.crypto.identity import SecretIdentity, make_bundle, open_bundle
from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.dialing import Dialing
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.lobby import Lobby
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import PROTOCOL_VERSION

IDS = [SecretIdentity.generate() for _ in range(3)]
FPS = [i.public.fingerprint() for i in IDS]
BUNDLES = [make_bundle(i, f"p{n}") for n, i in enumerate(IDS)]


def lobby(tmp_path: Path) -> tuple[Lobby, dict[str, list[Any]]]:
    """Seat 0's lobby, connected to seats 1 and 2, wanting three players."""
    out: dict[str, list[Any]] = {"sent": [], "told": [], "dialed": []}

    async def broadcast(msg: dict[str, Any]) -> list[str]:
        out["sent"].append(msg)
        return FPS[1:]

    async def send(fp: str, msg: dict[str, Any]) -> None:
        out["sent"].append(msg)

    mesh = SimpleNamespace(peers=set(FPS[1:]), port=4000, add_peer=lambda h, p: out["dialed"].append((h, p)))
    agreeing = SimpleNamespace(left_out=set(), heard_lobby=lambda *a: None, genesis_mismatch=lambda g: None)
    cfg = PeerConfig(name="p0", table="t", want=3, data_dir=tmp_path)
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    made = Lobby(
        cfg, GameFiles(tmp_path), agreeing, log, Dialing(cfg, log, me=lambda: FPS[0], mesh=lambda: mesh),
        me=lambda: (FPS[0], BUNDLES[0]), mesh=lambda: mesh, wire=lambda: SimpleNamespace(broadcast=broadcast),  # type: ignore[arg-type,return-value]
        tell=lambda what, **kw: out["told"].append(what), detail=str, news=lambda: None, wait=None,  # type: ignore[arg-type]
        start=lambda raw: None, accepts=lambda raw, label: True, heard_from=lambda fp: False,
        first_refusal=lambda what, who: True, send=send,
    )
    return made, out


def message(i: int, here: list[int], **kw: Any) -> dict[str, Any]:
    return {"k": "lobby", "v": PROTOCOL_VERSION, "bundle": BUNDLES[i], "addr": ["127.0.0.1", 4000 + i], "peers": [],
            "want": 3, "rules": "classic", "here": [FPS[j] for j in here], **kw}


async def test_a_roster_seats_only_players_who_all_met_and_a_newcomer_hears_who_is_here(tmp_path: Path) -> None:
    lob, out = lobby(tmp_path)
    await lob.heard(FPS[1], "p1", message(1, [0]))
    assert out["told"] == ["sat_down"] and out["dialed"] == [("127.0.0.1", 4001)]
    assert out["sent"][-1]["k"] == "lobby" and out["sent"][-1]["here"] == [FPS[1]]  # we told everyone who is here
    await lob.heard(FPS[2], "p2", message(2, [0]))
    assert set(lob.bundles) == set(FPS) and lob.roster() != [] and len(lob.roster()) < 3  # 1 and 2 never met
    assert "had all met each other" in lob.timeout_line()
    await lob.heard(FPS[1], "p1", message(1, [0, 2]))
    await lob.heard(FPS[2], "p2", message(2, [0, 1]))
    sign_pk = [open_bundle(b)[0].sign_pk for b in lob.roster()]
    assert len(sign_pk) == 3 and sign_pk == sorted(sign_pk)  # seated by signing key


async def test_a_player_who_leaves_before_the_genesis_leaves_the_roster_but_stays_met(tmp_path: Path) -> None:
    lob, out = lobby(tmp_path)
    await lob.heard(FPS[1], "p1", message(1, [0]))
    lob.left(FPS[1], "p1")
    assert FPS[1] not in lob.bundles and FPS[1] in lob.met and lob.news and out["told"][-1] == "left_lobby"
    lob.genesis_raw = b"taken"
    lob.left(FPS[0], "p0")  # (after the genesis nobody leaves the lobby)
    assert FPS[0] in lob.bundles


async def test_another_protocol_version_is_refused_and_a_message_after_its_sender_left_only_meets_it(
    tmp_path: Path,
) -> None:
    lob, out = lobby(tmp_path)
    await lob.heard(FPS[1], "p1", message(1, [0], v=PROTOCOL_VERSION - 1))
    assert FPS[1] not in lob.met and out["told"] == ["old_protocol"]
    lob.mesh.peers.discard(FPS[2])  # type: ignore[union-attr]
    await lob.heard(FPS[2], "p2", message(2, [0]))
    assert FPS[2] in lob.met and FPS[2] not in lob.bundles and out["sent"] == []
