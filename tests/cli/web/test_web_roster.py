"""The page asks before the game begins, as the terminal does (issue 35): `join --web` shows the roster the table
would seat — names, key fingerprints, "(you)", whether the table has a word — and asks start or decline; nothing is
agreed until the player clicks. Start: the game goes on (here a whole Classified Information game by clicks against
a bot peer, over the real protocol, audited); decline: the player leaves the table (exit 3, the page says why).
Real processes and sockets, the OS's Chromium."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from _browser import bot_peer, chromium, click_choice, free_port, play_by_clicks, serving, shoot, until

pytestmark = pytest.mark.slow

KEY = r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}"  # a short key fingerprint as the roster shows it


def _common(table: str) -> list[str]:
    return ["--game", "classified", "--table", table, "--players", "2", "--no-mdns", "--host", "127.0.0.1",
            "--patience", "120", "--think", "0"]


def _roster_shown(page: object) -> str:
    until(page, "!document.querySelector('#lobby-roster').hidden && "
                "!!document.querySelector('#ask-choices button.choice')", timeout=120)
    return str(page.inner_text("#lobby-roster"))  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_page_shows_the_roster_and_starts_only_when_the_player_confirms(tmp_path: Path, lang: str) -> None:
    port = free_port()
    common = _common(f"roster-{lang}")
    bot: subprocess.Popen[bytes] | None = None
    try:
        with chromium() as ctx, serving(["join", *common, "--port", str(port), "--name", "Ana", "--seed", "5",
                                         "--lang", lang], tmp_path / "me") as (proc, url):
            page = ctx.new_page()
            page.goto(url)
            bot = bot_peer(common, port, tmp_path / "bot", "Bot-1", 11)
            text = _roster_shown(page)
            you = "(du)" if lang == "de" else "(you)"
            lines = [line for line in text.split("\n") if re.search(KEY, line)]
            assert len(lines) == 2, text  # both seats, each with its key fingerprint
            assert any("Ana" in line and you in line for line in lines), text
            assert any("Bot-1" in line and you not in line for line in lines), text
            assert ("kein Wort" if lang == "de" else "no word") in text
            buttons = page.locator("#ask-choices button.choice")
            assert buttons.count() == 2
            assert buttons.first.inner_text().endswith("Mit ihnen beginnen" if lang == "de" else "Start with them")
            shoot(page, f"lobby-roster-{lang}.png")
            assert proc.poll() is None and not page.locator("#board .cards, #mine .cards").count()  # nothing yet
            click_choice(page, buttons.first)
            play_by_clicks(page, {"decision": f"classified-table-decision-{lang}.png",
                                  "end": f"classified-table-end-{lang}.png"})
            audit = page.inner_text("#end-audit")
            assert page.locator("#end-audit li").count() == 2, audit
            assert audit.count("ehrlich" if lang == "de" else "honest") == 2, audit
            page.locator("#end-buttons button.no-again").click()
            assert proc.wait(60) == 0
        assert bot is not None and bot.wait(120) == 0
    finally:
        if bot is not None and bot.poll() is None:
            bot.terminate()
            bot.wait(10)


def test_declining_on_the_page_leaves_the_table(tmp_path: Path) -> None:
    port = free_port()
    common = _common("roster-no")
    bot: subprocess.Popen[bytes] | None = None
    try:
        with chromium() as ctx, serving(["join", *common, "--port", str(port), "--name", "Ana", "--lang", "de"],
                                        tmp_path / "me") as (proc, url):
            page = ctx.new_page()
            page.goto(url)
            bot = bot_peer(common, port, tmp_path / "bot", "Bot-1", 12)
            _roster_shown(page)
            page.locator("#ask-choices button.choice", has_text="Ablehnen").click()
            until(page, "!document.querySelector('#banner').hidden", timeout=60)
            assert "abgelehnt" in page.inner_text("#banner")
            assert proc.wait(60) == 3
            assert not (tmp_path / "me" / "games").exists() or not any((tmp_path / "me" / "games").iterdir())
    finally:
        if bot is not None and bot.poll() is None:
            bot.terminate()
            bot.wait(30)
