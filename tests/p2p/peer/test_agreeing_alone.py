"""The roster agreement alone (p2p/peer/agreeing.py): three seats' `Agreeing` objects with plain values for the rest
of the peer — the lobby a namespace holding who is here and the roster, the wire a list per seat, the player's words a
list — agree on one roster, and the pen holder alone signs the genesis; a player asking for other rules is left out
and told of once; a person who declines is heard. No network, no peer."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.identity import SecretIdentity, make_bundle, open_bundle
from adp2p.p2p.peer.agreeing import Agreeing
from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Genesis, Kind, decode_body

IDS = [SecretIdentity.generate() for _ in range(3)]
FPS = [i.public.fingerprint() for i in IDS]
BUNDLES = dict(zip(FPS, (make_bundle(i, f"p{n}") for n, i in enumerate(IDS)), strict=True))
ROSTER = sorted(FPS, key=lambda f: open_bundle(BUNDLES[f])[0].sign_pk)  # seats in key order (the lobby's roster)
PEN = FPS.index(ROSTER[0])  # seat 0 of the roster holds the pen


def seat(i: int, tmp_path: Path, confirm: Any = None) -> tuple[Agreeing, dict[str, list[Any]]]:
    """Player i's agreement, in a lobby where all three are here and have met."""
    out: dict[str, list[Any]] = {"sent": [], "told": [], "woken": [], "void": []}
    lobby = SimpleNamespace(bundles=dict(BUNDLES), met=dict(BUNDLES), news=False, genesis_raw=None,
                            roster=lambda: [BUNDLES[f] for f in ROSTER])

    async def broadcast(msg: dict[str, Any]) -> list[str]:
        out["sent"].append(msg)
        return []

    cfg = PeerConfig(name=f"p{i}", table="t", want=3, data_dir=tmp_path / f"p{i}", confirm=confirm)
    made = Agreeing(
        cfg, SeatLog(lambda g, s: None), me=lambda: IDS[i], nonce=bytes([i + 1]) * 16, lobby=lambda: lobby,  # type: ignore[arg-type,return-value]
        addresses=lambda: {("127.0.0.1", 4000 + i)}, broadcast=broadcast, nursery=lambda: None,
        tell=lambda key, **kw: out["told"].append(key), wake=lambda: out["woken"].append(1),
        ended=lambda: None, void=lambda label: out["void"].append(label),
    )
    return made, out


async def test_three_seats_agree_and_only_the_pen_holder_signs_the_genesis(tmp_path: Path) -> None:
    seats = [seat(i, tmp_path) for i in range(3)]
    firsts = [await a.step() for a, _ in seats]  # each agrees to the roster and tells the table
    assert firsts == [None, None, None] and all(out["sent"][0]["k"] == "agree" for _, out in seats)
    assert all((tmp_path / f"p{i}").exists() for i in range(3))  # the lobby note, on disk before anyone can seat us
    for a, _ in seats:  # every agreement reaches every seat
        for _, other in seats:
            await a.take(other["sent"][0])
    raws = [await a.step() for a, _ in seats]
    assert [r is not None for r in raws] == [i == PEN for i in range(3)]  # seat 0 of the roster holds the pen
    e = decode_entry(raws[PEN])  # type: ignore[arg-type]
    g = Genesis.from_body(decode_body(e.body))
    assert e.kind == int(Kind.GENESIS) and [i.fingerprint() for i in g.identities()] == ROSTER
    assert all(a.genesis_mismatch(g) is None for a, _ in seats)  # the genesis every seat agreed to
    assert seats[0][0].genesis_mismatch(Genesis.from_body({**g.to_body(), "table": "other"})) is not None


async def test_a_player_asking_for_other_rules_is_left_out_and_told_of_once(tmp_path: Path) -> None:
    a, out = seat(0, tmp_path)
    for _ in range(2):
        a.heard_lobby(FPS[2], "p2", {"rules": "retro2013", "want": 3})
    assert a.left_out == {FPS[2]} and out["told"] == ["other_settings"] and out["woken"] == [1]
    a.heard_lobby(FPS[1], "p1", {"rules": "classic", "want": 3})  # ours: nothing to say
    assert a.left_out == {FPS[2]}


async def test_a_person_who_declines_the_roster_is_heard(tmp_path: Path) -> None:
    asked: list[str] = []

    def no(text: str) -> bool:
        asked.append(text)
        return False

    a, out = seat(1, tmp_path, confirm=no)
    async with trio.open_nursery() as nursery:
        a._nursery = lambda: nursery
        assert await a.step() is None and out["sent"] == []  # nothing agreed before the person answers
    assert a.declined and out["woken"] and "p0" in asked[0] and "p2" in asked[0]
