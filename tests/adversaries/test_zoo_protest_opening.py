"""A fault the protest's own check does not look for (attack on "Evidence after the end", docs/protocol.md,
"Precedence at one seq" 9; issue 34). The liar seals to its victim a box whose shares are all right but whose item
carries a commitment opening that is not due (`[code, salt]`: only a password card shown by the seat that committed
it carries one, and no card of Hacker does). The victim's check on arrival (`Reveals.shares`: `check_opening`) rejects
the entry, and its `entry` evidence would be valid at its seq; but the schedule of `test_zoo_protest` has the end
reach the others first, so the victim protests at the head. The protest's check (`protest._box_fault`) decodes the
opening and never checks it: it finds the shares in order and calls the protest false evidence, naming the honest
victim instead of the liar.

The promise: no cheater gets an honest seat named."""

from __future__ import annotations

from typing import Any

from _zoo_protest import BadShareBeforeEnd, LateProofTable
from adp2p.crypto.encoding import pack
from adp2p.crypto.private import seal_private
from adp2p.p2p.machine.dealer import Dealer
from adp2p.p2p.piles import bits

TABLE = {"profile": "basic", "round_limit": 2, "bots": "random", "game": "hacker"}
SEED, CHEATER, VICTIM, AT = 5, 1, 0, 168  # test_zoo_protest.SCHEDULES[0]


class OpeningDealer(Dealer):
    """Its shares are true; in the box it seals to the victim at its lie, the first item carries an opening not due."""

    def shares(self, fold: Any) -> dict[str, Any]:
        me, rnd = fold.me, fold.round
        if fold.cheat_seq is not None or not any(fold.wanted(h) for h, _new, _m in rnd.duties[me.seat]):
            return super().shares(fold)
        pub: list[list[Any]] = []
        per: dict[int, list[list[Any]]] = {}
        for h, new, mode in rnd.duties[me.seat]:
            ct = fold.hmap[h]
            if mode == "own":
                shares = [self.share(fold, h, ct, mode)]
            else:
                have = dict(fold.shares.get(h, {}))
                have[me.seat] = self.share(fold, h, ct, mode)
                shares = [have[s] for s in range(fold.n)]
            item: list[Any] = [h, [s.to_bytes() for s in shares]]
            if h in rnd.public:
                pub.append(item)
                continue
            for q in bits(new):
                if q == me.seat:
                    continue
                if q == fold.victim and fold.cheat_seq is None:
                    fold.cheated()
                    per.setdefault(q, []).append([*item, [0, bytes(16)]])  # an opening nobody is due
                else:
                    per.setdefault(q, []).append(item)
        sealed = [
            [q, seal_private(me.identity, fold.ids[q], fold.box_context(me.seat, q), pack(items))]
            for q, items in sorted(per.items())
        ]
        return {"pub": pub, "sealed": sealed}


class OpeningNotDue(BadShareBeforeEnd):
    at = AT
    victim = VICTIM
    bad_shares = False
    dealer = OpeningDealer()


def test_an_opening_not_due_sealed_to_the_victim_is_protested_and_names_the_liar() -> None:
    t = LateProofTable(3, seed=SEED, cheats={CHEATER: OpeningNotDue}, late=VICTIM, **TABLE).run()  # type: ignore[arg-type]
    assert t.ms[CHEATER].cheat_seq == AT, "the cheater found no chance"  # type: ignore[attr-defined]
    assert t.refused is not None and "result is final" in t.refused, t.refused  # the schedule: refused at its seq
    for s in range(3):
        m = t.ms[s]
        assert m.named() == {CHEATER}, (s, m.named(), m.verdict)
        assert m.verdict is not None and m.verdict.seat == CHEATER, m.verdict
