"""An equivocated ending entry (issue 34; docs/protocol.md, "Precedence at one seq" 8): the author of the entry that
ended the game signed two versions of it, both ending the game, and sent one to each half of the table. The
equivocation proof may not take that seq (the result is final), so without more each half would keep its version,
sign its `secrets` on it and, waiting on the other half's, abandon an honest seat. Rule: of two versions by one
author after one entry, both valid there and both ending the game, the one with the lower id stands; a peer that
holds the other takes it in its place (what it held from there on is set aside: the entries signed on top of the
higher version are signed again) and the equivocation proof names the author at the head. The author chose both
versions, so it can gain nothing from the choice it could not have made by signing only one; its share is void.
A function on a `TablePeer` (p2p/peer/table_peer.py)."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.protocol import BodyError

TablePeer = Any  # the peer (p2p/peer/table_peer.py), which imports this module: not imported back


def take_lower_version(peer: TablePeer, raw: bytes) -> bool:
    """`raw` is a second version of an entry we hold (same author, seq and prev, another id). If the one we hold
    ended the game and `raw` has the lower id, is valid there and ends the game too, take `raw` in its place."""
    m, store = peer.machine, peer.store
    if m is None or store is None or peer.ended:
        return False
    try:
        e = decode_entry(raw)
    except (CryptoError, MalformedEncoding, ValueError, TypeError):
        return False
    if not 0 < e.seq < len(store) or m.ended_at != e.seq:
        return False
    held = store[e.seq]
    if held.author != e.author or held.id == e.id or e.id > held.id or store[e.seq - 1].id != e.prev_hash:
        return False
    trial = peer._fold(e.seq)
    try:
        trial.apply_entry(e)
    except (ProtocolError, BodyError):
        return False
    if trial.ended_at != e.seq:
        return False
    if peer._take_over(e) is None:
        return False
    peer._deciding.cancel()  # a decision in progress was for the fold we left
    peer.progress.set()
    return True
