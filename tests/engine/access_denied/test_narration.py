"""The engine's account (engine/access_denied/narration.py): happenings are data, their words come from one table in two
languages; every key the engine can say has both, with the same fields, and German never falls back to English."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest
from adp2p.engine.access_denied import get_profile
from adp2p.engine.access_denied.catalog import card_by_key, cards, sectors
from adp2p.engine.access_denied.narration import Happening, templates, text
from adp2p.engine.access_denied.sim import play_game

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "access_denied"
FRAGMENTS = {"controls", "and", "with_backdoor", "against", "on"}  # parts of other lines, not said alone


def _said_keys() -> set[str]:
    """Every key the engine's source records (say(st, "key", ...) and Happening("key", ...))."""
    keys: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        src = path.read_text()
        keys.update(re.findall(r'\bsay\(st, "(\w+)"', src))
        keys.update(re.findall(r'\bHappening\("(\w+)"', src))
        keys.update(re.findall(r'key = "(\w+)" if', src))
        keys.update(re.findall(r'else "(\w+)"\n', src))
    return keys


def test_every_key_the_engine_says_has_words_in_both_languages() -> None:
    said = _said_keys()
    assert len(said) >= 40, sorted(said)  # the scan itself works
    table = templates()
    assert said <= set(table), sorted(said - set(table))
    assert set(table) - FRAGMENTS <= said, sorted(set(table) - FRAGMENTS - said)  # no dead templates
    fmt = string.Formatter()
    for key, row in table.items():
        assert set(row) == {"en", "de"}, key
        fields = [{f for _, f, _, _ in fmt.parse(t) if f} for t in (row["en"], row["de"])]
        assert fields[0] == fields[1], key


def _random_bots(seed: int, n: int) -> list:
    rngs = [random.Random(seed * 10 + i) for i in range(n)]
    return [lambda st, p, opts, r=r: r.choice(opts) for r in rngs]


def test_every_happening_of_random_games_reads_in_german() -> None:
    seen: dict[str, Happening] = {}
    for seed, (prof, n) in enumerate([("classic", 4), ("retro2013", 3), ("two-player", 2), ("classic", 6)] * 3):
        rec = play_game(get_profile(prof, round_limit=40), _random_bots(seed, n), seed=seed)
        for h in rec.state.history:
            assert isinstance(h, Happening)
            seen.setdefault(h.key, h)
            en, de = text(h, "en"), text(h, "de")
            assert en and de and "{" not in en + de
    assert len(seen) >= 20, sorted(seen)
    english_words = {"card(s)", "access", "plays", "draws", "discards", "the ", " and ", "with"}
    for h in seen.values():
        de = text(h, "de")
        assert not any(w in de for w in english_words), de


@pytest.mark.parametrize(
    "happening, english, german",
    [
        (
            Happening("firewall", {"p": 1, "n": 2}),
            "Firewall: P2 keeps all 2 card(s); access denied",
            "Firewall: P2 behält alle 2 Karte(n); Zugang verweigert",
        ),
        (
            Happening("logic_bomb", {"s": 0, "p": 0}),
            "Logic Bomb on Banking goes off: P1 must discard all cards",
            "Logik Bombe auf Banken geht hoch: P1 muss alle Karten ablegen",
        ),
        (
            Happening("route_trace_ends_turn", {"p": 2}),
            "Route Trace: P3's attempt fails and the turn ends",
            "Route Verfolgen: der Versuch von P3 scheitert, der Zug endet",
        ),
        (
            Happening("cancelbot", {"card": card_by_key("red_tape").id}),
            "CancelBot: Red Tape is cancelled",
            "Abbruch Bot: Rotes Band wird abgebrochen",
        ),
        (
            Happening("discards_all", {"p": 0, "n": 4, "why": "multi_virus"}),
            "P1 discards all 4 card(s) (Multi-Virus)",
            "P1 legt alle 4 Karte(n) ab (Multi-Virus)",
        ),
        (
            Happening("sectors_dealt", {"controls": [(0, [1]), (1, [0, 4])]}),
            "Sectors dealt: P1 controls Government, P2 controls Banking and TeleComm",
            "Sektoren verteilt: P1 kontrolliert Regierung, P2 kontrolliert Banken und Telekom",
        ),
        (
            Happening("plays", {"p": 1, "card": card_by_key("mothers_maiden_name").id, "backdoor": False, "s": 4}),
            "P2 plays Mother's Maiden Name on TeleComm",
            "P2 spielt Mutters Geburts-Name auf Telekom",
        ),
        (
            Happening("plays", {"p": 0, "card": card_by_key("trojan_horse").id, "backdoor": True, "q": 2}),
            "P1 plays Trojan Horse with Backdoor against P3",
            "P1 spielt Trojaner mit Backdoor gegen P3",
        ),
        (
            Happening("now_has", {"p": 1, "level": 0, "s": 1}),  # Delete Account: no level name, "none"
            "P2 no longer has access to Government",
            "P2 hat jetzt keinen Zugang mehr zu Regierung",
        ),
        (
            Happening("now_has", {"p": 1, "level": 2, "s": 1}),
            "P2 now has Oper access to Government",
            "P2 hat jetzt Oper-Zugang zu Regierung",
        ),
        (
            Happening("game_over", {"reason": Happening("reached_goal_together", {"players": [0, 2], "n": 3})}),
            "Game over: P1, P3 reached 3 Root accesses",
            "Spiel vorbei: P1, P3 haben 3 Root-Zugänge",
        ),
    ],
)
def test_rare_lines(happening: Happening, english: str, german: str) -> None:
    assert text(happening) == str(happening) == english
    assert text(happening, "de") == german


def test_seats_are_named_by_the_caller() -> None:
    h = Happening("trade", {"p": 0, "q": 1, "n": 2})
    assert text(h, "en", ["Ann", "Ben"]) == "Ann and Ben trade 1 for 2"
    assert text(h, "de", ["Ann", "Ben"]) == "Ann und Ben tauschen 1 gegen 2"


def test_card_and_sector_names_exist_in_both_languages() -> None:
    assert all(c.title_de for c in cards()) and all(s.name_de for s in sectors())


def test_a_draw_step_with_nothing_to_draw_says_why() -> None:
    """'P1 draws 0 card(s)' said nothing: a step with nothing to draw now says why (the hand at its limit here;
    a blocked draw or no access to draw for otherwise)."""
    from adp2p.engine.access_denied import apply, pending
    from harness import advance_to, setup

    st = setup(3)
    st = advance_to(st, "draw", 0)
    d = pending(st)
    assert d is not None and d.actor == 0
    from adp2p.engine.access_denied.api import draws_allowed

    assert draws_allowed(st) == 0  # the harness deals a full hand: at the limit
    st = apply(st, {"t": "draw", "p": 0, "n": 0})
    said = [h for h in st.history if h.key.startswith("draws")]
    assert said[-1].key == "draws_none_full"
    assert text(said[-1]) == "P1 draws no cards: the hand is at its limit"
    assert text(said[-1], "de") == "P1 zieht keine Karten: die Hand ist am Limit"


def test_german_names_the_newsmedia_sector_one_way_everywhere() -> None:
    """001 calls the sector "Nachrichten" in its sector list and bonus section, "Medien" on the board page and in
    card texts: one term per thing, the sector's own German name, in card texts too."""
    name = sectors()[next(i for i, s in enumerate(sectors()) if s.key == "newsmedia")].display_name("de")
    assert name == "Nachrichten"
    texts = [c.text_de for c in cards()]
    assert not [t for t in texts if "Medien" in t]
    assert sum(f"auf {name}" in t for t in texts) >= 7
