"""How Hacker's engine events travel in the table's log: the core's event shape allows ints, short strings and
flat lists of ints, so an opened pad's `checks` (squares "A1".."E5") travel as square numbers 0..24
(`hacker.board.squares()` order); a private roll's commitment step and its beacon pick are events of the table's
own (`private_roll` by the controller, then `roll_beacon` derived from the beacon, see seals.py)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker.board import squares

SQUARES = squares()
INDEX = {s: i for i, s in enumerate(SQUARES)}


def to_log(ev: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the log holds it."""
    if ev.get("t") == "open_pad" and isinstance(ev.get("checks"), list):
        return {**ev, "checks": sorted(INDEX[s] for s in ev["checks"])}
    return ev


def to_engine(ev: dict[str, Any]) -> dict[str, Any]:
    """A logged event as the engine takes it (IllegalEvent for a square number out of range)."""
    if isinstance(ev, dict) and ev.get("t") == "open_pad" and isinstance(ev.get("checks"), list):
        ks = ev["checks"]
        if not all(type(k) is int and 0 <= k < len(SQUARES) for k in ks):
            raise IllegalEvent("controller_pad_breaks_table", "an opened pad names squares 0..24")
        return {**ev, "checks": [SQUARES[k] for k in ks]}
    return ev
