"""A trade answered with two cards, from the menu (issue 33; 000:165: the partner "may give you 1 or more cards").

The engine lists every reply (decline, accept giving nothing, accept giving back any set of cards); the menu lists
decline and nothing, and the cards to give back card by card (c1, c2, ...), the set picked so far offered by its
number. Shown on the menu itself (as lines and on the full screen), and played in the real client at 80x24: the
full screen in tmux and the line client (`--ui lines`), both `play --offline --strategy random --seed 1`, where
P3's first move offers seat 0 (P1, holding three cards after its password) a trade.
"""

from __future__ import annotations

import re
import shutil

import pytest
from _fullscreen import INPUT, check_screen, input_line, wait_screen
from _term import TmuxTerminal, client_cmd
from adp2p.cli.access_denied.menu import FOLD, Menu
from adp2p.engine.access_denied import apply, legal, scenario, view
from test_menu_stages import Host, numbered

GAME = ("--offline", "--strategy", "random", "--bots", "2", "--seed", "1")
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
TWO = re.compile(r"(\d+)\. Accept, giving ([^,\n]+\]), ([^,\n]+\])\s*$", re.M)  # the reply of exactly the two picked


def offered(cards: int = 6, promise: int | None = None):  # type: ignore[no-untyped-def]
    """P2 offers P1 (seat 0, holding `cards` cards) a trade; the view of seat 0 and its legal replies."""
    st = scenario.build(hands={0: ["A", "B", "C"]}, first=1)
    if cards > 3:
        st = scenario.give_code(st, 0, "D", cards - 3)
    st = apply(st, {"t": "done", "p": 1})  # the free attempt, passed
    st = apply(st, {"t": "trade", "p": 1, "q": 0, "card": st.hands[1][0], "promise": promise})
    seen = view(st, 0)
    return seen, legal(seen, 0)


def test_every_reply_is_offered() -> None:
    seen, opts = offered(6)
    hand = sorted(seen.hands[0])
    replies = {tuple(e["cards"]) for e in opts if e["accept"]}
    assert len(replies) == 2 ** 6  # every set of the six cards, the empty one included
    assert sum(1 for e in opts if not e["accept"]) == 1
    two = next(e for e in opts if e["cards"] == hand[:2])
    assert two["promise"] is not None and len(two["promise"]) == 2  # the codes the partner will get, promised


@pytest.mark.parametrize("full", [False, True], ids=["lines", "full"])
def test_the_menu_picks_two_cards_card_by_card(full: bool) -> None:
    seen, opts = offered(6)
    host = Host(full)
    menu = Menu(host, seen, 0, opts)
    menu.show()
    assert numbered(host) == 2 <= FOLD, host.lines  # decline and give nothing; 63 sets behind c1..c6
    assert any("63 ways to give cards back" in line for line in host.lines), host.lines
    keys = menu.card_keys(menu.carded)  # type: ignore[arg-type]
    a, b = sorted(seen.hands[0])[:2]
    host.lines = []
    assert menu.stage(f"c{keys[a]}")
    assert numbered(host) == 1 and menu.chosen is None, host.lines  # the one card alone, by its number
    host.lines = []
    assert menu.stage(f"c{keys[b]}")
    assert numbered(host) <= FOLD, host.lines
    number = int(TWO.search("\n".join(host.lines)).group(1))  # type: ignore[union-attr]
    chosen = opts[menu.order[number - 1]]
    assert chosen["accept"] and chosen["cards"] == [a, b]


def test_the_account_says_the_code_promised() -> None:
    """The offer's promised code is public (it is in the event): the account says it, so the partner knows what it
    answers (before, only "P2 offers P1 a trade")."""
    from adp2p.cli.access_denied.words import history_line

    seen, _ = offered(3, promise=2)
    assert history_line(seen.history[-1], "en") == "P2 offers P1 a card of code C in trade"
    assert history_line(seen.history[-1], "de") == "P2 bietet P1 eine Karte mit Code C zum Tausch an"
    seen, _ = offered(3)
    assert history_line(seen.history[-1], "en") == "P2 offers P1 a trade"


def reply_with_two(term: TmuxTerminal, full: bool) -> None:
    """Set the password (1), then answer P3's trade with the first two cards; the trade goes 1 for 2."""
    if full:
        # (a screen is drawn in parts: what is checked on it is waited for, never read off the first capture)
        wait_screen(term, lambda s: INPUT.match(input_line(s)) is not None,
                    check=lambda s: check_screen(s, 80, 24, "en"))
    else:
        term.wait_for(r"choice \(number")
    term.send("1")
    if full:
        reply = wait_screen(term, lambda s: "reply to a trade" in s and "ways to give cards back" in s,
                            check=lambda s: check_screen(s, 80, 24, "en"))
        assert "1. Decline the trade" in reply and "2. Accept, giving nothing" in reply
    else:
        start = term.wait_for(r"ways to give cards back").end()
    term.send("c1")
    if full:
        wait_screen(term, lambda s: "Accept, giving" in s and "Decline" not in s)
    else:
        term.wait_for(r"Accept, giving", start=start)
    term.send("c2")
    if full:
        picked = wait_screen(term, lambda s: TWO.search(s) is not None)
        m = TWO.search(picked)
    else:
        m = term.wait_for(TWO.pattern.replace(r"\s*$", r"\s*\n"), start=start + 1)
    assert m is not None
    number, given = m.group(1), m.group(2, 3)
    term.send(number)
    if full:
        wait_screen(term, lambda s: "[y/N]" in input_line(s))
    else:
        term.wait_for(r"\[y/N\]")
    term.send("y")
    if full:
        def traded(s: str) -> None:
            check_screen(s, 80, 24, "en")
            assert "Your hand (2," in s, s  # three held, two given, one received

        after = wait_screen(term, lambda s: "Your decision: free access attempt" in s, check=traded)
        hand = after.split("Your hand (2,")[1].split("Your password")[0]
        assert not any(label in hand for label in given), (given, after)
    else:
        term.wait_for(r"P3 and P1 trade 1 for 2")
    term.send("q")
    assert term.wait_exit() == 130
    assert "Traceback" not in term.text


@needs_tmux
def test_two_cards_back_on_the_full_screen_at_80x24() -> None:
    term = TmuxTerminal(client_cmd("play", *GAME), cols=80, rows=24)
    try:
        reply_with_two(term, full=True)
    finally:
        term.close()


@needs_tmux
def test_two_cards_back_in_the_line_client_at_80x24() -> None:
    term = TmuxTerminal(client_cmd("play", *GAME, "--ui", "lines"), cols=80, rows=24)
    try:
        reply_with_two(term, full=False)
    finally:
        term.close()
