"""Implied passes, the peer's side: the pass tokens it holds for the next entry, its own ones on disk, and the
chain of passes an entry at the next seq may carry (docs/protocol.md, "Implied passes").

A reaction window asks its seats one after the other. Each seat decides at once, as if every seat before it
had passed (the only case in which the rules would ask it), and if it passes it sends a signed token instead
of writing an entry; the next entry's author carries the tokens in order. A seat's own tokens are written
to `<game>/passes` and fsynced before they leave, so a crash and resume can never make it act where it
already said it passes (that would be proof against it).

Bounds: tokens are kept only for the next seq and the few after it (received early), for at most
`MAX_PASSES` decisions, `MAX_PREVS` branches per seq and the seated players; each is checked on receipt.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import PublicIdentity, SecretIdentity
from adp2p.crypto.passes import sign_pass, verify_pass
from adp2p.p2p.machine import MAX_PASSES, Machine
from adp2p.p2p.protocol import Kind

AHEAD = 4  # seqs past the next one for which tokens are kept (they can arrive before the entry they follow)
MAX_PREVS = 4  # branches per seq (only one is real; a liar could sign tokens on made-up ones)
_RECORD = struct.Struct(">Q32sH")  # seq, prev, j: one own token


class PassPool:
    """Pass tokens for one game: received ones (checked), and this seat's own ones (persisted)."""

    def __init__(self, game_id: bytes, ids: list[PublicIdentity], seat: int | None, path: Path | None) -> None:
        self.game_id = game_id
        self.ids = ids
        self.seat = seat
        self.path = path
        self.tokens: dict[tuple[int, bytes], dict[tuple[int, int], bytes]] = {}  # (seq, prev) -> (j, seat) -> sig
        self.own: set[tuple[int, bytes, int]] = set()  # (seq, prev, j) this seat signed (from disk too)

    def load(self, secret: SecretIdentity) -> None:
        """Read this seat's signed positions back after a crash (a torn last record is ignored)."""
        if self.path is None or self.seat is None or not self.path.exists():
            return
        data = self.path.read_bytes()
        for off in range(0, len(data) - _RECORD.size + 1, _RECORD.size):
            seq, prev, j = _RECORD.unpack_from(data, off)
            self.own.add((seq, prev, j))
            self._put(seq, prev, j, self.seat, sign_pass(secret, self.game_id, seq, prev, j))

    def sign(self, secret: SecretIdentity, seq: int, prev: bytes, j: int) -> bytes:
        """Our token for decision j after `prev`: on disk (fsynced) before it is returned to be sent."""
        assert self.seat is not None
        token = sign_pass(secret, self.game_id, seq, prev, j)
        if (seq, prev, j) not in self.own:
            if self.path is not None:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                try:
                    os.write(fd, _RECORD.pack(seq, prev, j))
                    os.fsync(fd)
                finally:
                    os.close(fd)
            self.own.add((seq, prev, j))
        self._put(seq, prev, j, self.seat, token)
        return token

    def signed(self, seq: int, prev: bytes, j: int) -> bool:
        return (seq, prev, j) in self.own

    def add(
        self, seq: int, prev: bytes, j: int, seat: int, token: bytes, next_seq: int, head: bytes | None = None
    ) -> bool:
        """A token from the table: kept if it is for the next seqs, new, and really `seat`'s. True if kept. `head`:
        the id of our last entry; a token for the very next point (`next_seq`, `head`) is never crowded out by made-up
        branches (a seat may sign tokens on any prev it likes: at the bound, one of them makes room)."""
        if not next_seq <= seq <= next_seq + AHEAD or not 0 <= j < MAX_PASSES or not 0 <= seat < len(self.ids):
            return False
        if self.tokens.get((seq, prev), {}).get((j, seat)) is not None:
            return False
        real = seq == next_seq and prev == head
        crowd = [k for k in self.tokens if k[0] == seq and k != (seq, prev)]
        if (seq, prev) not in self.tokens and len(crowd) >= MAX_PREVS and not real:
            return False
        try:
            verify_pass(self.ids[seat], token, self.game_id, seq, prev, j)
        except CryptoError:
            return False
        if (seq, prev) not in self.tokens and len(crowd) >= MAX_PREVS:
            del self.tokens[crowd[0]]  # a made-up branch (the real one at the next seq is ours: `head`)
        self._put(seq, prev, j, seat, token)
        return True

    def _put(self, seq: int, prev: bytes, j: int, seat: int, token: bytes) -> None:
        self.tokens.setdefault((seq, prev), {})[(j, seat)] = token

    def get(self, seq: int, prev: bytes, j: int, seat: int) -> bytes | None:
        return self.tokens.get((seq, prev), {}).get((j, seat))

    def prune(self, next_seq: int) -> None:
        """Forget tokens for seqs already written."""
        for key in [k for k in self.tokens if k[0] < next_seq]:
            del self.tokens[key]

    def mine(self, seq: int, prev: bytes) -> list[tuple[int, bytes]]:
        """Our own tokens at that point, (j, token) (re-sent to a peer that connects)."""
        got = self.tokens.get((seq, prev), {})
        return sorted((j, t) for (j, s), t in got.items() if s == self.seat)

    def chain(self, m: Machine, seq: int, prev: bytes) -> tuple[Machine, list[bytes]]:
        """The longest run of held tokens from decision 0 on that ends where an event is due (only an event entry
        can carry them), and a fork of `m` with those passes applied (`m` itself, untouched, if there is none)."""
        if m.window_actor() is None or (seq, prev) not in self.tokens:
            return m, []
        probe = m.fork()
        probe.prev = prev
        out: list[bytes] = []
        usable = 0
        while (who := probe.window_actor()) is not None:
            token = self.get(seq, prev, len(out), who)
            if token is None:
                break
            probe.apply_passes(who, [token], trusted=True, start=len(out))
            out.append(token)
            d = probe.duty()
            if d is not None and d.kind == Kind.EVENT:
                usable = len(out)  # a token followed by anything else is no honest seat's: never carried
        if usable == 0:
            return m, []
        if usable == len(out):
            return probe, out
        trial = m.fork()
        trial.prev = prev
        trial.apply_passes(-1, out[:usable], trusted=True)
        return trial, out[:usable]
