"""The append-only, persisted game log of one peer.

File format: a sequence of records ``u32 big-endian length ‖ raw entry bytes``, where the raw
bytes are exactly the bytes received (never re-encoded), in seq order from 0.  Equivocation
proofs go to a side file ``<log>.equivocations`` with the same record format
(``EquivocationProof.to_bytes()``).

* :meth:`LogStore.append` verifies an entry completely *before* writing it: strict decoding,
  game id, known author seat (and, optionally, the seat the caller expects), the author's
  signature, ``seq`` = next seq and ``prev_hash`` = id of the head.  Then it writes the record,
  flushes and ``fsync``s (unless the caller says the entry need not be durable yet: another peer's,
  flushed by the next durable append), and only then updates the in-memory log.  A rejected append leaves
  both the file and the in-memory log untouched (a failed write is truncated away).
* An entry for an existing seq: identical bytes raise :class:`DuplicateEntry` (harmless
  during catch-up); different bytes signed by the same author on the same previous entry are an
  equivocation: the proof is written to the side file and :class:`LogEquivocation` (also a
  :class:`adp2p.crypto.entries.Equivocation`, carrying ``proof`` and ``seat``) is raised;
  different bytes by another author (or by the same author on another previous entry) raise
  :class:`ConflictingEntry`.
* :meth:`LogStore.supersede` is the one exception to append-only: when valid evidence takes the place
  of entries (docs/protocol.md, "Precedence at one seq") they move to ``<log>.superseded``.
* :meth:`LogStore.open` reloads and re-verifies the whole chain.  A torn last record (the
  tail of the file shorter than a record, or only zero bytes, as a crash mid-write leaves
  it) is truncated away with a warning; any other damage raises :class:`LogCorrupt` naming
  the seq (and file offset) of the first bad record.
* An advisory exclusive lock (``fcntl.flock``, where available) keeps two processes from
  appending to the same log.

All I/O is blocking (it is small and must reach the disk before the peer acts on an
entry); from trio, call it through ``trio.to_thread.run_sync`` if latency matters.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import msgpack
from adp2p.crypto.entries import (
    GENESIS_PREV,
    MAX_BODY,
    Entry,
    Equivocation,
    EquivocationProof,
    Identities,
    decode_entry,
    verify_entry,
)
from adp2p.crypto.errors import CryptoError, InvalidSignature, MalformedEncoding
from adp2p.crypto.identity import PublicIdentity
from adp2p.p2p.pipeline import frame

try:  # POSIX only
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "EQUIVOCATION_SUFFIX",
    "MAX_RECORD",
    "SUPERSEDED_SUFFIX",
    "ConflictingEntry",
    "DuplicateEntry",
    "LogCorrupt",
    "LogEquivocation",
    "LogError",
    "LogLocked",
    "LogRejected",
    "LogStore",
]

log = logging.getLogger(__name__)

_LEN = struct.Struct(">I")
MAX_RECORD: Final = MAX_BODY + 1024  # a whole encoded entry is the body plus < 200 bytes of header
EQUIVOCATION_SUFFIX: Final = ".equivocations"
SUPERSEDED_SUFFIX: Final = ".superseded"


class LogError(Exception):
    """Base class of every log store error."""


class LogLocked(LogError):
    """Another process holds the log open."""


class LogCorrupt(LogError):
    """The file on disk does not hold a valid chain; ``seq`` and ``offset`` say where it breaks."""

    def __init__(self, path: Path, seq: int, offset: int, reason: str) -> None:
        super().__init__(f"log {path} is corrupt at seq {seq} (byte offset {offset}): {reason}")
        self.path = path
        self.seq = seq
        self.offset = offset


class LogRejected(LogError):
    """An entry that was not appended (the log is unchanged). ``seq`` is the entry's claimed seq."""

    def __init__(self, message: str, *, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


class DuplicateEntry(LogRejected):
    """The exact same entry is already in the log."""


class ConflictingEntry(LogRejected):
    """A validly signed entry by another author for a seq the log already holds."""


class LogEquivocation(LogRejected, Equivocation):
    """An author signed two different entries for one seq; ``proof`` was saved to the side file."""

    def __init__(self, proof: EquivocationProof, seat: int, seq: int) -> None:
        Equivocation.__init__(self, proof, seat)
        self.seq = seq
        self.args = (f"seat {seat} signed two different entries for seq {seq} (equivocation proof saved)",)

    def __str__(self) -> str:
        return str(self.args[0])


def _lookup(identities: Identities, seat: int) -> PublicIdentity | None:
    try:
        return identities[seat]
    except (IndexError, KeyError):
        return None


class LogStore:
    """One game's log: verified entries in memory, mirrored in an fsynced append-only file.

    Use :meth:`open` (not the constructor).  ``len(store)`` is the number of entries, i.e. the
    next seq; :meth:`head` the last entry; :meth:`since` the entries from a seq on.
    """

    def __init__(
        self,
        path: Path,
        file: io.FileIO,
        identities: Identities,
        game_id: bytes,
        entries: list[Entry],
        proofs: list[EquivocationProof],
    ) -> None:
        self.path = path
        self._f = file  # binary file object opened "r+b"
        self.identities: Identities = dict(identities) if isinstance(identities, Mapping) else list(identities)
        self.game_id = game_id
        self._entries = entries
        self._proofs = proofs

    # ------------------------------------------------------------------ open / close

    @classmethod
    def open(cls, path: str | os.PathLike[str], identities: Identities, game_id: bytes) -> LogStore:
        """Open (or create) the log at *path*, re-verifying every stored entry.

        Raises :class:`LogCorrupt` for damage other than a torn last record, and
        :class:`LogLocked` if another process has it open.
        """
        if type(game_id) is not bytes:
            raise TypeError("game_id must be bytes")
        p = Path(path)
        fd = os.open(p, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
        f = io.FileIO(fd, "r+b")
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise LogLocked(f"log {p} is already open in another process (or another LogStore)") from None
            data = f.read()
            entries, good_end = _load(p, data, identities, game_id)
            if good_end < len(data):
                log.warning(
                    "log %s: dropping a torn last record (%d bytes after seq %d) from an interrupted write",
                    p,
                    len(data) - good_end,
                    len(entries) - 1,
                )
                f.truncate(good_end)
                os.fsync(f.fileno())
            f.seek(0, os.SEEK_END)
            proofs = _load_proofs(Path(str(p) + EQUIVOCATION_SUFFIX))
        except BaseException:
            f.close()
            raise
        return cls(p, f, identities, game_id, entries, proofs)

    def close(self) -> None:
        """Close the file (releases the lock)."""
        self._f.close()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def next_seq(self) -> int:
        """The seq the next appended entry must carry."""
        return len(self._entries)

    def head(self) -> Entry | None:
        """The last entry, or None for an empty log."""
        return self._entries[-1] if self._entries else None

    @property
    def head_id(self) -> bytes:
        """Id of the last entry (``GENESIS_PREV``, 32 zero bytes, for an empty log)."""
        return self._entries[-1].id if self._entries else GENESIS_PREV

    def entries(self) -> list[Entry]:
        """All entries, seq 0 first (a copy)."""
        return list(self._entries)

    def __getitem__(self, seq: int) -> Entry:
        return self._entries[seq]

    def since(self, seq: int) -> list[Entry]:
        """Entries with ``entry.seq >= seq`` (catch-up: a peer whose ``next_seq`` is n asks ``since(n)``)."""
        if seq < 0:
            raise ValueError(f"seq must be >= 0, got {seq}")
        return self._entries[seq:]

    def equivocations(self) -> list[EquivocationProof]:
        """Equivocation proofs found so far (also kept in ``<log>.equivocations``)."""
        return list(self._proofs)

    # ------------------------------------------------------------------ appending

    def check(self, raw: bytes, *, author: int | None = None) -> Entry:
        """Run every check of :meth:`append` without writing; return the decoded entry.

        Raises :class:`LogRejected` (or a subclass) exactly as :meth:`append` would, except that
        an equivocation is reported without saving its proof.
        """
        return self._check(raw, author, save_proof=False)

    def check_entry(self, e: Entry, *, author: int | None = None, signed: bool = False) -> Entry:
        """:meth:`check` of an entry framed already (the pipeline's first step, p2p/pipeline.py): a peer's signature
        and chain steps, on the entry its frame step made (not decoded again). `signed`: the caller checked its
        signature against this log's roster already (an entry held ahead of the log): not verified again. Returns
        `e`."""
        return self._check_entry(e, author, save_proof=False, signed=signed)

    def append(
        self, raw: bytes, *, author: int | None = None, checked: Entry | None = None, durable: bool = True
    ) -> Entry:
        """Verify *raw* as the next entry, persist it (write + fsync), and return it.

        *durable=False*: written but not fsynced (another peer's entry, which the table holds too: the next
        durable append flushes it with the rest of the file; after a power loss a peer fetches what it lost).

        *author*, if given, is the seat that must have written this entry (the engine's pending
        author).  Raises :class:`LogRejected` or a subclass and changes nothing if the entry is
        not acceptable; see the module docstring for duplicates and equivocations.  *checked*: what
        :meth:`check` returned for these very bytes; if the log has not moved since (the entry still
        links to our head) it is not decoded and verified a second time.
        """
        if (
            checked is not None
            and checked.raw is raw
            and checked.seq == len(self._entries)
            and checked.prev_hash == self.head_id
            and (author is None or checked.author == author)
        ):
            entry = checked
        else:
            entry = self._check(raw, author, save_proof=True)
        self._write_record(self._f, raw, sync=durable)
        self._entries.append(entry)
        return entry

    def _check(self, raw: bytes, author: int | None, *, save_proof: bool) -> Entry:
        if type(raw) is not bytes:
            raise LogRejected(f"entry must be bytes, got {type(raw).__name__}")
        if len(raw) > MAX_RECORD:
            raise LogRejected(f"entry of {len(raw)} bytes exceeds {MAX_RECORD}")
        try:
            e = frame(raw)
        except MalformedEncoding as exc:
            raise LogRejected(f"undecodable entry: {exc}") from None
        return self._check_entry(e, author, save_proof=save_proof)

    def _check_entry(self, e: Entry, author: int | None, *, save_proof: bool, signed: bool = False) -> Entry:
        raw = e.raw
        if len(raw) > MAX_RECORD:
            raise LogRejected(f"entry of {len(raw)} bytes exceeds {MAX_RECORD}")
        if e.game_id != self.game_id:
            raise LogRejected(
                f"entry seq {e.seq} belongs to game {e.game_id.hex()}, this log is game {self.game_id.hex()}",
                seq=e.seq,
            )
        ident = _lookup(self.identities, e.author)
        if ident is None:
            raise LogRejected(f"entry seq {e.seq}: unknown author seat {e.author}", seq=e.seq)
        try:
            if not signed:
                verify_entry(e, ident)
        except InvalidSignature as exc:
            raise LogRejected(f"{exc} (not signed by seat {e.author}'s key)", seq=e.seq) from None
        n = len(self._entries)
        if e.seq < n:
            old = self._entries[e.seq]
            if old.raw == raw:
                raise DuplicateEntry(f"entry seq {e.seq} is already in the log", seq=e.seq)
            if old.author != e.author:
                raise ConflictingEntry(
                    f"entry seq {e.seq} by seat {e.author} conflicts with the one by seat {old.author}",
                    seq=e.seq,
                )
            if old.prev_hash != e.prev_hash:  # another branch (an entry set aside by evidence): not a lie
                raise ConflictingEntry(
                    f"entry seq {e.seq} by seat {e.author} builds on another entry {e.seq - 1} than ours",
                    seq=e.seq,
                )
            proof = EquivocationProof(old.raw, raw)
            try:
                seat = proof.verify(self.identities)
            except CryptoError as exc:  # pragma: no cover - both entries were verified above
                raise LogRejected(f"entry seq {e.seq}: {exc}", seq=e.seq) from None
            if save_proof:
                self._save_proof(proof)
            raise LogEquivocation(proof, seat, e.seq)
        if author is not None and e.author != author:
            raise LogRejected(f"entry seq {e.seq} is by seat {e.author}, expected seat {author}", seq=e.seq)
        if e.seq > n:
            raise LogRejected(f"entry seq {e.seq} is out of order: the log expects seq {n} next", seq=e.seq)
        if e.prev_hash != self.head_id:
            raise LogRejected(
                f"entry seq {e.seq}: prev_hash does not link to "
                + (f"the head (seq {n - 1})" if n else "genesis (32 zero bytes)"),
                seq=e.seq,
            )
        return e

    def supersede(self, seq: int) -> list[Entry]:
        """Set aside the entries from *seq* on (evidence took their place; docs/protocol.md, "Precedence at one
        seq"): they are appended to ``<log>.superseded`` (same record format) and fsynced first, then the log
        is truncated before *seq* and fsynced. Returns the entries set aside. A crash in between leaves them
        in both files; the log then still verifies and the evidence arrives again."""
        if not 0 < seq <= len(self._entries):
            raise ValueError(f"cannot set aside entries from seq {seq} of a log of {len(self._entries)}")
        gone = self._entries[seq:]
        if not gone:
            return []
        side = Path(str(self.path) + SUPERSEDED_SUFFIX)
        fd = os.open(side, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0), 0o600)
        with io.FileIO(fd, "r+b") as f:
            for e in gone:
                self._write_record(f, e.raw)
        keep = sum(_LEN.size + len(e.raw) for e in self._entries[:seq])
        self._f.truncate(keep)
        os.fsync(self._f.fileno())
        self._f.seek(0, os.SEEK_END)
        del self._entries[seq:]
        return gone

    def _save_proof(self, proof: EquivocationProof) -> None:
        if proof in self._proofs or EquivocationProof(proof.raw_b, proof.raw_a) in self._proofs:
            return
        side = Path(str(self.path) + EQUIVOCATION_SUFFIX)
        fd = os.open(side, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0), 0o600)
        with io.FileIO(fd, "r+b") as f:
            self._write_record(f, proof.to_bytes())
        self._proofs.append(proof)

    @staticmethod
    def _write_record(fh: io.FileIO, payload: bytes, *, sync: bool = True) -> None:
        """Append one record (durably unless `sync` is false), or leave the file as it was."""
        start = fh.seek(0, os.SEEK_END)
        try:
            data = memoryview(_LEN.pack(len(payload)) + payload)
            while data:
                written = fh.write(data) or 0
                data = data[written:]
            if sync:
                os.fsync(fh.fileno())
        except BaseException:
            with contextlib.suppress(OSError):  # if this fails too, the reload sees a torn record
                fh.truncate(start)
                os.fsync(fh.fileno())
            raise


def _load(path: Path, data: bytes, identities: Identities, game_id: bytes) -> tuple[list[Entry], int]:
    """The entries of a log file's bytes, each checked (decoding, chain, signature), and where the good part ends
    (a torn last record is left out; any other damage raises LogCorrupt)."""
    entries: list[Entry] = []
    pos = 0
    prev = GENESIS_PREV
    while pos < len(data):
        seq = len(entries)
        rest = data[pos:]
        if len(rest) < _LEN.size or not any(rest):
            return entries, pos  # torn header, or a zero-filled tail
        (length,) = _LEN.unpack_from(data, pos)
        if length > MAX_RECORD:
            raise LogCorrupt(path, seq, pos, f"record length {length} exceeds {MAX_RECORD}")
        if pos + _LEN.size + length > len(data):
            if _holds_complete_object(data[pos + _LEN.size :]):
                raise LogCorrupt(
                    path,
                    seq,
                    pos,
                    f"record length {length} runs past the end of the file, over a whole entry",
                )
            return entries, pos  # torn body
        raw = data[pos + _LEN.size : pos + _LEN.size + length]
        try:
            e = decode_entry(raw)
        except MalformedEncoding as exc:
            raise LogCorrupt(path, seq, pos, f"undecodable entry: {exc}") from None
        problem = _chain_problem(e, seq, prev, game_id, identities)
        if problem is not None:
            raise LogCorrupt(path, seq, pos, problem)
        entries.append(e)
        prev = e.id
        pos += _LEN.size + length
    return entries, pos

def _load_proofs(path: Path) -> list[EquivocationProof]:
    """The equivocation proofs kept beside a log (an unreadable tail is ignored, with a warning)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    proofs: list[EquivocationProof] = []
    pos = 0
    while pos + _LEN.size <= len(data):
        (length,) = _LEN.unpack_from(data, pos)
        end = pos + _LEN.size + length
        if length > 2 * MAX_RECORD + 64 or end > len(data):
            break
        try:
            proofs.append(EquivocationProof.from_bytes(data[pos + _LEN.size : end]))
        except MalformedEncoding:
            break
        pos = end
    if pos < len(data):
        log.warning("equivocation file %s: ignoring %d unreadable trailing bytes", path, len(data) - pos)
    return proofs


def _chain_problem(e: Entry, seq: int, prev: bytes, game_id: bytes, identities: Identities) -> str | None:
    if e.game_id != game_id:
        return f"entry belongs to game {e.game_id.hex()}, expected {game_id.hex()}"
    if e.seq != seq:
        return f"entry carries seq {e.seq}"
    if e.prev_hash != prev:
        return "prev_hash does not link to the previous entry" if seq else "genesis prev_hash is not zero"
    ident = _lookup(identities, e.author)
    if ident is None:
        return f"unknown author seat {e.author}"
    try:
        verify_entry(e, ident)
    except InvalidSignature:
        return f"signature of seat {e.author} does not verify"
    return None


def _holds_complete_object(buf: bytes) -> bool:
    """True if *buf* starts with one complete msgpack object.

    A record body torn by a crash is a strict prefix of one msgpack object and never holds a
    complete one; a body that does means the length field itself was damaged.
    """
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(buf), 1))
    try:
        unpacker.feed(buf)
        unpacker.unpack()
    except Exception:  # OutOfData for a prefix; anything else is garbage, which we cannot place either
        return False
    return True
