"""The TCP full mesh of a table (`Mesh`, mesh.py), made of objects with one job each, wired by the mesh: `Greeter`,
`Doorway` and `Dialer` (dialing.py: the handshake, connections accepted, connections dialed), `Streams` (streams.py:
reading, writing and watching a connection), `Registry` (registry.py: one live connection per peer); common.py:
events, the connection record, limits.
"""

from adp2p.p2p.transport.common import (
    _DUP,
    _PING,
    MeshEvent,
    PeerDown,
    PeerNotConnected,
    PeerUp,
    TablePlaying,
    WordRefused,
    _Conn,
    prefer_new,
)
from adp2p.p2p.transport.mesh import Mesh

__all__ = [
    "_DUP", "_PING", "Mesh", "MeshEvent", "PeerDown", "PeerNotConnected", "PeerUp", "TablePlaying",
    "WordRefused", "_Conn", "prefer_new",
]
