"""Abandonment at one peer (p2p/peer/abandon.py), driven entry by entry on a real log and fold, without a network:
what an abandon that is already in the log gives way to, and what it does not (docs/protocol.md, "Abandonment and
resume", rules 2-4). The seeded table is stopped where a reaction window is due; the peer is a seat that neither
passes first in it nor is due after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.passes import sign_pass
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.local import LocalTable
from adp2p.p2p.logstore import SUPERSEDED_SUFFIX
from adp2p.p2p.paths import write_secret
from adp2p.p2p.peer import PeerConfig, TablePeer
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
