"""A coalition shows the honest accuser an end the table never held (attack on "Evidence after the end",
docs/protocol.md, "Precedence at one seq" 9; issue 34). Four `TablePeer`s on 127.0.0.1, Hacker, seed 5: seat 4 seals
a wrong share to seat 1 in its reveal at entry 170; the entry at 171, by seat 2 (its partner), ends the game.

- Seat 4's link sends its lie to its partner first, and to the others only once the partner signed its ending entry
  at 171 on it (so the partner never takes seat 1's proof before it signs: an event, not a time).
- The partner's link never sends that ending entry to seats 3 (honest) and 4, and sends it to seat 1 only once seat 3
  holds seat 1's proof at 170.

So seat 1's proof reaches seat 3 before any end: it takes its seq there (rule 5: nothing ended after it), names seat 4,
and seat 3's table goes on to the `secrets`. Seat 1 is then shown the branch lie -> end by the partner alone. The
protest rule (p2p/peer/protest.py, `_follow`) takes any branch from the rejected entry to an end as proof that the
table refused its evidence: seat 1 sets its proof aside, takes the coalition's branch, and posts `protest` at its
head. The two honest peers now hold different logs (seat 3: the proof at 170; seat 1: the lie folded under protest
and the partner's end), and each waits on `secrets` the other will never sign on its branch.

The promise this tests: no coalition of two splits the honest peers' logs or gets an honest seat named."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from _net import ZooPeer, ZooWire, net_game
from _zoo import Table
from _zoo_protest import BadShareBeforeEnd, late_chances
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.machine import Machine
from adp2p.p2p.peer import TablePeer
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import Kind
from adp2p.p2p.transport import Mesh

pytestmark = pytest.mark.slow
# Found in process at the lobby's game id (`Table(4, ..., as_lobby="zoo")`, repeatable bots): at seed 5 seat 4 (index 3)
# reveals at 170 to seat 1 (index 0), who signs nothing before the end at 171, which seat 2 (index 1) authors. Checked
# below.
SEED, LIAR, PARTNER, VICTIM, HONEST, AT, END = 5, 3, 1, 0, 2, 170, 171
TABLE = {"profile": "basic", "round_limit": 2, "bots": "repeatable", "game": "hacker"}
PATIENCE = 4.0


def _holds_proof_at(p: TablePeer, seq: int, author: int) -> bool:
    store = p.store
    return store is not None and len(store) > seq and store[seq].kind == Kind.EVIDENCE and store[seq].author == author


class LiarLink(ZooWire):
    """Seat 4's link: its entry at AT goes to its partner at once, to everyone else only once the partner holds its
    own entry at END on it (held, then sent with the next message this link carries)."""

    def __init__(self, mesh: Mesh, peer: TablePeer, table: dict[int, TablePeer]) -> None:
        super().__init__(mesh, peer)
        self.table = table
        self.held: list[tuple[str, dict[str, Any]]] = []

    def _partner_signed(self) -> bool:
        s = self.table[PARTNER].store
        return s is not None and len(s) > END and s[END].author == PARTNER

    def _lie(self, msg: dict[str, Any]) -> bool:
        if msg.get("k") != "entry":
            return False
        e = decode_entry(msg["raw"])
        return e.seq == AT and e.author == LIAR

    async def _flush(self) -> None:
        if self.held and self._partner_signed():
            held, self.held = self.held, []
            for fp, msg in held:
                with contextlib.suppress(Exception):
                    await super().send(fp, msg)

    def _fp(self, seat: int) -> str:
        m = self.peer.machine
        assert m is not None
        return m.ids[seat].fingerprint()

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        await self._flush()
        if self._lie(msg) and fp != self._fp(PARTNER) and not self._partner_signed():
            self.held.append((fp, msg))
            return
        await super().send(fp, msg)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        await self._flush()
        if not self._lie(msg) or self._partner_signed():
            return await super().broadcast(msg)
        fps = list(self.mesh.registry.active)
        for fp in fps:
            await self.send(fp, msg)
        return fps


class PartnerLink(ZooWire):
    """Seat 2's link: its ending entry at END never goes to the honest seat 3, and goes to seat 1 only once seat 3
    holds seat 1's proof at AT."""

    def __init__(self, mesh: Mesh, peer: TablePeer, table: dict[int, TablePeer]) -> None:
        super().__init__(mesh, peer)
        self.table = table
        self.released = False

    def _end(self, msg: dict[str, Any]) -> bool:
        if msg.get("k") != "entry":
            return False
        e = decode_entry(msg["raw"])
        return e.seq == END and e.author == PARTNER

    def _to(self, fp: str) -> int | None:
        m = self.peer.machine
        assert m is not None
        return next((s for s in range(m.n) if m.ids[s].fingerprint() == fp), None)

    def _may(self, fp: str) -> bool:
        to = self._to(fp)
        if to != VICTIM:
            return False  # (nor to the liar: the victim would fetch it from there before the condition below)
        if _holds_proof_at(self.table[HONEST], AT, VICTIM):
            self.released = True
            return True
        return False

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        if self._end(msg) and not self._may(fp):
            return
        await super().send(fp, msg)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        if not self._end(msg):
            return await super().broadcast(msg)
        fps = list(self.mesh.registry.active)
        for fp in fps:
            with contextlib.suppress(Exception):
                await self.send(fp, msg)
        return fps


def _peer_class() -> tuple[Any, dict[int, TablePeer]]:
    table: dict[int, TablePeer] = {}

    class Peer(ZooPeer):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            table[int(self.cfg.name[1:])] = self

        def make_wire(self, mesh: Mesh) -> Wire:
            if self.cfg.name == f"p{LIAR}":
                self.link = LiarLink(mesh, self, table)
                return self.link
            if self.cfg.name == f"p{PARTNER}":
                self.link = PartnerLink(mesh, self, table)
                return self.link
            return super().make_wire(mesh)

    return Peer, table


def test_the_schedule_in_process() -> None:
    """The seed gives the liar its chance against the victim at AT, and the end at END is the partner's."""
    probe = Table(4, seed=SEED, cheats={LIAR: BadShareBeforeEnd}, as_lobby="zoo", **TABLE).run()  # type: ignore[arg-type]
    m = probe.ms[0]
    assert (AT, LIAR, VICTIM) in late_chances(m), late_chances(m)
    assert m.ended_at == END and decode_entry(probe.raws[END]).author == PARTNER


@pytest.mark.xfail(
    strict=True,
    reason="attack34: the accuser follows any branch from the entry it rejected to an end under protest "
    "(p2p/peer/protest.py _follow), also one the table never held, where its proof took its seq at an honest peer",
)
async def test_an_end_shown_to_the_accuser_alone_does_not_split_the_honest_peers(tmp_path: Path) -> None:
    cls = type("BadShareAt", (BadShareBeforeEnd,), {"at": AT, "victim": VICTIM})
    peer_class, table = _peer_class()
    g = await net_game(
        tmp_path, 4, SEED, {LIAR: cls, PARTNER: Machine}, peer_class=peer_class, abandon_after=PATIENCE,  # type: ignore[arg-type]
        **TABLE,  # type: ignore[arg-type]
    )
    assert g.cheats == [AT], g.cheats
    assert table[PARTNER].link.released, "the partner's end never went to the victim: not the schedule"  # type: ignore[attr-defined]
    for i in (VICTIM, HONEST):
        o = g.outcomes[i]
        assert o is not None, g.heard(i)[-1500:]
        named = [v for v in o.violations if not v.startswith((g.who(LIAR), g.who(PARTNER)))]
        assert not named, (i, named, g.heard(i)[-2000:])
        assert o.abandoned_by in (None, table[VICTIM].machine.names[LIAR], table[VICTIM].machine.names[PARTNER]), (  # type: ignore[union-attr]
            i, o.abandoned_by, g.heard(i)[-2000:])
        assert o.verdict is not None and o.verdict.startswith(g.who(LIAR)), (i, o.verdict, g.heard(i)[-2000:])
    assert len(set(g.honest_logs())) == 1, "the honest logs differ"
