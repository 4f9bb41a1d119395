"""The sacrificial partner over the real protocol (issue 34; in process: test_zoo_second_accuser.py): four `TablePeer`s
on 127.0.0.1. Seat 1 seals a bad share to seat 4 (honest), whose peer posts the proof at that seq; when seat 2 (a
lower seat) sees it, it posts valid evidence at the same seq about a junk entry its partner seat 3 signed for it. The
lower seat's evidence takes the seq, which on main hid seat 1 for good (only seat 3 was named). Now the honest
accuser's evidence is named at the head (`also`): seats 1 and 3 are named at every peer and in the offline audit,
seat 4 never."""

from __future__ import annotations

from pathlib import Path

import pytest
from _net import ZooPeer, net_game
from _zoo import Blind
from _zoo_final import junk_entry
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.protocol import Kind, encode_body
from test_zoo_second_accuser import CHEATER, HONEST, PARTNER, SACRIFICE, SEED, BadShareToLast

pytestmark = pytest.mark.slow


class Partner(Blind):
    """Marks the seat whose peer sacrifices its partner (the peer does it: `Sacrificing`)."""


class Sacrificed(Blind):
    """Marks the partner whose junk entry is sacrificed (its key signs it: it colludes)."""


class Sacrificing(ZooPeer):
    """The partner's peer: when another seat's evidence reaches it, it posts, at that seq, evidence about a junk entry
    that its partner (seat 3) signed for that seq: valid evidence naming seat 3, by a lower seat than the accuser."""

    posted = False

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, e = self.machine, decode_entry(raw)
        if self.posted or not isinstance(m, Partner) or e.kind != Kind.EVIDENCE or e.author != HONEST:
            return
        self.posted = True
        junk = junk_entry(self.seeds.ids[SACRIFICE], m.game_id, e.seq, e.prev_hash, SACRIFICE)  # type: ignore[attr-defined]
        body = encode_body({"what": "entry", "raw": junk, "reason": "my partner's junk"})
        self.outbox.append(encode_entry(self.identity, m.game_id, e.seq, e.prev_hash, m.seat, int(Kind.EVIDENCE), body))


async def test_a_sacrificed_partner_does_not_hide_the_cheater_an_honest_accuser_proves(tmp_path: Path) -> None:
    cheats = {CHEATER: BadShareToLast, PARTNER: Partner, SACRIFICE: Sacrificed}
    g = await net_game(tmp_path, 4, SEED, cheats, peer_class=Sacrificing)
    assert g.peers[PARTNER].posted, "the partner never saw the honest accuser's evidence"  # type: ignore[attr-defined]
    o = g.outcomes[HONEST]
    assert o is not None and o.verdict is not None, g.heard(HONEST)[-1500:]
    m = g.peers[HONEST].machine
    assert m is not None
    named = {v.seat for _, _, v in m.evidence_seen}
    assert CHEATER in named and SACRIFICE in named and HONEST not in named, m.evidence_seen
    assert g.who(CHEATER) in o.verdict and g.who(SACRIFICE) in o.verdict, o.verdict
    assert g.who(HONEST) not in o.verdict and not any(v.startswith(g.who(HONEST)) for v in o.violations), o
    res = g.audit(HONEST)
    seats = {f.seat for f in res.findings}
    assert {CHEATER, SACRIFICE} <= seats and HONEST not in seats, res.text()
    for i in (CHEATER, PARTNER, SACRIFICE):  # the cheaters' own peers (honest code) name the same seats
        mi = g.peers[i].machine
        if mi is not None and mi.entries >= m.entries:
            assert {v.seat for _, _, v in mi.evidence_seen} >= {CHEATER, SACRIFICE}
            assert HONEST not in {v.seat for _, _, v in mi.evidence_seen}
