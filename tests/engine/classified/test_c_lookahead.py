"""The deduction bot's determinized look-ahead (engine/classified/bots/lookahead.py): its deals keep every face the
seat knows and every answer the opponent gave, and draw everything else; a deal (and so a decision) never depends
on a face the seat has not seen, even when the bot is handed the whole state; a play-out ends through the engine."""

import random
from collections import Counter

from adp2p.engine.classified import api
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.bots.deduction import DeductionBot
from adp2p.engine.classified.bots.lookahead import determinize, playout
from adp2p.engine.classified.bots.random_bot import RandomBot
from adp2p.engine.classified.catalog import card, deck
from adp2p.engine.classified.chance import chance_event, deck_faces
from adp2p.engine.classified.known import apply_known
from adp2p.engine.classified.profiles import STANDARD
from adp2p.engine.classified.questions import truth
from adp2p.engine.classified.scenario import Scene


def _seated_games(n: int):
    """Every decision of seat 0 (the deduction bot) in n seeded games against the random bot: (full state, seed)."""
    for g in range(n):
        rng = random.Random(g)
        st = api.new_game(STANDARD)
        bots = [DeductionBot(g, deals=0), make_bot("random", g)]
        while (d := api.pending(st)) is not None:
            if d.actor is None:
                ev = chance_event(st, d, rng)
                if ev["t"] == "shuffle":
                    faces = deck_faces(st)
                    rng.shuffle(faces)
                    st = api.learn(st, dict(enumerate(faces)), inplace=True)
            else:
                v = api.view(st, d.actor)
                if d.actor == 0:
                    yield st, g * 1000 + st.seq
                ev = bots[d.actor](v, d.actor, api.legal(v, d.actor))
            st = apply_known(st, ev, rng, inplace=True)


def _unseen_shuffled(st, seat: int, rng: random.Random):
    """A copy of the full state whose faces `seat` has not seen are dealt otherwise (among themselves)."""
    hidden = [h for h in st.faces if not st.known.get(h, 0) >> seat & 1]
    alt = st.clone()
    shuffled = [st.faces[h] for h in hidden]
    rng.shuffle(shuffled)
    alt.faces.update(zip(hidden, shuffled, strict=True))
    return alt, any(alt.faces[h] != st.faces[h] for h in hidden)


def test_a_deal_keeps_what_the_seat_knows_and_every_answer_the_opponent_gave():
    dealt = 0
    for st, seed in _seated_games(6):
        if st.phase != "play":
            continue
        world = determinize(api.view(st, 0), 0, random.Random(seed))
        assert world is not None
        dealt += 1
        assert sorted(world.faces.values()) == sorted(deck()) and set(world.faces) == set(st.loc)
        for h in st.loc:
            if st.known.get(h, 0) & 1:
                assert world.faces[h] == st.faces[h]
        for item in st.history:
            if item.get("k") in ("answer", "named") and item.get("p") == 1:
                said = item["yes"] if item["k"] == "answer" else True
                assert truth(item["question"], world.faces.get) in (None, said)
        assert all(card(world.faces[g]).can_guard for g in st.guards[1])
    assert dealt > 40


def test_the_opponents_suitcase_is_drawn_from_the_cypher_wheel():
    s = Scene(hands={0: [1, 8], 1: [3, 2]}, suitcases={0: 4, 1: 9}, deck=[5, 6, 7, 3])
    s.deploy(0, 1, n=1).answer()  # yes: 8 9 1 2 3
    s.encrypt(1, 3)
    s.deploy(0, 8, n=8).answer()  # yes: 7 8 9 -> 8 or 9
    v = api.view(s.st, 0)
    rng = random.Random(5)
    drawn = Counter(determinize(v, 0, rng).faces[s.st.suitcase[1]] for _ in range(200))  # type: ignore[union-attr]
    assert set(drawn) == {8, 9}
    # one 8 is seen (played by seat 0): 9 has two unseen copies, 8 one, so 9 comes about twice as often
    assert 1.4 < drawn[9] / drawn[8] < 2.9


def test_a_deal_and_a_decision_never_depend_on_a_face_the_seat_has_not_seen():
    """The same decision (and the same deals) when the faces seat 0 has not seen are dealt otherwise: the deal is
    drawn from the seat's knowledge even when determinize is handed the whole state (a leaky deal that kept the
    state's faces fails here), and the bot, looking ahead, decides the same on both views."""
    rng = random.Random(11)
    asked = changed = looked = 0
    for st, seed in _seated_games(8):
        if st.phase != "play":
            continue
        alt, differs = _unseen_shuffled(st, 0, rng)
        changed += differs
        a, b = determinize(st, 0, random.Random(seed)), determinize(alt, 0, random.Random(seed))
        assert a is not None and b is not None and a.faces == b.faces
        v, w = api.view(st, 0), api.view(alt, 0)
        bot_v, bot_w = DeductionBot(seed, deals=4), DeductionBot(seed, deals=4)
        for bot in (bot_v, bot_w):
            bot.EARLY, bot.LATE, bot.MARGIN = 99, 0, 1e9  # look ahead at every decision with a choice
        assert bot_v(v, 0, api.legal(v, 0)) == bot_w(w, 0, api.legal(w, 0))
        looked += bot_v.looked
        asked += 1
    assert asked > 40 and changed > asked // 2 and looked > 10


def test_a_playout_runs_to_the_end_through_the_engine():
    s = Scene(hands={0: [1, 8], 1: [3, 2]}, suitcases={0: 4, 1: 9}, deck=[5, 6, 7, 3])
    world = determinize(api.view(s.st, 0), 0, random.Random(1))
    assert world is not None
    ev = api.legal(api.view(s.st, 0), 0)[0]
    won = playout(world, ev, [RandomBot(1), RandomBot(2)], random.Random(3))
    assert won in ([], [0], [1])
    assert s.st.seq == len(s.log)  # the position looked at is untouched


def test_on_its_final_turn_the_look_ahead_keeps_the_card_that_wins():
    """Seat 0 knows the opponent's Suitcase is 9 or 1 (Decoy Guard asked twice: 1 and 9 are in its Code), and on its
    final turn holds 9 and 5: kept, 9 is an Unguarded Match against either Code (and 9 cannot guard), 5 matches
    neither, and the opponent holds no number of seat 0's Code. The look-ahead plays it out and keeps 9: a win."""
    s = Scene(hands={0: [8, 8], 1: [7, 7]}, suitcases={0: 4, 1: 1}, encrypted=[5, 9],
              deck=[9, 1, 5, 2, 3, 2, 3, 6, 4, 6], start=0)
    s.deploy(0, 8, n=1).answer()
    s.encrypt(1, 7)
    s.deploy(0, 8, n=9).answer()
    bot = DeductionBot(3, deals=6)
    bot.EARLY, bot.LATE, bot.MARGIN, bot.CANDIDATES = 99, 0, 1e9, 99  # look ahead on the final turn, at every event
    while (d := s.pending) is not None and d.kind == "action":
        hand = s.st.hands[d.actor]  # type: ignore[index]
        if d.actor == 0 and s.st.final_turn:
            assert sorted(s.st.faces[h] for h in hand) == [5, 9]
            v = api.view(s.st, 0)
            s.do(bot(v, 0, api.legal(v, 0)))
        else:
            s.do({"t": "encrypt", "p": d.actor, "h": next(h for h in hand if s.st.faces[h] not in (5, 9))
                  if d.actor == 0 else hand[0]})
    assert bot.looked == 1
    s.reveal_all()
    assert [s.st.faces[h] for h in s.st.hands[0]] == [9] and s.st.winners == [0]
