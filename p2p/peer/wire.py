"""What a peer says to the table: every message it sends goes through its `Wire` (to one peer, or to every connected
one). The plain wire hands it to the mesh as it is. It is the peer's seam for what leaves it: a test's cheater gives
its peer another wire (`TablePeer.make_wire`) that changes, withholds or adds messages, and nothing else of the peer
needs to know."""

from __future__ import annotations

from typing import Any

from adp2p.p2p.transport import Mesh


class Wire:
    """Messages to the table, through the mesh."""

    def __init__(self, mesh: Mesh) -> None:
        self.mesh = mesh

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        """`msg` to the peer `fp` (`PeerNotConnected` if it is not connected)."""
        await self.mesh.send(fp, msg)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        """`msg` to every connected peer; the fingerprints it went to."""
        return await self.mesh.broadcast(msg)
