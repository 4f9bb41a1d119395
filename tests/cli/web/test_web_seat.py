"""The seat played from the page (cli/web/seat.py), without a browser: a click picks the engine's event, a stale
click (for a decision no longer asked) is ignored, a reaction window passes by itself when its countdown ends, as
the terminal's does."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from _games import moments
from adp2p.cli.access_denied import web as access_denied
from adp2p.cli.web.seat import WebSeat


@pytest.fixture
def seat() -> Any:
    s = WebSeat(access_denied, "en", react_seconds=0.5, react_to="all", open_browser=False)
    yield s
    s.close()


def asked(seat: WebSeat, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = seat.snapshot()
        if snap["ask"] is not None:
            return snap["ask"]  # type: ignore[no-any-return]
        time.sleep(0.02)
    raise AssertionError("nothing asked")


def test_a_click_picks_the_engine_event_and_a_stale_click_is_ignored(seat: WebSeat) -> None:
    m = next(m for m in moments(seed=5, rounds=4) if m.decision is not None and m.decision.kind != "window"
             and len(m.options) > 2)
    got: list[Any] = []
    t = threading.Thread(target=lambda: got.append(seat(m.view, 0, m.options)))
    t.start()
    ask = asked(seat)
    seat.on_message({"t": "pick", "id": ask["id"] - 1, "n": 0})  # a click on a page showing an older decision
    time.sleep(0.3)
    assert not got
    n = len(ask["choices"]) - 1
    seat.on_message({"t": "pick", "id": ask["id"], "n": n})
    t.join(10)
    ev = got[0]
    assert any(ev is o for o in m.options)  # the very event the engine offered
    assert seat.snapshot()["ask"] is None


def test_a_reaction_window_passes_when_its_countdown_ends(seat: WebSeat) -> None:
    m = next(m for m in moments(seed=5, rounds=12) if m.decision is not None and m.decision.kind == "window"
             and len(m.options) > 1)
    start = time.monotonic()
    ev = seat(m.view, 0, m.options)
    took = time.monotonic() - start
    assert ev["t"] == "pass"
    assert took >= 0.5
    assert seat.lines[-1] == "time is up: you pass"


@pytest.mark.parametrize("n, agreed", [(0, True), (1, False)])
def test_the_roster_question_waits_for_a_click_and_shows_the_roster(seat: WebSeat, n: int, agreed: bool) -> None:
    """`join --web` asks before the game begins (issue 35): the roster's lines in the lobby, start or decline."""
    from types import SimpleNamespace

    seat.attach(SimpleNamespace(machine=None, bundles={}, private_notes=[], cfg=SimpleNamespace(want=2, table="t")))
    text = ("At table 't' these 2 players would start the game, in seat order:\n  1. Ann  key 0000-1111-2222-3333  "
            "(you)\n  2. Bob  key 4444-5555-6666-7777\nThe table has no word: anyone on this network can sit down.")
    got: list[bool] = []
    t = threading.Thread(target=lambda: got.append(seat.ask_roster(text)))
    t.start()
    ask = asked(seat)
    snap = seat.snapshot()
    assert snap["stage"] == "lobby" and snap["lobby"]["roster"][1].strip() == "1. Ann  key 0000-1111-2222-3333  (you)"
    assert [c["label"] for c in ask["choices"]] == ["Start with them", "Decline and leave the table"]
    time.sleep(0.3)
    assert not got  # nothing agreed without a click
    seat.on_message({"t": "pick", "id": ask["id"], "n": n})
    t.join(10)
    assert got == [agreed]
    assert seat.snapshot()["ask"] is None and seat.snapshot()["lobby"]["roster"] is None


def test_leaving_at_the_roster_question_leaves_the_table(seat: WebSeat) -> None:
    from types import SimpleNamespace

    seat.attach(SimpleNamespace(machine=None, bundles={}, private_notes=[], cfg=SimpleNamespace(want=2, table="t")))
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            seat.ask_roster("At table 't' ...")
        except KeyboardInterrupt as exc:
            errors.append(exc)

    t = threading.Thread(target=ask)
    t.start()
    seat.on_message({"t": "leave", "id": asked(seat)["id"]})
    t.join(10)
    assert len(errors) == 1
