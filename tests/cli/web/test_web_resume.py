"""The page survives a reload (the same decision is asked again) and a peer restart: our `join --web` killed mid-game
and started again with `--resume` serves a new page (a new link) where the game goes on to its end, audited, against
two bot peers that waited for us. Real processes, real sockets, the OS's Chromium."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from _browser import bot_peer, chromium, click_choice, free_port, play_by_clicks, serving, shoot, until

pytestmark = pytest.mark.slow


# the decision the page draws (its `data-ask`), once it is drawn with its choices; else a falsy value
ASKING = "document.body.dataset.ask && !!document.querySelector('#ask-choices button') && document.body.dataset.ask"


def next_decision(page: Any, clicked: str) -> str:
    """Wait until the page draws a decision other than `clicked`, and return it (its `data-ask`: the decision's id at
    the peer, and its stage). The page draws each snapshot whole; a count of buttons taken without knowing which
    decision it counted once compared two decisions (3 buttons before the reload, 6 after, both "Your move")."""
    return str(until(page, f"document.body.dataset.ask !== {json.dumps(clicked)} && {ASKING}", timeout=120))


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
                clicked = ""
                for _ in range(3):  # a few decisions by clicks
                    clicked = next_decision(page, clicked)
                    click_choice(page, page.locator("#ask-choices button.choice").first)
                for _ in range(5):  # a reload asks the same decision (the same id and stage) again, drawn the same
                    key = next_decision(page, clicked)
                    asked = page.inner_text("#ask-q"), page.locator("#ask-choices button").count()
                    page.reload()
                    again = str(until(page, ASKING, timeout=30))
                    if again.split("/")[0] != key.split("/")[0]:
                        clicked = key  # the peer set that decision aside meanwhile (a window closed): not the reload's
                        continue
                    assert again == key
                    assert (page.inner_text("#ask-q"), page.locator("#ask-choices button").count()) == asked
                    break
                else:
                    raise AssertionError("every reload found another decision than the one asked before it")
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
