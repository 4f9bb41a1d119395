"""What the player is told (p2p/peer/narrator.py), alone: the fold is plain values (a history, faces, names, a game
that words them), the player a list of lines."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adp2p.p2p.peer.narrator import Narrator


class Key:
    def __init__(self, fp: str) -> None:
        self.fp = fp

    def fingerprint(self) -> str:
        return self.fp


class Words:
    """A game's words: an event is told as its text, a face learned as 'saw <face>'."""

    def narrate(self, line: str, lang: str, names: list[str]) -> str:
        return f"{lang}:{line}"

    def learned_lines(self, st: Any, new: list[int], seat: int, lang: str) -> list[str]:
        return [f"saw {st.faces[h]}" for h in sorted(new)]


def fold(history: list[str], faces: dict[int, int], verdict: Any = None, seen: Any = ()) -> Any:
    return SimpleNamespace(
        state=SimpleNamespace(history=history, faces=faces), game=Words(), names=["ann", "bob"], seat=0,
        ids=[Key("aaaa"), Key("bbbb")], verdict=verdict, evidence_seen=list(seen),
    )  # fmt: skip


def test_the_account_and_what_was_shown_privately_are_told_once_each() -> None:
    said: list[str] = []
    n = Narrator("en", said.append)
    n.show(fold(["a", "b"], {3: 30}))
    n.show(fold(["a", "b", "c"], {3: 30, 4: 40}))
    assert said == ["  en:a", "  en:b", "saw 30", "  en:c", "saw 40"]
    assert n.private_notes == ["saw 30", "saw 40"] and n.told_faces == {3, 4}
    n.show(None)  # no game yet: nothing
    assert len(said) == 5


def test_a_verdict_is_told_once_and_a_later_one_naming_another_seat_too() -> None:
    said: list[str] = []
    n = Narrator("en", said.append)
    v1 = SimpleNamespace(seat=1, msg="lied", rule="entry", seq=5)
    m = fold([], {}, verdict=v1, seen=[(5, 0, v1)])
    n.say_verdict(m, ended=False)
    n.say_verdict(m, ended=False)
    assert sum("bob (seat 2, key bbbb)" in line for line in said) == 1 and any("lied" in line for line in said)
    v2 = SimpleNamespace(seat=0, msg="also lied", rule="entry", seq=7)
    m.evidence_seen.append((7, 1, v2))
    n.say_verdict(m, ended=False)
    assert any("ann (seat 1, key aaaa)" in line and "also lied" in line for line in said)
    quiet = Narrator("en", said.append)
    before = len(said)
    quiet.say_verdict(m, ended=True)  # the game ended for us otherwise: no verdict told
    assert len(said) == before


def test_a_faults_detail_is_shown_in_english_and_pointed_to_in_another_language() -> None:
    assert Narrator("en", print).detail("bad field") == "bad field"
    assert Narrator("de", print).detail("bad field") != "bad field"
    assert Narrator("en", print).who(None, 1) == Narrator("en", print).who(fold([], {}), None)  # "someone"
