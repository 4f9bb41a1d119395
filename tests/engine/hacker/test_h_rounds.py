"""The round's phases (004:26-147) and the setup (hacker-setup.md), through real events."""

from __future__ import annotations

import pytest
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.positioning import dummy_reach
from adp2p.engine.hacker.profiles import get_profile
from adp2p.engine.hacker.scenario import Scene


def test_setup_deals_five_and_starts_at_phase_6_with_everyone_at_a_terminal() -> None:
    s = Scene(4)
    assert [len(h) for h in s.st.hands] == [5] * 4 and s.st.phase == "lay" and s.st.round_no == 1
    assert s.st.time == [3] * 4 and s.st.prio == [5] * 4  # hacker-setup.md
    assert [s.st.terminal_of(p) for p in range(4)] == [0, 1, 2, 3]  # H-START
    assert s.pending == api.Decision(0, "seal", {"what": "lay"})
    assert sum(get_profile("basic").deck_counts().values()) == len(s.st.deck) + 20


def test_pass_goes_to_the_left_neighbour_after_everyone_chose() -> None:
    s = Scene(3, hands={0: ["spy"], 1: ["lock"], 2: ["query"]}).lay().start(0).to_phase("pass")
    spy, lock = s.h(0, "spy"), s.h(1, "lock")
    s.do({"t": "pass", "p": 0, "h": spy})
    assert s.st.loc[spy] == ("passing", 0) and not s.st.known[spy] & 0b010
    s.do({"t": "pass", "p": 1, "h": lock}).do({"t": "pass", "p": 2, "h": s.h(2, "query")})
    assert spy in s.st.hands[1] and lock in s.st.hands[2] and s.st.known[spy] & 0b010  # 004:49, H-LEFT
    assert (spy, 0b010) in s.st.reveals


def test_place_cards_reach_neighbours_and_the_cafeteria_and_must_leave_it() -> None:
    s = Scene(3).lay().start(0).to_phase("place")
    assert sorted(e["secret"] for e in api.legal(s.st, 0)) == [0, 1, 5, CAFE]  # 004:52: 1 -> 2 or 6, or C
    s = s.to_phase("dummies", places={0: CAFE}).to_phase("place")
    assert s.st.where[0] == CAFE
    assert sorted(e["secret"] for e in api.legal(s.st, 0)) == [0, 1, 2, 3, 4, 5]  # 004:54: may not stay


def test_a_place_card_other_than_the_sealed_one_is_rejected() -> None:
    s = Scene(3).lay().start(0).to_phase("place")
    s.do({"t": "seal", "p": 0, "what": "place", "c": "c0", "secret": 1})
    s.do({"t": "seal", "p": 1, "what": "place", "c": "c1", "secret": 1})
    s.do({"t": "seal", "p": 2, "what": "place", "c": "c2", "secret": 2}).roll(1, 1, 1, 1, 1, 1)
    before = s.st
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "unseal", "p": 0, "what": "place", "to": 5})
    assert e.value.rule == "sealed_choice_changed" and s.st is before
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "unseal", "p": 0, "what": "place", "to": 3})  # not reachable at all
    assert e.value.rule == "bad_place"


def test_dummy_users_by_die_at_most_three() -> None:
    s = Scene(3).lay().start(0).to_phase("dummies")
    s.roll(1, 3, 5, 6, 2, 4)  # 004:57-60: 0, 1, 2, 2, 0, 1
    assert [s.st.dept[d].count(-1) for d in range(6)] == [0, 1, 2, 2, 0, 1]
    s.to_phase("dummies", dice=6).to_phase("place").to_phase("dummies")
    s.roll(6, 6, 6, 6, 6, 6)
    assert max(s.st.dept[d].count(-1) for d in range(6)) <= 3  # 004:62


@pytest.mark.parametrize(("prio", "k", "want"), [(4, 1, (1, False)), (2, 1, (0, False)), (3, 1, (0, True)),
                                                 (7, 2, (2, False)), (6, 2, (1, True)), (5, 2, (1, False)),
                                                 (4, 2, (1, False)), (9, 3, (2, True)), (10, 3, (3, False))])
def test_dummy_priorities_as_in_the_rulebook_example(prio: int, k: int, want: tuple[int, bool]) -> None:
    """004:68-78."""
    assert dummy_reach(None, prio, k) == want  # type: ignore[arg-type]


def test_positioning_duels_dummies_then_players_and_overflow_sits_out() -> None:
    """Seats 0 and 2 go to department 2 (seat 1's), which gets 2 dummies: PRIO 5 passes one dummy each; seat 1
    stays. Three players level behind the first dummy: a round of duels (H-GROUP)."""
    s = Scene(3).lay().start(0).to_phase("place")
    for p in range(3):
        s.do({"t": "seal", "p": p, "what": "place", "c": "x", "secret": 1})
    s.roll(1, 5, 1, 1, 1, 1)  # department 2 gets two dummies
    for p in range(3):
        s.do({"t": "unseal", "p": p, "what": "place", "to": 1})
    assert s.st.prio == [6, 5, 5]  # the Boss found seat 0 at its terminal in round 1
    assert s.pending.info == {"for": "duel", "k": 2}  # PRIO 6: past one dummy, a duel for the other
    s.roll(1, 6)  # lost: 1 + 1 < 6
    assert s.pending.kind == "chance:roll" and s.pending.info == {"for": "duel", "k": 6}
    s.roll(6, 1, 6, 1, 3, 3)  # 0 beats 1, 0 beats 2, 1 and 2 draw: 0 has 4 points, 1 and 2 have 1 each
    assert s.pending.info == {"for": "duel", "k": 2}  # 1 and 2 level: duel again (two: PRIO bonus, equal here)
    s.roll(2, 5)
    assert s.st.dept[1] == [-1, 0, 2, 1]  # a dummy at the terminal, then the duel's order; the second dummy is out
    assert s.st.time == [None, None, None]  # in the queue: no TIME marker
    s2 = Scene(3).lay().start(0).to_phase("place")
    for p in range(3):
        s2.do({"t": "seal", "p": p, "what": "place", "c": "x", "secret": 1})
    s2.roll(1, 6, 1, 1, 1, 1)
    for p in range(3):
        s2.do({"t": "unseal", "p": p, "what": "place", "to": 1})
    s2.roll(1, 6).roll(6, 1, 6, 1, 6, 1)  # seat 0 > 1 > 2
    assert s2.st.dept[1] == [-1, 0, 1, 2]


def test_positioning_player_vs_dummy_tie_keeps_the_dummy_ahead() -> None:
    """PRIO 6 against 2 dummies: passes one, duels the other: die + 1 must beat the dummy's die (H-TIE)."""
    s = Scene(3, hands={0: ["priority"]}).lay({0: ["priority"]}).start(0).play(0, "priority", who=0)
    s.to_phase("dummies", boss_at=1)
    assert s.st.prio[0] == 6
    s.roll(5, 1, 1, 1, 1, 1)
    s.do({"t": "unseal", "p": 0, "what": "place", "to": 0})
    s.do({"t": "unseal", "p": 1, "what": "place", "to": 1}).do({"t": "unseal", "p": 2, "what": "place", "to": 2})
    assert s.pending.info == {"for": "duel", "k": 2}
    s.roll(4, 5)  # 4 + 1 = 5: level, the dummy stays ahead
    assert s.st.dept[0] == [-1, 0, -1] and s.st.terminal_of(0) is None


def test_a_player_who_wins_a_terminal_gets_time_3() -> None:
    s = Scene(3).lay().start(0).to_phase("place", boss_at=CAFE)
    s.to_phase("lay", places={0: 1, 1: 2, 2: 3})  # everyone moves one department on, no dummies (die 1)
    assert [s.st.terminal_of(p) for p in range(3)] == [1, 2, 3] and s.st.time == [3, 3, 3]


def test_terminal_cards_may_only_be_laid_at_a_terminal() -> None:
    s = Scene(3, hands={0: ["query", "lock"]}).lay().start(0).to_phase("lay", places={0: CAFE}, passing={0: "lock"})
    assert s.st.where[0] == CAFE
    assert all(not e["secret"]["term"] for e in api.legal(s.st, 0))  # H-LAYTERM
    s.do({"t": "seal", "p": 0, "what": "lay", "c": "x"})
    for p in (1, 2):
        s.do({"t": "seal", "p": p, "what": "lay", "c": "", "secret": {"chance": [], "term": []}})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "unseal", "p": 0, "what": "lay", "chance": [], "term": [s.h(0, "query")]})
    assert e.value.rule == "terminal_cards_off_terminal"


def test_upkeep_time_and_prio_then_the_boss() -> None:
    hand = ["query", "lock"]
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    s.hack(0, [3, 4], ["A1", "A2", "B2"], ["E5", "D4", "C3"]).play(0, "lock").play(0, "query")
    s.finish_turns()
    assert s.st.time == [2, 2, 2] and s.st.prio == [3, 5, 5]  # 004:128: 2 cards used (the QUERY only lifted)
    s.do({"t": "boss", "at": 0})
    assert s.st.prio[0] == 4  # 004:134


@pytest.mark.parametrize(("at", "want"), [(CAFE, 4), (1, 4)])
def test_boss_in_the_cafeteria_and_in_the_queue(at: int, want: int) -> None:
    s = Scene(3).lay().start(0).to_phase("place").to_phase("lay", places={0: CAFE, 1: 1, 2: 1})
    assert s.st.dept[1] == [1, 2] and s.st.where[0] == CAFE
    s.lay().start(0).finish_turns()
    s.do({"t": "boss", "at": at})
    if at == CAFE:
        assert s.st.prio[0] == want  # 6 (the Boss's +1 in round 1), -2 (004:138)
    else:
        assert s.st.prio[1:] == [6, want] and s.st.spotted[2]  # terminal +1, queue -1


def test_refill_queue_bonus_and_cafeteria_exchange() -> None:
    s = Scene(3).lay().start(0).to_phase("place").to_phase("lay", places={0: CAFE, 1: 1, 2: 1})
    s.lay().start(0).finish_turns().do({"t": "boss", "at": 1})
    assert s.pending == api.Decision(0, "exchange", {})
    two = sorted(s.st.hands[0])[:2]
    s.do({"t": "exchange", "p": 0, "hs": two})
    assert s.st.prio[0] == 6 + 3 and len(s.st.hands[0]) == 5 and not set(two) & set(s.st.hands[0])  # 004:147
    assert s.st.prio[2] == 4  # spotted by the Boss: no +1 in the queue
    assert s.st.phase == "pass" and s.st.round_no == 3


def test_dummies_at_terminals_leave_at_the_end_of_the_round() -> None:
    s = Scene(3).lay().start(0).to_phase("place").to_phase("lay", places={0: 0, 1: 2, 2: 3}, dice=5)
    assert s.st.dept[1][0] == -1
    s.lay().start(0).to_phase("boss").do({"t": "boss", "at": 0})
    assert s.st.dept[1].count(-1) == 1 and s.st.round_no == 3  # 004:142


def test_winning_with_the_goal_in_codes_ends_the_game_at_once() -> None:
    hand = ["query"]
    s = Scene(3, "closed-3", goal=1, hands={0: hand}).lay({0: hand}).start(0)
    s.hack(0, [3, 4], ["A1", "A2", "B2"], ["E5", "D4", "C3"]).play(0, "query")
    assert api.is_over(s.st) and api.result(s.st).winners == [0] and api.pending(s.st) is None
    with pytest.raises(IllegalEvent):
        s.do({"t": "boss", "at": 0})


def test_round_limit_ends_with_the_most_codes() -> None:
    s = Scene(3, round_limit=1).lay().start(0).to_phase("pass")
    assert api.is_over(s.st) and api.result(s.st) == api.Result([0, 1, 2], "round_limit", [0, 0, 0])
    # the end is in the last round played: no "--- round 2 ---" after a limit of 1
    assert s.st.round_no == 1 and not [h for h in s.st.history if isinstance(h, dict) and h.get("k") == "round"]


def test_goals_and_closed_departments() -> None:
    assert get_profile("basic").codes_to_win(4) == 5 and get_profile("basic").codes_to_win(5) == 4  # 004:19-22
    assert get_profile("advanced").codes_to_win(3) == 6 and get_profile("advanced").codes_to_win(6) == 5  # 004:235
    assert get_profile("closed-3").codes_to_win(4) == 3  # 004:24
    s = Scene(3, "closed").lay().start(0).to_phase("place")
    assert sorted(e["secret"] for e in api.legal(s.st, 0)) == [0, 1, 2, CAFE]  # a ring of three departments
    with pytest.raises(ValueError):
        api.new_game(get_profile("closed"), 5)
    counts = get_profile("basic").deck_counts()
    assert counts["superspy"] == 1 and "bluff" not in counts and "partner" not in counts  # hacker-setup.md
    assert get_profile("advanced").deck_counts()["superspy"] == 3


def test_a_player_without_a_place_sits_out_in_the_cafeteria() -> None:
    """004:88: seat 2 (PRIO 2) stays behind both dummies and finds no place in a full department."""
    hand = ["priority"] * 3
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    for _ in range(3):
        s.play(0, "priority", who=2)
    s.to_phase("place", boss_at=0)
    assert s.st.prio == [6, 5, 2]
    for p in range(3):
        s.do({"t": "seal", "p": p, "what": "place", "c": "x", "secret": 1})
    s.roll(1, 5, 1, 1, 1, 1)
    for p in range(3):
        s.do({"t": "unseal", "p": p, "what": "place", "to": 1})
    s.roll(6, 1)  # seat 0 (PRIO 6) passes one dummy, wins its duel for the other; seat 1 (PRIO 5) passes one
    assert s.st.dept[1] == [0, -1, 1, -1] and s.st.where[2] == CAFE and s.st.time[2] is None


def test_at_a_terminal_with_time_0_a_player_must_leave() -> None:
    s = Scene(3, hands={1: ["time"] * 3}).lay({1: ["time"] * 3}).start(1)
    for _ in range(3):
        s.play(1, "time", who=0)
    s.to_phase("place")
    assert s.st.time[0] == 0 and s.st.terminal_of(0) == 0
    assert sorted(e["secret"] for e in api.legal(s.st, 0)) == [1, 5, CAFE]  # H-TIME0: not department 1 again


def test_start_player_is_a_seat() -> None:
    s = Scene(3).lay()
    assert s.pending == api.Decision(None, "chance:start", {})
    with pytest.raises(IllegalEvent):
        s.do({"t": "start", "p": 3})
    s.start(2)
    assert s.st.start == 2 and s.st.phase == "terminal"  # nobody laid a chance card


def test_a_player_keeping_its_terminal_keeps_its_time() -> None:
    s = Scene(3).lay().start(0).to_phase("lay")
    assert s.st.time == [2, 2, 2]  # 004:128: one TIME unit per round at a terminal, not back to 3


def test_two_players_duel_with_the_higher_prio_adding_one_and_a_level_roll_again_without_bonus() -> None:
    """004:86: seat 0 (PRIO 6) and seat 1 (PRIO 5) both go to department 2, no dummy users."""
    s = Scene(3).lay().start(0).to_phase("place", boss_at=0)
    assert s.st.prio[:2] == [6, 5]
    for p, to in ((0, 1), (1, 1), (2, 2)):
        s.do({"t": "seal", "p": p, "what": "place", "c": "x", "secret": to})
    s.roll(1, 1, 1, 1, 1, 1)
    for p, to in ((0, 1), (1, 1), (2, 2)):
        s.do({"t": "unseal", "p": p, "what": "place", "to": to})
    s.roll(3, 4)  # 3 + 1 against 4: level
    assert s.pending.info == {"for": "duel", "k": 2}
    s.roll(3, 4)  # no bonus now: seat 1 wins
    assert s.st.dept[1] == [1, 0] and s.st.time[1] == 2 and s.st.time[0] is None  # seat 1 kept its terminal
