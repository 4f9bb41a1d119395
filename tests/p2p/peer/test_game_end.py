"""The game's end for us (p2p/peer/game_end.py), alone: the words and the outcome, with a recording narrator and a
fold of plain values."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from adp2p.p2p.peer.common import PeerConfig
from adp2p.p2p.peer.game_end import GameEnd
from adp2p.p2p.peer.narrator import Narrator


def end(tmp_path: Path, lang: str = "en") -> tuple[GameEnd, list[str], list[str]]:
    said: list[str] = []
    did: list[str] = []
    g = GameEnd(PeerConfig(name="a", data_dir=tmp_path, abandon_after=10.0, lang=lang), Narrator(lang, said.append),
                stop_deciding=lambda: did.append("stopped"), news=lambda: did.append("news"))
    return g, said, did


def test_a_verdict_ends_the_game_in_both_languages_and_a_reopen_forgets_it(tmp_path: Path) -> None:
    g, said, did = end(tmp_path, "de")
    g.verdict("seat 2 broke the rules", "Platz 2 hat gegen die Regeln verstoßen")
    assert g.ended == "seat 2 broke the rules" and g.outcome.verdict == g.ended
    assert said == ["Platz 2 hat gegen die Regeln verstoßen"] and did == ["stopped", "news"]
    g.outcome.game_id = b"g"
    g.reopen()
    assert g.ended is None and g.ended_words is None and g.reopened
    assert g.outcome.verdict is None and g.outcome.game_id == b"g"  # a new outcome of the same game


def test_after_an_abandon_we_linger_longer_for_the_silent_seat(tmp_path: Path) -> None:
    g, _said, _did = end(tmp_path)
    assert g.linger(None) == 1.0
    assert g.linger(SimpleNamespace(complete=True)) == 10.0  # the patience, at most 30 s
    g.outcome.abandoned_by = "bob"
    assert g.linger(SimpleNamespace(complete=False)) == 20.0  # two periods, at most 60 s
