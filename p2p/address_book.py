"""The addresses a seat has learned for its game, kept beside the log (`<game dir>/peers`): a peer that resumes,
perhaps on a new port, dials every one of them, not only the one address it was given, so that a single peer it
cannot reach (gone, or flooded by strangers) does not keep it out (docs/protocol.md, "Transport").

The file is a hint, never evidence: JSON, a list of [host, port], at most MAX_BOOK entries, replaced atomically.
An unreadable or malformed file is ignored (the peer still has its `--peer` addresses and mDNS)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from adp2p.p2p.messages import MessageError, address

MAX_BOOK = 64
BOOK_NAME = "peers"


def save_book(gdir: Path, addresses: set[tuple[str, int]]) -> None:
    """Write the addresses (sorted, at most MAX_BOOK); OSError is the caller's to report or ignore."""
    data = json.dumps(sorted([h, p] for h, p in addresses)[:MAX_BOOK]).encode()
    tmp = gdir / (BOOK_NAME + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, gdir / BOOK_NAME)


def load_book(gdir: Path) -> set[tuple[str, int]]:
    try:
        raw = json.loads((gdir / BOOK_NAME).read_bytes()[: 64 * 1024])
    except (OSError, ValueError):
        return set()
    out: set[tuple[str, int]] = set()
    for a in raw[:MAX_BOOK] if isinstance(raw, list) else []:
        try:
            out.add(address(a))
        except MessageError:
            continue
    return out
