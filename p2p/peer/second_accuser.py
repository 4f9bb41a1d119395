"""The peer's side of the second accuser (docs/protocol.md, "Precedence at one seq", rule 7; the machine's side:
p2p/machine/second_accuser.py): when two valid pieces of evidence by different accusers meet at one seq, the lower
seat's keeps it and the other is posted at the head as `{what: "also", raw}`, where it names its seat, if that
seat is not named yet. Each candidate is judged once, by trying the `also` entry on our fold at the head, so the
entry we post is one every peer takes (the same judgment, from the log alone); if another peer posted it first,
ours is never sent. Functions on the peer's `Proofs` (p2p/peer/evidence.py): its fold, its log, `post`."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.protocol import BodyError, Kind

TablePeer = Any  # the peer's `Proofs` (p2p/peer/evidence.py), which imports this module: not imported back

MAX_JUDGED = 256  # evidence entries judged as a second accuser's, per game (each costs a snapshot and a fold)


def body(raw: bytes) -> dict[str, Any]:
    return {"what": "also", "raw": raw}


def takes(peer: TablePeer, raw: bytes) -> bool:
    """Whether an `also` entry carrying `raw`, posted by us at our head now, is valid (and so names a new seat)."""
    m, store = peer.machine, peer.store
    if m is None or store is None or m.seat is None or m.complete:
        return False
    trial = m.snapshot()
    try:
        trial.apply(m.seat, Kind.EVIDENCE, body(raw), prev=store.head_id)
    except (ProtocolError, BodyError):
        return False
    return True


def consider(peer: TablePeer, raw: bytes) -> None:
    """`raw`, valid evidence or not, lost its seq to another accuser's evidence (or was met there after it): queue it
    for an `also` post if that entry would name a seat the log does not yet name."""
    judged: dict[bytes, bytes] = peer.__dict__.setdefault("also_judged", {})
    try:
        eid = decode_entry(raw).id
    except (CryptoError, ValueError, TypeError):
        return
    if eid in judged or len(judged) >= MAX_JUDGED:
        return
    judged[eid] = raw
    if takes(peer, raw):
        peer.__dict__.setdefault("also_raws", {})[eid] = raw


def post_one(peer: TablePeer) -> bool:
    """Post one queued `also` entry that our log still takes (True if one went out); drop the ones it does not."""
    queue: dict[bytes, bytes] = peer.__dict__.get("also_raws", {})
    for eid, raw in list(queue.items()):
        del queue[eid]
        if takes(peer, raw) and peer.post(len(peer.store), body(raw)):  # type: ignore[arg-type]
            return True
    return False
