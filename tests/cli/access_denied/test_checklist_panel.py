"""The checklist panel against hand-made situations (evidence noted by hand, the panel read as text)."""

from __future__ import annotations

from adp2p.cli.access_denied.screen import checklist_table
from adp2p.cli.tui.drawing import render_text
from adp2p.engine.access_denied.api import new_game
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.profiles import get_profile

A, B, C, D, E, F = range(6)
BANKING, GOVERNMENT, MICRONOPOLY, NEWSMEDIA, TELECOMM, UNIVERSITIES = range(6)


def panel(cl: Checklist, lang: str = "en") -> str:
    st = new_game(get_profile("classic"), 4)
    return render_text(checklist_table(st, cl, lang, None), 100)


def row(text: str, sector: str) -> list[str]:
    line = next(x for x in text.splitlines() if x.strip().startswith(sector))
    return line.split()


def make(controller: list[int | None]) -> Checklist:
    cl = Checklist(0)
    cl.controller = list(controller)
    return cl


def test_no_evidence_every_password_possible() -> None:
    cl = make([1, None, 2, None, 0, None])
    text = panel(cl)
    assert row(text, "Banking") == ["Banking", "P2", "-", "-", "A", "B", "C", "D", "E", "F", "20"]
    assert "Micronopoly" in text
    assert "TeleComm" not in text  # our own sector is no row of the checklist


def test_in_and_out_narrow_the_count() -> None:
    cl = make([1, None, None, None, 0, None])
    cl.note(BANKING, A, True)
    cl.note(BANKING, B, False)
    assert row(panel(cl), "Banking") == ["Banking", "P2", "A", "B", "C", "D", "E", "F", "6"]  # C(4,2) left


def test_deduced_out_when_three_are_in() -> None:
    cl = make([None, 3, None, None, None, None])
    for c in (A, C, E):
        cl.note(GOVERNMENT, c, True)
    text = panel(cl)
    assert row(text, "Government")[-5:] == ["1", "—", "solved:", "A", "C", "E"][-5:]
    assert "solved: A C E" in text
    # B, D, F are out by deduction though never seen
    assert "B D F" in text


def test_only_one_password_remains_from_outs() -> None:
    cl = make([None, None, None, 2, None, None])
    for c in (B, D, F):
        cl.note(NEWSMEDIA, c, False)
    text = panel(cl)
    assert "solved: A C E" in text
    assert cl.remaining(NEWSMEDIA) == 1


def test_two_left_is_not_solved() -> None:
    cl = make([None, None, None, None, None, 1])
    cl.note(UNIVERSITIES, A, True)
    cl.note(UNIVERSITIES, B, True)
    cl.note(UNIVERSITIES, C, False)
    cl.note(UNIVERSITIES, D, False)
    text = panel(cl)
    assert "solved" not in text
    assert row(text, "Universities") == ["Universities", "P2", "A", "B", "C", "D", "E", "F", "2"]


def test_several_sectors_and_german() -> None:
    cl = make([1, 2, 3, None, None, None])
    for c in (A, B, C):
        cl.note(BANKING, c, True)
    cl.note(GOVERNMENT, F, False)
    text = panel(cl, "de")
    assert "Checkliste" in text and "Übrig" in text
    assert "gelöst: A B C" in text
    assert row(text, "Regierung")[-1] == "10"  # C(5,3)
    assert row(text, "Wirtschaft")[-1] == "20"


def test_nobody_else_controls_a_sector() -> None:
    cl = make([0, None, None, None, None, None])
    assert "no other player controls a sector yet" in panel(cl)
