"""Face-down cards (004:239-249): BLUFF in the Advanced deck, SUPERSPY laid face down under the optional rule, turned
over only for a winning code, and SUPERSPY PROTECTION removing a face-down card unseen."""

from __future__ import annotations

import pytest
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api
from adp2p.engine.hacker.scenario import Scene

CLEAR = ([3, 4], ["A1", "A2", "B2"], ["E5", "D4", "C3"])


def test_bluff_goes_face_down_unseen_and_cannot_be_discarded() -> None:
    s = Scene(3, "advanced", hands={0: ["bluff"]}).lay({0: ["bluff"]}).start(0)
    h = s.h(0, "bluff", "laid_chance")
    assert api.legal(s.st, 0) == [{"t": "face_down", "p": 0, "h": h, "who": 1},
                                  {"t": "face_down", "p": 0, "h": h, "who": 2}]
    with pytest.raises(IllegalEvent) as e:
        s.discard(0, "bluff")
    assert e.value.rule == "goes_face_down"
    s.do({"t": "face_down", "p": 0, "h": h, "who": 2})
    assert s.st.loc[h] == ("front", 2) and s.st.known[h] == 0b001 and s.st.reveals == []


def superspy_in_front(goal: int) -> Scene:
    """Round 1: seat 1 lays its SUPERSPY face down in front of seat 0; seats 0 and 1 each find their own code."""
    hands = {0: ["query", "lock"], 1: ["superspy", "query", "lock"], 2: ["lock"]}
    s = Scene(3, "advanced-superspy", goal=goal, hands=hands).lay({0: ["query"], 1: ["superspy", "query"]}).start(0)
    h = s.h(1, "superspy", "laid_chance")
    assert [e["t"] for e in api.legal(s.st, 1)] == ["face_down", "face_down"]  # not played face up (004:239)
    s.do({"t": "face_down", "p": 1, "h": h, "who": 0})
    s.hack(0, *CLEAR).play(0, "query").hack(1, *CLEAR).play(1, "query")
    assert s.st.codes(0) == s.st.codes(1) == 1
    return s.to_phase("lay", passing={p: "lock" for p in range(3)}).lay().start(0)


def test_a_face_down_superspy_turns_over_for_the_winning_code() -> None:
    s = superspy_in_front(goal=2)
    assert s.pending == api.Decision(1, "activate", {})
    h = next(iter(s.st.front_by))
    s.do({"t": "activate", "p": 1, "h": h, "card": "superspy", "d": 0})
    assert api.result(s.st).winners == [1] and s.st.known[h] == 0b111


def test_a_face_down_superspy_stays_down_when_the_code_would_not_win() -> None:
    s = superspy_in_front(goal=3)
    assert s.pending is not None and s.pending.kind != "activate" and s.st.front[0]


def test_superspy_protection_must_be_laid_and_removes_a_face_down_card_unseen() -> None:
    s = Scene(3, "advanced-superspy", hands={0: ["bluff"], 1: ["superspy_protection"]})
    for p in range(3):
        s.do({"t": "seal", "p": p, "what": "lay", "c": f"c{p}"})
    s.do({"t": "unseal", "p": 0, "what": "lay", "chance": [s.h(0, "bluff")], "term": []})
    with pytest.raises(IllegalEvent) as e:  # 004:249: played in the round it is drawn
        s.do({"t": "unseal", "p": 1, "what": "lay", "chance": [], "term": []})
    assert e.value.rule == "must_lay_card"
    s.do({"t": "unseal", "p": 1, "what": "lay", "chance": [s.h(1, "superspy_protection")], "term": []})
    s.do({"t": "unseal", "p": 2, "what": "lay", "chance": [], "term": []}).start(0)
    bluff = s.h(0, "bluff", "laid_chance")
    s.do({"t": "face_down", "p": 0, "h": bluff, "who": 1})
    s.play(1, "superspy_protection", fd=bluff)
    assert s.st.loc[bluff] == ("discard",) and s.st.known[bluff] == 0b001  # returned unexamined
