"""A whole game of Hacker played by clicks in the OS's Chromium, against bot peers over the real protocol
(`ad-p2p play --web`: our peer and two bot peers, each its own process), in English and in German; screenshots of
each stage under docs/screens/."""

from __future__ import annotations

from pathlib import Path

import pytest
from _browser import chromium, play_by_clicks, serving

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_game_by_clicks(tmp_path: Path, lang: str) -> None:
    args = ["play", "--game", "hacker", "--bots", "2", "--round-limit", "3", "--seed", "11", "--think", "0",
            "--lang", lang]
    size = "phone-" if lang == "de" else ""
    shots = {k: f"hacker-{k}-{size}{lang}.png" for k in ("lobby", "cards", "decision", "groups", "react", "end")}
    with chromium() as ctx, serving(args, tmp_path) as (proc, url):
        page = ctx.new_page()
        if lang == "de":  # a phone's screen, and a keyboard-only player
            page.set_viewport_size({"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#title:text-is('Hacker')")
        play_by_clicks(page, shots, keys=lang == "de")
        end = page.locator("#end")
        assert end.is_visible()
        verdicts = page.locator("#end-audit li")
        assert verdicts.count() == 3
        honest = "honest" if lang == "en" else "ehrlich"
        assert all(honest in verdicts.nth(i).inner_text() for i in range(3)), page.inner_text("#end-audit")
        assert page.locator("html").get_attribute("lang") == lang
        page.locator("#end-buttons button.no-again").click()  # no rematch: the command ends, complete and audited
        assert proc.wait(60) == 0
        assert not errors
