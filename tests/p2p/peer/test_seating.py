"""Taking a seat alone (p2p/peer/seating.py): a genesis begun or refused, a game directory resumed or refused, with
plain values for what the seat does through the peer (recorded). No network, no peer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from adp2p.crypto.entries import encode_entry
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.machine import Machine
from adp2p.p2p.peer.common import Outcome, PeerConfig, TableError
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.seating import Seating
from adp2p.p2p.protocol import Genesis, Kind, encode_body

IDS = sorted((SecretIdentity.generate() for _ in range(3)), key=lambda i: i.public.sign_pk)  # seat order


def genesis(seated: list[int], *, seq: int = 0) -> bytes:
    """A genesis seating `seated` (in seat order), signed by its seat 0."""
    g = Genesis("t", "classic", None, 1, tuple(make_bundle(IDS[i], f"p{i}") for i in seated), bytes(range(16)))
    return encode_entry(IDS[seated[0]], g.game_id, seq, bytes(32), 0, int(Kind.GENESIS), encode_body(g.to_body()))


def seating(tmp_path: Path, me: int = 1) -> tuple[Seating, dict[str, Any]]:
    did: dict[str, Any] = {"told": [], "outcome": Outcome(), "caught_up": 0}
    cfg = PeerConfig(name=f"p{me}", table="t", data_dir=tmp_path)
    bundle = make_bundle(IDS[me], f"p{me}")
    log = SeatLog(Machine)
    s = Seating(
        cfg, GameFiles(tmp_path), Draws(), log, EvidenceBook(), Narrator("en", lambda _line: None),
        me=lambda: (IDS[me], bundle, IDS[me].public.fingerprint()), take_identity=lambda i, b: None,
        tell=lambda what, **kw: did["told"].append(what), took_genesis=lambda raw: None,
        outcome=lambda: did["outcome"], catch_up=lambda: did.__setitem__("caught_up", did["caught_up"] + 1),
        abandoned=lambda e: None,
    )
    return s, did


def test_a_genesis_that_seats_us_begins_the_game_its_log_our_secrets_and_our_fold(tmp_path: Path) -> None:
    s, did = seating(tmp_path, me=1)
    s.start(genesis([0, 1, 2]))
    log = s.log
    assert log.store is not None and len(log.store) == 1 and log.gdir is not None
    assert (log.gdir / "log").exists() and (log.gdir / "secrets").exists()  # our secrets on disk before we sign
    assert log.machine is not None and log.machine.seat == 1 and log.passes is not None
    assert did["told"] == ["begins"] and did["outcome"].log_path == log.gdir / "log"


def test_a_genesis_that_does_not_seat_us_or_is_malformed_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    s, _did = seating(tmp_path, me=2)
    with pytest.raises(TableError, match="does not seat us"):
        s.start(genesis([0, 1]))
    with pytest.raises(TableError, match="malformed genesis"):
        s.start(genesis([0, 1, 2], seq=1))
    assert s.log.store is None and not (tmp_path / "games").exists()


def test_a_directory_whose_log_has_no_readable_genesis_is_not_resumed(tmp_path: Path) -> None:
    s, did = seating(tmp_path)
    gdir = tmp_path / "games" / "x"
    gdir.mkdir(parents=True)
    (gdir / "log").write_bytes(b"\x00\x00\x00\x05junk!")
    with pytest.raises(TableError, match="its genesis does not read"):
        s.load(gdir)
    assert did["caught_up"] == 0 and s.log.machine is None
