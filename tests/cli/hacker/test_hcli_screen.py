"""Hacker's screen (cli/hacker/screen.py, page.py) on seeded positions at 80x24 in EN and DE: every page exactly
fills the terminal with nothing cut at its edge, and no seat's screen names a card that seat does not know, or shows
the controller's sealed checks and roll to anyone else."""

from __future__ import annotations

import re

import pytest
from _hcli_games import positions
from adp2p.cli.hacker import screen
from adp2p.cli.hacker.menu import Menu
from adp2p.cli.hacker.page import compose
from adp2p.cli.tui.drawing import render_text
from adp2p.engine.hacker.api import legal, pending, view
from adp2p.engine.hacker.catalog import cards
from rich.console import Group
from rich.text import Text

SEEDS = (1, 2)
NAMES = sorted({c.name(lang) for c in cards() for lang in ("en", "de")}, key=len, reverse=True)


def names_in(text: str) -> set[str]:
    """Card names (capitals, whole words; the longest first so SUPERSPY PROTECTION is not also SUPERSPY)."""
    found = set()
    for name in NAMES:
        pat = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
        if pat.search(text):
            found.add(name)
            text = pat.sub(" ", text)
    return found


def page_text(lines: list[Text], width: int) -> str:
    return render_text(Group(*lines), width)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("seed", SEEDS)
def test_pages_fit_80x24(seed: int, lang: str) -> None:
    for st in positions(seed):
        d = pending(st)
        for p in range(st.n):
            v = view(st, p)
            stage = None
            if d is not None and d.actor == p:
                stage = Menu(v, p, d.kind, d.info, legal(v, p), lang).stage()
            lines = compose(v, p, lang, stage, 80, 24)
            assert len(lines) == 23
            assert all(t.cell_len <= 79 for t in lines), [t.plain for t in lines if t.cell_len > 79]
            text = page_text(lines, 80)
            assert len(text.splitlines()) == 23  # nothing wrapped


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_hidden_face_shown(seed: int, lang: str) -> None:
    checked = 0
    for st in positions(seed):
        for p in range(st.n):
            v = view(st, p)
            known = {cards()[f].name(lang) for h, f in v.faces.items()}
            # the account is public (cards played face up); the rest must name only faces p knows
            text = page_text(screen.lines(v, p, lang, width=80, account_lines=0), 80)
            assert names_in(text) <= known, (p, names_in(text) - known)
            # every face p does not know really is absent from its view (else this test could not fail)
            hidden = {h for h in st.faces if not st.known.get(h, 0) >> p & 1}
            assert not hidden & set(v.faces)
            checked += 1
    assert checked > 50


def with_hand(seed: int = 1):
    return next(st for st in positions(seed) if len(st.hands[0]) >= 3)


def test_names_in_finds_the_hand() -> None:
    """The check above can fail: it finds the names the screen does show (the seat's own hand)."""
    st = with_hand()
    text = page_text(screen.lines(view(st, 0), 0, "en", width=80, account_lines=0), 80)
    mine = {cards()[st.faces[h]].name("en") for h in st.hands[0]}
    assert mine and mine <= names_in(text)


@pytest.mark.parametrize("seed", SEEDS)
def test_pad_secrets_only_for_the_controller(seed: int) -> None:
    seen = 0
    for st in positions(seed):
        a = st.work.get("hack")
        if not a or a.get("status") != "running" or f"pad:{a['ctrl']}" not in st.secrets:
            continue
        for p in range(st.n):
            rows = [t.plain for t in screen.pad_lines(view(st, p), p, "en", None)]
            pad = "\n".join(r[:14] for r in rows[2:7])
            roll = any(r.startswith("roll") for r in rows)
            if p == a["ctrl"]:
                asked = {x[0] for x in a["answers"]} | {a["pending"], a["pos"]}
                unprobed = [s for s in st.secrets[f"pad:{p}"] if s not in asked]
                assert pad.count("#") == len(unprobed) and roll
            else:
                assert "#" not in pad and not roll
        seen += 1
    assert seen, "no hack attempt with a sealed pad in these games"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_wide_layout_has_card_texts(lang: str) -> None:
    st = with_hand()
    v = view(st, 0)
    lines = compose(v, 0, lang, None, 140, 40)
    assert len(lines) == 39 and all(t.cell_len <= 139 for t in lines)
    c = cards()[v.faces[v.hands[0][0]]]
    assert (c.text_de if lang == "de" else c.text_en)[:20] in page_text(lines, 140)
    assert (c.text_de if lang == "de" else c.text_en)[:20] not in page_text(compose(v, 0, lang, None, 80, 24), 80)


@pytest.mark.parametrize("lang,mark,legend", [("en", "q", "q=in the queue"), ("de", "w", "w=in der Warteschlange")])
def test_the_queue_mark_is_in_the_players_words_and_explained_in_the_header(lang: str, mark: str, legend: str) -> None:
    """A player waiting in a department's queue is marked after the place in the page's language (German A1w, not
    A1q), and the players' table's header says what the mark means, within 80 columns."""
    st = next(s for s in positions(1) if any(w is not None and w >= 0 and w < 6 and s.terminal_of(p) != w
                                             for p, w in enumerate(s.where)))
    q = next(p for p, w in enumerate(st.where) if w is not None and 0 <= w < 6 and st.terminal_of(p) != w)
    rows = screen.player_lines(view(st, 0), 0, lang, None)
    assert legend in rows[0].plain and rows[0].cell_len <= 79
    dept = ("Dep" if lang == "en" else "Abt") + str(st.where[q] + 1)
    assert (dept + mark) in rows[1 + q].plain
    if lang == "de":
        assert dept + "q" not in rows[1 + q].plain


@pytest.mark.parametrize("lang,said", [("en", "+2 drawn, not seen yet"), ("de", "+2 gezogen, noch nicht gesehen")])
def test_cards_of_ones_own_hand_not_seen_yet_are_counted_not_shown_as_question_marks(lang: str, said: str) -> None:
    """At a game's end a seat's hand can hold cards just drawn whose faces its seat has not been given: the hand shows
    the cards it knows and counts the others."""
    v = view(next(s for s in reversed(positions(1)) if len(s.hands[0]) >= 3), 0)
    known = v.hands[0][2:]
    for h in v.hands[0][:2]:
        v.faces.pop(h, None)
    hand = screen.hand_lines(v, 0, lang, 80)[0].plain
    assert "?" not in hand and said in hand
    assert all(names_in(card_name_of(v, h, lang)) <= names_in(hand) for h in known)


def card_name_of(v: object, h: int, lang: str) -> str:
    from adp2p.cli.hacker.words import card_name

    return card_name(v.face(h, 0), lang)  # type: ignore[attr-defined]


def test_a_long_german_hand_is_wrapped_not_cut() -> None:
    """Five long German card names do not fit one line of 80 columns: the hand goes on in a second line."""
    from adp2p.engine.hacker.catalog import card_by_key

    v = view(next(s for s in positions(1) if len(s.hands[0]) == 5), 0)
    for h, key in zip(v.hands[0], ("information_exchange", "additional_password", "superspy_protection",
                                   "network_access", "malfunction"), strict=True):
        v.faces[h] = card_by_key(key).id
    rows = screen.hand_lines(v, 0, "de", 80)
    text = " ".join(t.plain for t in rows)
    assert all(t.cell_len <= 79 for t in rows) and "…" not in text
    assert {"INFORMATIONSAUSTAUSCH", "ZUSATZPASSWORT", "FEHLFUNKTION", "NETZZUGANG"} <= names_in(text)


def test_the_queue_legend_gives_way_to_the_hack_pad() -> None:
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.kind == "probe")
    rows = screen.lines(view(st, 0), 0, "de", None, 80)
    head = next(t.plain for t in rows if "Hd/gel/vd" in t.plain)
    assert head[:56].rstrip().endswith("Hd/gel/vd") and head[55] == " "  # (no stray "w", no title glued to it)


def test_no_empty_queue_or_cafeteria_line() -> None:
    st = positions(1)[0]
    assert not any(st.dept[d][1:] for d in range(6)) and 6 not in st.where
    rows = screen.dept_lines(view(st, 0), 0, "en", None, 80)
    assert len(rows) == 2 and all(t.plain.strip() for t in rows)


def test_a_long_choice_in_one_column_is_wrapped_not_cut() -> None:
    from adp2p.cli.hacker.page import menu_block

    long = " 6 Zufall: INFORMATIONSAUSTAUSCH, PRIORITÄT, PRIORITÄT | Terminal: HACK, SCHLOSS"
    rows = [t.plain for t in menu_block(("Karten legen", [" 1 nichts legen", long], None), 80, 10)]
    assert all(len(x) <= 79 for x in rows) and "SCHLOSS" in rows[-1] and "…" not in "".join(rows)


def test_no_laid_cards_line_while_nothing_is_laid() -> None:
    st = next(s for s in positions(1) if not s.laid_chance[0] and not s.laid_term[0] and not any(s.front))
    assert len(screen.hand_lines(view(st, 0), 0, "en", 80)) == 1
    st = next(s for s in positions(1) if s.laid_term[0])
    assert any(t.plain.startswith("Laid face down") for t in screen.hand_lines(view(st, 0), 0, "en", 80))
