"""Attacks on Hacker's claims, end openings, secrets bound and private dice (the adversary zoo's in-process table,
tests/adversaries/_zoo.py): each asserts the cheater alone is named, no honest seat ever is, and nothing raises out
of a handler."""

from __future__ import annotations

from pathlib import Path

from _zoo import Table
from adp2p.p2p.audit import audit_log


def test_a_face_down_card_removed_unseen_is_shown_when_the_discard_pile_is_reshuffled(tmp_path: Path) -> None:
    """Under the face-down option SUPERSPY PROTECTION sends a face-down card to the discard pile unexamined (004:249):
    its face is known to its owner only. When that discard pile became the new deck, the table's fresh pile needs
    every face public (`Game.pile_faces`): the shuffler's machine raised KeyError (an honest game could not go on;
    over the network an honest shuffler's entry was rejected naming it). The refill now shows the pile's cards."""
    t = Table(4, seed=5, profile="advanced-superspy", round_limit=6, bots="random", game="hacker").run()
    m = t.ms[0]
    removed = [it for it in m.state.eng.history if isinstance(it, dict) and it.get("k") == "face_down_removed"]
    assert removed and len(m.hmap.piles) >= 2
    assert t.complete and t.verdict_seats() == set()
    for m in t.ms:
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
