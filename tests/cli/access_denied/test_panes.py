"""The full screen's fixed layout (panes.py) at every decision of whole games, in both languages and with
the networked game's names: exactly the terminal's lines, no line wider than the terminal, every pane's last
column blank (nothing reaches an edge, so nothing is cut there), and the header, all six sectors, the hand
and the choices on the screen at once, at 80x24 and 130x45."""

from __future__ import annotations

import re

import pytest
from _games import moments
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.panes import EFFECT_FORMS, Frame, Layout
from adp2p.cli.access_denied.words import sector_name
from adp2p.cli.play_end import checked_words
from adp2p.cli.tui.drawing import Scroll
from adp2p.engine.access_denied.checklist import Checklist
from rich.text import Text

NAMES = ["Spieler", "Bot-1", "Bot-2"]  # the seats of `ad-p2p play --lang de --bots 2`


def plain(ansi: str) -> list[str]:
    return Text.from_ansi(ansi).plain.split("\n")


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
@pytest.mark.parametrize(("lang", "names"), [("en", None), ("de", NAMES)], ids=["en", "de-names"])
def test_every_decision_fits_the_fixed_layout(cols: int, rows: int, lang: str, names: list[str] | None) -> None:
    checked = 0
    for m in moments(seed=11, n=3, rounds=3):
        if m.decision is None:
            break
        cl = Checklist(0)
        cl.sync(m.view)
        frame = Frame(m.view, 0, lang, m.options, cl, names)
        for secret in (False, True):
            sc = Scroll(log=[f"line {i} of the account" for i in range(40)], choices=["  Choices:", "    1. End"])
            lines = plain(Layout(frame, cols, rows, secret).compose(sc))
            assert len(lines) == rows - 1
            for line in lines:
                assert len(line) == cols, (len(line), line)
                assert line[-1] == " ", f"a line reaches the right edge: {line!r}"
                for bar in re.finditer("│", line):
                    assert line[bar.start() - 1] == " ", f"a pane reaches its edge: {line!r}"
            text = "\n".join(lines)
            assert text.startswith(msg("title", lang) + " — ")
            assert msg("your_hand", lang, n=0, limit=0)[:8] in text
            assert "line 39 of the account" in text  # the log's newest line
            assert "1. End" in text
            if not secret or cols >= 110:
                for s in range(6):
                    assert re.search(rf"^ ?{re.escape(sector_name(s, lang))} ", text, re.M), text
            else:
                assert msg("your_password", lang) in text
        checked += 1
    assert checked > 10


def test_the_log_scrolls_back_and_the_choices_follow_the_newest_block() -> None:
    m = next(iter(moments(seed=11, n=3, rounds=2)))
    frame = Frame(m.view, 0, "en", m.options, None, None)
    lay = Layout(frame, 80, 24, False)
    sc = Scroll(log=[f"log {i}" for i in range(30)], choices=[f"choice {i}" for i in range(30)], block=25)
    text = "\n".join(plain(lay.compose(sc)))
    assert "log 29" in text and "choice 29" in text and "lines above" in text
    sc.log_back = 10
    text = "\n".join(plain(lay.compose(sc)))
    assert "log 29" not in text and "newer (PgDn)" in text
    sc.choices_top = 0
    text = "\n".join(plain(lay.compose(sc)))
    assert "choice 0" in text and "more lines" in text


@pytest.mark.parametrize(("cols", "rows"), [(60, 18), (40, 12), (200, 60)])
def test_small_and_large_terminals_still_give_exactly_their_lines(cols: int, rows: int) -> None:
    for k, m in enumerate(moments(seed=11, n=3, rounds=2)):
        if m.decision is None or k > 12:
            break
        frame = Frame(m.view, 0, "de", m.options, None, NAMES)
        lines = plain(Layout(frame, cols, rows, k % 2 == 1).compose(Scroll(choices=["x"] * 30)))
        assert len(lines) == rows - 1 and all(len(line) == cols for line in lines)


def test_the_newest_block_is_shown_from_its_first_line_when_earlier_entries_wrap() -> None:
    """The block is counted in entries said, the pane in drawn lines: long entries before it (a card's text that
    wraps) must not push the block's start out of sight."""
    m = next(iter(moments(seed=11, n=3, rounds=2)))
    lay = Layout(Frame(m.view, 0, "en", m.options, None, None), 80, 24, False)
    long = "word " * 60  # about four lines at 80 columns
    sc = Scroll(choices=[long] * 6 + ["THE BLOCK STARTS HERE", *(f"rule {i}" for i in range(12))], block=6)
    text = "\n".join(plain(lay.compose(sc)))
    assert "THE BLOCK STARTS HERE" in text and "lines above" in text


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_end_screen_shows_standings_every_password_and_the_verdict(cols: int, rows: int, lang: str) -> None:
    from adp2p.cli.access_denied.ending import EndLayout

    end = [m for m in moments(seed=11, n=4, rounds=3)][-1]
    assert end.decision is None and end.view.over
    names = ["Spieler", "Bot-1", "Bot-2", "Bot-3"]
    passwords = [f"  {sector_name(s, lang)} (Bot-{s % 3 + 1}): Samurai [A], Packet Sniffer [B], Line Spike [D]"
                 for s in range(6)]
    ok = msg("audit_ok", lang, checked=checked_words(None, lang))
    facts = [*passwords, ok + " (120)", msg("game_log", lang, path="/tmp/x/games/" + "f" * 32)]
    frame = Frame(end.view, 0, lang, None, None, names, end=facts)
    sc = Scroll(log=[f"line {i} of the account" for i in range(40)])
    lines = plain(EndLayout(frame, cols, rows, False).compose(sc))
    assert len(lines) == rows - 1 and all(len(line) == cols for line in lines)
    text = "\n".join(lines)
    assert text.startswith(msg("title", lang) + " — ")
    for name in names:
        assert re.search(rf"^{name} +\d +\d +\d", text, re.M), text
    assert msg("end.winner", lang) in text
    for line in facts:
        assert line.rstrip() in text or line[:60] in text, (line, text)
    if rows >= 45:  # room for the board too
        assert all(sector_name(s, lang) + " " in text for s in range(6))
    assert "of the account" not in text  # the log's last lines are the table's account of the same end


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_end_screen_gives_the_audits_verdict_on_each_player(cols: int, rows: int, lang: str) -> None:
    """The standings say, per player, honest or the violation; the violation is spelled out under them, naming its
    player."""
    from adp2p.cli.access_denied.ending import EndLayout
    from adp2p.cli.verdicts import PlayerVerdict

    end = [m for m in moments(seed=11, n=4, rounds=3)][-1]
    names = ["Spieler", "Bot-1", "Bot-2", "Bot-3"]
    detail = "rule password_distinct (entry 57): two password cards share code C"
    audit = [PlayerVerdict(n, "honest") for n in names]
    audit[2] = PlayerVerdict("Bot-2", "violation", [detail])
    facts = ["  Banking (Bot-1): Samurai [A], Packet Sniffer [B], Line Spike [D]", msg("audit_bad", lang),
             f"  Bot-2: {detail}", msg("end.replay", lang, command="ad-p2p", path="/tmp/x/log")]
    frame = Frame(end.view, 0, lang, None, None, names, end=facts, audit=audit)
    text = "\n".join(plain(EndLayout(frame, cols, rows, False).compose(Scroll())))
    assert re.search(rf"^{msg('end.standings', lang)} +Root +Oper +User +{msg('audit.col', lang)}", text, re.M), text
    for name in ("Spieler", "Bot-1", "Bot-3"):
        assert re.search(rf"^{name} +\d +\d +\d .*{msg('audit.honest', lang)} *$", text, re.M), text
    assert re.search(rf"^Bot-2 +\d +\d +\d .*{msg('audit.violation', lang)} *$", text, re.M), text
    assert f"  Bot-2: {detail}" in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_at_80x24_four_players_the_end_keeps_every_essential_and_the_board(lang: str) -> None:
    """Four players at 80x24: who won, the standings with the audit per player, four passwords, the audit's summary,
    the replay command with a long log path and the question's lines all fit, and the final board too (all six
    sectors); with a violation more, the essentials stay and the board gives way."""
    from adp2p.cli.access_denied.ending import EndLayout
    from adp2p.cli.verdicts import PlayerVerdict

    end = [m for m in moments(seed=11, n=4, rounds=3)][-1]
    names = ["Player", "Bot-1", "Bot-2", "Bot-3"]
    passwords = [f"  {sector_name(s, lang)} ({names[s % 4]}): Delete Account [A], Burnout [F], FDIC [E]"
                 for s in range(3)]
    passwords.append(f"  {sector_name(3, lang)} (Bot-3): Ein guter Tag am Markt [C], Spitzen System [B], Net "
                     "Volley-Ball [E]")  # (a password that takes two lines at 80 columns, as in a real game)
    replay = msg("end.replay", lang, command="/home/newcomer/ad-p2p/dev ad-p2p",
                 path="/home/newcomer/.local/share/ad-p2p/games/" + "d" * 32 + "/log")
    facts = [*passwords, msg("audit_ok", lang, checked=checked_words(None, lang)) + " (133)", replay]
    audit = [PlayerVerdict(n, "honest") for n in names]
    text = "\n".join(plain(EndLayout(Frame(end.view, 0, lang, None, None, names, end=facts, audit=audit),
                                     80, 24, False).compose(Scroll())))
    for name in names:
        assert re.search(rf"^{name} +\d +\d +\d .*{msg('audit.honest', lang)}", text, re.M), text
    for line in [*passwords[:3], msg("audit_ok", lang, checked=checked_words(None, lang))]:
        assert line.rstrip() in text, (line, text)
    assert "Spitzen System [B], Net" in text and "Volley-Ball [E]" in text
    assert "d" * 32 + "/log" in text and msg("end.winner", lang) in text
    assert all(sector_name(s, lang) + " " in text for s in range(6)), text  # the final board
    audit[1] = PlayerVerdict("Bot-1", "violation", ["rule x (entry 5): y", "rule z: w"])
    facts = [*passwords, msg("audit_bad", lang), "  Bot-1: rule x (entry 5): y", "  Bot-1: rule z: w", replay]
    text = "\n".join(plain(EndLayout(Frame(end.view, 0, lang, None, None, names, end=facts, audit=audit),
                                     80, 24, False).compose(Scroll())))
    for line in [*passwords[:3], "  Bot-1: rule x (entry 5): y", "  Bot-1: rule z: w"]:
        assert line.rstrip() in text, (line, text)
    assert "d" * 32 + "/log" in text, text
    assert re.search(rf"^Bot-1 .*{msg('audit.violations_n', lang, n=2)}", text, re.M), text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_at_130x45_the_checklist_is_beside_a_board_whose_columns_are_whole(lang: str) -> None:
    """Four players at 130x45, in either language: every decision has the wide layout (the checklist beside the
    board, not behind Tab), and the sectors table keeps its bonus column readable (its header whole)."""
    names = ["Spieler" if lang == "de" else "Player", "Bot-1", "Bot-2", "Bot-3"]
    checked = 0
    for m in moments(seed=21, n=4, rounds=3):
        if m.decision is None:
            break
        cl = Checklist(0)
        cl.sync(m.view)
        lay = Layout(Frame(m.view, 0, lang, m.options, cl, names), 130, 45, False)
        text = "\n".join(plain(lay.compose(Scroll(choices=["  Choices:", *(f"    {i}. x" for i in range(6))]))))
        assert lay.wide, text
        assert msg("checklist", lang) in text and msg("col.bonus", lang) in text, text
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("lang", ["en", "de"])
def test_at_80x24_the_header_takes_two_lines_and_the_log_its_whole_width(lang: str) -> None:
    """The compact layout: the header in at most two lines (the turn, the step with the actions left, who you are,
    your decision, the effect on you: nothing left out, with the longest effect), and a log line of 70
    characters on one line of the screen (the log under the board at the whole width, not a narrow pane)."""
    import copy

    names = ["Spieler" if lang == "de" else "Player", "Bot-1", "Bot-2"]
    long_line = "  " + "x" * 60 + " THE END"
    checked = 0
    for m in moments(seed=11, n=3, rounds=3):
        if m.decision is None:
            break
        st = copy.deepcopy(m.view)
        st.status[0].lose_actions_next = 1
        cl = Checklist(0)
        cl.sync(st)
        lay = Layout(Frame(st, 0, lang, m.options, cl, names), 80, 24, False)
        lines = plain(lay.compose(Scroll(log=["older"] * 10 + [long_line], choices=["    1. x"])))
        text = "\n".join(lines)
        head = next(i for i, line in enumerate(lines) if line.startswith(sector_name(0, lang)))
        assert head <= 2, text
        top = "\n".join(lines[:head])
        assert msg("your_decision", lang, what="").strip() in top
        assert msg("you_are", lang, who=names[0]) in text  # (in the hand's title)
        said = " ".join(top.split())  # (the effect in its longest words that fit, screen.py short_header)
        assert any(msg(f"{form}.lose_actions_next", lang, n=1) in said for form in EFFECT_FORMS), top
        if st.turn is not None:
            assert msg("round_turn", lang, round=st.round_no + 1, turn=st.turn_no, who="") in top, top
        if m.decision.kind == "actions":
            assert re.search(r"\(\d+ (left|übrig)\)", top), top
        assert any(line.rstrip() == long_line for line in lines), text
        checked += 1
    assert checked > 10


EFFECT_SETS = {
    "two": {"lose_actions_next": 2, "no_draw_next": True},
    "three": {"no_attempts_next": True, "etaxes_next": 2, "beta": True},
    "four": {"lose_actions_next": 1, "no_draw_next": True, "sol": True, "beta": True},
    "five": {"no_attempts_next": True, "lose_actions_next": 1, "no_draw_next": True, "ignore_limit": True,
             "beta": True},
}


@pytest.mark.parametrize("effects", list(EFFECT_SETS), ids=list(EFFECT_SETS))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_at_80x24_many_effects_on_you_keep_the_header_in_two_lines(lang: str, effects: str) -> None:
    """Two to five effects on you at once, at every decision of a game with long names: the header stays in
    two lines, each effect still said (in shorter words when the long ones do not fit), none dropped."""
    import copy

    names = ["Spielerin-Mit-Langem-Namen" if lang == "de" else "Player-With-A-Long-Name", "Bot-1", "Bot-2"]
    checked = 0
    for m in moments(seed=11, n=3, rounds=2):
        if m.decision is None:
            break
        st = copy.deepcopy(m.view)
        for key, value in EFFECT_SETS[effects].items():
            setattr(st.status[0], key, value)
        lay = Layout(Frame(st, 0, lang, m.options, None, names), 80, 24, False)
        lines = plain(lay.compose(Scroll(choices=["    1. x"])))
        head = next(i for i, line in enumerate(lines) if line.startswith(sector_name(0, lang)))
        assert head <= 2, "\n".join(lines[:4])
        top = " ".join(" ".join(lines[:head]).split())
        assert msg("on_you", lang, effects="").strip() in top, top
        for key, value in EFFECT_SETS[effects].items():
            assert any(msg(f"{form}.{key}", lang, n=value) in top for form in EFFECT_FORMS), (key, top)
        checked += 1
    assert checked > 5


def test_at_80x24_the_log_scrolled_back_takes_the_boards_place() -> None:
    """PageUp in the compact layout: the log shows its older lines in the board's place too (a three-line pane paged
    two lines at a time was slow to read back); back at its newest line the board returns."""
    m = next(iter(moments(seed=11, n=3, rounds=2)))
    lay = Layout(Frame(m.view, 0, "en", m.options, None, None), 80, 24, False)
    sc = Scroll(log=[f"log {i}" for i in range(40)], choices=["    1. x"])
    assert lay.page_rows >= lay.log_rows + 7
    sc.log_back = lay.page_rows - 1
    text = "\n".join(plain(lay.compose(sc)))
    shown = [int(n) for n in re.findall(r"^log (\d+)", text, re.M)]
    assert len(shown) >= lay.page_rows - 1 and "newer (PgDn)" in text, text
    assert "Banking " not in text and "Your hand" in text and "1. x" in text
    sc.log_back = 0
    text = "\n".join(plain(lay.compose(sc)))
    assert "Banking " in text and "log 39" in text


def test_at_80x24_the_log_gives_lines_to_choices_that_would_not_fit() -> None:
    """A long menu in the compact layout: the log shrinks (to its two newest lines at least) before the choices
    scroll; a short menu leaves the log its lines."""
    m = next(iter(moments(seed=11, n=3, rounds=2)))
    lay = Layout(Frame(m.view, 0, "en", m.options, None, None), 80, 24, False)
    log = [f"log {i}" for i in range(40)]
    short = plain(lay.compose(Scroll(log=log, choices=["    1. x"])))
    many = plain(lay.compose(Scroll(log=log, choices=[f"    {i}. choice" for i in range(1, 30)])))
    logged = [line for line in many if line.startswith("log ")]
    assert len(logged) == 2 and logged[-1].startswith("log 39")
    assert sum(line.startswith("log ") for line in short) == lay.log_rows > 2
    first_short = next(i for i, line in enumerate(short) if "1. x" in line)
    first_many = next(i for i, line in enumerate(many) if ". choice" in line)
    assert first_many == first_short - (lay.log_rows - 2)  # the choices start higher by the lines the log gave


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_window_passed_by_itself_is_not_called_your_decision(lang: str) -> None:
    """A frame that only follows the game (no question: the prompt passes most reaction windows by itself) while
    our reaction window is pending says a window is open, not "Your decision: reaction?" over "(waiting for the
    others)"; the frame that asks says it is our decision, at 80x24 and 130x45."""
    m = next(m for m in moments(seed=11, n=3, rounds=3) if m.decision is not None and m.decision.kind == "window")
    for cols, rows in ((80, 24), (130, 45)):
        following = "\n".join(plain(Layout(Frame(m.view, 0, lang, None, None, None), cols, rows, False)
                                    .compose(Scroll())))
        asking = "\n".join(plain(Layout(Frame(m.view, 0, lang, m.options, None, None), cols, rows, False)
                                 .compose(Scroll())))
        mine = msg("your_decision", lang, what="").strip()
        assert mine not in following and msg("window_passing", lang) in following, following
        assert mine in asking, asking


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (130, 45)], ids=["80x24", "130x45"])
def test_paging_the_log_back_and_forth_shows_every_line(cols: int, rows: int) -> None:
    """PageUp from the newest lines, page by page to the oldest: every line of the log is on some page (before: a
    PageUp moved 9 lines back at 80x24 while 3 were shown, so the 6 lines above them were never seen); PageDown
    comes back the same way to the newest."""
    m = next(iter(moments(seed=11, n=3, rounds=2)))
    lay = Layout(Frame(m.view, 0, "en", m.options, None, None), cols, rows, False)
    log = [f"entry {i:03d}" for i in range(120)]
    sc = Scroll(log=log, choices=["  Choices:", "    1. End"])
    seen: set[str] = set()
    backs = []
    for _ in range(100):
        seen |= set(re.findall(r"entry \d{3}", "\n".join(plain(lay.compose(sc)))))
        if "entry 000" in seen:
            break
        backs.append(sc.log_back)
        sc.log_back = lay.page_back(sc.log_back)
    assert seen == set(log), sorted(set(log) - seen)[:10]
    for _ in backs:  # as many pages forward as back, at most
        if sc.log_back:
            sc.log_back = lay.page_forward(sc.log_back)
    assert sc.log_back == 0
    assert "entry 119" in "\n".join(plain(lay.compose(sc)))
