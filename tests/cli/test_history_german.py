"""Every line of the engine's plain-words account reads in German under --lang de: the lines of many seeded
random games (which reach most situations), and one example of each rarer line."""

from __future__ import annotations

import random

import pytest
from adp2p.cli.words import history_line
from adp2p.engine import get_profile
from adp2p.engine.sim import play_game


def _random_bots(seed: int, n: int) -> list:
    rngs = [random.Random(seed * 10 + i) for i in range(n)]
    return [lambda st, p, opts, r=r: r.choice(opts) for r in rngs]


def test_every_line_of_random_games_is_translated() -> None:
    lines: set[str] = set()
    for seed, (prof, n) in enumerate([("classic", 4), ("retro2013", 3), ("two-player", 2), ("classic", 6)] * 3):
        rec = play_game(get_profile(prof, round_limit=40), _random_bots(seed, n), seed=seed)
        lines.update(rec.state.history)
    untranslated = sorted(line for line in lines if history_line(line, "de") == line)
    assert not untranslated, untranslated[:10]


@pytest.mark.parametrize(
    "line, german",
    [
        ("Firewall: P2 keeps all 2 card(s); access denied", "Firewall: P2 behält alle 2 Karte(n); Zugang verweigert"),
        (
            "Logic Bomb on Banking goes off: P1 must discard all cards",
            "Logik Bombe auf Banken geht hoch: P1 muss alle Karten ablegen",
        ),
        (
            "Route Trace: P3's attempt fails and the turn ends",
            "Route Verfolgen: der Versuch von P3 scheitert, der Zug endet",
        ),
        ("CancelBot: Red Tape is cancelled", "Abbruch Bot: Rotes Band wird abgebrochen"),
        ("P1 discards all 4 card(s) (Multi-Virus)", "P1 legt alle 4 Karte(n) ab (Multi-Virus)"),
        (
            "Sectors dealt: P1 controls Government, P2 controls Banking and TeleComm",
            "Sektoren verteilt: P1 kontrolliert Regierung, P2 kontrolliert Banken und Telekom",
        ),
        ("P2 plays Mother's Maiden Name on TeleComm", "P2 spielt Mutters Geburts-Name auf Telekom"),
    ],
)
def test_rare_lines(line: str, german: str) -> None:
    assert history_line(line, "de") == german
