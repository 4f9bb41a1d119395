"""The public scenario API (engine/access_denied/scenario.py, stage.py): a built position is what was asked for,
each staging event does exactly its one thing, staging is refused outside a scenario game and on any bad body, and a
scenario's log replays to the same state."""

from __future__ import annotations

from typing import Any

import pytest
from adp2p.engine.access_denied import IllegalEvent, apply, card, get_profile, new_game, pending, replay, scenario
from adp2p.engine.access_denied.api import handles_of
from adp2p.engine.access_denied.catalog import CODES
from adp2p.engine.access_denied.scenario import access_event, move_event
from adp2p.engine.access_denied.state import GameState
from harness import (
    GOVERNMENT,
    MICRONOPOLY,
    OPER,
    ROOT,
    TELECOMM,
    USER,
    answer_honestly,
    attempt,
    cid,
    illegal,
    of_code,
    pass_all,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs


def codes(st: GameState, hs: list[int]) -> str:
    return "".join(sorted(CODES[card(st.faces[x]).code] for x in hs))


def keys(st: GameState, hs: list[int]) -> list[str]:
    return [card(st.faces[x]).key for x in hs]


def position() -> GameState:
    return scenario.build(3, pw={1: ["D", "E", "F"]}, hands={0: ["firewall", "guru"]}, deck=["red_tape", "copybot"])


def test_build_deals_the_named_cards_passwords_and_deck():
    st = position()
    assert st.scenario and pending(st).actor == 0
    assert codes(st, st.passwords[0]) == "ABC" and codes(st, st.passwords[1]) == "DEF"
    assert {"firewall", "guru"} <= set(keys(st, st.hands[0]))
    assert keys(st, st.deck[:2]) == ["red_tape", "copybot"]
    assert [st.access[p][p] for p in range(3)] == [ROOT] * 3
    assert sum(map(sum, st.access)) == 3 * ROOT
    assert scenario.handle(st, "firewall") == handles_of(st, "firewall")[0]
    assert st.loc[scenario.handle(st, "guru")] == ("hand", 0)


def test_build_two_player_passwords_per_sector():
    st = scenario.build(2, "two-player", pw={1: [["A", "B", "C"], ["D", "E", "F"]]})
    s1, s2 = st.sectors_of(1)
    assert codes(st, st.passwords[s1]) == "ABC" and codes(st, st.passwords[s2]) == "DEF"


def test_grant_sets_the_level_only():
    st = position()
    out = scenario.grant(scenario.grant(st, 0, GOVERNMENT, ROOT), 0, MICRONOPOLY, ROOT)
    out = scenario.grant(out, 0, TELECOMM, USER)
    assert out.access[0][GOVERNMENT] == ROOT and out.access[0][TELECOMM] == USER
    assert not out.over  # 3 controlled Roots, but no win check (and no history line)
    assert out.history == st.history and out.seq == st.seq + 3 and pending(out) == pending(st)
    assert scenario.grant(out, 0, TELECOMM, 0).access[0][TELECOMM] == 0


def test_give_moves_into_a_hand_and_shows_the_face_to_its_holder():
    st = position()
    x = scenario.handle(st, "red_tape")
    out = scenario.give(st, 2, "red_tape", "firewall")
    assert out.hands[2][-2:] == [x, scenario.handle(st, "firewall")]
    assert out.loc[x] == ("hand", 2) and x not in out.deck
    assert out.known[x] >> 2 & 1 and not out.known.get(x, 0) >> 1 & 1
    assert scenario.handle(st, "firewall") not in out.hands[0]


def test_give_code_takes_plain_deck_cards_of_that_code():
    st = position()
    out = scenario.give_code(st, 1, "E", 2)
    new = out.hands[1][len(st.hands[1]):]
    assert codes(out, new) == "EE" and all(st.loc[x] == ("deck",) for x in new)
    assert not any(card(out.faces[x]).is_harmful for x in new)


def test_to_discard_top_makes_the_face_public():
    st = position()
    out = scenario.to_discard_top(st, "guru")
    x = scenario.handle(st, "guru")
    assert out.discard[-1] == x and out.loc[x] == ("discard",) and out.known[x] == out.all_mask
    out = scenario.to_discard_top(out, "red_tape")
    assert keys(out, out.discard) == ["guru", "red_tape"]


def test_empty_hand_goes_to_the_bottom_of_the_deck_in_order():
    st = position()
    hand = list(st.hands[0])
    out = scenario.empty_hand(st, 0)
    assert out.hands[0] == [] and out.deck[-len(hand):] == hand
    assert all(out.loc[x] == ("deck",) for x in hand)
    assert all(out.known.get(x) == st.known.get(x) for x in hand)  # who knows the faces is unchanged


def test_move_handles_to_each_destination():
    st = position()
    a, b = st.deck[:2]
    out = scenario.move(st, [a], "hand", 1)
    out = scenario.move(out, [b], "deck_bottom")
    assert out.loc[a] == ("hand", 1) and out.deck[-1] == b and out.deck[0] not in (a, b)


def test_stage_refused_in_a_game_that_is_not_a_scenario():
    prof = get_profile("classic")
    assert illegal(new_game(prof, 3), access_event(0, 0, 1)) == "not_a_scenario"
    log: list[dict[str, Any]] = []
    st = scenario.build(log=log)
    same = replay(prof, 3, log, faces=st.faces)  # the same position, as a table would fold it
    assert not same.scenario and same.hands == st.hands
    assert illegal(same, access_event(0, GOVERNMENT, ROOT)) == "not_a_scenario"
    assert illegal(same, move_event(st.deck[0], "hand", 0)) == "not_a_scenario"


def _bad_bodies(st: GameState) -> list[tuple[dict[str, Any], str]]:
    top, pw, in_hand = st.deck[0], st.passwords[0][0], st.hands[0][0]
    acc = {"t": "stage", "what": "access", "p": 0, "s": 1, "level": 1}
    mv = {"t": "stage", "what": "move", "h": top, "to": "hand", "p": 1}
    return [
        ({"t": "stage"}, "malformed"),
        ({**acc, "what": "teleport"}, "malformed"),
        ({**acc, "what": ["access"]}, "malformed"),
        ({**acc, "extra": 1}, "malformed"),
        ({**acc, "p": -1}, "malformed"),
        ({**acc, "p": 3}, "malformed"),
        ({**acc, "p": True}, "malformed"),
        ({**acc, "p": "0"}, "malformed"),
        ({**acc, "s": 6}, "malformed"),
        ({**acc, "s": None}, "malformed"),
        ({**acc, "level": 4}, "malformed"),
        ({**acc, "level": -1}, "malformed"),
        ({**acc, "level": 1.0}, "malformed"),
        ({k: v for k, v in acc.items() if k != "level"}, "malformed"),
        ({**mv, "h": 999}, "stage"),
        ({**mv, "h": -1}, "stage"),
        ({**mv, "h": "0"}, "malformed"),
        ({**mv, "h": False}, "malformed"),
        ({**mv, "h": [top]}, "malformed"),
        ({**mv, "to": "pocket"}, "malformed"),
        ({**mv, "to": None}, "malformed"),
        ({**mv, "p": 5}, "malformed"),
        ({k: v for k, v in mv.items() if k != "p"}, "malformed"),
        ({**mv, "to": "discard"}, "malformed"),  # p belongs only to a move into a hand
        ({**mv, "h": pw}, "stage"),  # a password card never moves
        ({**mv, "h": in_hand, "p": 0}, "stage"),  # already there
        ({**mv, "h": st.deck[-1], "to": "deck_bottom", "p": None}, "malformed"),
        ({"t": "stage", "what": "move", "h": st.deck[-1], "to": "deck_bottom"}, "stage"),  # already there
    ]


def test_invalid_stage_bodies_are_illegal_events_and_change_nothing():
    st = position()
    for body, rule in _bad_bodies(st):
        assert illegal(st, body) == rule, body
    top = scenario.to_discard_top(st, "guru")
    assert illegal(top, move_event(scenario.handle(st, "guru"), "discard")) == "stage"


def test_stage_after_the_game_is_over_is_refused():
    st = scenario.build(3, hands={0: ["A", "B", "C"]})
    st = scenario.grant(scenario.grant(st, 0, GOVERNMENT, ROOT), 0, MICRONOPOLY, OPER)
    hs = [of_code(st, 0, c)[0] for c in "ABC"]
    st = answer_honestly(pass_all(attempt(st, 0, MICRONOPOLY, hs)))
    assert st.over and st.winners == [0]
    assert illegal(st, access_event(0, 0, 0)) == "game_over"


def _same(a: GameState, b: GameState) -> None:
    assert (a.loc, a.deck, a.discard, a.hands, a.access) == (b.loc, b.deck, b.discard, b.hands, b.access)
    assert (a.passwords, a.upgrades, a.known, a.seq, a.history, a.stack) == (
        b.passwords, b.upgrades, b.known, b.seq, b.history, b.stack)


def test_a_scenario_log_replays_to_the_same_state():
    log: list[dict[str, Any]] = []
    st = scenario.build(hands={0: ["red_tape"]}, deck=["firewall"], log=log)

    def do(ev: dict[str, Any]) -> None:
        nonlocal st
        log.append(ev)
        st = apply(st, ev)

    do(access_event(0, GOVERNMENT, USER))
    do(move_event(scenario.handle(st, "firewall"), "hand", 1))
    do(move_event(st.hands[2][0], "discard"))
    do(move_event(st.hands[2][0], "deck_bottom"))
    do({"t": "done", "p": 0})
    do({"t": "play", "p": 0, "card": scenario.handle(st, "red_tape"), "face": cid("red_tape"), "q": 1})
    assert pending(st).kind == "window"
    prof = get_profile("classic")
    again = replay(prof, 3, log, faces=st.faces, scenario=True)
    _same(again, st)
    with pytest.raises(IllegalEvent) as ei:
        replay(prof, 3, log, faces=st.faces)
    assert ei.value.rule == "not_a_scenario"


def test_unknown_cards_are_lookup_errors_not_stage_events():
    st = position()
    with pytest.raises(LookupError):
        scenario.give_code(st, 0, "A", 40)
    with pytest.raises(ValueError):
        scenario.build(hands={0: ["firewall", "firewall"]})
    with pytest.raises(ValueError):
        scenario.build(hands={0: ["A", "B", "C", "D"]})  # classic deal 6: 3 password cards + at most 3


_VALUES = hs.one_of(hs.none(), hs.booleans(), hs.integers(-3, 70), hs.text(max_size=12), hs.floats(allow_nan=False),
                    hs.lists(hs.integers(0, 5), max_size=2), hs.sampled_from(["access", "move", "hand", "discard",
                                                                             "deck_bottom"]))
_BODIES = hs.dictionaries(hs.sampled_from(["what", "p", "s", "level", "h", "to", "x"]), _VALUES, max_size=6)
_POSITION = position()


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_BODIES)
def test_any_stage_body_is_applied_or_an_illegal_event(body: dict[str, Any]):
    try:
        out = apply(_POSITION, {"t": "stage", **body})
    except IllegalEvent:
        return
    assert out.seq == _POSITION.seq + 1
