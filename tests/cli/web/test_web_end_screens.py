"""The end screen for the outcomes a person must read right: a proven cheat (the cheater's violation in the
player's language, the honest players "honest"), a table that could not start (the fault in a banner). The seat's
page in Chromium, fed the outcome as the peer hands it over (the cheats themselves are caught in tests/adversaries/;
here: that the page says what the terminal says)."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

from _browser import chromium, until
from adp2p.cli.access_denied import web as access_denied
from adp2p.cli.web.seat import WebSeat


def fake_peer(verdict: Any) -> Any:
    rep = SimpleNamespace(ok=False, violations=[verdict], faces={})
    m = SimpleNamespace(names=["Ana", "Bob", "Cy"], seat=None, audit_report=rep, verdict=verdict, abandoned=None)
    return SimpleNamespace(machine=m, bundles={}, private_notes=[], cfg=SimpleNamespace(want=3, table="t"))


def test_a_proven_cheat_on_the_end_screen() -> None:
    seat = WebSeat(access_denied, "de", open_browser=False)
    try:
        v = SimpleNamespace(seat=1, rule="attempt_own", msg="an attempt on a sector it controls", seq=42)
        peer = fake_peer(v)
        seat.peer = peer
        outcome = SimpleNamespace(said="Durch einen Beweis gestoppt: Bob", line="stopped", summary=[], log_path=None)
        answer: list[bool] = []
        t = threading.Thread(target=lambda: answer.append(seat.end(peer, outcome, complete=False)))
        t.start()
        with chromium() as ctx:
            page = ctx.new_page()
            page.goto(seat.url)
            until(page, "!document.querySelector('#end').hidden", timeout=30)
            assert "Bob" in page.inner_text("#end-line")
            cheat = page.locator("#end-audit li.violation")
            assert cheat.count() == 1
            text = cheat.inner_text()
            assert text.startswith("Bob:") and "42" in text
            assert page.locator("#end-audit li.honest").count() == 2
            assert not page.locator("#end-buttons button.again").count()  # no rematch after a stopped game
        t.join(10)
        assert answer == [False]
    finally:
        seat.close()


def test_a_fault_in_a_banner() -> None:
    seat = WebSeat(access_denied, "en", open_browser=False)
    try:
        seat.peer = fake_peer(None)
        seat.peer.machine = None
        with chromium() as ctx:
            page = ctx.new_page()  # the page open in the lobby when the fault comes (as a player's is)
            page.goto(seat.url)
            deadline = time.monotonic() + 30
            while not seat.server.pages:  # its websocket is open
                assert time.monotonic() < deadline, "the page never connected"
                time.sleep(0.05)
            seat.fail("only 1 of 3 players arrived at table 't' within 240 s")  # (returns once the page has it)
            late = ctx.new_page()  # and a page opened after the fault
            late.goto(seat.url)
            for p in (page, late):
                until(p, "!document.querySelector('#banner').hidden", timeout=30)
                assert "only 1 of 3 players arrived" in p.inner_text("#banner")
                assert p.inner_text("#lobby-line").startswith("Table")
    finally:
        seat.close()
