"""Bad input at a networked table: honest `TablePeer`s (bots, 127.0.0.1, static peers) against an attacker.

Each test runs one short game (round limit 1, no think delay) in one trio run. The attacker is either outside the
table (raw TCP, or its own authenticated `Mesh` that is not in the roster) or a seated player: a `TablePeer`
subclass that plays honestly and cheats once, at the first of its own entries that its plan wants. Every case
checks that the bad input is rejected with a message naming the sender, that no honest log is corrupted (each is
reopened and re-verified), and that the game goes on where it can, otherwise ends with a verdict naming the seat.
"""

from __future__ import annotations

import itertools
import logging
import math
import os
import random
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio
from adp2p.crypto.encoding import pack
from adp2p.crypto.entries import EquivocationProof, decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.logstore import EQUIVOCATION_SUFFIX, LogStore
from adp2p.p2p.machine import Author, Machine
from adp2p.p2p.peer import Outcome, PeerConfig, TablePeer
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import Genesis, Kind, decode_body, encode_body
from adp2p.p2p.transport import Mesh
from junk_messages import junk as junk_messages
from seeds import draw, seeded_peer

GAME_TIMEOUT = 40.0
ATTACKER = 1  # the seat the attacker holds (seat 0 authors the genesis)


@dataclass
class Table:
    peers: list[TablePeer]
    said: list[list[str]]
    outcomes: list[Outcome | None]
    honest: list[int]
    ids: list[SecretIdentity]
    extra: dict[str, Any] = field(default_factory=dict)

    def heard(self, i: int) -> str:
        return "\n".join(self.said[i])

    def label(self, seat: int) -> str:
        """How a peer names the player at `seat` in its messages (name and key fingerprint)."""
        return self.ids[seat].public.fingerprint()

    def reopen(self, i: int) -> LogStore:
        o = self.outcomes[i]
        assert o is not None and o.log_path is not None
        first = decode_entry(_first_record(o.log_path))
        g = Genesis.from_body(decode_body(first.body))
        return LogStore.open(o.log_path, g.identities(), g.game_id)

    def check_logs(self, *, same_head: bool = True) -> list[list[bytes]]:
        """Every honest log reopens cleanly (chain and signatures re-verified) and matches its outcome."""
        logs = []
        for i in self.honest:
            o = self.outcomes[i]
            assert o is not None
            with self.reopen(i) as store:
                assert len(store) == o.entries and store.head_id == o.head, self.heard(i)
                logs.append([e.raw for e in store.entries()])
        if same_head:
            heads = {self.outcomes[i].head for i in self.honest}  # type: ignore[union-attr]
            assert len(heads) == 1, [self.heard(i) for i in self.honest]
        return logs


def _first_record(path: Path) -> bytes:
    data = path.read_bytes()
    (n,) = struct.unpack_from(">I", data)
    return data[4 : 4 + n]


async def play(
    tmp_path: Path,
    *,
    attacker: Callable[..., TablePeer] | None = None,
    meddle: Callable[[Table], Awaitable[None]] | None = None,
    n: int = 3,
    abandon_after: float = 4.0,
    seed: int = 1,
    wait_for_attacker: bool = False,
    heartbeat: float = 0.5,
    round_limit: int = 1,
) -> Table:
    """One game of n peers (seat ATTACKER built by `attacker` if given); `meddle` runs alongside from the
    moment every honest peer has started the game; returns when every honest peer has finished. Every secret
    comes from `seed` (tests/support/seeds.py), so the game the attacker meets is the same on every run."""
    seeds = draw(n, seed)
    ids = seeds.ids
    said: list[list[str]] = [[] for _ in range(n)]
    outcomes: list[Outcome | None] = [None] * n
    honest = [i for i in range(n) if attacker is None or i != ATTACKER]
    peers: list[TablePeer] = []
    port0: list[int] = []
    up = trio.Event()

    for i in range(n):
        cfg = PeerConfig(
            name=f"p{i}",
            table="bad-input",
            want=n,
            round_limit=round_limit,
            data_dir=tmp_path / f"p{i}",
            abandon_after=abandon_after,
            lobby_timeout=GAME_TIMEOUT,
            heartbeat=heartbeat,
        )
        cls = seeded_peer(attacker if (attacker is not None and i == ATTACKER) else TablePeer, seeds)
        peers.append(cls(cfg, make_bot("random", 100 + i), say=said[i].append, identity=ids[i]))
    table = Table(peers, said, outcomes, honest, ids)

    async def run(i: int) -> None:
        outcomes[i] = await peers[i].run(on_listening=(lambda p: (port0.append(p), up.set())) if i == 0 else None)

    with trio.fail_after(GAME_TIMEOUT):
        async with trio.open_nursery() as outer:
            side: list[trio.CancelScope] = []
            async with trio.open_nursery() as nursery:
                nursery.start_soon(run, 0)
                await up.wait()
                for i in range(1, n):
                    peers[i].cfg.peers = [("127.0.0.1", port0[0])]
                    peers[i].addresses = {("127.0.0.1", port0[0])}
                    if i in honest or wait_for_attacker:
                        nursery.start_soon(run, i)
                    else:
                        outer.start_soon(_guarded, side, run, i)
                if meddle is not None:

                    async def meddling() -> None:
                        while not all(peers[i].store is not None for i in honest):
                            await trio.sleep(0.01)
                        await meddle(table)

                    outer.start_soon(_guarded, side, meddling)
            for scope in side:  # the honest peers are done: stop the attacker and the meddling
                scope.cancel()
    return table


async def _guarded(scopes: list[trio.CancelScope], fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
    with trio.CancelScope() as scope:
        scopes.append(scope)
        await fn(*args)


def assert_finished_normally(t: Table) -> None:
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.audit_ok is True and o.verdict is None and o.abandoned_by is None, t.heard(i)


# ======================================================================================================
# outsiders


async def test_garbage_and_oversized_frames_are_dropped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="adp2p")
    closed: list[str] = []

    async def meddle(t: Table) -> None:
        port = t.peers[0].port
        for name, payload in [
            ("garbage", os.urandom(64) + b"\x00" * 64),
            ("oversized", struct.pack(">I", 0xFFFFFFF0) + b"\x81\xa1t\xa1m"),
        ]:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            host, lport = stream.socket.getsockname()[:2]
            local = f"{host}:{lport}"
            await stream.send_all(payload)
            with trio.fail_after(10):  # the peer hangs up (no handshake, no frame of that size)
                try:
                    while await stream.receive_some(65536):
                        pass
                except trio.BrokenResourceError:
                    pass
            closed.append(f"{name}@{local}")
            await stream.aclose()

    t = await play(tmp_path, meddle=meddle)
    assert len(closed) == 2
    assert_finished_normally(t)
    t.check_logs()
    warnings = "\n".join(r.getMessage() for r in caplog.records)
    for c in closed:  # the warning names the connection that sent it
        assert c.split("@")[1] in warnings, warnings


async def test_outsiders_cannot_connect_once_the_game_has_begun(tmp_path: Path) -> None:
    """An authenticated mesh at the same table but not in the roster: once the game has begun only its seated
    players may connect, so the outsider's handshakes are refused (it holds no socket, no slot, sends nothing)."""

    async def meddle(t: Table) -> None:
        me = SecretIdentity.generate()
        t.extra["outsider_peers"] = {}
        while not all(len(t.peers[i].store) > 3 for i in t.honest):  # type: ignore[arg-type]
            await trio.sleep(0.01)  # the game is under way at every peer
        async with Mesh(me, "mallory", "bad-input", peers=[("127.0.0.1", t.peers[0].port)], heartbeat=0.5) as mesh:
            while True:  # until the game is over: every peer it ever reached
                t.extra["outsider_peers"].update(mesh.peers)
                await trio.sleep(0.05)

    t = await play(tmp_path, meddle=meddle)
    assert_finished_normally(t)
    t.check_logs()
    assert t.extra["outsider_peers"] == {}
    assert "mallory" not in t.heard(0), t.heard(0)


async def test_bad_lobby_addresses_do_not_crash_a_peer(tmp_path: Path) -> None:
    """A seated player's lobby message with hosts that cannot be dialled: refused, no crash."""

    class BadLobby(TablePeer):
        def make_wire(self, mesh: Mesh) -> Wire:
            bad = [["a" * 300, 4000], ["127.0.0.1", 70000], ["127.0.0.1", math.inf]]
            return Rewriting(mesh, {"lobby"}, lambda msg: {**msg, "peers": bad})

    t = await play(tmp_path, attacker=BadLobby)
    assert_finished_normally(t)
    t.check_logs()
    assert "Ignored 3 unusable address(es) from 'p1'" in t.heard(0), t.heard(0)


# ======================================================================================================
# a seated player who cheats once


class Rewriting(Wire):
    """A wire that rewrites every message of the given kinds on its way out (to one peer or to all)."""

    def __init__(self, mesh: Mesh, kinds: set[str], rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        super().__init__(mesh)
        self.kinds, self.rewrite = kinds, rewrite

    def _out(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self.rewrite(msg) if msg.get("k") in self.kinds else msg

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        await super().send(fp, self._out(msg))

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        return await super().broadcast(self._out(msg))


class Attacker(TablePeer):
    """Plays honestly; at its first own entry that `wants` accepts, `cheat(entry_raw, send_real)` runs instead of
    the broadcast of that entry (send_real broadcasts it as an honest peer would)."""

    def wants(self, e: Any) -> bool:
        return False

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.cheated = False
        self.log: list[str] = []

    def make_wire(self, mesh: Mesh) -> Wire:
        return AttackerWire(mesh, self)

    async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
        raise NotImplementedError

    def sign(self, seq: int, prev: bytes, kind: int, body: bytes, *, author: int | None = None, game=None) -> bytes:
        m = self.machine
        assert m is not None
        return encode_entry(
            self.identity, game or m.game_id, seq, prev, m.seat if author is None else author, kind, body
        )

    def others(self) -> list[str]:
        m = self.machine
        assert m is not None
        return [m.ids[s].fingerprint() for s in range(m.n) if s != m.seat]


class AttackerWire(Wire):
    """An `Attacker`'s wire: its first own entry that `wants` accepts goes to `cheat` instead of the table."""

    def __init__(self, mesh: Mesh, peer: Attacker) -> None:
        super().__init__(mesh)
        self.peer = peer

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        peer = self.peer
        if msg.get("k") == "entry" and not peer.cheated:
            e = decode_entry(msg["raw"])
            if e.author == peer.machine.seat and peer.wants(e):  # type: ignore[union-attr]
                peer.cheated = True
                await peer.cheat(e, lambda: Wire.broadcast(self, msg))
                return []
        return await super().broadcast(msg)


def first_event(self: Attacker, e: Any) -> bool:
    return e.kind == Kind.EVENT


async def test_bad_entries_from_a_seated_player_are_rejected(tmp_path: Path) -> None:
    """(a) bad signature, (b) out of turn: wrong author / wrong seq / a conflicting past seq, (c) replays and a
    reordered pair, plus malformed messages; then the real entry: the game goes on and ends normally."""

    class Noisy(Attacker):
        wants = first_event  # type: ignore[assignment]

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            m, store = self.machine, self.store
            assert m is not None and store is not None
            bad_sig = pack([e.header_bytes, e.signature[:-1] + bytes([e.signature[-1] ^ 1])])
            other = next(s for s in range(m.n) if s != m.seat)
            past = max(x.seq for x in store.entries() if x.author != m.seat and x.seq > 0)
            old = store[past]
            mine_before = [x.raw for x in store.entries() if x.author == m.seat and x.seq < e.seq]
            bad = [
                bad_sig,  # (a)
                self.sign(e.seq, e.prev_hash, e.kind, e.body, author=other),  # (b) claims another seat
                self.sign(e.seq, e.prev_hash, e.kind, e.body, author=9),  # (b) no such seat
                self.sign(past, old.prev_hash, old.kind, old.body),  # (b) a seq already taken by another seat
                self.sign(e.seq + 3, e.prev_hash, e.kind, e.body),  # (b) a seq far ahead (never links)
                self.sign(e.seq, e.prev_hash, e.kind, e.body, game=os.urandom(16)),  # (c) from another game
                store[0].raw,  # (c) replays: the genesis and our own earlier entry
                *mine_before[-1:],
            ]
            for raw in bad:
                await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
            for junk in [{"k": "entry", "raw": b"\x93junk"}, {"k": "entry", "raw": "text"}, {"k": "head", "seq": -1},
                         {"k": "get", "from": math.nan}, {"k": "nonsense"}]:  # fmt: skip
                await self.mesh.broadcast(junk)  # type: ignore[union-attr]
            await send_real()

    t = await play(tmp_path, attacker=Noisy, wait_for_attacker=True)  # it plays to the end: its outcome is asserted
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_finished_normally(t)
    logs = t.check_logs()
    a = t.outcomes[ATTACKER]
    assert a is not None and a.head == t.outcomes[0].head  # type: ignore[union-attr]
    for i in t.honest:
        heard = t.heard(i)
        who = f"from 'p1' ({t.label(ATTACKER)})"
        assert f"Rejected an entry {who}: entry seq" in heard, heard
        assert "signature of seat 1 does not verify" in heard, heard
        assert "unknown author seat 9" in heard, heard
        assert "belongs to game" in heard, heard
        assert "conflicts with the one by seat" in heard, heard
        assert f"Ignored a malformed message from 'p1' ({t.label(ATTACKER)})" in heard, heard
        assert "Cheating" not in heard and "broke the rules" not in heard, heard
    assert logs[0] == logs[1]


FUZZ_MESSAGES = 400  # malformed messages in the networked fuzz (benchmarks/bench_fuzz_net.py sends many more)


async def test_a_flood_of_malformed_messages_from_a_seated_player_changes_nothing(tmp_path: Path) -> None:
    """A seated player sends FUZZ_MESSAGES malformed variants of real messages (tests/support/junk_messages.py,
    seeded) before its real entry: every one is refused by the schema or handled, none takes a peer down or is
    left unhandled, and the game ends normally with identical logs."""

    class Fuzzer(Attacker):
        wants = first_event  # type: ignore[assignment]

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            store = self.store
            assert store is not None and self.mesh is not None
            real = [self.lobby.message(), self.net.head_msg(), {"k": "get", "from": 1}, {"k": "entry", "raw": e.raw}]
            real += [{"k": "entry", "raw": x.raw} for x in store.entries()[-3:]]
            for i, msg in enumerate(itertools.islice(junk_messages(random.Random(7), real), FUZZ_MESSAGES)):
                await self.mesh.broadcast(msg)
                if i % 16 == 15:
                    await trio.sleep(0.01)  # far below the send queue: the peers read them all
            self.log.append("sent")
            await send_real()

    t = await play(tmp_path, attacker=Fuzzer)
    assert t.peers[ATTACKER].log == ["sent"]  # type: ignore[attr-defined]
    assert_finished_normally(t)
    logs = t.check_logs()
    assert logs[0] == logs[1]
    for i in t.honest:
        heard = t.heard(i)
        assert "could not be handled" not in heard, heard
        assert heard.count(f"Ignored a malformed message from 'p1' ({t.label(ATTACKER)})") >= FUZZ_MESSAGES // 4
        assert "Cheating" not in heard and "broke the rules" not in heard, heard


async def test_reordered_entries_are_put_back_in_order(tmp_path: Path) -> None:
    """Two consecutive own entries delivered in the wrong order: the later one waits, the game goes on."""

    class Reorder(Attacker):
        held: Any = None

        def wants(self, e: Any) -> bool:  # type: ignore[override]
            m = self.machine
            assert m is not None
            d = m.duty()  # after our entry e is applied: do we author the next one too?
            return e.seq > 3 and d is not None and d.seat == m.seat

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            self.held = e.raw  # hold it back; send it right after our next entry
            real = self.mesh.broadcast  # type: ignore[union-attr]

            async def then(msg: dict[str, Any]) -> list[str]:
                if msg.get("k") != "entry":
                    return []  # no head either: the others must not fetch the held entry from us
                self.mesh.broadcast = real  # type: ignore[union-attr, method-assign]
                await real(msg)
                self.log.append(f"sent {decode_entry(msg['raw']).seq} before {e.seq}")
                return await real({"k": "entry", "raw": self.held})

            self.mesh.broadcast = then  # type: ignore[union-attr, method-assign]

    t = await play(tmp_path, attacker=Reorder)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert t.peers[ATTACKER].log, "the attacker never had two entries in a row"  # type: ignore[attr-defined]
    assert_finished_normally(t)
    t.check_logs()


@pytest.mark.parametrize("how", ["illegal-event", "wrong-link", "wrong-kind"])
async def test_signed_rule_break_ends_the_game_naming_the_seat(tmp_path: Path, how: str) -> None:
    """(d) A correctly signed entry by the expected author that breaks a rule: the honest peers post it as evidence
    in its place; every peer (the cheater too) ends up with the same log, the evidence entry at that seq, and a
    verdict naming the seat; the bad entry never enters a log and is kept in the evidence file."""

    class RuleBreaker(Attacker):
        def wants(self, e: Any) -> bool:  # type: ignore[override]
            return e.kind == (Kind.LINK if how == "wrong-link" else Kind.EVENT)

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            body = decode_body(e.body)
            kind = e.kind
            if how == "illegal-event":
                body["ev"] = {"t": "play", "p": (self.machine.seat + 1) % 3, "card": 999}  # type: ignore[union-attr]
            elif how == "wrong-link":
                body["link"] = os.urandom(32)
            else:
                kind = int(Kind.SECRETS)
            raw = self.sign(e.seq, e.prev_hash, kind, encode_body(body))
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=RuleBreaker)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    [log, *_] = t.check_logs()
    evidence = [decode_entry(r) for r in log if decode_entry(r).kind == Kind.EVIDENCE]
    # both honest peers rejected it and posted evidence at that seq: the lower seat's won everywhere
    assert len(evidence) == 1 and evidence[0].author == min(t.honest)
    assert decode_body(evidence[0].body)["what"] == "entry"
    assert all(decode_entry(r).kind == Kind.SECRETS for r in log[evidence[0].seq + 1 :])  # then only the reveals
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.verdict is not None, t.heard(i)
        assert o.verdict.startswith(f"p1 (seat 2, key {t.label(ATTACKER)}): entry: seat 2 signed"), o.verdict
        assert f"p1 (seat 2, key {t.label(ATTACKER)}) broke the rules" in t.heard(i)
        assert o.log_path is not None and (o.log_path.parent / "evidence").stat().st_size > 0


async def test_equivocation_is_detected_named_and_proved(tmp_path: Path) -> None:
    """(e) Two different, correctly signed shuffles for one seq, one to each honest peer: both find out (heads carry
    the head id), post the proof as evidence at that seq (it replaces both versions, so the logs converge), stop
    the game naming the seat, and keep the proof in <log>.equivocations."""

    class Equivocator(Attacker):
        alt: dict[str, Any] | None = None

        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            peer = self

            class TwoShuffles(Author):
                def author_next(self, fold: Any, choose: Any = None) -> Any:
                    d = fold.duty()
                    if d is not None and d.kind == Kind.SHUFFLE and peer.alt is None:
                        peer.alt = super().author_next(fold, choose)[1]  # another valid shuffle (witness overwritten)
                    return super().author_next(fold, choose)

            make = self.machine_class

            def machine(genesis: Any, me: Any) -> Machine:
                m = make(genesis, me)
                m.author = TwoShuffles()
                return m

            self.machine_class = machine  # type: ignore[assignment]

        def wants(self, e: Any) -> bool:  # type: ignore[override]
            return e.kind == Kind.SHUFFLE

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            assert self.alt is not None
            b = self.sign(e.seq, e.prev_hash, e.kind, encode_body(self.alt))
            x, y = self.others()
            await self.mesh.send(x, {"k": "entry", "raw": e.raw})  # type: ignore[union-attr]
            await self.mesh.send(y, {"k": "entry", "raw": b})  # type: ignore[union-attr]
            self.log.append(f"equivocated at {e.seq}")

    t = await play(tmp_path, attacker=Equivocator)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    logs = t.check_logs()
    seq = int(t.peers[ATTACKER].log[0].split()[-1])  # type: ignore[attr-defined]
    e = decode_entry(logs[0][seq])
    assert e.kind == Kind.EVIDENCE and decode_body(e.body)["what"] == "equivocation"
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.verdict is not None, t.heard(i)
        assert o.verdict.startswith(f"p1 (seat 2, key {t.label(ATTACKER)}): equivocation"), o.verdict
        assert o.log_path is not None
        with t.reopen(i) as store:
            proofs = store.equivocations()
            assert proofs, f"no proof in {o.log_path}{EQUIVOCATION_SUFFIX}"
            assert all(p.verify(store.identities) == ATTACKER for p in proofs)
            assert isinstance(proofs[0], EquivocationProof)


async def test_false_evidence_names_the_accuser(tmp_path: Path) -> None:
    """(f) A seated player posts evidence that proves nothing (an honest earlier entry, as if it broke a rule):
    every honest peer rejects it, posts it as evidence in its place, and the game stops naming the accuser."""

    class FalseAccuser(Attacker):
        wants = first_event  # type: ignore[assignment]

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            store = self.store
            assert store is not None
            honest = store[e.seq - 1].raw  # a valid entry, already in every log
            body = encode_body({"what": "entry", "raw": honest, "reason": "it cheated"})
            raw = self.sign(e.seq, e.prev_hash, int(Kind.EVIDENCE), body)
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=FalseAccuser)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    [log, *_] = t.check_logs()
    posted = [decode_entry(r) for r in log if decode_entry(r).kind == Kind.EVIDENCE]
    assert [p.author for p in posted] == [min(t.honest)]  # the false one never entered a log
    accused = decode_entry(decode_body(posted[0].body)["raw"])
    assert accused.author == ATTACKER and accused.kind == Kind.EVIDENCE
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.verdict is not None, t.heard(i)
        assert o.verdict.startswith(f"p1 (seat 2, key {t.label(ATTACKER)}): entry: "), o.verdict
        assert "false evidence" in o.verdict, o.verdict


async def test_a_player_who_walked_away_mid_decision_is_told_the_game_was_abandoned(tmp_path: Path) -> None:
    """A player stops answering at its own prompt (its chooser blocks in its worker thread): the others abandon
    it, and its own client stops waiting for the prompt and ends with the same outcome instead of hanging."""
    import threading

    walked_away = threading.Event()
    never = threading.Event()

    class AwayFromKeyboard(TablePeer):
        def __init__(self, cfg: PeerConfig, choose: Any, **kw: Any) -> None:
            calls = [0]

            def slow(seen: Any, seat: int, options: list[Any]) -> Any:
                calls[0] += 1
                if calls[0] > 3:
                    walked_away.set()
                    never.wait(GAME_TIMEOUT)  # nobody will answer this prompt
                return choose(seen, seat, options)

            super().__init__(cfg, slow, **kw)

    try:
        t = await play(tmp_path, attacker=AwayFromKeyboard, abandon_after=2.0, wait_for_attacker=True)
    finally:
        never.set()  # release the worker thread whatever happened
    assert walked_away.is_set()
    for i in range(3):
        o = t.outcomes[i]
        assert o is not None and o.abandoned_by == "p1", t.heard(i)


async def test_what_an_attacker_sends_is_never_repeated_to_a_player_at_length(tmp_path: Path) -> None:
    """Messages that carry 200 KB of attacker text (a kind, a name, an entry, a lobby address) are refused or
    ignored, and no line a player is shown grows with them (the table once printed 200 KB lines)."""
    big = "x" * 200_000

    class Shouter(Attacker):
        wants = first_event  # type: ignore[assignment]

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            assert self.mesh is not None
            lobby = self.lobby.message()
            for msg in (
                {"k": big},
                {**lobby, big: 1},
                {**lobby, "rules": big},
                {**lobby, "addr": [big, 1]},
                {**lobby, "peers": [[big, 1]]},
                {"k": "entry", "raw": big.encode()},
                {"k": "head", "seq": 2**64 - 1, "id": big.encode()},
            ):
                await self.mesh.broadcast(msg)
            self.log.append("sent")
            await send_real()

    t = await play(tmp_path, attacker=Shouter)
    assert t.peers[ATTACKER].log == ["sent"]  # type: ignore[attr-defined]
    assert_finished_normally(t)
    for i in t.honest:
        assert "Ignored a malformed message" in t.heard(i)
        longest = max(len(line) for line in t.said[i])
        assert longest < 1000, longest


async def test_a_seated_player_that_lies_about_its_head_cannot_hold_the_table_after_the_end(tmp_path: Path) -> None:
    """A seated player tells every head with a wrong id (it never seems to hold what the others hold), to keep
    the honest peers lingering after the end. They wait at most the linger (one period after a finished game),
    keep the result, and name nobody; its lies cost them only that wait."""

    class HeadLiar(TablePeer):
        def make_wire(self, mesh: Mesh) -> Wire:  # every head it tells (gossiped, or told to one who asked)
            return Rewriting(mesh, {"head", "told"}, lambda msg: {**msg, "id": bytes(32)})

    # (play() gives up after GAME_TIMEOUT: a linger held open by the lies would fail the test there)
    t = await play(tmp_path, attacker=HeadLiar, abandon_after=3.0, wait_for_attacker=True)
    assert_finished_normally(t)
    logs = t.check_logs()
    assert logs[0] == logs[1]
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and ("round limit" in o.line or "winner" in o.line.lower()), o.line
