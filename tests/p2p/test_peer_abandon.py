"""Abandonment at one peer (p2p/peer/abandon.py), driven entry by entry on a real log and fold, without a network:
what an abandon that is already in the log gives way to, and what it does not (docs/protocol.md, "Abandonment and
resume", rules 2-4). The seeded table is stopped where a reaction window is due; the peer is a seat that neither
passes first in it nor is due after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.passes import sign_pass
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.local import LocalTable
from adp2p.p2p.logstore import SUPERSEDED_SUFFIX
from adp2p.p2p.paths import write_secret
from adp2p.p2p.peer import PeerConfig, TablePeer
from adp2p.p2p.peer.common import _abandoners
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import Kind, decode_body
from seeds import seeded_table
from test_implied_passes import _carry, _tokens, _window_run


def _peer_at(t: LocalTable, seat: int, tmp_path: Path) -> TablePeer:
    """Seat `seat`'s peer, resumed from the table's log as it is now."""
    gdir = tmp_path / "games" / "g"
    gdir.mkdir(parents=True)
    t.write_log(gdir / "log")
    me = t.ms[seat].me
    assert me is not None
    write_secret(gdir / "secrets", me.to_bytes())
    said: list[str] = []
    cfg = PeerConfig(name=f"p{seat}", data_dir=tmp_path, abandon_after=30.0)
    p = TablePeer(cfg, make_bot("random", 1), say=said.append)
    p.seating.load(gdir)
    p.said = said  # type: ignore[attr-defined]
    return p


def _setup(tmp_path: Path) -> tuple[LocalTable, TablePeer, int, int, list[bytes], dict[str, Any], int]:
    """(table, our peer, the first window seat X, the seat V due after the window, the window's tokens, V's entry
    body carrying them, our seat): the first window of the seeded game with two decisions or more, where X, V and a
    seat above X that is neither (ours) are three seats, and the window's second seat is not ours."""
    t = seeded_table(4, 5, profile="classic", round_limit=40, bots="random")
    for _ in range(5000):
        k = _window_run(t.ms[0], 2)
        x = t.ms[0].window_actor()
        if k and x is not None:
            toks, sim = _tokens(t, k)
            d = sim.duty()
            if d is not None and d.kind == Kind.EVENT:
                second = t.ms[0].snapshot()
                second.pass_window()
                ours = [s for s in range(4) if s > x and s not in (d.seat, second.window_actor())]
                if d.seat != x and ours:
                    carrier, body = _carry(t, sim, toks)
                    return t, _peer_at(t, ours[0], tmp_path), x, carrier, toks, body, ours[0]
        assert t.step(), "no such window in the seeded game"
    raise AssertionError("no such window in 5000 entries")


def test_an_entry_carrying_the_named_seats_token_beats_the_abandon(tmp_path: Path) -> None:
    """We gave up on X (no token of it reached us) and wrote the abandon; V, who had X's token, answers with an
    entry carrying it. X answered: V's entry takes the abandon's place (before: refused, and the table split)."""
    t, p, x, v, _toks, body, me = _setup(tmp_path)
    seq = len(t.raws)
    ours = t.sign(me, Kind.ABANDON, {"silent": x, "seq": seq})
    p.intake.accept(frame(ours), own=True)
    assert p.machine is not None and p.machine.abandoned == x and p.ended
    p.intake.accept(frame(t.sign(v, Kind.EVENT, body)))
    assert p.store is not None and len(p.store) == seq + 1
    assert p.store[seq].author == v and p.store[seq].kind == Kind.EVENT
    assert p.machine.abandoned is None and not p.ended and p.end.reopened
    assert (p.store.path.parent / f"log{SUPERSEDED_SUFFIX}").exists()
    assert any("answered after all" in s for s in p.said)  # type: ignore[attr-defined]


def test_an_entry_carrying_a_token_for_another_decision_does_not_beat_it(tmp_path: Path) -> None:
    """The abandon names X at decision 1 (it carries X0's token); an entry whose token 1 is not X1's (a forgery, or
    another seat's) proves nothing about X1: the abandon stands."""
    t, p, _x, v, toks, body, me = _setup(tmp_path)
    seq = len(t.raws)
    sim = t.ms[0].snapshot()
    sim.pass_window()
    x1 = sim.window_actor()
    assert x1 is not None
    assert x1 != me
    p.intake.accept(frame(t.sign(me, Kind.ABANDON, {"silent": x1, "seq": seq, "passes": toks[:1]})), own=True)
    assert p.machine is not None and p.machine.abandoned == x1
    forged = dict(body, passes=[toks[0], sign_pass(t.ids[v], t.genesis.game_id, seq, t.head, 1), *toks[2:]])
    p.intake.accept(frame(t.sign(v, Kind.EVENT, forged)))
    assert p.store is not None and p.store[seq].kind == Kind.ABANDON and p.machine.abandoned == x1 and p.ended


def test_a_lower_abandon_whose_decision_was_never_due_here_does_not_displace_ours(tmp_path: Path) -> None:
    """We applied an abandon naming X; X itself, the lowest seat but one, then sends an abandon carrying its own
    token and naming V. Lower author or not, V's decision was never due here: refused (before: it displaced ours,
    and V was named)."""
    t, p, x, v, toks, _body, me = _setup(tmp_path)
    seq = len(t.raws)
    assert x < me
    p.intake.accept(frame(t.sign(me, Kind.ABANDON, {"silent": x, "seq": seq})), own=True)
    assert p.machine is not None and p.machine.abandoned == x
    p.intake.accept(frame(t.sign(x, Kind.ABANDON, {"silent": v, "seq": seq, "passes": toks})))
    assert p.store is not None and p.store[seq].author == me and p.machine.abandoned == x and p.ended
    assert decode_body(decode_entry(p.store[seq].raw).body)["silent"] == x
    assert any("by our clock" in s for s in p.said)  # type: ignore[attr-defined]


class _Wire:
    """What our peer sends, recorded (a stand-in for the mesh: the peer relays a token through it)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.peers: set[str] = set()

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        self.sent.append(msg)
        return []

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


def _race(tmp_path: Path, *, due_writes: bool = True) -> tuple[LocalTable, TablePeer, int, int, int, list[bytes]]:
    """(table, our peer P, the window seat W at decision k, the seat D that gives up on W first (its lowest other
    seat), k, the window's tokens up to W's included): the first decision of the seeded game where the seat due after
    W's pass is D and a third seat (ours) is neither; with `due_writes=False`, where the seat due after W's pass is
    not D (it is ours)."""
    t = seeded_table(3, 5, profile="classic", round_limit=40, bots="random")
    for _ in range(5000):
        if _window_run(t.ms[0], 1):
            sim = t.ms[0].snapshot()
            for k in range(64):
                w = sim.window_actor()
                if w is None:
                    break
                sim.pass_window()
                after = sim.window_actor()
                d = after if after is not None else sim.duty().seat  # type: ignore[union-attr]
                first = _abandoners(3, w, 1)[0]
                ours = [s for s in range(3) if s not in (w, d)] if due_writes else [d]
                event = after is not None or sim.duty().kind == Kind.EVENT  # type: ignore[union-attr]
                if (d == first) == due_writes and d != w and ours and event:
                    toks, _ = _tokens(t, k + 1)
                    return t, _peer_at(t, ours[0], tmp_path), w, first, k, toks
        assert t.step(), "no such window in the seeded game"
    raise AssertionError("no such window in 5000 entries")


async def _meet(p: TablePeer, nursery: trio.Nursery) -> _Wire:
    """Our peer, on a (recorded) mesh: it may relay tokens, and weighs an abandon as on a table."""
    wire = _Wire()
    p.mesh = p.wire = wire  # type: ignore[assignment]
    p._nursery = nursery
    return wire


async def _token(p: TablePeer, t: LocalTable, seat: int, j: int, sig: bytes) -> None:
    """Seat `seat`'s pass token for decision j at the next point reaches our peer, as a message."""
    msg = {"k": "pass", "seq": len(t.raws), "prev": t.head, "j": j, "seat": seat, "sig": sig}
    await p.net.handle(t.ids[seat].public.fingerprint(), f"p{seat}", msg)


async def test_a_token_that_comes_after_the_abandon_was_due_here_does_not_stop_it(tmp_path: Path) -> None:
    """Attack 4's last race: W kept its token back; D, due once W passes, gave up on W after its patience and wrote
    the abandon; at that very moment W released its token to us alone, and it came before the abandon. Before: we
    refused the abandon (W passed) and waited on D, who can never answer there (its entry at that seq is the
    abandon), so we named an honest seat or split from the table. Now the token came after our own clock let D give
    up on W: it is as if it had not come, and we apply the abandon like every other peer."""
    t, p, w, d, k, toks = _race(tmp_path)
    seq, prev = len(t.raws), t.head
    async with trio.open_nursery() as nursery:
        await _meet(p, nursery)
        for j in range(k):
            await _token(p, t, _seat_at(t, j), j, toks[j])
        p.patience.due(seq, prev, k)  # W owes decision k here from now
        p.patience.awake += 31.0  # a period (30 s) and more of our own clock: D may give up on W
        await _token(p, t, w, k, toks[k])  # W's token, released only now
        p.intake.take(frame(t.sign(d, Kind.ABANDON, {"silent": w, "seq": seq, **({"passes": toks[:k]} if k else {})})))
        assert p.machine is not None and p.machine.abandoned == w and p.ended, p.said  # type: ignore[attr-defined]
        assert p.store is not None and len(p.store) == seq + 1 and p.store[seq].author == d
        nursery.cancel_scope.cancel()


async def test_a_token_that_came_in_time_stops_the_abandon_for_good(tmp_path: Path) -> None:
    """The other side of the rule: W's token reached us before D could give up on W by our clock (W answered in
    time; D, a cheater, or a seat whose link to W is slow, wrote the abandon anyway). It is refused and the token
    relayed, and it stays refused however long we then wait: an honest seat whose token came in time is never named."""
    t, p, w, d, k, toks = _race(tmp_path)
    seq, prev = len(t.raws), t.head
    async with trio.open_nursery() as nursery:
        wire = await _meet(p, nursery)
        for j in range(k):
            await _token(p, t, _seat_at(t, j), j, toks[j])
        p.patience.due(seq, prev, k)
        p.patience.awake += 5.0  # W decided within its patience
        await _token(p, t, w, k, toks[k])
        p.patience.awake += 30.0
        p.intake.take(frame(t.sign(d, Kind.ABANDON, {"silent": w, "seq": seq, **({"passes": toks[:k]} if k else {})})))
        assert p.machine is not None and p.machine.abandoned is None and not p.ended
        with trio.fail_after(30):  # relayed to the table (by a task of the peer's nursery)
            while not any(m.get("k") == "pass" and m.get("seat") == w for m in wire.sent):
                await trio.sleep(0.01)
        p.patience.awake += 60.0
        assert not await p.abandoning.overdue()
        assert p.machine.abandoned is None and p.store is not None and len(p.store) == seq
        nursery.cancel_scope.cancel()


async def test_an_abandon_held_early_is_applied_once_the_token_comes_late(tmp_path: Path) -> None:
    """The same race, the other way round: D's abandon reached us before our clock let D give up on W (held), then
    W's token came, after it did. The play loop, now waiting on the seat due after the token (D itself), applies the
    held abandon instead (`Abandoning.overdue`): the same log as every other peer's."""
    t, p, w, d, k, toks = _race(tmp_path)
    seq, prev = len(t.raws), t.head
    async with trio.open_nursery() as nursery:
        await _meet(p, nursery)
        for j in range(k):
            await _token(p, t, _seat_at(t, j), j, toks[j])
        p.patience.due(seq, prev, k)
        p.patience.awake += 20.0
        p.intake.take(frame(t.sign(d, Kind.ABANDON, {"silent": w, "seq": seq, **({"passes": toks[:k]} if k else {})})))
        assert p.machine is not None and p.machine.abandoned is None and d in p.abandonment.held
        p.patience.awake += 15.0
        await _token(p, t, w, k, toks[k])
        assert await p.abandoning.overdue()
        assert p.machine.abandoned == w and p.ended
        nursery.cancel_scope.cancel()


async def test_the_seat_due_after_a_late_token_still_answers_with_it(tmp_path: Path) -> None:
    """We are the seat due once W passes (not the abandon's author): W's token reached us late, then D's abandon naming
    W. We still refuse it and answer with our entry carrying the token (rule 3), as before: it beats the abandon at
    every peer, whichever way each judged the token's time, and no peer that holds the token in time waits on us."""
    t, p, w, d, k, toks = _race(tmp_path, due_writes=False)
    seq, prev = len(t.raws), t.head
    async with trio.open_nursery() as nursery:
        await _meet(p, nursery)
        for j in range(k):
            await _token(p, t, _seat_at(t, j), j, toks[j])
        p.patience.due(seq, prev, k)
        p.patience.awake += 31.0
        await _token(p, t, w, k, toks[k])
        raw = t.sign(d, Kind.ABANDON, {"silent": w, "seq": seq, **({"passes": toks[:k]} if k else {})})
        p.intake.take(frame(raw))
        assert p.machine is not None and p.machine.abandoned is None and not p.ended
        p.abandonment.held[d] = raw  # (even held: never applied over our own answer)
        assert not await p.abandoning.overdue()
        assert p.machine.abandoned is None
        nursery.cancel_scope.cancel()


def _seat_at(t: LocalTable, j: int) -> int:
    """The seat that owes decision j of the window due now."""
    sim = t.ms[0].snapshot()
    for _ in range(j):
        sim.pass_window()
    who = sim.window_actor()
    assert who is not None
    return who
