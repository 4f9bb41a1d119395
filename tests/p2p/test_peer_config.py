"""PeerConfig: every timeout of a peer derives from one liveness setting (`--patience`)."""

from __future__ import annotations

from adp2p.p2p.peer import PeerConfig, with_patience


def test_patience_scales_every_timeout() -> None:
    fast, slow = with_patience(PeerConfig(name="a"), 10.0), with_patience(PeerConfig(name="b"), 600.0)
    assert fast.abandon_after == 10.0 and slow.abandon_after == 600.0
    assert slow.lobby_timeout > fast.lobby_timeout >= 30.0
    assert slow.heartbeat > fast.heartbeat and slow.dead_after > fast.dead_after  # type: ignore[operator]
    assert fast.dead_after >= 3 * fast.heartbeat  # type: ignore[operator]
