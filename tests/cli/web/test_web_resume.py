"""The page survives a reload (the same decision is asked again) and a peer restart: our `join --web` killed mid-game
and started again with `--resume` serves a new page (a new link) where the game goes on to its end, audited, against
two bot peers that waited for us. Real processes, real sockets, the OS's Chromium."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from _browser import bot_peer, chromium, click_choice, free_port, play_by_clicks, serving, shoot, until

pytestmark = pytest.mark.slow


def test_reload_and_resume(tmp_path: Path) -> None:
    port = free_port()
    common = ["--table", "resume-web", "--players", "3", "--no-mdns", "--host", "127.0.0.1", "--round-limit", "2",
              "--patience", "120", "--think", "0"]
    mine = ["join", *common, "--port", str(port), "--name", "Ana", "--seed", "3"]
    bots: list[subprocess.Popen[bytes]] = []

    def bot(i: int) -> None:
        bots.append(bot_peer(common, port, tmp_path / f"bot{i}", f"Bot-{i + 1}", 7 + i))

    try:
        with chromium() as ctx:
            page = ctx.new_page()
            with serving(mine, tmp_path / "me") as (proc, url):
                page.goto(url)  # the lobby: who is here, who is missing
                until(page, "!document.querySelector('#lobby').hidden && "
                            "document.querySelector('#lobby-missing').textContent.includes('2')", timeout=60)
                assert page.inner_text("#lobby-here") == "Ana"
                bot(0)
                until(page, "document.querySelector('#lobby-here').textContent.includes('Bot-1')", timeout=60)
                assert "1" in page.inner_text("#lobby-missing")
                shoot(page, "lobby-en.png")
                bot(1)
                for _ in range(3):  # a few decisions by clicks
                    until(page, "!!document.querySelector('#ask-choices button')", timeout=120)
                    click_choice(page, page.locator("#ask-choices button.choice").first)
                until(page, "!!document.querySelector('#ask-choices button')", timeout=120)
                asked = page.inner_text("#ask-q"), page.locator("#ask-choices button").count()
                page.reload()  # the same decision, asked again
                until(page, "!!document.querySelector('#ask-choices button')", timeout=30)
                assert (page.inner_text("#ask-q"), page.locator("#ask-choices button").count()) == asked
                assert "Ana" in page.inner_text("#board")
                proc.send_signal(signal.SIGKILL)  # the peer dies mid-game
                proc.wait(10)
                until(page, "!document.querySelector('#banner').hidden", timeout=30)
                assert "--resume" in page.inner_text("#banner")  # the page says the peer is gone, and what to do
            with serving([*mine, "--resume"], tmp_path / "me") as (proc, url2):
                assert url2 != url  # a new link: the old one died with the old process
                page.goto(url2)
                play_by_clicks(page)
                assert page.locator("#end-audit li").count() == 3
                text = page.inner_text("#end-audit")
                assert text.count("honest") == 3, text
                page.locator("#end-buttons button.no-again").click()
                assert proc.wait(60) == 0
        for b in bots:
            assert b.wait(120) == 0
    finally:
        for b in bots:
            if b.poll() is None:
                b.terminate()
                b.wait(10)
