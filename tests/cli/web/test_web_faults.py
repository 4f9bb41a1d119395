"""Faults on the page, as the terminal reports them: a bot peer killed mid-game stops answering, the game ends as
abandoned naming it (exit 5), and the page's end says so, with that player's audit verdict "stopped answering" and
no rematch offered. Real processes and sockets, the OS's Chromium."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from _browser import bot_peer, chromium, click_choice, free_port, play_by_clicks, serving, shoot, until

pytestmark = pytest.mark.slow


def test_an_abandoned_game_on_the_page(tmp_path: Path) -> None:
    port = free_port()
    common = ["--table", "faults-web", "--players", "3", "--no-mdns", "--host", "127.0.0.1", "--round-limit", "3",
              "--patience", "10", "--think", "0"]
    bots = []
    try:
        with chromium() as ctx, serving(["join", *common, "--port", str(port), "--name", "Ana", "--lang", "de"],
                                        tmp_path / "me") as (proc, url):
            page = ctx.new_page()
            page.goto(url)
            bots = [bot_peer(common, port, tmp_path / f"bot{i}", f"Bot-{i + 1}", 20 + i) for i in range(2)]
            for _ in range(2):
                until(page, "!!document.querySelector('#ask-choices button')", timeout=120)
                click_choice(page, page.locator("#ask-choices button.choice").first)
            bots[0].send_signal(signal.SIGKILL)  # Bot-1 stops answering
            play_by_clicks(page)
            end = page.inner_text("#end")
            assert "Bot-1" in page.inner_text("#end-line"), end
            silent = page.locator("#end-audit li.silent")
            assert silent.count() == 1 and "Bot-1" in silent.inner_text(), end
            assert not page.locator("#end-buttons button.again").count()  # no rematch after an incomplete game
            assert "schließen" in page.inner_text("#end-buttons")
            assert proc.wait(60) == 5
    finally:
        for b in bots:
            if b.poll() is None:
                b.terminate()
                b.wait(10)


def test_a_silent_opponent_at_a_table_of_two_leaves_the_game_unfinished_on_the_page(tmp_path: Path) -> None:
    """Classified Information, two seats: the bot peer killed mid-game; after the patience the page's end says the
    game is unfinished (German here), no winner, and the silent player's line is "did not answer … no verdict", not
    a violation nor "stopped answering" (docs/protocol.md, "Silence at a table of two")."""
    port = free_port()
    common = ["--game", "classified", "--table", "unfinished-web", "--players", "2", "--no-mdns", "--host",
              "127.0.0.1", "--patience", "10", "--think", "0"]
    bots = []
    try:
        with chromium() as ctx, serving(["join", *common, "--port", str(port), "--name", "Ana", "--lang", "de"],
                                        tmp_path / "me") as (proc, url):
            page = ctx.new_page()
            page.goto(url)
            bots = [bot_peer(common, port, tmp_path / "bot", "Bot-1", 31)]
            for _ in range(2):  # the roster, then a move of the game
                until(page, "!!document.querySelector('#ask-choices button')", timeout=120)
                click_choice(page, page.locator("#ask-choices button.choice").first)
            bots[0].send_signal(signal.SIGKILL)  # Bot-1 stops answering
            play_by_clicks(page)
            line = page.inner_text("#end-line")
            assert line.startswith("unvollendet: Bot-1"), line
            assert "Gewinner" not in page.inner_text("#end")
            silent = page.locator("#end-audit li.unfinished")
            assert silent.count() == 1 and "Bot-1" in silent.inner_text(), page.inner_text("#end-audit")
            assert "kein Urteil" in silent.inner_text()
            assert not page.locator("#end-audit li.violation, #end-audit li.silent").count()
            shoot(page, "classified-unfinished-de.png")
            assert proc.wait(60) == 5
    finally:
        for b in bots:
            if b.poll() is None:
                b.terminate()
                b.wait(10)
