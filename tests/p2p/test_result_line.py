"""The core's result line (p2p/machine/ending.py `result_line`, p2p/notices.py `result_words`) as every screen shows
it: a table of two has one winner or none (a tie), so it says "winner: X" or "no winner" — never "winner(s)" — in
English and German; a table of three or more keeps "winner(s): a, b"."""

from __future__ import annotations

import pytest
from adp2p.p2p.notices import result_words


@pytest.mark.parametrize(("winners", "seats", "lang", "line"), [
    (["Ana"], 2, "en", "winner: Ana — an Unguarded Match"),
    ([], 2, "en", "no winner — a tie"),
    (["Ana"], 2, "de", "Gewinner: Ana — an Unguarded Match"),
    ([], 2, "de", "kein Gewinner — a tie"),
    (["Ana", "Bo"], 3, "en", "winner(s): Ana, Bo — an Unguarded Match"),
    ([], 4, "en", "winner(s): none — an Unguarded Match"),
])
def test_result_words_say_one_winner_or_none_at_a_table_of_two(winners: list[str], seats: int, lang: str,
                                                                line: str) -> None:
    why = "a tie" if not winners and seats == 2 else "an Unguarded Match"
    assert result_words(winners, seats, why, lang) == line
