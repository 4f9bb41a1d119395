"""A coalition of two cheaters at honest tables, over the real protocol (issue 34, "Done when", the randomized part): a
fixed sample of the seeded games `benchmarks/bench_coalition.py` plays by the hundred (tests/adversaries/_coalition.py:
each lever of the zoo's `_zoo_final` and `_silence` armed at a random moment, alone or paired across the two seats).
Every game: no honest seat named by any honest peer or by the offline audit of any honest log, every result reached
by honest play standing (but for the seats named), no hang, the honest logs agreeing. Each seed of the sample was
picked because its levers do act (the test checks that they still do)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _coalition import draw_plan, play

pytestmark = pytest.mark.slow

# seed -> what its levers do whatever the load (substrings of `Judgement.fired`; a withheld token is a race with the
# others' patience, so it is not asserted)
SAMPLE: dict[int, list[str]] = {
    2: ["posted its evidence"],  # Access Denied, 3: a token withheld late + self-accusation at the winning seq
    7: ["a machine lever cheated"],  # a false box secret in its secrets, then a stall (the winner's result stands)
    18: [],  # one withholds a token, its partner abandons the seat due after the window with it
    22: ["entries ahead of the log", "a machine lever cheated"],  # one stalls at its secrets, its partner signs ahead
    32: ["sealed junk proofs", "accepted a broken proof", "posted its evidence"],  # a broken proof, held back by its
    # partner, posted late (refused, naming the partner)
    29: ["seat 2 (self_accuse): posted", "seat 3 (self_accuse): posted"],  # Hacker: both accuse themselves
}


@pytest.mark.parametrize("seed", sorted(SAMPLE))
async def test_a_coalition_of_two_takes_nothing_from_the_honest(tmp_path: Path, seed: int) -> None:
    plan = draw_plan(seed)
    g, j = await play(tmp_path, plan)
    assert j.ok, f"{j}\n" + "\n".join(f"p{i}: {g.heard(i)[-800:]}" for i in (g.honest if g else []))
    for what in SAMPLE[seed]:
        assert any(what in f for f in j.fired), (what, j.fired)


async def test_the_first_seat_does_not_leave_alone_when_a_seat_had_no_game_yet(tmp_path: Path) -> None:
    """Seed 3 (4 players; the coalition's levers, armed at entries 154 and 234, never act): p1, p2 and p3 refuse p0's
    genesis at first ("it seats players who never came to this table") and hold the game only seconds later; p0, the
    first seat, appended entry 1 and waited its patience (3 s by its clock) on p1, wrote the abandon naming p1 at entry
    2 and ended ("Game over — abandoned: p1 ... entry 2"). The others refused that abandon (p1 had answered; p2: "we
    have not waited that long yet (0 s)"), played entries 2-4, and abandoned p0, gone by then, at entry 5. p0's own
    lingering (2 periods) ended before p1's entry 2, which beats its abandon, reached it. Result: the honest p0 is
    named in every other log and audit, and the honest logs differ (3 entries at p0, 6 at p2). Fixed by
    p2p/peer/join_grace.py: a seat's `join` patience starts once it is seen holding the genesis (bounded); the race
    is reproduced without load, failing before the fix, in tests/p2p/test_peer_join_grace.py."""
    plan = draw_plan(3)
    _g, j = await play(tmp_path, plan, patience=3.0)
    assert j.ok, str(j)
