"""`ad-p2p replay`'s screens of a Classified Information game (cli/classified/replay.py): a bots' game folded from
its events by an onlooker who knows no hidden face, shown step by step from no seat, then the Big Reveal and the
audit's line; nothing hidden leaks (no Suitcase Number before the end)."""

from __future__ import annotations

import argparse
import io
import re
from types import SimpleNamespace

import pytest
from adp2p.cli.classified.replay import show_replay
from adp2p.engine.classified.api import apply, new_game
from adp2p.engine.classified.bots import make_bot
from adp2p.engine.classified.profiles import STANDARD
from adp2p.engine.classified.sim import play_game


@pytest.mark.parametrize("lang", ["en", "de"])
def test_replay_walks_every_step_and_ends_with_the_big_reveal(lang: str) -> None:
    rec = play_game([make_bot("deduction", 1), make_bot("random", 2)], seed=5)
    st, steps = new_game(STANDARD), []
    for ev in rec.events:  # the onlooker's fold: no faces but those played face up and claimed
        st = apply(st, ev)
        if st.history and st.history[-1].get("k") in ("turn", "end"):
            steps.append(st)
    assert st.over and st.end_reason == rec.state.end_reason
    m = SimpleNamespace(state=st, names=["Ada", "Bob"], game_id=bytes(range(16)), verdict=None, audit_report=None,
                        entries=len(rec.events), result_line=lambda: "result")
    out = io.StringIO()
    args = argparse.Namespace(lang=lang, all=True, log="/nonexistent/log", width=80)
    assert show_replay(args, m, steps, out, io.StringIO()) == 0
    text = out.getvalue()
    assert all(len(x) <= 79 for x in text.splitlines())
    head, _, tail = text.partition("=== ")
    assert ("Replay of Classified Information" if lang == "en" else "Wiederholung von Geheimsache") in head
    assert not re.search(r"(Suitcase|Koffer) \d \(Code", head)  # no Suitcase Number before the Big Reveal
    assert ("The Big Reveal" if lang == "en" else "Die große Enthüllung") in tail
    assert "P1: " in tail and "P2: " in tail
