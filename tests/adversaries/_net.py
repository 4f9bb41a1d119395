"""The adversary zoo over the real protocol: N `TablePeer`s in one trio run on 127.0.0.1 (real TCP mesh with the
signed handshake, fsynced logs, catch-up, evidence entries, abandonment), one of them folding the log with a
cheater's Machine. Every secret comes from the table seed exactly as in `_zoo.Table` (`_seeds`), so a seed where
the in-process zoo found the cheater's chance gives the networked game the same chance.

Two cheats need the network itself and are done by the peer, not the machine: an `Equivocator` (its machine
prepares a second body for the same seq) sends one version to one peer and the other to the rest, and a `Forger`
sends an entry in the next seat's name signed with its own key."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from _zoo import make_bots
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.audit import AuditResult, audit_log
from adp2p.p2p.game import DEFAULT_GAME
from adp2p.p2p.machine import Author, Chooser, Machine, ProtocolError
from adp2p.p2p.peer import Outcome, PeerConfig, TablePeer
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import encode_body
from adp2p.p2p.transport import Mesh
from seeds import SeededDraws, draw, seeded

GAME_TIMEOUT = 90.0


class ZooPeer(TablePeer):
    """A peer whose secrets come from the table seed; when its machine holds an equivocator's second body or a
    forger's entry, the peer sends them as that cheater would."""

    def keeps_own_entry(self, raw: bytes) -> bool:
        """A cheater's own machine may reject its lie (a public rule break): send it anyway, hold back (the
        machine authors nothing more at that seq) and let the others' evidence take its place."""
        m = self.machine
        if m is not None and m.seat in self.seeds.cheaters:
            e = decode_entry(raw)
            try:
                m.snapshot().apply_entry(e)
            except ProtocolError:
                m.lied_at = e.seq  # type: ignore[attr-defined]
                return False
        return super().keeps_own_entry(raw)

    def make_wire(self, mesh: Mesh) -> Wire:
        return ZooWire(mesh, self)


class ZooWire(Wire):
    """What a zoo peer sends: when its machine holds an equivocator's second body, that version goes to one peer and
    the entry to the others; when it holds a forger's entry, that entry (in the next seat's name, signed with its own
    key) goes out before its own."""

    def __init__(self, mesh: Mesh, peer: TablePeer) -> None:
        super().__init__(mesh)
        self.peer = peer

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        m, ident = self.peer.machine, self.peer.identity
        if msg.get("k") != "entry" or m is None:
            return await super().broadcast(msg)
        e = decode_entry(msg["raw"])
        other = getattr(m, "extra_entry", None)
        if other is not None and e.author == m.seat:
            m.extra_entry = None  # type: ignore[attr-defined]
            b = encode_entry(ident, m.game_id, e.seq, e.prev_hash, e.author, e.kind, encode_body(other))
            fps = [m.ids[s].fingerprint() for s in range(m.n) if s != m.seat]
            await self.mesh.send(fps[0], {"k": "entry", "raw": b})
            for fp in fps[1:]:
                await self.mesh.send(fp, msg)
            return fps
        forged = getattr(m, "forge", None)
        if forged is not None and e.author == m.seat:
            m.forge = None  # type: ignore[attr-defined]
            victim = (m.seat + 1) % m.n  # type: ignore[operator]
            raw = encode_entry(ident, m.game_id, e.seq, e.prev_hash, victim, int(forged[0]), encode_body(forged[1]))
            await super().broadcast({"k": "entry", "raw": raw})
        return await super().broadcast(msg)


@dataclass
class NetGame:
    peers: list[TablePeer]
    outcomes: list[Outcome | None]
    said: list[list[str]]
    cheaters: set[int]
    cheats: list[int] = field(default_factory=list)  # the seqs the cheater's machine cheated at

    @property
    def honest(self) -> list[int]:
        return [i for i in range(len(self.peers)) if i not in self.cheaters]

    def heard(self, i: int) -> str:
        return "\n".join(self.said[i])

    def who(self, seat: int) -> str:
        """How a peer names the player at `seat` (name, seat from 1, key fingerprint)."""
        m = self.peers[self.honest[0]].machine
        assert m is not None
        return f"{m.names[seat]} (seat {seat + 1}, key {m.ids[seat].fingerprint()})"

    def log(self, i: int) -> Path:
        o = self.outcomes[i]
        assert o is not None and o.log_path is not None, self.heard(i)
        return o.log_path

    def honest_logs(self) -> list[bytes]:
        return [self.log(i).read_bytes() for i in self.honest]

    def audit(self, i: int | None = None) -> AuditResult:
        return audit_log(self.log(self.honest[0] if i is None else i))


class Recorded(Machine):
    """Mixin: the cheat's seq is kept on the class, so it survives the peer refolding its machine; after a lie its
    own fold rejected, the machine authors nothing at that seq (the others' evidence comes in its place: `Quiet`)."""

    record: list[int]
    lied_at: int | None = None

    class Quiet(Author):
        """The cheater's author, quiet at the seq of a lie its own fold rejected."""

        def __init__(self, inner: Author) -> None:
            self.inner = inner

        def author_next(self, fold: Any, choose: Any = None) -> Any:
            if fold.lied_at == fold.entries:
                return None
            return self.inner.author_next(fold, choose)

    @property  # type: ignore[override]
    def cheat_seq(self) -> int | None:
        return self.record[0] if self.record else None

    @cheat_seq.setter
    def cheat_seq(self, v: int | None) -> None:
        if v is not None and not self.record:
            self.record.append(v)


async def net_game(
    tmp_path: Path,
    n: int,
    seed: int,
    cheats: dict[int, type[Machine]],
    *,
    profile: str = "classic",
    round_limit: int | None = 12,
    bots: str = "deduction",
    dumpster_at: int | None = None,
    wrap_bot: dict[int, Callable[[Chooser], Chooser]] | None = None,
    abandon_after: float = 8.0,
    peer_class: Callable[..., TablePeer] = ZooPeer,
    lang: str = "en",
    game: str = DEFAULT_GAME,
) -> NetGame:
    """One seeded game of n peers on loopback; returns when every honest peer has finished (the cheaters are
    then stopped). The bots are the in-process table's (`_zoo.make_bots`: with `dumpster_at`, every other seat
    plays Dumpster Diving against that seat whenever it can; `wrap_bot[seat]` wraps that seat's bot)."""
    seeds = draw(n, seed)
    seeds.cheaters = set(cheats)
    choosers = make_bots(bots, seed, n, dumpster_at, game)
    for seat, wrap in (wrap_bot or {}).items():
        choosers[seat] = wrap(choosers[seat])
    record: list[int] = []
    said: list[list[str]] = [[] for _ in range(n)]
    peers: list[TablePeer] = []
    for i in range(n):
        cfg = PeerConfig(
            name=f"p{i}",
            table="zoo",
            game=game,
            want=n,
            profile=profile,
            round_limit=round_limit,
            data_dir=tmp_path / f"p{i}",
            abandon_after=abandon_after,
            lobby_timeout=GAME_TIMEOUT,
            heartbeat=0.5,
            lang=lang,
        )
        cls = cheats.get(i, Machine)
        recorded = {"record": record, "author": Recorded.Quiet(cls.author)}
        machine = (
            seeded(type(f"Recorded{cls.__name__}", (Recorded, cls), recorded), seeds.rng)
            if (i in cheats)
            else seeded(cls, seeds.rng)
        )
        p = peer_class(
            cfg, choosers[i], say=said[i].append, identity=seeds.ids[i], draws=SeededDraws(seeds), machine_class=machine
        )
        p.seeds = seeds  # type: ignore[attr-defined]
        peers.append(p)
    game = NetGame(peers, [None] * n, said, set(cheats), record)
    port0: list[int] = []
    up = trio.Event()

    async def run(i: int) -> None:
        game.outcomes[i] = await peers[i].run(on_listening=(lambda p: (port0.append(p), up.set())) if i == 0 else None)

    with trio.fail_after(GAME_TIMEOUT):
        async with trio.open_nursery() as outer:
            side: list[trio.CancelScope] = []
            async with trio.open_nursery() as nursery:
                (nursery if 0 in game.honest else outer).start_soon(_guarded, side if 0 in cheats else None, run, 0)
                await up.wait()
                for i in range(1, n):
                    peers[i].cfg.peers = [("127.0.0.1", port0[0])]
                    peers[i].addresses = {("127.0.0.1", port0[0])}
                    if i in game.honest:
                        nursery.start_soon(run, i)
                    else:
                        outer.start_soon(_guarded, side, run, i)
            for scope in side:  # the honest peers are done: stop the cheaters
                scope.cancel()
    return game


async def _guarded(scopes: list[trio.CancelScope] | None, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
    with trio.CancelScope() as scope:
        if scopes is not None:
            scopes.append(scope)
        await fn(*args)
