"""A seat's lobby note: what a peer that agreed to a roster needs to find its game again if it dies before the
genesis reaches its disk (docs/protocol.md, "Roster agreement", rule 9).

`<data>/lobby/<fingerprint>` (0600, written atomically and fsynced like every secret, before the agreement is sent):
the table's settings, the player's name, the addresses it knew, and its latest agreement (the roster's bundles, turn,
nonce, signature). The seat's key is beside it in `<data>/seats/<fingerprint>` (p2p/peer/files.py). Both go once
a game's secrets file holds the key, or when the lobby ends without a game. `join --resume` finds the newest note
when no game directory is there: the peer comes back with the same key and agreement, so the genesis that seats it
(signed meanwhile) is taken, or it learns in one line that the table went on without it.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from adp2p.p2p.paths import read_secret, write_secret

NOTES_DIR = "lobby"
MAX_NOTE = 64 * 1024  # bytes: a note is a few KB (six bundles, 64 addresses)


def note_path(data_dir: Path, fp: str) -> Path:
    return Path(data_dir) / NOTES_DIR / fp


def save(data_dir: Path, fp: str, note: dict[str, Any]) -> None:
    """Write the note (OSError if the disk refuses: the caller decides)."""
    path = note_path(data_dir, fp)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_secret(path, json.dumps(note, sort_keys=True).encode())


def load(path: Path) -> dict[str, Any]:
    """A note's contents (ValueError if it is not one)."""
    raw = read_secret(path)
    if len(raw) > MAX_NOTE:
        raise ValueError(f"{path} is too large to be a lobby note")
    note = json.loads(raw)
    if not isinstance(note, dict) or note.get("v") != 1:
        raise ValueError(f"{path} is not a lobby note")
    return note


def drop(data_dir: Path, fp: str) -> None:
    with contextlib.suppress(OSError):
        note_path(data_dir, fp).unlink()


def latest(roots: list[Path]) -> Path | None:
    """The newest lobby note whose seat key is still there, under any of `roots` (data directories)."""
    found: list[Path] = []
    for root in roots:
        d = Path(root) / NOTES_DIR
        with contextlib.suppress(OSError):
            found += [p for p in d.iterdir() if p.is_file() and (Path(root) / "seats" / p.name).is_file()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None
