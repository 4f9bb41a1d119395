"""Attack 4's last race, with the token carried inside an abandon (attack on Abandonment rule 3, "a token that comes
late is no answer"; docs/protocol.md). `ReleasesTokenAtAbandon` (tests/adversaries/_silence.py) releases the
withholder's token to the third seat P alone, once P's own clock let the seat D due after it give up on it, as D's
abandon naming it is written; P notes when a `pass` message brings a token (`Patience.heard`), so that token is late
and D's abandon stands. Here the withholder sends the very same token to P inside an abandon of its own, which names D
(the seat due once the withholder passed) and carries every token of the window, its own included. A token that comes
inside an abandon is added to P's pool without its arrival being noted (`Abandoning.hold`), and "a token whose arrival
we did not see counts as in time" (`Abandonment.token_late`): P refuses D's abandon and waits on D, whose entry at that
seq is its abandon. The promise: one log, no honest seat named."""

from __future__ import annotations

from pathlib import Path

from _net import net_game
from _silence import ReleasesTokenAtAbandon
from adp2p.crypto.entries import encode_entry
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind, encode_body
from test_zoo_silence import PATIENCE, assert_only


class ReleasesTokenInAbandon(ReleasesTokenAtAbandon):
    """`ReleasesTokenAtAbandon` whose release is an abandon to P alone: naming D, carrying the window's tokens."""

    sent: list[bytes] = []  # noqa: RUF012 (the abandon it sent; reset by the test)

    async def send_release(self, seq: int, prev: bytes, j: int, p: int) -> None:
        m, pool, mesh = self.machine, self.passes, self.mesh
        assert m is not None and pool is not None and mesh is not None
        trial, toks = pool.chain(m, seq, prev)
        d = trial.duty()
        assert len(toks) > j and d is not None, (len(toks), j, d)
        body = encode_body({"silent": d.seat, "seq": seq, "passes": toks})
        raw = encode_entry(self.identity, m.game_id, seq, prev, m.seat, int(Kind.ABANDON), body)
        self.sent.append(raw)
        await mesh.send(m.ids[p].fingerprint(), {"k": "entry", "raw": raw})


async def test_a_token_released_inside_an_abandon_is_as_late_as_one_released_alone(tmp_path: Path) -> None:
    cls = ReleasesTokenInAbandon
    # (on the base class: its wires, `RaceWire`, read them there)
    ReleasesTokenAtAbandon.attacks, ReleasesTokenAtAbandon.race, ReleasesTokenAtAbandon.peers = [], {}, {}
    cls.sent = []
    g = await net_game(tmp_path, 3, 2, {1: Machine}, peer_class=cls, abandon_after=PATIENCE)
    assert cls.attacks and cls.sent, "the attacker found no window to withhold its token in"
    race = cls.race
    assert (race["w"], race["d"], race["p"]) == (1, 0, 2)
    assert_only(g, 1)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == "p1" and o.verdict is None, g.heard(i)
