"""Help at any question of a Hacker game (before: `?`, `help`, `rules` and `cards` were "No such choice"): the keys,
the rules in the rulebook's order of play (its phase numbers: the first round starts at phase 6), the deck's cards;
then the same question again. `ad-p2p rules --game hacker` and `cards --game hacker` print the same pages."""

from __future__ import annotations

import io

import pytest
from _hcli_games import positions
from adp2p.cli.hacker.human import Human
from adp2p.cli.main import main
from adp2p.engine.hacker.api import legal, pending, view


@pytest.mark.parametrize(("lang", "typed", "shown"), [
    ("en", "?", "Keys: a number picks that choice"),
    ("de", "hilfe", "Tasten: eine Zahl wählt diese Wahl"),
    ("en", "rules", "7 decide starting player"),
    ("de", "regeln", "6 Karten verdeckt legen"),
    ("en", "cards", "QUERY (terminal, "),
    ("de", "karten", "ABFRAGE (Terminal, "),
])
def test_help_rules_and_cards_at_any_question_then_the_question_again(lang: str, typed: str, shown: str) -> None:
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.actor is not None
              and len(legal(view(s, d.actor), d.actor)) > 1 and d.kind != "seal")
    d = pending(st)
    me = d.actor
    out = io.StringIO()
    # the page, Enter (its pages), then the first choice
    h = Human(lang, inp=io.StringIO(f"{typed}\n" + "\n" * 5 + "1\n" * 8), out=out, size=(80, 24))
    v = view(st, me)
    ev = h.choose(v, me, d, legal(v, me))
    text = out.getvalue()
    assert shown in text and ev in legal(v, me)
    assert "No such choice" not in text and "Keine solche Wahl" not in text
    assert text.count("(? help, q quit) > " if lang == "en" else "(? Hilfe, q Ende) > ") >= 2  # asked again


def test_rules_and_cards_commands_take_the_hacker_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", "hacker"]) == 0
    out = capsys.readouterr().out
    assert "the first round starts at phase 6" in out and "closed: 3-4 players, goal 3: 3, 4: 4" in out
    assert main(["cards", "--game", "hacker", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "ABFRAGE (Terminal, 12x)" in out and "Die Karten dieses Stapels" in out


def test_the_end_shows_all_of_the_last_round_when_the_page_could_not() -> None:
    """(before: the end page showed the account's last lines only; what came earlier in the last round was lost)"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "adp2p.cli", "play", "--game", "hacker", "--offline", "--bots", "2",
                          "--round-limit", "2", "--seed", "4"], input="1\n" * 3000, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-1500:]
    end = out.stdout.split("Winners: ")[-1]
    assert "Round 2, all that happened in it:" in end
    last = end.split("all that happened in it:")[1]
    assert "goes to Dep" in last and "lays cards" in last and "is start player" in last  # the round from its start
