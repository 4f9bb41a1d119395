"""The card and table data (engine/hacker/data/*.toml) and the engine's coverage of it."""

from __future__ import annotations

from adp2p.engine.hacker import board
from adp2p.engine.hacker.catalog import cards, counts_source, tables
from adp2p.engine.hacker.effects import HANDLERS


def test_every_card_has_both_languages_a_kind_and_a_handler() -> None:
    keys = [c.key for c in cards()]
    assert len(keys) == len(set(keys)) == 18
    for c in cards():
        assert c.name_en and c.name_de and c.text_en and c.text_de
        assert c.kind in ("chance", "terminal", "defence") and c.key in HANDLERS
    assert {c.key for c in cards() if c.kind == "terminal"} == {
        "query", "lock", "hack", "network_access", "additional_password", "piping", "malfunction"}  # 004:185


def test_deck_counts_are_marked_as_ours() -> None:
    assert "not from the publisher" in counts_source()
    assert sum(c.basic for c in cards()) == 75


def test_tables_match_the_rulebook() -> None:
    t = tables()
    assert all(sum(row) == 3 for row in t.hack_table.values()) and sorted(t.hack_table) == list(range(2, 13))
    assert t.hack_table[8] == (1, 2, 0) and t.hack_table[2] == (0, 2, 1)  # 004:107-112
    assert [board.ring(s) for s in ("A1", "B2", "C3", "E3", "D4")] == [0, 1, 2, 0, 1]
    assert len(board.outer()) == 16 and board.neighbours("A1") == frozenset({"A2", "B1", "B2"})
    assert t.boss == {"terminal": 1, "broken_terminal": -1, "queue": -1, "terminal_no_time": -1, "cafeteria": -2}
