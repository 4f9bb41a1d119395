"""Hacker's words (cli/hacker/words.py, account.py): every entry in both languages with the same fields, every line
of the account of seeded games (basic and Advanced) said by its own template in EN and DE, nothing left unfilled."""

from __future__ import annotations

import string

import pytest
from _hcli_games import positions
from adp2p.cli.hacker import account
from adp2p.cli.hacker.words import WORDS


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_entry_in_both_languages() -> None:
    for key, entry in WORDS.items():
        assert set(entry) == {"en", "de"}, key
        assert fields(entry["en"]) == fields(entry["de"]), key


@pytest.mark.parametrize(("seed", "players", "profile"), [(1, 4, "basic"), (4, 5, "advanced-superspy")])
def test_every_account_line_has_its_words(seed: int, players: int, profile: str) -> None:
    st = positions(seed, players, profile, 15)[-1]
    kinds = {e["k"] for e in st.history}
    assert {"place", "laid", "play", "hack", "learn", "round", "boss"} <= kinds
    for lang in ("en", "de"):
        for e in st.history:
            assert f"h.{e['k']}" in WORDS, e
            text = account.line(e, 0, lang)
            assert "{" not in text and text != e["k"], (e, text)


def test_every_kind_the_engine_writes_has_words() -> None:
    """The kinds of account entry written anywhere in hacker/ (read from its source), each with a template."""
    import re
    from pathlib import Path

    import adp2p.engine.hacker as hacker

    src = "\n".join(p.read_text() for p in Path(hacker.__file__).parent.glob("*.py"))
    kinds = set(re.findall(r'"k": "(\w+)"', src)) - {"hack_"} | {"hack_success", "hack_ejected"}  # "hack_" + status
    assert len(kinds) > 20
    assert not {k for k in kinds if f"h.{k}" not in WORDS}
