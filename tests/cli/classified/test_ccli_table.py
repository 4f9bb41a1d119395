"""A person's seat at a Classified Information table (cli/classified/seat.py's chooser) at an in-process table of
real machines (every entry signed, checked and folded by both seats, every answer about a hidden card proved): typed
lines at random through its page and menu, to the end of the game, every page 80x24; the logs agree and the audit is
clean."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from adp2p.cli.classified.human import Human
from adp2p.cli.classified.seat import table_chooser
from adp2p.p2p.audit import audit_log

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adversaries"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZE = (80, 24)


@pytest.mark.parametrize("seed, lang", [(1, "en"), (2, "de")])
def test_a_person_plays_a_whole_classified_game_at_the_table_by_keystrokes(
    seed: int, lang: str, tmp_path: Path
) -> None:
    from _zoo import Table
    from test_ccli_local import Keys

    out = io.StringIO()
    human = Human(lang, Keys(seed), out, size=SIZE)
    t = Table(2, seed=seed, profile="standard", round_limit=None, bots="random", game="classified")
    t.bots[0] = table_chooser(lang, human)
    t.run()
    ref = t.ms[0]
    assert t.complete and ref.game.is_over(ref.state) and t.verdict_seats() == set()
    assert all(m.events == ref.events for m in t.ms)
    assert any(ev.get("p") == 0 and ev.get("t") in ("enlist", "deploy", "encrypt") for ev in ref.events)
    for p in human.pages:
        assert len(p) <= SIZE[1] - 1 and all(len(x) <= SIZE[0] - 1 for x in p), p
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
    # `join`'s end at a terminal (found by playing: it ended in plain lines, with no Big Reveal): the end page from
    # the peer's own fold, as `play` shows it
    from types import SimpleNamespace

    from adp2p.cli.classified import screen
    from adp2p.cli.classified.seat import engine_view

    before = len(out.getvalue())
    t.bots[0].final_screen(SimpleNamespace(machine=ref), SimpleNamespace(said="Game over", line="Game over"))
    end = screen.end_lines(engine_view(ref.game.view(ref.state, 0)), 0, lang, SIZE[0])
    last = human.pages[-1]
    assert end and all(line in last for line in end), (end, last)
    assert len(last) <= SIZE[1] - 1
    assert ("Enthüllung" if lang == "de" else "Big Reveal") in out.getvalue()[before:]
