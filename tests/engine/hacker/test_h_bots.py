"""The bots choose among the legal events only; the planner hacks, lays its HACK cards, and guards the squares that
touch the centre squarely."""

from __future__ import annotations

from adp2p.engine.hacker import api
from adp2p.engine.hacker.bots import make_bot
from adp2p.engine.hacker.bots.planner import LIKELY
from adp2p.engine.hacker.scenario import Scene


def test_planner_lays_its_hack_cards_and_hacks() -> None:
    s = Scene(3, hands={0: ["hack", "hack", "query", "lock", "lock"]})
    bot = make_bot("planner", 1)
    ev = bot(api.view(s.st, 0), 0, api.legal(api.view(s.st, 0), 0))
    laid = ev["secret"]["term"]
    assert {h for h in s.st.hands[0] if s.st.faces[h] != s.st.faces[s.h(0, "lock")]} <= set(laid)
    s.do(ev)
    for p in (1, 2):
        s.do({"t": "seal", "p": p, "what": "lay", "c": "", "secret": {"chance": [], "term": []}})
    for p in range(3):
        s.do(api.legal(s.st, p)[0])
    s.start(0).until(0, "hack_choice")
    assert bot(api.view(s.st, 0), 0, api.legal(s.st, 0)) == {"t": "hack", "p": 0}


def test_planner_as_controller_guards_the_squares_next_to_the_centre() -> None:
    s = Scene(3).lay().start(0)
    s.do({"t": "hack", "p": 0}).do({"t": "private_roll", "p": 1, "c": "", "secret": [5, 6]})  # 11: 3 middle
    v = api.view(s.st, 1)
    ev = make_bot("planner", 2)(v, 1, api.legal(v, 1))
    assert set(ev["secret"]) <= LIKELY and len(ev["secret"]) == 3


def test_random_bot_picks_a_legal_event() -> None:
    s = Scene(3)
    v = api.view(s.st, 0)
    legal = api.legal(v, 0)
    assert make_bot("random", 3)(v, 0, legal) in legal
