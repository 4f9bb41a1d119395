"""What a peer tells its player (p2p/notices.py): every notice the peer can give has words in English and German,
with the same fields, and German is never English."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from adp2p.p2p.notices import NOTICES, notice

P2P = Path(__file__).resolve().parents[2] / "p2p"


def _used() -> set[str]:
    src = "\n".join(p.read_text() for p in P2P.glob("*.py"))
    calls = (r'\btell\(\s*"(\w+)"', r'\bnotice\(\s*"(\w+)"', r'\b_end\(\s*"(\w+)"')
    return {k for rx in calls for k in re.findall(rx, src)}


def test_every_notice_the_peer_gives_exists_and_none_is_dead() -> None:
    used = _used()
    assert len(used) >= 30, sorted(used)  # the scan itself works
    assert used <= set(NOTICES), sorted(used - set(NOTICES))
    assert set(NOTICES) <= used, sorted(set(NOTICES) - used)


@pytest.mark.parametrize("key", sorted(NOTICES))
def test_both_languages_same_fields_and_german_is_german(key: str) -> None:
    row = NOTICES[key]
    assert set(row) == {"en", "de"}
    fields = [{f for _, f, _, _ in string.Formatter().parse(row[lang]) if f} for lang in ("en", "de")]
    assert fields[0] == fields[1]
    if key not in ("cheating",):  # "Cheating detected: {who}..." / "Betrug erkannt: ..." differ; fragments too
        assert row["de"] != row["en"]


def test_an_unknown_language_reads_english() -> None:
    assert notice("log", "fr", log="/x") == notice("log", "en", log="/x") == "Log: /x"
    assert notice("log", "de", log="/x") == "Protokoll: /x"
