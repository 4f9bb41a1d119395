"""A whole game of Access Denied played by clicks in the OS's Chromium, against bot peers over the real protocol
(`ad-p2p play --web`: our peer and two bot peers, each its own process), in English and in German; screenshots of
each stage under docs/screens/."""

from __future__ import annotations

from pathlib import Path

import pytest
from _browser import chromium, play_by_clicks, serving, until

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_game_by_clicks(tmp_path: Path, lang: str) -> None:
    args = ["play", "--bots", "2", "--round-limit", "2", "--seed", "11", "--think", "0", "--lang", lang]
    size = "phone-" if lang == "de" else ""
    shots = {k: f"access-denied-{k}-{size}{lang}.png" for k in ("lobby", "cards", "decision", "groups", "react", "end")}
    with chromium() as ctx, serving(args, tmp_path) as (proc, url):
        page = ctx.new_page()
        if lang == "de":  # a phone's screen, and a keyboard-only player
            page.set_viewport_size({"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#title:text-matches('Access Denied')")
        play_by_clicks(page, shots, keys=lang == "de")
        end = page.locator("#end")
        assert end.is_visible()
        verdicts = page.locator("#end-audit li")
        assert verdicts.count() == 3
        honest = "honest" if lang == "en" else "ehrlich"
        assert all(honest in verdicts.nth(i).inner_text() for i in range(3)), page.inner_text("#end-audit")
        assert page.locator("html").get_attribute("lang") == lang
        if lang == "de":
            page.locator("#end-buttons button.no-again").click()  # no rematch: the command ends, complete, audited
            assert proc.wait(60) == 0
        else:  # another game on the same page (the same link), then leave the table from the page
            page.locator("#end-buttons button.again").click()
            until(page, "document.querySelector('#end').hidden && !!document.querySelector('#ask-choices button')",
                  timeout=120)
            page.on("dialog", lambda d: d.accept())  # "Leave? The game can be resumed with --resume."
            page.locator("#leave").click()
            assert proc.wait(60) == 130  # left as with Ctrl-C: the game can be resumed
            out = proc.stdout.read() if proc.stdout else ""
            assert "--resume" in out
            until(page, "!document.querySelector('#banner').hidden", timeout=30)  # the page: the peer is gone
            # and how to come back: the command the terminal printed (found playing: the page kept its menu and
            # said only "the connection to your peer is gone")
            assert " join --resume " in page.inner_text("#banner"), page.inner_text("#banner")
            assert page.locator("#ask-choices button").count() == 0
        assert not errors
