"""`ad-p2p join --game hacker`: a bot's seat at a Hacker table (Hacker's profiles, its bots; a person's seat is
refused for now), Access Denied's join unchanged; `ad-p2p audit` of a Hacker log."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from adp2p.cli.checks import check
from adp2p.cli.cmd_join import config_from
from adp2p.cli.main import main, parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))


def _args(*argv: str):  # type: ignore[no-untyped-def]
    args = parser().parse_args(["join", "--no-mdns", *argv])
    check(args)
    return args


def test_a_hacker_bot_seat_is_configured_for_hacker(tmp_path: Path) -> None:
    args = _args("--game", "hacker", "--bot", "planner", "--data-dir", str(tmp_path))
    assert args.rules == "basic" and args.players == 4
    cfg = config_from(args)
    assert cfg.game == "hacker" and cfg.profile == "basic"


def test_a_persons_seat_at_a_hacker_table_is_configured(tmp_path: Path) -> None:
    args = _args("--game", "hacker", "--data-dir", str(tmp_path))
    assert args.bot is None and config_from(args).game == "hacker"


def test_a_person_plays_a_whole_hacker_game_at_the_table_by_keystrokes(tmp_path: Path) -> None:
    """The person's chooser (cli/hacker/seat.py) at seat 0 of an in-process table of real machines (every entry
    signed, checked and folded by every seat): typed lines (numbers, squares, typos) through its page and menu, to
    the end of the game, every page 80x24; the logs agree and the audit is clean."""
    import io

    from _zoo import Table
    from adp2p.cli.hacker.human import Human
    from adp2p.cli.hacker.seat import table_chooser
    from adp2p.p2p.audit import audit_log

    sys.path.insert(0, str(Path(__file__).resolve().parent / "hacker"))
    from test_hcli_local import Keys

    out = io.StringIO()
    person = table_chooser("de", Human("de", inp=Keys(4), out=out, size=(80, 24)))
    t = Table(3, seed=4, profile="basic", round_limit=3, bots="planner", game="hacker")
    t.bots[0] = person
    t.run()
    ref = t.ms[0]
    assert t.complete and ref.game.is_over(ref.state) and t.verdict_seats() == set()
    assert all(m.events == ref.events for m in t.ms)
    assert any(ev.get("p") == 0 and ev.get("t") in ("seal", "unseal", "play", "probe") for ev in ref.events)
    assert "HACKER Runde" in out.getvalue()
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()


def test_the_page_shows_names_only_where_they_fit_and_differ() -> None:
    from adp2p.cli.hacker.seat import page_names

    assert page_names(["Ana", "Bo", "Cem"]) == ["Ana", "Bo", "Cem"]
    assert page_names(["Ana", "planner-bot #ec5c", "planner-bot #b94c"]) is None  # cut to 6, two would be alike


def test_where_names_do_not_fit_the_first_page_says_who_is_who() -> None:
    """German seat labels (S1, S2, ...) with names the page cannot show: its first question says which label is whom,
    so "Bot-2 wins" at the end can be found on the page."""
    import io
    from types import SimpleNamespace

    from adp2p.cli.hacker.human import Human
    from adp2p.cli.hacker.seat import legend, table_chooser

    assert legend(["Bot-2", "Spieler", "Bot-1"], 1, "de") == "S1 = Bot-2, S2* = Spieler, S3 = Bot-1"
    from _hcli_games import positions
    from adp2p.engine.hacker.api import legal, pending, view
    from adp2p.games.hacker.table_events import to_log
    from adp2p.games.hacker.table_state import TableState

    st = next(st for st in positions(1, 3) if (d := pending(st)) is not None and d.actor is not None
              and len(legal(view(st, d.actor), d.actor)) > 1 and d.kind != "seal")
    me = pending(st).actor
    out = io.StringIO()
    person = Human("de", inp=io.StringIO("\n\n\nq\n"), out=out, size=(80, 24))  # (Enter past the news that does
    # not fit the first page)
    choose = table_chooser("de", person)
    names = ["Bot-2", "Spieler", "Bot-1"]
    choose.attach(SimpleNamespace(machine=SimpleNamespace(names=names)))
    with pytest.raises(KeyboardInterrupt):  # q leaves the table (after the page was drawn)
        choose(TableState(view(st, me)), me, [to_log(e) for e in legal(view(st, me), me)])
    assert person.names is None and legend(names, me, "de") in out.getvalue()


def test_access_denied_join_is_as_before(tmp_path: Path) -> None:
    args = _args("--bot", "deduction", "--data-dir", str(tmp_path))
    assert args.rules == "classic" and config_from(args).game == "access-denied"


@pytest.mark.parametrize(
    "argv,words",
    [
        (["--game", "hacker", "--bot", "deduction"], "--bot random or planner, or no --bot for your own seat"),
        (["--game", "hacker", "--bot", "random", "--rules", "classic"], "--rules"),
        (["--bot", "planner"], "unknown bot strategy 'planner'"),
    ],
)
def test_a_join_that_does_not_fit_its_game_is_a_usage_error(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["join", "--no-mdns", *argv]) == 2
    assert words in capsys.readouterr().err


def test_audit_of_a_hacker_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from _zoo import Table

    t = Table(3, seed=2, profile="basic", round_limit=2, bots="random", game="hacker").run()
    log = t.write_log(tmp_path / "log")
    assert main(["audit", str(log)]) == 0
    out = capsys.readouterr().out
    assert "no violations" in out and "(basic)" in out


def test_a_game_this_install_does_not_register_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An install whose entry points are stale (the package not installed again after a game was added) knows no
    'hacker': `join` says so in one line and exits 2, instead of an 'internal error' once the table is set up."""
    from adp2p.p2p import game

    def missing(name: str) -> game.Game:
        raise game.UnknownGame(f"no game {name!r} is installed here")

    monkeypatch.setattr(game, "get_game", missing)
    rc = main(["join", "--no-mdns", "--game", "hacker", "--bot", "planner", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err.count("\n") == 0, err
    assert "no game 'hacker' is installed here" in err and "install the package again" in err
