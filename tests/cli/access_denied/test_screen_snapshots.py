"""The game screen pinned by snapshots: fixed seed, fixed width, plain text (no ANSI codes).

Regenerate after an intended change of the screen with
    ADP2P_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/cli -q
and review the diff of tests/cli/access_denied/snapshots/ like code.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from _games import Moment, first_moment, moments
from adp2p.cli.access_denied.prompt import Prompt
from adp2p.cli.access_denied.screen import screen
from adp2p.cli.tui.drawing import render_text
from adp2p.engine.access_denied.checklist import Checklist

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("ADP2P_UPDATE_SNAPSHOTS") == "1"


def check_snapshot(name: str, text: str) -> None:
    assert "\x1b" not in text, "snapshots hold plain text, no ANSI codes"
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(f"missing snapshot {path} (generate it with ADP2P_UPDATE_SNAPSHOTS=1)")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    want = path.read_text()
    assert text == want, f"screen {name} changed (ADP2P_UPDATE_SNAPSHOTS=1 regenerates it):\n{text}"


def moment(kind: str) -> Moment:
    if kind == "end":
        return list(moments())[-1]
    if kind == "window":
        return first_moment(
            lambda m: m.decision is not None and m.decision.kind == "window" and len(m.options) > 1, seed=1
        )
    if kind == "actions":
        return first_moment(lambda m: m.decision is not None and m.decision.kind == "actions" and len(m.options) > 30)
    return first_moment(lambda m: m.decision is not None and m.decision.kind == kind)


def text_of(m: Moment, lang: str = "en", width: int = 100, names: list[str] | None = None) -> str:
    cl = Checklist.rebuild(m.view, 0, m.events)
    return render_text(screen(m.view, 0, lang, checklist=cl, options=m.options, names=names, width=width), width)


@pytest.mark.parametrize(
    ("name", "kind", "lang", "width"),
    [
        ("password_en_100", "password", "en", 100),
        ("actions_en_100", "actions", "en", 100),
        ("actions_de_100", "actions", "de", 100),
        ("actions_en_130", "actions", "en", 130),
        ("actions_en_60", "actions", "en", 60),
        ("window_en_100", "window", "en", 100),
        ("end_en_100", "end", "en", 100),
        ("end_de_100", "end", "de", 100),
    ],
)
def test_screen_snapshot(name: str, kind: str, lang: str, width: int) -> None:
    text = text_of(moment(kind), lang, width)
    assert max(len(line) for line in text.splitlines()) <= width
    check_snapshot(name, text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_menu_snapshot(lang: str) -> None:
    m = moment("actions")
    out = io.StringIO()
    p = Prompt(lang, out, io.StringIO(), width=100)
    p.menu(m.view, 0, m.options)
    check_snapshot(f"menu_actions_{lang}", out.getvalue())


def test_screen_shows_the_facts() -> None:
    m = moment("actions")
    text = text_of(m)
    st = m.view
    for s in ("Banking", "Government", "Micronopoly", "NewsMedia", "TeleComm", "Universities"):
        assert s in text
    assert f"Deck {len(st.deck)} · Discard {len(st.discard)}" in text
    assert "Your password: TeleComm:" in text  # seat 0 controls TeleComm in this game
    assert "Checklist" in text and "Left" in text and "passwords still possible" in text  # header + legend
    assert "step: take actions" in text and "Your decision" in text
    for line in st.history[-3:]:
        assert str(line) in text
    # every card in the hand is listed, playable or with a reason
    assert len(re.findall(r"playable|needs|reaction|only with|not now|no valid|no action|nothing to", text)) >= len(
        st.hands[0]
    )


def test_german_screen_has_german_words_and_titles() -> None:
    m = moment("actions")
    text = text_of(m, "de")
    assert "Zugang Verweigert" in text and "Sektoren" in text and "Checkliste" in text and "Deine Hand" in text
    assert "Wirtschaft" in text and "Universitäten" in text  # sector names from the German rulebook
    assert "Your " not in text and "Sectors" not in text


def test_end_screen_names_the_winner() -> None:
    m = moment("end")
    assert m.view.over
    text = text_of(m)
    assert "Game over — winner(s): P" in text
