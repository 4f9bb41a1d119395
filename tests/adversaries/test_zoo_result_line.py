"""The core's result line at a real table of two (p2p/machine/ending.py `result_line`, the audit's report): "winner:
X" or "no winner", never "winner(s)" (the words: tests/p2p/test_result_line.py)."""

from __future__ import annotations

from pathlib import Path

from _zoo import Table
from adp2p.cli.cmd_audit import report
from adp2p.p2p.audit import audit_log
from adp2p.p2p.peer.narrator import Narrator

TABLE = {"profile": "standard", "round_limit": None, "bots": "random", "game": "classified"}


def test_a_classified_table_of_two_says_winner_or_no_winner_in_every_line(tmp_path: Path) -> None:
    """An honest game of two at the table: the machine's line, the audit's text in EN and DE (before: "winner(s):")."""
    t = Table(2, seed=1, **TABLE).run()
    m = t.ms[0]
    assert t.complete and m.state.over
    line = m.result_line()
    assert "winner(s)" not in line
    if m.state.winners:
        assert line.startswith(f"winner: {m.names[m.state.winners[0]]} — "), line
    else:
        assert line.startswith("no winner — "), line
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok and "winner(s)" not in res.text()
    for lang, head in (("en", "  winner: "), ("de", "  Gewinner: ")):
        text = report(res, lang)
        assert "winner(s)" not in text
        if res.winners:
            assert f"{head}{res.names[res.winners[0]]}\n" in text, text
    told = Narrator("de", lambda _: None).result_words(m, line)  # what `join` tells a German player
    assert told.startswith(f"Gewinner: {m.names[m.state.winners[0]]} — " if m.state.winners else "kein Gewinner — ")
