"""Every rule a verdict or the audit can name has words in both languages (p2p/data/violations.toml), and a German
player is told the rule in German, never the machine's English account."""

from __future__ import annotations

import re
from pathlib import Path

from adp2p.p2p.machine import Verdict
from adp2p.p2p.violations import table, words

ROOT = Path(__file__).resolve().parents[2]
PATTERNS = [  # where the code names a rule: engine errors and checks, machine verdicts, the audit, protocol errors
    r'IllegalEvent\(\s*"([a-z_]+)"',
    r'\bcheck\(\s*st,\s*[^"\n]*?,\s*"([a-z_]+)"',
    r'Verdict\(\s*[^,()]+,\s*"([a-z_]+)"',
    r'violation\(\s*(?:[^,()]+|getattr\([^)]*\)),\s*"([a-z_]+)"',
    r'rule="([a-z_]+)"',
    r'RULE(?:_[A-Z]+)? = "([a-z_]+)"',
    r'owe\(\s*st,\s*"([a-z_]+)"',  # an obligation the audit judges by its rule (engine/hacker/obligations.py)
    r'def \w+_problem\(.*?(?=\ndef |\Z)',  # a function naming the rule an event breaks (its returns below)
]
PROBLEM_RETURN = re.compile(r'return "([a-z_]+)"')
# The table core, and every game the table plays (`adp2p.games` in pyproject.toml): its rules engine and its table part.
CORE = ("engine/errors.py", "p2p")


def registered_games() -> list[str]:
    """The folder name of every registered game (`adp2p.games.<game>:GAME`), read from the installed registry."""
    from importlib.metadata import entry_points

    return sorted({ep.value.split(":")[0].rsplit(".", 1)[1] for ep in entry_points(group="adp2p.games")})


def scanned() -> tuple[str, ...]:
    return CORE + tuple(f"{kind}/{game}" for game in registered_games() for kind in ("engine", "games"))
ENGLISH = re.compile(r"\b(the|a|of|with|card|played|wrongly|entry|rule|password|access|attempt)\b")


def rules_named_in_the_code() -> set[str]:
    found: set[str] = set()
    for package in scanned():
        for path in [ROOT / package] if package.endswith(".py") else (ROOT / package).rglob("*.py"):
            text = path.read_text("utf-8")
            for pattern in PATTERNS:
                for m in re.finditer(pattern, text, re.S):
                    found |= set(PROBLEM_RETURN.findall(m.group(0))) if m.lastindex is None else {m.group(1)}
    return found


def test_every_rule_named_in_the_code_has_words_in_both_languages() -> None:
    named = rules_named_in_the_code()
    assert {"controller_answer", "password_distinct", "commitment", "entry", "shuffle", "no_attempts"} <= named
    # Hacker's and Classified Information's rules too (they were shown by their bare name before)
    assert {"sealed_choice_changed", "must_lay_card", "laid_wrong_pile", "controller_false_answer"} <= named
    assert {"false_reveal", "false_answer", "not_a_guard", "number_link", "classified_answer", "bad_show"} <= named
    missing = sorted(r for r in named if r not in table() or not table()[r].get("en") or not table()[r].get("de"))
    assert not missing, missing


def test_every_registered_game_is_scanned() -> None:
    """A game added to the registry is scanned without editing this test: its engine and table part."""
    games = registered_games()
    assert {"access_denied", "hacker", "classified"} <= set(games)
    for game in games:
        assert {f"engine/{game}", f"games/{game}"} <= set(scanned())
        assert (ROOT / "engine" / game).is_dir() and (ROOT / "games" / game).is_dir()


def test_a_rule_named_only_as_a_problem_function_s_return_is_found() -> None:
    """Hacker's laying names its rule by returning it (`lay_problem`); the scan reads those returns."""
    assert {"terminal_cards_off_terminal", "not_in_hand"} <= rules_named_in_the_code()
    assert "open_pad" not in rules_named_in_the_code()  # an event type beside a `pass_check(` is no rule


def test_german_words_are_german() -> None:
    for rule, t in table().items():
        assert not ENGLISH.search(t["de"].replace("Backdoor", "").replace("CopyBot", "")), (rule, t["de"])
        assert t["en"] != t["de"] or rule in ("fdic_give", "spam_give", "copybot"), rule


def test_an_unknown_rule_falls_back_to_its_name() -> None:
    assert words("controller_answer", "de") == "eine falsche Antwort auf einen Zugangsversuch"
    assert words("controller_answer", "en") == "a false answer to an access attempt"
    assert words("no_such_rule", "de") == "no_such_rule"


def test_the_end_screen_gives_a_german_player_the_rule_in_german() -> None:
    from adp2p.cli.verdicts import _words

    v = Verdict(1, "controller_answer", "seat 2 signed an entry that breaks the rules: its proof ...", 77)
    de = _words(v, "de")
    assert de == "eine falsche Antwort auf einen Zugangsversuch (Eintrag 77)"
    assert "seat" not in de and "proof" not in de
    assert "its proof" in _words(v, "en")
