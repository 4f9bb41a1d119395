"""The seat's log state: one object held by the peer and handed to the parts that read or change it (intake,
evidence, abandonment, catch-up, the lobby's seating), instead of attributes of one shared `self`.

It holds the signed log on disk (`store`), the fold over it (`machine`, replaced whole when evidence or a refold
sets entries aside), the snapshots a refold starts from (`folds`), this seat's pass tokens (`passes`), its secrets and
game directory, the entries held ahead of the log (`arrivals`), the ids of entries set aside (`superseded`) and our
decisions made ahead in a reaction window (`ahead`). Its methods answer questions about the log alone: a fold before
a seq, whether an entry is signed by the seat it names, whether it is on another branch."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adp2p.crypto.entries import decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError
from adp2p.p2p.logstore import LogStore
from adp2p.p2p.machine import Machine, SeatSecrets
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.peer.arrivals import Arrivals
from adp2p.p2p.peer.folds import Folds
from adp2p.p2p.protocol import Genesis, Kind, decode_body


class SeatLog:
    """The seat's log, its fold and what goes with them."""

    def __init__(self, make_machine: Callable[[Genesis, SeatSecrets], Machine]) -> None:
        """`make_machine`: a new fold of a genesis for this seat (the peer's `machine_class`: a test's cheater)."""
        self.make_machine = make_machine
        self.store: LogStore | None = None
        self.machine: Machine | None = None
        self.gdir: Path | None = None
        self.secrets: SeatSecrets | None = None
        self.passes: PassPool | None = None  # pass tokens for the next entry (docs/protocol.md, "Implied passes")
        self.folds = Folds(self.fresh_machine)  # snapshots of our fold to start a refold from
        self.arrivals = Arrivals()  # entries received ahead of our log (bounded)
        self.superseded: set[bytes] = set()  # ids of entries set aside by evidence (their followers are stale)
        self.ahead: dict[tuple[int, bytes, int], dict[str, Any]] = {}  # (seq, prev, j) -> our window decision

    def fold(self, at: int, *, fresh: bool = False) -> Machine:
        """A machine folded over our log before seq `at` (p2p/peer/folds.py); `fresh`: not from our machine, which
        may hold a failed entry's traces."""
        assert self.store is not None and self.secrets is not None
        return self.folds.fold(at, self.store.entries(), None if fresh else self.machine)

    def fresh_machine(self) -> Machine:
        """A machine right after our log's genesis."""
        assert self.store is not None and self.secrets is not None
        return self.make_machine(Genesis.from_body(decode_body(self.store[0].body)), self.secrets)

    def check_signed(self, e: Any) -> None:
        """An entry of this game, signed by the seat it names (CryptoError if not)."""
        m = self.machine
        assert m is not None
        if e.game_id != m.game_id:
            raise CryptoError(f"entry seq {e.seq} belongs to another game")
        if not 0 <= e.author < m.n:
            raise CryptoError(f"entry seq {e.seq}: unknown author seat {e.author}")
        verify_entry(e, m.ids[e.author])

    def stale(self, raw: bytes) -> bool:
        """A well-signed entry of this game on another branch than ours (it follows an entry set aside, or one
        we have not fetched yet), or at a seq that evidence took: no news for the player."""
        store = self.store
        assert store is not None
        try:
            e = decode_entry(raw)
            self.check_signed(e)
        except (CryptoError, ValueError, TypeError):
            return False
        if e.prev_hash in self.superseded or e.id in self.superseded:
            return True
        if not 0 < e.seq <= len(store):
            return False
        if store[e.seq - 1].id != e.prev_hash:
            return True  # another branch (fetched and weighed where it parts from ours)
        return e.seq < len(store) and store[e.seq].kind == Kind.EVIDENCE  # evidence took that seq


def held(name: str, doc: str) -> property:
    """A peer's attribute that is its `SeatLog`'s (read and set through it)."""
    return property(
        lambda self: getattr(self.log_state, name),
        lambda self, v: setattr(self.log_state, name, v),
        doc=doc,
    )
