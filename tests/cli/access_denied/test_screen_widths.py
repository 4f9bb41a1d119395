"""Every header and cell of the game screen readable at the widths players use, and player names told apart.

Two rough edges pinned here: at 130 columns the checklist's last header was cut ("Passwo…") and the sectors
table wrapped a bonus away from its holder; the access column cut every name to 6 characters, so "watcher1"
and "watcher2" both showed as "watche".
"""

from __future__ import annotations

import copy
import re

import pytest
from _games import Moment
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.screen import NAME_MAX, short_names
from adp2p.cli.access_denied.words import card_label, sector_name
from adp2p.engine.access_denied.rules import bonus_of
from test_screen_snapshots import moment, text_of

HEADERS = ("col.sector", "col.ctrl", "col.access", "col.bonus", "col.in", "col.out", "col.maybe")
HEADERS += ("col.left", "col.card", "col.code", "col.text", "col.now")
NETWORK_NAMES = ["watcher", "Bot-1", "Bot-2"]  # how `ad-p2p play --watch --bots 2` names the seats


def header_lines(text: str) -> list[str]:
    """The lines just above a table's rule (a header may take two lines when it wraps)."""
    lines = text.splitlines()
    return [lines[j] for i, line in enumerate(lines) if "──" in line for j in (i - 2, i - 1) if j >= 0]


@pytest.mark.parametrize("names", [None, NETWORK_NAMES], ids=["P1-P3", "network"])
@pytest.mark.parametrize("width", [100, 130])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_headers_and_cells_whole(lang: str, width: int, names: list[str] | None) -> None:
    m = moment("actions")
    text = text_of(m, lang, width, names)
    assert max(len(line) for line in text.splitlines()) <= width
    for line in header_lines(text):
        assert "…" not in line, f"a cut header at {width} columns: {line!r}"
    heads = " ".join(header_lines(text))
    for key in HEADERS:
        assert re.search(rf"(^|\s){re.escape(msg(key, lang))}(\s|$)", heads), f"header {msg(key, lang)!r} not whole"
    # a sector's row holds its access cell and its bonus with the holder's name, on one line
    who = names or ["P1", "P2", "P3"]
    st = m.view
    for s in range(6):
        row = next(line for line in text.splitlines() if line.startswith(f" {sector_name(s, lang)} "))
        for p in range(st.n):
            assert f"{who[p]}:" in row
            if (b := bonus_of(st, p, s)) is not None:
                assert f"{msg(f'bonus.{b}', lang)} {who[p]}" in row, row


def test_checklist_legend_explains_the_short_headers() -> None:
    assert "Left: passwords still possible" in text_of(moment("actions"), "en", 130)
    assert "Übrig: noch mögliche Passwörter" in text_of(moment("actions"), "de", 130)


def access_names(text: str, sector: str) -> list[str]:
    row = next(line for line in text.splitlines() if line.lstrip().startswith(sector + " "))
    return re.findall(r"(\S+):[-UOR]\b", row)


@pytest.mark.parametrize("width", [60, 100, 130])
def test_names_sharing_six_letters_are_told_apart(width: int) -> None:
    names = ["watcher1", "watcher2", "Bot-1"]
    text = text_of(moment("actions"), "en", width, names)
    assert access_names(text, "Banking") == names  # whole: they fit


@pytest.mark.parametrize("width", [60, 100, 130])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_long_names_are_shortened_distinctly_with_a_key(lang: str, width: int) -> None:
    names = ["Player-Alice", "Player-Bob", "Player-Carol"]
    text = text_of(moment("actions"), lang, width, names)
    tags = access_names(text, sector_name(0, lang))
    assert len(set(tags)) == 3 and all(len(t) <= NAME_MAX for t in tags)
    assert tags == short_names(names)
    flat = " ".join(text.split())  # the key may wrap in the compact layout
    for tag, name in zip(tags, names, strict=True):
        if width < 80:
            assert f"{tag} = {name}" in flat  # the compact layout's key
        else:
            assert f"{name}{msg('short_name', lang, tag=tag)}:" in flat  # the players' lines


def test_short_names_rule() -> None:
    assert short_names(["watcher", "Bot-1", "Bot-2"]) == ["watcher", "Bot-1", "Bot-2"]  # fit: whole
    assert short_names(["Christopher", "Bob"]) == ["Christo…", "Bob"]
    assert short_names(["watcher-alpha-1", "watcher-alpha-2", "Eve"]) == ["watche…1", "watche…2", "Eve"]
    assert short_names(["Player-Alice", "Player-Bob"]) == ["Pl…Alice", "Play…Bob"]
    assert short_names(["abcdefghij1", "abcdefghij1x"]) == ["abcdefg…", "abcdef…x"]
    assert short_names(["bob", "bob", "eve"]) == ["P1", "P2", "P3"]  # equal names: seats
    for names in (["x" * 20 + str(i) for i in range(6)], ["a" * 9, "a" * 10, "a" * 11], ["P2", "P1" + "z" * 9]):
        tags = short_names(names)
        assert len(set(tags)) == len(tags) and all(len(t) <= NAME_MAX for t in tags)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_cards_on_a_sector_get_their_column(lang: str) -> None:
    m = moment("actions")
    assert not any(m.view.sector_cards.values()) and msg("col.on_sector", lang) not in text_of(m, lang, 100)
    st = copy.deepcopy(m.view)
    h = st.hands[0][0]
    st.sector_cards = {2: [h]}
    moved = Moment(st, m.decision, m.options, m.events)
    for width in (100, 130):
        text = text_of(moved, lang, width)
        assert re.search(rf"\s{re.escape(msg('col.on_sector', lang))}(\s|$)", text)
        row = next(line for line in text.splitlines() if line.startswith(f" {sector_name(2, lang)} "))
        assert card_label(st.faces[h], lang) in row
