"""`ad-p2p replay LOG --web`: a finished game (played by bot peers over the real protocol) stepped through on the
page in Chromium, to its end with every player's audit verdict; the same gate as a seat's page."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _browser import chromium, click_choice, serving, shoot, until

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("game", "lang"), [("access-denied", "en"), ("hacker", "de")])
def test_replay_on_the_page(tmp_path: Path, game: str, lang: str) -> None:
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--game", game, "--watch", "--bots", "2", "--round-limit", "2",
           "--think", "0", "--seed", "3", "--ui", "lines", "--data-dir", str(tmp_path / "game")]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    log = re.search(r"(?:Game log|Spielprotokoll): (\S+)", out.stdout)
    assert log, out.stdout[-2000:]
    with chromium() as ctx, serving(["replay", log.group(1), "--lang", lang], None) as (proc, url):
        page = ctx.new_page()
        page.goto(url)
        until(page, "!!document.querySelector('#ask-choices button')", timeout=60)
        first = page.inner_text("#ask-q")
        click_choice(page, page.locator("#ask-choices button.choice").nth(0))  # on
        assert page.inner_text("#ask-q") != first
        assert page.locator("#log li").count() > 0
        click_choice(page, page.locator("#ask-choices button.choice").nth(1))  # back
        assert page.inner_text("#ask-q") == first
        click_choice(page, page.locator("#ask-choices button.choice").nth(3))  # to the end
        until(page, "!document.querySelector('#end').hidden", timeout=30)
        honest = "honest" if lang == "en" else "ehrlich"
        assert page.inner_text("#end-audit").count(honest) == 3
        assert not page.locator("#mine .card").count()  # an onlooker's board: nobody's hand
        shoot(page, f"replay-{game}-{lang}.png")
        page.locator("#ask-choices button.choice").nth(4).click()  # close: the command ends
        assert proc.wait(30) == 0
