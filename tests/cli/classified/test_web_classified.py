"""Classified Information's page: its board from scenario positions (the Guard spots with what is known of each,
the wheel, the Suitcase as a card, the hand), its staged menu clicked by number, and a whole offline game played by
clicks and keys in the OS's Chromium (cli/web/seat.py's page over cli/classified/web.py), in English and German;
screenshots of each stage (tests/support/_browser.py SCREENS)."""

from __future__ import annotations

import json
import time

import pytest
from adp2p.cli.classified import web
from adp2p.cli.web.menu import Ask
from adp2p.engine.classified.api import legal, view
from adp2p.engine.classified.scenario import Scene


def test_the_board_says_what_the_seat_knows_and_no_more() -> None:
    s = Scene(hands={0: [5, 3], 1: [8, 2]}, suitcases={0: 6, 1: 7}, deck=[4, 1, 9, 9], start=0)
    s.guard(0, 5)
    b1 = web.board(view(s.st, 1), 1, None, "de")
    json.dumps(b1)  # the page's snapshot is JSON
    assert b1["them"]["guards"] == [{"key": f"g{s.h(0, 5, 'guard')}", "spot": 1, "face": None, "name": "",
                                     "up": False, "maybe": "124578", "tucked": False}]
    assert b1["me"]["suitcase"]["face"] == 7 and b1["me"]["suitcase"]["title"] == "Schicksalsrad"
    assert "6" not in json.dumps(b1["them"])  # P1's Suitcase is nowhere on P2's board
    b0 = web.board(view(s.st, 0), 0, None, "en")
    assert b0["me"]["guards"][0]["face"] == 5 and b0["wheel"]["theirs"] == [True] * 9


def test_the_page_asks_the_terminal_stages_and_a_click_on_a_card_narrows_them() -> None:
    s = Scene(hands={0: [1, 5], 1: [3, 8]}, suitcases={0: 6, 1: 2}, deck=[7, 4, 4, 8], start=0)
    v = view(s.st, 0)
    opts = legal(v, 0)
    asked = web.ask(v, 0, opts, None, "en")
    assert isinstance(asked, Ask) and asked.question == "Your action: choose a card"
    first = asked.menu.choices()
    assert [c["label"] for c in first] == ["1 Fortune Teller", "5 Scavenge", "7 Wheel of Fate"]
    assert first[0]["cards"] == [s.h(0, 1)] and first[0]["more"] > 1
    assert asked.menu.pick(0) is None and asked.menu.can_back()
    deploy = next(i for i, c in enumerate(asked.menu.choices()) if c["label"].startswith("Deploy"))
    assert asked.menu.pick(deploy) is None
    ev = asked.menu.pick(8)  # number 9
    assert ev in opts and ev["n"] == 9
    s.deploy(0, 1, n=9)
    v1 = view(s.st, 1)
    only = web.ask(v1, 1, legal(v1, 1), None, "de")
    assert only == {"t": "answer", "p": 1, "yes": True}  # the true answer, no question
    assert "für dich erledigt" in web.taken_note(v1, 1, legal(v1, 1), only, "de", [])[0]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_offline_game_by_clicks_in_chromium(lang: str) -> None:
    from _browser import SCREENS, chromium
    from _webgame import PageGame

    SCREENS.mkdir(parents=True, exist_ok=True)
    game = PageGame(lang, seed=31 if lang == "en" else 32)
    shots: set[str] = set()
    try:
        with chromium() as ctx:
            page = ctx.new_page()
            if lang == "de":
                page.set_viewport_size({"width": 390, "height": 844})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(game.url)
            game.start()
            page.wait_for_selector("#title:text-is('%s')" % ("Classified Information" if lang == "en"
                                                                else "Geheimsache"))
            clicks, deadline = 0, time.monotonic() + 240
            while not game.done.is_set() and time.monotonic() < deadline:
                choice = page.locator("#ask-choices button.choice")
                if choice.count() == 0:
                    time.sleep(0.05)
                    continue
                rev = page.locator("body").get_attribute("data-rev")
                name = "decision" if "decision" not in shots else "stage" if page.locator(
                    "#ask-tools button.back").count() and "stage" not in shots else None
                if name:
                    shots.add(name)
                    page.screenshot(path=str(SCREENS / f"classified-{name}-{lang}.png"), full_page=True)
                card = page.locator("#mine button.card.selectable")
                if clicks % 3 == 1 and card.count():  # a card of the hand clicked: the choices narrow to it
                    card.first.click()
                    if page.locator("#ask-choices button.choice").count():
                        page.locator("#ask-choices button.choice").first.click()
                elif clicks % 3 == 2:
                    page.keyboard.press("1")  # the keyboard: 1 picks the first choice
                else:
                    choice.nth(clicks % max(1, choice.count())).click()
                clicks += 1
                page.wait_for_selector(f"body:not([data-rev='{rev}'])", state="attached", timeout=10_000)
            assert game.done.wait(30), "the game did not end"
            assert game.error is None, game.error
            res, st = game.result
            assert res is not None and st.over
            page.wait_for_selector(".reveal")
            page.wait_for_selector("#end:not([hidden])")  # the seat's end, as join calls it (_webgame.PageGame.end)
            page.screenshot(path=str(SCREENS / f"classified-end-{lang}.png"), full_page=True)
            text = page.inner_text(".reveal")
            assert ("Big Reveal" if lang == "en" else "große Enthüllung") in text
            assert page.locator("#ask").is_hidden()  # no "Waiting for the others…" under the end
            line = page.inner_text("#end-line")
            names = ["You", "Bot"]
            if res.winners:
                assert line.startswith(("winner: " if lang == "en" else "Gewinner: ") + names[res.winners[0]]), line
            else:
                assert line.startswith("no winner" if lang == "en" else "kein Gewinner"), line
            summary = page.inner_text("#end-summary")
            assert all(name in summary for name in names), summary
            honest = "honest" if lang == "en" else "ehrlich"
            audit = [page.locator("#end-audit li.verdict").nth(i).inner_text() for i in range(2)]
            assert audit == [f"{name}: {honest}" for name in names], audit
            assert page.locator("#end-audit li.verdict.honest").count() == 2
            assert page.locator("html").get_attribute("lang") == lang
            assert clicks > 3 and not errors, errors
    finally:
        game.close()
