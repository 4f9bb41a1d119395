"""Entries that arrive ahead of our log: held, bounded, and handed back in seq order once the log reaches them.

`Arrivals` knows nothing of the fold or the network: it holds signed entries by seq, framed (the caller checks the
signature before it offers one: the pipeline's frame and signature steps ran, and are not run again on them), at most
`PENDING_MAX` entries and `PENDING_MAX_BYTES` bytes, keeping the seqs nearest the log when full."""

from __future__ import annotations

from collections.abc import Iterator

from adp2p.crypto.entries import Entry

PENDING_WINDOW = 512  # entries further ahead of our log than this are not kept
PENDING_MAX = 256  # entries kept ahead of our log at most
PENDING_MAX_BYTES = 8 * 1024 * 1024  # and bytes


class Arrivals:
    """seq -> entry, for entries received ahead of our log (bounded)."""

    def __init__(self, max_entries: int = PENDING_MAX, max_bytes: int = PENDING_MAX_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._held: dict[int, Entry] = {}
        self.size = 0  # bytes held

    def hold(self, seq: int, e: Entry) -> bool:
        """Keep entry `e` for `seq` within the bounds (the nearest seqs are kept when full). False if it was not kept
        (that seq is held already, or it is further ahead than everything held when full)."""
        if seq in self._held:
            return False
        if len(self._held) >= self.max_entries or self.size + len(e.raw) > self.max_bytes:
            far = max(self._held)
            if far <= seq:
                return False
            self.size -= len(self._held.pop(far).raw)
        self._held[seq] = e
        self.size += len(e.raw)
        return True

    def take(self, seq: int) -> Entry | None:
        """The entry held for `seq`, no longer held (None if there is none)."""
        e = self._held.pop(seq, None)
        if e is not None:
            self.size -= len(e.raw)
        if not self._held:
            self.size = 0
        return e

    def clear(self) -> None:
        """Forget everything held (the log changed under it: evidence or a takeover set a tail aside)."""
        self._held.clear()
        self.size = 0

    def __contains__(self, seq: object) -> bool:
        return seq in self._held

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._held))

    def values(self) -> list[Entry]:
        return [self._held[s] for s in sorted(self._held)]
