"""How Classified Information's engine events travel in the table's log: the core's event shape allows ints, short
strings and flat lists of ints, so the Big Reveal's `cards` ([[handle, number], ...]) travel flat:
[h1, n1, h2, n2, ...]."""

from __future__ import annotations

from typing import Any

from adp2p.engine.errors import IllegalEvent


def to_log(ev: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the log holds it."""
    if ev.get("t") == "reveal" and isinstance(ev.get("cards"), list):
        return {**ev, "cards": [x for pair in ev["cards"] for x in pair]}
    return ev


def to_engine(ev: dict[str, Any]) -> dict[str, Any]:
    """A logged event as the engine takes it (IllegalEvent for a flat list of odd length); an event in the engine's
    form passes as it is."""
    if isinstance(ev, dict) and ev.get("t") == "reveal" and isinstance(ev.get("cards"), list):
        flat = ev["cards"]
        if all(isinstance(x, list) for x in flat):
            return ev  # the engine's form already (a client's own seat; the log's shape check refuses it there)
        if len(flat) % 2:
            raise IllegalEvent("bad_reveal", "the Big Reveal's cards travel as [handle, number, ...]")
        return {**ev, "cards": [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]}
    return ev
