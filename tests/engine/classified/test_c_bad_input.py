"""Total input handling: an event of the wrong shape (a field of another type, a list for a number, a bool for a
seat, an unknown field) is an IllegalEvent that leaves the state unchanged, never another exception."""

import random

from adp2p.engine.classified import api
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.sim import play_game
from adp2p.engine.errors import IllegalEvent

JUNK = [None, True, False, -1, 0, 1, 17, 99, 2**70, 1.5, "x", "guard", [], [1], [[1, 2]], {}, {"a": 1}]


def test_mutated_events_raise_only_illegal_event_and_change_nothing():
    rng = random.Random(5)
    tried = refused = 0
    for seed in range(25):
        rec = play_game([make_bot("random", seed), make_bot("random", seed + 1)], seed)
        st = api.new_game(rec.state.profile)
        st = api.learn(st, rec.faces)
        for ev in rec.events:
            for _ in range(4):
                bad = dict(ev)
                key = rng.choice([*ev, "zz"])
                bad[key] = rng.choice(JUNK)
                before = (st.seq, list(st.stack), dict(st.loc))
                tried += 1
                try:
                    api.apply(st, bad)
                except IllegalEvent:
                    refused += 1
                assert (st.seq, list(st.stack), dict(st.loc)) == before
            st = api.apply(st, ev)
        assert st.over
    assert refused > tried // 2
