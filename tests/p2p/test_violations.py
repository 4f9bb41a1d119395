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
    r'check\(\s*st,\s*[^"]*?,\s*"([a-z_]+)"',
    r'Verdict\(\s*[^,()]+,\s*"([a-z_]+)"',
    r'violation\(\s*(?:[^,()]+|getattr\([^)]*\)),\s*"([a-z_]+)"',
    r'rule="([a-z_]+)"',
    r'RULE = "([a-z_]+)"',
]
# The table core and Access Denied, whose rules p2p/data/violations.toml words. Hacker's and Classified
# Information's engine rules (engine/hacker, engine/classified) have no words there yet: a verdict naming one shows
# the rule's name (`words` falls back to it; test below).
SCANNED = ("engine/access_denied", "engine/errors.py", "p2p", "games/access_denied")
ENGLISH = re.compile(r"\b(the|a|of|with|card|played|wrongly|entry|rule|password|access|attempt)\b")


def rules_named_in_the_code() -> set[str]:
    found: set[str] = set()
    for package in SCANNED:
        for path in [ROOT / package] if package.endswith(".py") else (ROOT / package).rglob("*.py"):
            text = path.read_text("utf-8")
            for pattern in PATTERNS:
                found |= {m.group(1) for m in re.finditer(pattern, text, re.S)}
    return found


def test_every_rule_named_in_the_code_has_words_in_both_languages() -> None:
    named = rules_named_in_the_code()
    assert {"controller_answer", "password_distinct", "commitment", "entry", "shuffle", "no_attempts"} <= named
    missing = sorted(r for r in named if r not in table() or not table()[r].get("en") or not table()[r].get("de"))
    assert not missing, missing


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
