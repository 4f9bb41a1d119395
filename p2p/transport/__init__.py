"""The TCP full mesh of a table (`Mesh`, mesh.py), in parts: dialing.py (accepting and dialing, the handshake),
registry.py (one live connection per peer), streams.py (reading, writing, watching a connection); common.py (events,
the connection record, limits).
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
