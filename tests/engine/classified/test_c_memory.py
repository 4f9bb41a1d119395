"""The deduction bot's memory of a mixed hand (engine/classified/memory.py): a card shown from the opponent's
hand is, after the mix (ruling C-MIX), one of the new handles — the bot does not know which, but it counts the
number as seen (not the Suitcase), as a player at the table remembers "the hand holds a 5"; a card seen again under
its new handle is counted once; what it remembers is always true of the cards in play."""

from __future__ import annotations

import random
from collections import Counter

from adp2p.engine.classified import api
from adp2p.engine.classified.api import view
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.memory import mixed_faces
from adp2p.engine.classified.profiles import STANDARD
from adp2p.engine.classified.scenario import Scene
from adp2p.engine.classified.wheel import weights


def _shown_then_mixed() -> tuple[Scene, int]:
    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)  # a failed attempt: P2 is shown a card
    number = s.st.faces[s.st.hands[0][0]]
    s._settle()  # P1's next turn: the draw, then the mix
    assert [x for x in s.st.history if x["k"] == "mix"]
    return s, number


def test_a_card_shown_then_mixed_is_remembered_among_the_new_handles() -> None:
    s, number = _shown_then_mixed()
    v = view(s.st, 1)
    assert all(v.face(h, 1) is None for h in s.st.hands[0])  # the handles tell P2 nothing
    faces, pool = mixed_faces(v, 0, 1)
    assert faces == Counter({number: 1}) and pool == set(s.st.hands[0])
    assert weights(v, 0, 1).get(number) == 2  # the wheel alone forgot the card (C-MIX)...
    assert weights(v, 0, 1, faces).get(number) == 1  # ...the memory keeps it: one copy is not the Suitcase
    assert mixed_faces(view(s.st, 0), 1, 0) == (Counter(), set())  # P2's hand was never shown


def test_the_card_seen_again_under_its_new_handle_is_counted_once() -> None:
    s, number = _shown_then_mixed()
    st = s.st.clone()
    again = next(h for h in st.hands[0] if st.faces[h] == number)
    st.known[again] = 3  # the same card, seen again (as a face-up play shows it)
    faces, pool = mixed_faces(view(st, 1), 0, 1)
    assert faces == Counter() and again not in pool
    assert weights(view(st, 1), 0, 1, faces).get(number) == 1


def test_what_the_memory_holds_is_always_among_the_cards_of_its_pool() -> None:
    """At every decision of the deduction bot in 40 seeded games against the random bot: the remembered faces are a
    sub-multiset of the pool's true faces (never something false), the pool is in play and not the Suitcase, and
    the memory holds something in a good share of the decisions (it does remember)."""
    asked = remembered = 0
    for g in range(40):
        rng = random.Random(g)
        st = api.new_game(STANDARD)
        bots = [make_bot("deduction", g), make_bot("random", g)]
        while (d := api.pending(st)) is not None:
            if d.actor is None:
                ev = chance_event(st, d, rng)
                if ev["t"] == "shuffle":
                    faces = deck_faces(st)
                    rng.shuffle(faces)
                    st = api.learn(st, dict(enumerate(faces)), inplace=True)
            else:
                v = view(st, d.actor)
                if d.actor == 0:
                    mem, pool = mixed_faces(v, 1, 0)
                    asked += 1
                    remembered += bool(mem)
                    assert not mem - Counter(st.faces[h] for h in pool), (g, mem, pool)
                    assert pool <= set(st.loc) and st.suitcase[1] not in pool
                ev = bots[d.actor](v, d.actor, api.legal(v, d.actor))
            st = apply_known(st, ev, rng, inplace=True)
    assert asked > 300 and remembered > asked // 10, (asked, remembered)
