"""The addresses a peer knows and dials (p2p/peer/dialing.py), alone: the mesh a recorder of what it dials, the log
state plain values, the address book a real file beside a game's log."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from adp2p.p2p.address_book import load_book
from adp2p.p2p.peer.common import MAX_KNOWN_ADDRESSES, PeerConfig
from adp2p.p2p.peer.dialing import Dialing
from adp2p.p2p.peer.seat_log import SeatLog


def test_new_addresses_are_dialed_once_bounded_never_our_own_and_saved_for_a_resume(tmp_path: Path) -> None:
    dialed: list[tuple[str, int]] = []
    mesh = SimpleNamespace(port=4000, add_peer=lambda h, p: dialed.append((h, p)))
    log = SeatLog(lambda g, s: None)  # type: ignore[arg-type,return-value]
    d = Dialing(PeerConfig(name="a", data_dir=tmp_path, host="10.0.0.1", peers=[("10.0.0.2", 4000)]), log,
                me=lambda: "fp", mesh=lambda: mesh)
    assert d.known == {("10.0.0.2", 4000)}
    assert not d.learn([("10.0.0.2", 4000), ("10.0.0.1", 4000)])  # known already; where we listen ourselves
    assert dialed == []
    assert d.learn([("10.0.0.3", 4001)]) and dialed == [("10.0.0.3", 4001)]  # (no game yet: no book to write)
    log.gdir = tmp_path
    many = [("10.1.0.1", port) for port in range(5000, 5000 + 2 * MAX_KNOWN_ADDRESSES)]
    assert d.learn(many)
    assert len(d.known) == MAX_KNOWN_ADDRESSES and len(dialed) == MAX_KNOWN_ADDRESSES - 1
    assert load_book(tmp_path) == d.known  # beside the game's log: a resume dials them all
