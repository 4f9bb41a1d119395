"""A shuffler that puts a card that is no card into the deck (a random point, encrypted like a card): whoever
opens it (every peer for a public card, else its learner, who posts the certificate as `nocard` evidence) stops
the game with a verdict that no single seat can yet be blamed for; every seat then reveals its secrets and the
audit names the shuffler. In process and over the network, in the same seeded game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _net import net_game
from _zoo import Blind, Table
from adp2p.crypto.deck import Ciphertext, decode_deck, encode_deck
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.group import add, base_mul, mul, random_scalar
from adp2p.p2p.audit import audit_log
from adp2p.p2p.protocol import Kind, decode_body


class Garbler(Blind):
    """The last shuffler of the first deck replaces one ciphertext by an encryption of a point that is no card."""

    def author_next(self, choose: Any = None) -> Any:
        out = super().author_next(choose)
        if out is None or out[0] != Kind.SHUFFLE or self.cheat_seq is not None or self.seat != self.n - 1:
            return out
        deck = decode_deck(out[1]["deck"])
        r = random_scalar()
        deck[0] = Ciphertext(base_mul(r), add(base_mul(random_scalar()), mul(r, self.joint_pk)))
        self.cheated()
        return out[0], {"deck": encode_deck(deck)}


SEAT, N = 2, 3


def test_a_card_that_is_no_card_stops_the_game_and_the_audit_names_the_shuffler(tmp_path: Path) -> None:
    t = Table(N, seed=1, cheats={SEAT: Garbler}).run()
    assert t.ms[SEAT].cheat_seq is not None  # type: ignore[attr-defined]
    assert t.verdict_seats() == {None}  # at once: a corrupt deck, nobody to blame yet
    assert all(m.verdict is not None and m.verdict.rule == "deck" for i, m in enumerate(t.ms) if i != SEAT)
    assert t.abandoned is None
    posted = [decode_body(e.body) for e in map(decode_entry, t.raws) if e.kind == Kind.EVIDENCE]
    assert [b["what"] for b in posted] == ["nocard"]  # the card was dealt to one player: its learner's proof
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    blamed = {(f.seat, f.rule) for f in res.findings if f.seat is not None}
    assert blamed == {(SEAT, "shuffle")}, res.text()


async def test_over_the_network_every_peer_stops_and_the_audit_names_the_shuffler(tmp_path: Path) -> None:
    g = await net_game(tmp_path, N, 1, {SEAT: Garbler})
    assert g.cheats
    logs = g.honest_logs()
    assert all(log == logs[0] for log in logs)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.verdict is not None and o.verdict.startswith("no single seat: deck: "), g.heard(i)
        assert o.audit_ok is False and o.violations, g.heard(i)
        assert all(v.startswith(g.who(SEAT)) for v in o.violations), o.violations
    res = g.audit()
    assert {(f.seat, f.rule) for f in res.findings if f.seat is not None} == {(SEAT, "shuffle")}, res.text()
