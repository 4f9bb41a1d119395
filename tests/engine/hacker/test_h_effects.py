"""Every card (004:149-249), each through real events on a stacked deck (engine/hacker/scenario.py)."""

from __future__ import annotations

import pytest
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api
from adp2p.engine.hacker.scenario import Scene

CLEAR = ([3, 4], ["A1", "A2", "B2"], ["E5", "D4", "C3"])  # a pad and a path that misses it


def hacked(s: Scene, p: int) -> Scene:
    """p's terminal turn: a clean hack of its own terminal."""
    assert s.pending.kind == "hack_choice" and s.pending.actor == p
    return s.hack(p, *CLEAR)


def round2(hands: dict[int, list[str]], lay1: dict[int, list[str]], hackers: tuple[int, ...],
           passing: dict[int, str] | None = None, **kw: object) -> Scene:
    """Round 1: `hackers` hack their own terminals and play what they laid; then on to round 2's phase 6."""
    s = Scene(3, hands=hands, **kw).lay(lay1).start(0)  # type: ignore[arg-type]
    while s.st.phase == "terminal":
        d = s.pending
        if d.kind == "hack_choice" and d.actor in hackers:
            hacked(s, d.actor)
        elif d.kind == "play" and any(e["t"] == "play" for e in api.legal(s.st, d.actor)):
            s.do(next(e for e in api.legal(s.st, d.actor) if e["t"] == "play"))
        else:
            s.finish_turns() if d.kind != "play" else s.do(api.legal(s.st, d.actor)[0])
            if s.st.phase == "terminal" and s.pending.kind not in ("hack_choice", "play"):
                s.finish_turns()
    return s.to_phase("lay", passing=passing or {p: "lock" for p in range(3)})


# -- chance cards -----------------------------------------------------------------------------------------

def test_time_raises_own_from_3_to_5_with_two_cards_and_lowers_others() -> None:
    s = Scene(3, hands={0: ["time", "time", "time"]}).lay({0: ["time", "time", "time"]}).start(0)
    assert {e["who"] for e in api.legal(s.st, 0)} == {0, 1, 2}
    s.play(0, "time", who=0).play(0, "time", who=0)  # 004:157: 3 -> 5, both counted from the turn's start
    s.play(0, "time", who=1)
    assert s.st.time[:2] == [5, 2]


def test_time_brought_to_zero_before_the_terminal_turn_discards_the_terminal_cards() -> None:
    s = Scene(3, hands={0: ["query"], 1: ["time", "time", "time"]}).lay({0: ["query"], 1: ["time"] * 3}).start(1)
    for _ in range(3):
        s.play(1, "time", who=0)
    assert s.st.time[0] == 0
    s.finish_turns()  # seat 1 and seat 2 decline; seat 0 is offered no hack, its QUERY goes
    assert s.st.laid_term[0] == [] and not s.st.pw[0][0]
    s.do({"t": "boss", "at": 0})
    assert s.st.prio[0] == 5 - 1  # the Boss finds TIME 0 at a terminal: -1 (004:137)


def test_time_cannot_raise_a_player_without_a_time_marker() -> None:
    s2 = Scene(3, hands={0: ["lock", "time"]}).lay().start(0).to_phase("lay", places={0: 6}, passing={0: "lock"})
    assert s2.st.where[0] == 6 and s2.st.time[0] is None
    s2.lay({0: ["time"]}).start(0)
    assert {e.get("who") for e in api.legal(s2.st, 0)} == {1, 2}  # not itself: no TIME marker in the cafeteria


def test_priority_raises_own_up_to_the_rule_and_lowers_others() -> None:
    s = Scene(3, hands={0: ["priority"] * 3}).lay({0: ["priority"] * 3}).start(0)
    s.play(0, "priority", who=0).play(0, "priority", who=0).play(0, "priority", who=2)
    assert s.st.prio == [7, 5, 4]


def test_security_changes_the_password_but_the_player_in_the_system_stays_in() -> None:
    s = round2({0: ["lock", "query"], 1: ["lock", "security"]}, {}, (0,), passing={0: "lock", 1: "lock"})
    assert s.st.pw[0][0] and s.st.in_system[0] == 0
    s.lay({0: ["query"], 1: ["security"]}).start(1)
    s.play(1, "security", d=0)
    assert not s.st.pw[0][0]
    s.until(0, "play").play(0, "query")  # 004:165: still in the system until it leaves the terminal
    assert s.st.code[0][0]


def test_terminal_defect_stops_terminal_cards_and_the_boss_frowns() -> None:
    s = Scene(3, hands={0: ["query"], 1: ["terminal_defect"]}).lay({0: ["query"], 1: ["terminal_defect"]}).start(1)
    s.play(1, "terminal_defect", d=0)
    s.finish_turns()
    assert s.st.laid_term[0] == [] and not s.st.pw[0][0]
    s.do({"t": "boss", "at": 0})
    assert s.st.prio[0] == 4  # 004:135


def test_spy_copies_a_password_and_protection_from_anyone_stops_it() -> None:
    s = round2({0: ["lock", "query"], 1: ["lock", "spy", "spy"], 2: ["lock", "superspy_protection"]}, {}, (0,))
    s.lay({1: ["spy", "spy"]}).start(1)
    assert api.legal(s.st, 1)[0] == {"t": "play", "p": 1, "h": s.h(1, "spy", "laid_chance"), "card": "spy",
                                     "who": 0, "d": 0}
    s.play(1, "spy", who=0, d=0)
    assert s.pending.kind == "protect" and s.pending.actor == 2  # from the attacker's left
    s.do({"t": "protect", "p": 2, "h": s.h(2, "superspy_protection"), "card": "superspy_protection"})
    assert not s.st.pw[1][0] and s.pending.actor == 1  # 004:227: no effect, both discarded
    s.play(1, "spy", who=0, d=0).decline_all()
    assert s.st.pw[1][0]


def superspy_passed_on(card: str) -> Scene:
    """Seat 0 finds its own code in round 1 and draws `card` at the refill; in round 2's phase 1 it
    passes it on to seat 1 (004:173, 004:177: play it in the round, or pass it on)."""
    return round2({0: ["lock", "query"], 1: ["lock"], 2: ["lock"]}, {0: ["query"]}, (0,), deck=[card],
                  passing={0: card, 1: "lock", 2: "lock"})


def test_superspy_passed_on_must_be_laid_by_its_receiver() -> None:
    s = superspy_passed_on("superspy")
    assert s.st.code[0][0] and s.h(1, "superspy")
    for p in range(3):
        s.do({"t": "seal", "p": p, "what": "lay", "c": f"c{p}"})
    s.do({"t": "unseal", "p": 0, "what": "lay", "chance": [], "term": []})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "unseal", "p": 1, "what": "lay", "chance": [], "term": []})
    assert e.value.rule == "must_lay_card"


def test_superspy_copies_a_code() -> None:
    s = superspy_passed_on("superspy")
    s.lay({1: ["superspy"]}).start(1).play(1, "superspy", who=0, d=0).decline_all()
    assert s.st.code[1][0]


def test_blackout_breaks_the_terminal_and_changes_its_code() -> None:
    s = superspy_passed_on("blackout")
    s.lay({1: ["blackout"]}).start(1).play(1, "blackout")
    assert s.pending.kind == "chance:roll" and s.pending.info["for"] == "blackout"
    s.roll(1)
    assert not s.st.code[0][0] and s.st.broken[0] and s.st.pw[0][0]  # the password stays (004:173)


def test_information_exchange_gives_a_password_before_a_code() -> None:
    s = round2({0: ["lock", "query"], 1: ["lock", "information_exchange"]}, {0: ["query"]}, (0,))
    assert s.st.pw[0][0] and s.st.code[0][0]
    s.lay({1: ["information_exchange"]}).start(1).play(1, "information_exchange")
    s.do({"t": "deal", "perm": [1, 2, 0]})  # seat 0 gives to seat 1, 1 to 2, 2 to 0
    assert s.pending.kind == "give" and s.pending.actor == 0
    assert api.legal(s.st, 0) == [{"t": "give", "p": 0, "what": "pw", "d": 0}]
    with pytest.raises(IllegalEvent):
        s.do({"t": "give", "p": 0, "what": "code", "d": 0})
    s.do({"t": "give", "p": 0, "what": "pw", "d": 0})
    assert s.st.pw[1][0] and not s.st.code[1][0]
    assert s.pending.kind != "give"  # seats 1 and 2 have nothing to give: skipped


def test_information_exchange_passes_on_only_what_was_known_when_it_began() -> None:
    """H-EXCHANGE (004:181, "The Boss arranges a conference"): a password received in this exchange is not passed on
    in it. Seat 1 gives its password to seat 2; seat 2, who knew none when the conference began, gives nothing."""
    s = round2({0: ["lock", "query"], 1: ["lock", "information_exchange"]}, {}, (0, 1))
    assert s.st.pw[0][0] and s.st.pw[1][1] and not any(s.st.pw[2])
    s.lay({1: ["information_exchange"]}).start(1).play(1, "information_exchange")
    s.do({"t": "deal", "perm": [1, 2, 0]})  # 0 gives to 1, 1 to 2, 2 to 0; givers from seat 1 clockwise
    assert s.pending.kind == "give" and s.pending.actor == 1
    s.do({"t": "give", "p": 1, "what": "pw", "d": 1})
    assert s.st.pw[2][1]
    assert not (s.pending.kind == "give" and s.pending.actor == 2)  # seat 2 knew nothing at the start: skipped
    assert s.pending.kind == "give" and s.pending.actor == 0
    s.do({"t": "give", "p": 0, "what": "pw", "d": 0})
    assert not s.st.pw[0][1] and s.st.pw[1][0]


# -- terminal cards -------------------------------------------------------------------------------------

def test_lock_and_query_each_query_lifts_one_lock_then_reads_the_code() -> None:
    hand = ["lock", "query", "query"]
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    hacked(s, 0)
    s.play(0, "lock")
    assert s.st.locks[0] == 1
    s.play(0, "query")
    assert s.st.locks[0] == 0 and not s.st.code[0][0]
    s.play(0, "query")
    assert s.st.code[0][0] and s.st.used[0] == 3


def test_terminal_cards_need_prio_to_spend_and_lock_caps_at_four() -> None:
    """H-PRIO: at PRIO 5 four terminal cards can be paid (the track stays at 1 or more)."""
    hand = ["lock"] * 5
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    hacked(s, 0)
    for _ in range(4):
        s.play(0, "lock")
    assert s.st.locks[0] == 4 and s.st.used[0] == 4
    assert [e["t"] for e in api.legal(s.st, 0)] == ["discard"]
    s.discard(0, "lock").to_phase("boss")
    assert s.st.prio[0] == 1


def test_query_without_access_cannot_be_played_and_is_discarded_without_prio() -> None:
    s = Scene(3, hands={0: ["query"]}).lay({0: ["query"]}).start(0)
    s.do({"t": "no_hack", "p": 0})
    with pytest.raises(IllegalEvent) as e:
        s.play(0, "query")
    assert e.value.rule == "bad_target"
    s.discard(0, "query")
    assert s.st.used[0] == 0


def test_a_playable_laid_card_cannot_be_discarded_and_an_unlaid_card_cannot_be_played() -> None:
    s = Scene(3, hands={0: ["query", "query"]}).lay({0: ["query"]}).start(0)
    hacked(s, 0)
    with pytest.raises(IllegalEvent) as e:
        s.discard(0, "query")
    assert e.value.rule == "laid_card_not_played"
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "play", "p": 0, "h": s.h(0, "query"), "card": "query"})
    assert e.value.rule == "not_laid"


def test_network_access_works_a_remote_terminal_whose_password_is_known() -> None:
    s = round2({0: ["lock", "network_access", "query", "spy"], 1: ["lock"]}, {}, (0, 1),
               passing={0: "lock", 1: "lock", 2: "lock"})
    s.lay({0: ["spy", "network_access", "query"]}).start(0)
    s.play(0, "spy", who=1, d=1).decline_all()
    s.until(0, "play").play(0, "network_access", d=1).play(0, "query")
    assert s.st.code[0][1] and not s.st.code[0][0]


def test_additional_password_needs_prio_7_and_locks_out_password_holders() -> None:
    hand = ["priority", "priority", "additional_password"]
    s = Scene(3, hands={0: hand, 1: ["spy"]}).lay({0: hand}).start(0)
    s.play(0, "priority", who=0).play(0, "priority", who=0).until(0, "hack_choice")
    assert s.pending.kind == "hack_choice" and s.st.prio[0] == 7
    hacked(s, 0)
    s.play(0, "additional_password")
    assert s.st.extra_pw[0] and s.st.pwx[0][0] and s.st.has_access(0, 0)


def test_additional_password_counts_the_prio_marker_not_what_was_used_this_round() -> None:
    """H-ADDPW (004:205 "a PRIO of 7 or more"; 004:96 "The PRIO points used are taken away in phase 9"): at PRIO 7
    with a QUERY already paid this round the card is still playable (before: PRIO − used, 6, refused it)."""
    hand = ["priority", "priority", "query", "additional_password"]
    s = Scene(3, hands={0: hand, 1: ["spy"]}).lay({0: hand}).start(0)
    s.play(0, "priority", who=0).play(0, "priority", who=0).until(0, "hack_choice")
    assert s.st.prio[0] == 7
    hacked(s, 0)
    s.play(0, "query")
    assert s.st.used[0] == 1 and s.st.code[0][0]
    s.play(0, "additional_password")
    assert s.st.extra_pw[0] and s.st.pwx[0][0]


def test_additional_password_below_prio_7_is_unplayable() -> None:
    s = Scene(3, hands={0: ["additional_password"]}).lay({0: ["additional_password"]}).start(0)
    hacked(s, 0)
    assert api.legal(s.st, 0) == [{"t": "discard", "p": 0, "h": s.h(0, "additional_password", "laid_term"),
                                   "card": "additional_password"}]


def test_piping_gets_what_the_other_finds_this_round() -> None:
    s = Scene(3, hands={0: ["piping"]}).lay({0: ["piping"]}).start(0)
    hacked(s, 0)
    s.play(0, "piping", who=1)
    hacked(s, 1)
    assert s.st.pw[1][1] and s.st.pw[0][1]  # 004:209


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_malfunction_table(die: int) -> None:
    s = Scene(3, hands={0: ["malfunction", "query"]}).lay({0: ["malfunction", "query"]}).start(0)
    if die in (2, 5):
        hacked(s, 0)
    else:
        s.do({"t": "no_hack", "p": 0})
    s.play(0, "malfunction").roll(die)
    assert s.st.used[0] == 1
    if die == 1:
        assert s.st.pw[0][0]
    elif die == 2:
        assert s.st.code[0][0]
    elif die in (3, 4):
        assert s.st.time[0] == 3 + (3 if die == 3 else 2)
    elif die == 5:
        assert not s.st.pw[0][0] and s.st.in_system[0] == 0
        s.play(0, "query")  # stays in the system
        assert s.st.code[0][0]
    else:
        assert s.st.broken[0] and s.st.laid_term[0] == []


def test_partner_shares_what_one_terminal_finds_with_its_pair() -> None:
    s = Scene(3, "advanced", hands={0: ["partner"]}).lay({0: ["partner"]}).start(0).play(0, "partner")
    s.do({"t": "pairs", "perm": [0, 1, 2, 3, 4, 5]})
    assert s.st.pairs[0] == 1
    hacked(s.until(0, "hack_choice"), 0)
    assert s.st.pw[1][0]  # seat 1 sits at terminal 2, paired with 1


def test_superspy_protection_cannot_be_laid_but_answers_from_the_hand() -> None:
    s = Scene(3, hands={0: ["superspy_protection"]})
    h = s.h(0, "superspy_protection")
    s.do({"t": "seal", "p": 0, "what": "lay", "c": "x"})  # sealed without a value this engine knows
    for p in (1, 2):
        s.do({"t": "seal", "p": p, "what": "lay", "c": "", "secret": {"chance": [], "term": []}})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "unseal", "p": 0, "what": "lay", "chance": [h], "term": []})
    assert e.value.rule == "laid_wrong_pile"


def test_an_additional_password_takes_two_hacks_in_the_same_turn() -> None:
    """004:205: seat 0 installs a second password at department 1 and leaves; seat 1 moves in and must hack twice
    (H-HACK2: after a success that still leaves a password missing, another attempt may be declared)."""
    hand = ["priority", "priority", "additional_password"]
    s = Scene(3, hands={0: hand}).lay({0: hand}).start(0)
    s.play(0, "priority", who=0).play(0, "priority", who=0).until(0, "hack_choice")
    hacked(s, 0).play(0, "additional_password")
    s.to_phase("lay", places={0: 6, 1: 0}, boss_at=6)
    assert s.st.terminal_of(1) == 0 and s.st.extra_pw[0]
    s.lay().start(0).until(1, "hack_choice")
    hacked(s, 1)
    assert s.st.pw[1][0] and not s.st.has_access(1, 0) and s.pending.kind == "hack_choice"
    hacked(s, 1)
    assert s.st.pwx[1][0] and s.st.has_access(1, 0)


def test_spy_copies_only_the_first_password() -> None:
    hand = ["priority", "priority", "additional_password"]
    s = Scene(3, hands={0: [*hand, "lock"], 1: ["lock", "spy"], 2: ["lock"]}).lay({0: hand}).start(0)
    s.play(0, "priority", who=0).play(0, "priority", who=0).until(0, "hack_choice")
    hacked(s, 0).play(0, "additional_password")
    s.to_phase("lay", passing={0: "lock", 1: "lock", 2: "lock"})
    s.lay({1: ["spy"]}).start(1).play(1, "spy", who=0, d=0).decline_all()
    assert s.st.pw[1][0] and not s.st.pwx[1][0] and not s.st.has_access(1, 0)
