"""An equivocated ending entry (issue 34; docs/protocol.md, "Precedence at one seq" 8): the author of the entry that
ended the game signed two versions of it, both ending the game, and sent one to each half of the table. The
equivocation proof may not take that seq (the result is final), so without more each half would keep its version,
sign its `secrets` on it and, waiting on the other half's, abandon an honest seat. Rule: of two versions by one
author after one entry, both valid there and both ending the game, the one with the lower id stands; a peer that
holds the other takes it in its place (what it held from there on is set aside: the entries signed on top of the
higher version are signed again) and the equivocation proof names the author at the head. The author chose both
versions, so it can gain nothing from the choice it could not have made by signing only one; its share is void.
A function of the seat's log state (p2p/peer/seat_log.py) and intake's `take_over`, called from intake (intake.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import BodyError


def take_lower_version(log: SeatLog, raw: bytes, take_over: Callable[[Any], Any]) -> bool:
    """`raw` is a second version of an entry we hold (same author, seq and prev, another id). If the one we hold
    ended the game and `raw` has the lower id, is valid there and ends the game too, take `raw` in its place
    (`take_over(e)`: `e` put at its seq in place of what we hold, the fold with it, or None). True if taken."""
    m, store = log.machine, log.store
    if m is None or store is None:
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
    trial = log.fold(e.seq)
    try:
        trial.apply_entry(e)
    except (ProtocolError, BodyError):
        return False
    if trial.ended_at != e.seq:
        return False
    return take_over(e) is not None
