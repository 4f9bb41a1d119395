"""p2p/peer and p2p/transport import no module that imports them back, and the peer's objects stand alone: none
imports the peer or a part of it that acts on the peer's state (issue 30)."""

from __future__ import annotations

from import_graph import circles, import_graph

OBJECTS = ["arrivals", "folds", "evidence_book", "abandonment", "patience", "stalls", "heads", "game_files", "draws",
           "wire", "narrator"]  # fmt: skip
PARTS = ["table_peer", "lobby", "seating", "intake", "evidence", "abandon", "catchup", "net"]


def test_no_import_circles_in_the_peer_or_the_mesh() -> None:
    for prefix in ("adp2p.p2p.peer", "adp2p.p2p.transport"):
        assert [c for c in circles(import_graph()) if any(m.startswith(prefix) for m in c)] == []


def test_the_peers_objects_import_none_of_its_parts() -> None:
    g = import_graph()
    for name in OBJECTS:
        deps = g[f"adp2p.p2p.peer.{name}"]
        assert not deps & {f"adp2p.p2p.peer.{p}" for p in PARTS}, (name, deps)
