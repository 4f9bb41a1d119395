"""engine/words.py: the one lookup every word table goes through."""

from __future__ import annotations

import pytest
from adp2p.engine.words import pick, say

TABLE = {
    "both": {"en": "{n} cards", "de": "{n} Karten"},
    "english_only": {"en": "only {n}"},
    "empty_german": {"en": "braces {{kept}}", "de": ""},
}


def test_a_language_that_lacks_a_word_or_has_it_empty_reads_english() -> None:
    assert say(TABLE, "both", "de", n=3) == "3 Karten"
    assert say(TABLE, "english_only", "de", n=3) == "only 3"
    assert pick(TABLE["empty_german"], "de") == "braces {{kept}}"


def test_a_word_without_fields_is_said_as_it_is_and_a_missing_field_is_an_error() -> None:
    assert say(TABLE, "empty_german", "en") == "braces {{kept}}"
    assert say(TABLE, "empty_german", "en", x=1) == "braces {kept}"
    with pytest.raises(KeyError):
        say(TABLE, "both", "en", m=1)
    with pytest.raises(KeyError):
        say(TABLE, "nowhere", "en")
