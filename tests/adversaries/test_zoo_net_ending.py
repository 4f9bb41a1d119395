"""An equivocated ending entry over the real protocol (issue 34; p2p/peer/ending_version.py): in a Hacker game at the
round limit, seat 2's event ends the game; it signs a second event that ends it too and sends one version to one
honest peer and the other to the other. On main each half kept its version (the equivocation proof may not take the
seq of the ending entry), signed its `secrets` on it, waited on the other half's and abandoned an honest seat: the
honest p1 was named "abandoned" at one peer, and the honest logs differed. Now the lower version stands at both, the
equivocation names its author at the head, and both honest peers end with one log, one result, nobody honest named."""

from __future__ import annotations

from pathlib import Path

import pytest
from _net import net_game
from _zoo import Table
from _zoo_ending import EndingEquivocator

pytestmark = pytest.mark.slow
CHEATER = 1
TABLE = {"profile": "basic", "round_limit": 2, "bots": "repeatable", "game": "hacker"}
# Seat 2 authors the entry that reaches the round limit, and has another legal event that ends the game: found in
# process at the game id the networked lobby derives (`Table(..., as_lobby="zoo")`; of seeds 1-60, at 19, 21, 26, 33,
# 37, 42, 44, 45, 50, 52 and 54), checked again in process by the test. Two causes besides the seed kept the cheater
# from its chance over the network. Seed 3 was chosen when a game's id was the seed's own: at the lobby's id another
# seat ends that game. And the networked game did not always repeat the in-process one: with `random` bots (one
# stream of draws per seat) a peer may ask its bot for a decision that then goes away (a window's look-ahead, one
# asked again) and play another game from there, as the run's timing decides (at seed 2, where `random` bots give the
# chance in process, 1 of 12 networked runs under load had none), and the cheater, a `Blind`, played blind to its own
# hand. Hence `repeatable` bots (`_zoo.Repeatable`: a draw per decision) and `_zoo.SeesOwnFaces` (at seed 19, 12 of
# 12 networked runs under load had the chance).
SEED = 19


async def test_an_equivocated_ending_entry_does_not_split_the_table(tmp_path: Path) -> None:
    t = Table(3, seed=SEED, cheats={CHEATER: EndingEquivocator}, as_lobby="zoo", **TABLE).run()  # type: ignore[arg-type]
    assert t.ms[CHEATER].cheat_seq is not None, "in process, the cheater never authored the ending entry"
    g = await net_game(tmp_path, 3, SEED, {CHEATER: EndingEquivocator}, abandon_after=3.0, **TABLE)  # type: ignore[arg-type]
    assert g.cheats, "the cheater never authored the ending entry"
    m0 = g.peers[0].machine
    assert m0 is not None
    cheater = m0.names[CHEATER]
    results = set()
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None, g.heard(i)[-800:]
        assert o.verdict is not None and o.verdict.startswith(g.who(CHEATER)), (i, o.verdict)
        assert "equivocation" in o.verdict, o.verdict
        assert o.abandoned_by in (None, cheater), (i, o.abandoned_by, g.heard(i)[-1200:])
        assert not any(v.startswith(g.who(s)) for s in g.honest for v in o.violations), (i, o.violations)
        results.add(tuple(o.winners))
    assert len(results) == 1 and cheater not in next(iter(results)), results
    assert len(set(g.honest_logs())) == 1, "the honest logs differ"
    res = g.audit()
    assert {f.seat for f in res.findings} <= {CHEATER} and CHEATER in {f.seat for f in res.findings}, res.text()
