"""The table's messages between peers (inside the mesh's signed `m` frames): their strict schema.

Eight kinds, each a map with exactly these keys (docs/protocol.md, "Messages"):

- ``lobby``: ``k, v`` (protocol version), ``bundle`` (identity bundle, bytes), ``addr`` ([host, port]),
  ``peers`` (list of [host, port], at most MAX_PEER_ADDRESSES; unusable ones are skipped with a note),
  ``want`` (players wanted, 2..MAX_PLAYERS), ``rules`` (profile name, a short string), ``here`` (the key
  fingerprints of the players connected to the sender in the lobby now, at most MAX_HERE strings of 19 characters);
- ``entry``: ``k, raw`` (one signed log entry, bytes);
- ``head``: ``k, seq`` (entries held, a count), ``id`` (the id of the last one, 32 bytes);
- ``ask``: as ``head``, plus ``nonce`` (8 bytes); the receiver answers with ``told``: its own head and that
  nonce (a peer catching up before it signs counts only heads told after it asked);
- ``told``: ``k, seq, id, nonce`` (see ``ask``);
- ``agree``: ``k, by`` (the signer's key fingerprint: it may be relayed), ``roster`` (the key fingerprints of
  the seats, in seat order, 2..MAX_PLAYERS), ``turn`` (the signer's count of its agreements, 1..2^32-1), ``nonce``
  (16 bytes), ``sig`` (64 bytes): the signer agrees to a game at this table with exactly these players
  (p2p/roster.py);
- ``get``: ``k, from`` (the first seq wanted, a count);
- ``pass``: ``k, seq`` (the seq of the entry that may carry it), ``prev`` (32 bytes), ``j`` (the decision, a
  count), ``seat``, ``sig`` (64 bytes): one seat's pass token (docs/protocol.md, "Implied passes").

`check_message` runs before a peer looks at anything in a message: a wrong key, a missing key, a wrong type
(a boolean is not a number), or a size past its bound raises `MessageError` saying which field, and the peer
ignores the message with one line naming its sender.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from adp2p.p2p.protocol import MAX_PLAYERS

MAX_PEER_ADDRESSES = 64  # addresses one lobby message may list (a peer dials at most that many)
MAX_BUNDLE = 4096  # an identity bundle: two keys, a name and a signature
MAX_RULES = 64  # a profile name
MAX_ENTRY = 1 << 20  # one signed entry (the frame limit bounds it too)
MAX_HERE = 64  # fingerprints one lobby message may list as connected to its sender
_FINGERPRINT = re.compile(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}")

_HOSTNAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


class MessageError(ValueError):
    """A message that does not fit its schema (the text says which field and why)."""


def _count(v: Any, field: str, *, low: int = 0, high: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < low or (high is not None and v > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise MessageError(f"{field} must be an integer {bound}")
    return v


def _bytes(v: Any, field: str, *, high: int, exact: int | None = None) -> bytes:
    if not isinstance(v, bytes) or len(v) > high or (exact is not None and len(v) != exact):
        size = f"{exact} bytes" if exact is not None else f"at most {high} bytes"
        raise MessageError(f"{field} must be {size}")
    return v


def _keys(msg: dict[str, Any], want: set[str]) -> None:
    got = set(msg)
    if got != want:
        extra, missing = sorted(map(str, got - want)), sorted(want - got)
        raise MessageError(f"{msg.get('k')} message: " + "; ".join(
            ([f"unexpected field(s) {', '.join(extra)}"[:120]] if extra else [])
            + ([f"missing field(s) {', '.join(missing)}"] if missing else [])
        ))


_FIELDS = {
    "lobby": {"k", "v", "bundle", "addr", "peers", "want", "rules", "here"},
    "entry": {"k", "raw"},
    "head": {"k", "seq", "id"},
    "ask": {"k", "seq", "id", "nonce"},  # a head that asks for the receiver's head in return (a peer catching up)
    "told": {"k", "seq", "id", "nonce"},  # the answer to an ask: the receiver's head, with the ask's nonce
    "get": {"k", "from"},
    "agree": {"k", "by", "roster", "turn", "nonce", "sig"},  # a player agrees to a roster before the genesis
    "pass": {"k", "seq", "prev", "j", "seat", "sig"},
}


def check_message(msg: dict[str, Any]) -> dict[str, Any]:
    """`msg` if it fits its kind's schema; else MessageError. Addresses in `peers` are checked one by one
    later (`address`), so that one unusable address does not cost the others."""
    k = msg.get("k")
    if not isinstance(k, str) or k not in _FIELDS:
        raise MessageError(f"unknown message kind {k!r}"[:80])
    _keys(msg, _FIELDS[k])
    if k == "lobby":
        _count(msg["v"], "lobby.v")
        _bytes(msg["bundle"], "lobby.bundle", high=MAX_BUNDLE)
        address(msg["addr"])
        if not isinstance(msg["peers"], list) or len(msg["peers"]) > MAX_PEER_ADDRESSES:
            raise MessageError(f"lobby.peers must be a list of at most {MAX_PEER_ADDRESSES} addresses")
        _count(msg["want"], "lobby.want", low=2, high=MAX_PLAYERS)
        if not isinstance(msg["rules"], str) or len(msg["rules"]) > MAX_RULES:
            raise MessageError(f"lobby.rules must be a profile name of at most {MAX_RULES} characters")
        here = msg["here"]
        if not isinstance(here, list) or len(here) > MAX_HERE:
            raise MessageError(f"lobby.here must be a list of at most {MAX_HERE} key fingerprints")
        if not all(isinstance(h, str) and _FINGERPRINT.fullmatch(h) for h in here):
            raise MessageError("lobby.here must hold key fingerprints (xxxx-xxxx-xxxx-xxxx)")
    elif k == "entry":
        _bytes(msg["raw"], "entry.raw", high=MAX_ENTRY)
    elif k in ("head", "ask", "told"):
        _count(msg["seq"], f"{k}.seq")
        _bytes(msg["id"], f"{k}.id", high=32, exact=32)
        if k != "head":
            _bytes(msg["nonce"], f"{k}.nonce", high=8, exact=8)
    elif k == "agree":
        roster = msg["roster"]
        if not isinstance(roster, list) or not 2 <= len(roster) <= MAX_PLAYERS:
            raise MessageError(f"agree.roster must list 2..{MAX_PLAYERS} key fingerprints")
        if not all(isinstance(h, str) and _FINGERPRINT.fullmatch(h) for h in roster) or len(set(roster)) != len(roster):
            raise MessageError("agree.roster must hold distinct key fingerprints (xxxx-xxxx-xxxx-xxxx)")
        if not isinstance(msg["by"], str) or not _FINGERPRINT.fullmatch(msg["by"]):
            raise MessageError("agree.by must be a key fingerprint (xxxx-xxxx-xxxx-xxxx)")
        _count(msg["turn"], "agree.turn", low=1, high=(1 << 32) - 1)
        _bytes(msg["nonce"], "agree.nonce", high=16, exact=16)
        _bytes(msg["sig"], "agree.sig", high=64, exact=64)
    elif k == "pass":
        _count(msg["seq"], "pass.seq")
        _bytes(msg["prev"], "pass.prev", high=32, exact=32)
        _count(msg["j"], "pass.j", high=0xFFFF)
        _count(msg["seat"], "pass.seat", high=MAX_PLAYERS - 1)
        _bytes(msg["sig"], "pass.sig", high=64, exact=64)
    else:
        _count(msg["from"], "get.from")
    return msg


def address(a: Any) -> tuple[str, int]:
    """A (host, port) from a lobby message: an IP address or a DNS name, and a port (else MessageError)."""
    if not isinstance(a, list) or len(a) != 2:
        raise MessageError("an address is [host, port]")
    host, port = a
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise MessageError(f"bad port {port!r}"[:60])
    if not isinstance(host, str):
        raise MessageError("a host is a string")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not _HOSTNAME.fullmatch(host) or len(host) > 253:
            raise MessageError(f"bad host {host!r}"[:80]) from None
    return host, port
