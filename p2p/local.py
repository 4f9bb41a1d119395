"""An honest table of N game machines in one process, without sockets (for tests and benchmarks).

`LocalTable` owns the loop a networked peer (`p2p.peer`) runs over the network, for every seat at once: the
seat whose duty it is authors its entry with its own `Machine` (a bot from the game's `make_bot` chooses its
moves); the entry is signed and encoded (`crypto.entries.encode_entry`, `p2p.protocol.encode_body`), checked
against the log's hash chain, and every machine runs it through its pipeline (p2p/pipeline.py: decodes it,
verifies its signature, folds it). Evidence a
machine's immediate checks found is posted like a peer posts it. `run()` plays until the game is complete:
every seat's secrets revealed and every machine's end-of-game audit run.

A subclass can change what happens off the honest path (the adversary zoo's table, tests/adversaries/_zoo.py,
does): `deliver` (a rejected entry), `evidence` (who posts what its machine found), `silent` (a seat that
authors nothing for its duty) and `post` (what a seat sends for its entry); `step` and `run` stay the loop.

It also owns what it measures (`Stats`: entries and bytes per kind, the decryption shares authored, the time
spent authoring and folding each kind, the time to the first turn) and the log: `raws` (the raw entries from
the genesis on) and `write_log(path)` in the log store's record format (``u32 big-endian length || raw``), so
`p2p.audit.audit_log` can audit it offline. The game rules, the crypto and every check are the machines'.

Secrets: by default every seat draws fresh ones; pass `secrets` (seat order, the roster sorted by signing key)
with their `game_id`, and a `machine` factory (e.g. a Machine with seeded shuffles) for a reproducible game.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from adp2p.crypto.entries import GENESIS_PREV, Entry, decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.game import DEFAULT_GAME, Game, get_game
from adp2p.p2p.machine import Chooser, Duty, Event, Machine, SeatSecrets
from adp2p.p2p.pipeline import Arrival, Pipeline, chain, frame
from adp2p.p2p.protocol import Genesis, Kind, decode_body, encode_body

MachineFactory = Callable[[Genesis, SeatSecrets], Machine]
_LEN = struct.Struct(">I")


@dataclass
class KindStats:
    """What passed through the table for one entry kind."""

    entries: int = 0
    bytes: int = 0  # raw signed entries
    author_seconds: float = 0.0  # the author's machine building the body; encoding and signing
    fold_seconds: float = 0.0  # every machine: decoding, verifying the signature, folding (audit included)


@dataclass
class Stats:
    kinds: dict[Kind, KindStats] = field(default_factory=lambda: {k: KindStats() for k in Kind})
    shares: int = 0  # decryption shares authored (a seat's own share, or the n shares of a certificate it forwards)
    sealed_boxes: int = 0  # per-recipient sealed boxes of shares
    setup_seconds: float = 0.0  # until the first turn's first decision (joins, chance, first shuffle, deal, passwords)
    seconds: float = 0.0  # the whole game, end-of-game audits included

    @property
    def entries(self) -> int:
        return sum(k.entries for k in self.kinds.values())

    @property
    def bytes(self) -> int:
        return sum(k.bytes for k in self.kinds.values())


def make_bots(names: str, seed: int, n: int, game: Game | None = None) -> list[Chooser]:
    """One bot per seat of `game` (default: Access Denied): the strategy names separated by commas (seat i plays
    names[i % len]), seat i's seeded with ``seed * 10 + i``."""
    game = game or get_game()
    strategies = names.split(",")
    return [game.make_bot(strategies[i % len(strategies)], seed * 10 + i) for i in range(n)]


class LocalTable:
    """N machines in one process playing one honest game (see module docstring)."""

    def __init__(
        self,
        n: int,
        *,
        profile: str = "classic",
        goal: int | None = None,
        round_limit: int | None = None,
        stalemate: int | None = None,
        bots: str | Sequence[Chooser] = "deduction",
        seed: int = 0,
        secrets: Sequence[SeatSecrets] | None = None,
        game_id: bytes | None = None,
        machine: MachineFactory = Machine,
        game: str = DEFAULT_GAME,
    ) -> None:
        """`bots`: one strategy name, or names separated by commas (`make_bots`, seeded from `seed`), or one
        chooser per seat."""
        if secrets is None:
            ids = sorted((SecretIdentity.generate() for _ in range(n)), key=lambda s: s.public.sign_pk)
            game_id = game_id or os.urandom(16)
            secrets = [SeatSecrets.generate(i, ids[i], game_id) for i in range(n)]
        elif game_id is None:
            raise ValueError("secrets belong to one game: pass its game_id")
        if [s.seat for s in secrets] != list(range(n)):
            raise ValueError(f"need the secrets of seats 0..{n - 1}, in seat order")
        self.ids = [s.identity for s in secrets]
        g = Genesis(
            "local",
            profile,
            goal,
            round_limit,
            tuple(make_bundle(s, f"p{i + 1}") for i, s in enumerate(self.ids)),
            game_id,
            stalemate=stalemate,
            game=game,
        )
        self.raws: list[bytes] = [
            encode_entry(self.ids[0], game_id, 0, GENESIS_PREV, 0, int(Kind.GENESIS), encode_body(g.to_body()))
        ]
        genesis = decode_entry(self.raws[0])
        self.head = genesis.id
        self.genesis = Genesis.from_body(decode_body(genesis.body))  # as a peer reads it: checks the roster order
        self.pipeline = Pipeline(self.genesis.identities(), game_id)  # a check of an entry before any machine's
        self.ms: list[Machine] = [machine(self.genesis, secrets[i]) for i in range(n)]
        self.bots: list[Chooser] = (
            make_bots(bots, seed, n, self.ms[0].game) if isinstance(bots, str) else list(bots)
        )
        if len(self.bots) != n:
            raise ValueError(f"need one bot per seat ({n}), got {len(self.bots)}")
        self.stats = Stats()
        self._count(Kind.GENESIS, self.raws[0])
        self._started: float | None = None
        self._setup_done = False
        self.referee = 0  # the seat whose machine says whose duty it is (a subclass seating a cheater moves it)

    @property
    def n(self) -> int:
        return len(self.ms)

    @property
    def events(self) -> list[Event]:
        """Every engine event of the game (derived chance events included), as the machines folded them."""
        return self.ms[self.referee].events

    @property
    def complete(self) -> bool:
        return all(m.complete for m in self.ms)

    # -- entries -------------------------------------------------------------------------------------------
    def sign(self, seat: int, kind: int, body: dict[str, Any], *, key: SecretIdentity | None = None) -> bytes:
        """`seat`'s signed entry for the next seq of the log (signed with `key` instead: a forgery)."""
        gid = self.genesis.game_id
        raw_body = encode_body(body)
        return encode_entry(key or self.ids[seat], gid, len(self.raws), self.head, seat, int(kind), raw_body)

    def check_next(self, e: Entry) -> None:
        """Raise `ChainError` unless `e` is the next entry of this log (its seq, previous hash and game)."""
        chain(Arrival(e, None), seq=len(self.raws), prev=self.head, game_id=self.genesis.game_id)

    @staticmethod
    def fold(m: Machine, raw: bytes, framed: Entry | None = None) -> Arrival:
        """What a peer does with an entry: its own pipeline (p2p/pipeline.py), frame → schema → signature → fold,
        each step once (the chain is the table's log, checked once by `deliver`); a rejection raises,
        `ProtocolError` naming the seat at fault. The arrival it folded."""
        a = Pipeline(m.ids, m.game_id).signed(raw, framed)
        m.fold(a)
        return a

    def deliver(self, raw: bytes) -> bool:
        """Append the entry to the log: the table checks its place in the log (the chain: one log for every seat),
        every machine runs it through its own pipeline (`fold`); True. A machine that rejects it raises
        (`ProtocolError` naming the seat at fault, `CryptoError` a signature; a note names the machine)."""
        t0 = time.perf_counter()
        e = frame(raw)
        self.check_next(e)
        for seat, m in enumerate(self.ms):
            try:
                self.fold(m, raw, e)
            except Exception as exc:
                exc.add_note(f"entry {e.seq} ({Kind(e.kind).name.lower()}) rejected by seat {seat + 1}'s machine")
                raise
        self.append(e, fold_seconds=time.perf_counter() - t0)
        return True

    def append(self, e: Entry, *, fold_seconds: float = 0.0) -> None:
        """Add an entry the machines have folded to the log (and to the stats)."""
        self.raws.append(e.raw)
        self.head = e.id
        self._count(Kind(e.kind), e.raw, fold=fold_seconds)

    def post(self, seat: int, kind: Kind, body: dict[str, Any], *, author_seconds: float = 0.0) -> bool:
        """Sign `seat`'s entry and deliver it (`author_seconds`: what building the body took); what `deliver`
        returns."""
        t0 = time.perf_counter()
        raw = self.sign(seat, kind, body)
        self.stats.kinds[kind].author_seconds += author_seconds + time.perf_counter() - t0
        return self.deliver(raw)

    def _count(self, kind: Kind, raw: bytes, fold: float = 0.0) -> None:
        k = self.stats.kinds[kind]
        k.entries += 1
        k.bytes += len(raw)
        k.fold_seconds += fold

    # -- play ----------------------------------------------------------------------------------------------
    def evidence(self) -> tuple[int, dict[str, Any]] | None:
        """(seat, body) of the first machine holding evidence to post (found by its immediate checks), or None."""
        return next(((s, ev) for s, m in enumerate(self.ms) if (ev := m.pending_evidence()) is not None), None)

    def post_evidence(self, seat: int, body: dict[str, Any]) -> None:
        """Post `seat`'s evidence: an honest machine's evidence must be accepted."""
        if not self.post(seat, Kind.EVIDENCE, body):
            raise RuntimeError(f"seat {seat + 1}'s evidence was not accepted")

    def silent(self, d: Duty) -> bool:
        """The seat on duty authored nothing: an honest machine always does, so this raises (a subclass may
        end the game instead and return False)."""
        raise RuntimeError(f"seat {d.seat + 1}'s machine authored nothing for its {d.kind.name.lower()} duty")

    def step(self) -> bool:
        """Post the next entry: a machine's pending evidence, else the entry of the seat whose duty it is.
        False once the game is complete."""
        now = time.perf_counter()
        if self._started is None:
            self._started = now
        found = self.evidence()
        if found is not None:
            self.post_evidence(*found)
            return True
        d = self.ms[self.referee].duty()
        if d is None:
            self.stats.seconds = now - self._started
            return False
        if not self._setup_done and d.kind == Kind.EVENT and d.what != "password":
            self.stats.setup_seconds = now - self._started
            self._setup_done = True
        m = self.ms[d.seat]
        if d.kind == Kind.SHARES and m.round is not None:
            self.stats.shares += sum(1 if mode == "own" else self.n for _, _, mode in m.round.duties[d.seat])
        out = m.author_next(self.bots[d.seat])
        if out is None:
            return self.silent(d)
        kind, body = out
        if kind == Kind.SHARES:
            self.stats.sealed_boxes += len(body["sealed"])
        self.post(d.seat, kind, body, author_seconds=time.perf_counter() - now)
        return True

    def run(self, limit: int = 100_000) -> Self:
        for _ in range(limit):
            if not self.step():
                return self
        raise RuntimeError(f"the game did not end in {limit} entries")

    # -- the log -------------------------------------------------------------------------------------------
    def write_log(self, path: Path) -> Path:
        """The log in the log store's record format (what `p2p.audit.audit_log` reads)."""
        path.write_bytes(b"".join(_LEN.pack(len(raw)) + raw for raw in self.raws))
        return path
