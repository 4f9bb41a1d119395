"""What a peer remembers about evidence it judged: entries found false (never weighed again), how many each seat sent
(after `MAX_FALSE` its evidence is not refolded again), refused evidence that names its own author and is still to be
posted at the head, and the game's evidence file (rejected entries and why, bounded).

`EvidenceBook` knows nothing of the fold or the log: it is handed decoded entries (`.id`, `.author`) and raws."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_FALSE = 4  # false evidence entries weighed from one seat; after that its evidence is not refolded again
MAX_EVIDENCE_BYTES = 4 * 1024 * 1024  # the evidence file of one game at most
MAX_JUDGED = 4096  # ids of entries judged once, remembered at most


class EvidenceBook:
    """Evidence judged, evidence to post again, the evidence file."""

    def __init__(self) -> None:
        self.judged_false: set[bytes] = set()  # ids of evidence entries found false (judged once)
        self.false_by: dict[int, int] = {}  # seat -> false evidence entries it sent us
        self.refused_raws: dict[bytes, bytes] = {}  # evidence refused at its seq that names its author: to post
        self.path: Path | None = None  # the game's evidence file (once a game seats us)
        self.written = 0  # bytes written to it (bounded)

    def dismissed(self, e: Any) -> bool:
        """Evidence `e` was judged false before, or its author keeps sending false evidence: not refolded again."""
        return e.id in self.judged_false or self.false_by.get(e.author, 0) >= MAX_FALSE

    def judged(self, e: Any) -> None:
        """`e` was judged once (an entry sent again must not cost a refold each time); its author is not counted."""
        if len(self.judged_false) < MAX_JUDGED:
            self.judged_false.add(e.id)

    def found_false(self, e: Any) -> None:
        """Evidence `e` was found false (or valid but setting nothing aside): never weighed again, and counted
        against its author."""
        self.judged(e)
        self.false_by[e.author] = self.false_by.get(e.author, 0) + 1

    def keep(self, raw: bytes, reason: str) -> None:
        """Keep a rejected entry and why in the game's evidence file (at most MAX_EVIDENCE_BYTES a game)."""
        if self.path is None:
            return
        record = len(raw).to_bytes(4, "big") + raw + reason.encode()[:1000] + b"\n"
        if self.written + len(record) > MAX_EVIDENCE_BYTES:
            return
        self.written += len(record)
        with open(self.path, "ab") as fh:
            fh.write(record)
