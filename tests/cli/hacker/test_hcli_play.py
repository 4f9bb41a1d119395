"""`ad-p2p play --game hacker` (cli/hacker/play.py, cli/play_game.py): a watched German game over the real protocol
(bot peers as processes on loopback) to a clean audit with every table line in German and the audit's words Hacker's;
the offline game (the engine alone) for a person typing and for a watched seat; every option that does not fit the
game refused in one line before anything starts."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from adp2p.cli.checks import check
from adp2p.cli.main import main, parser
from test_hcli_local import Keys

# English phrases of the table, the account, the end and the audit a German game must not print
ENGLISH = ("Waiting at table", "sat down", "begins", "Setup:", "Shuffling", "Dealing", "Game over", "Audit",
           "Log:", "winner(s)", "Winner", "watcher", "round limit", "code(s)", " codes", "lays cards", "plays ",
           " hacks ", "learns", "is start player", "the Boss", "round ", "password", "checks out", "honest",
           "department", "(card ", "Game log")


def test_a_watched_german_hacker_game_over_the_network_reads_german_and_audits_clean(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--game", "hacker", "--watch", "--bots", "2", "--lang", "de"]
    cmd += ["--round-limit", "2", "--think", "0", "--seed", "3", "--data-dir", str(tmp_path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    said = out.stdout
    assert out.returncode == 0, said[-2000:] + out.stderr[-2000:]
    assert "Traceback" not in said + out.stderr and out.stderr == "", out.stderr
    assert "basic, Ziel 5 Codes, Limit 2 Runden, 3 Spieler" in said  # the intro says the Hacker profile
    assert "legt Karten:" in said and "Runde 2" in said  # the account streams in German
    assert "Prüfung: jedes Mischen, jede Karte, jedes Siegel" in said and "Passwort-Festlegung" not in said
    for name in ("Zuschauer", "Bot-1", "Bot-2"):  # the audit's verdict per player, in German
        assert f"\n  {name}: ehrlich\n" in said, said[-1500:]
        assert any(line.startswith(f"{name}: ") and line.endswith(("Codes", "Code")) for line in said.splitlines())
    english = [line for line in said.splitlines() if any(w in line for w in ENGLISH)]
    assert not english, english
    # the log audits clean offline too, and its "checked:" line speaks of Hacker's secrets, not passwords
    log = next(tmp_path.glob("games/*/log"))
    audit = subprocess.run([sys.executable, "-m", "adp2p.cli", "audit", str(log)], capture_output=True, text=True,
                           timeout=60)
    assert audit.returncode == 0, audit.stdout[-1500:]
    checked = next(line for line in audit.stdout.splitlines() if line.strip().startswith("checked:"))
    assert "every seal (place cards, laid cards, pad squares)" in checked and "private die" in checked
    assert "password" not in checked


def test_a_person_who_leaves_is_told_how_to_resume_a_hacker_game(tmp_path: Path) -> None:
    """Your seat over the network, input ending at the first question (as q does): 130 and the resume command with
    --game hacker (a Hacker seat needs Hacker's client)."""
    cmd = [sys.executable, "-m", "adp2p.cli", "play", "--game", "hacker", "--bots", "2", "--round-limit", "1"]
    cmd += ["--think", "0", "--data-dir", str(tmp_path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 130, out.stdout[-2000:] + out.stderr[-2000:]
    assert "ad-p2p join --game hacker --resume " in out.stderr and "Traceback" not in out.stdout + out.stderr


def _play(*argv: str):  # type: ignore[no-untyped-def]
    args = parser().parse_args(["play", "--game", "hacker", *argv])
    check(args)
    return args


def test_offline_a_person_types_a_whole_game_to_its_end() -> None:
    from adp2p.cli.hacker.play import run_offline

    out = io.StringIO()
    keys = Keys(5)
    rc, again = run_offline(_play("--offline", "--bots", "2", "--seed", "5", "--round-limit", "2"), out, keys)
    text = out.getvalue()
    assert rc == 0 and again is None and keys.typed > 5, text[-1500:]
    assert text.startswith("ad-p2p play: basic, goal 5 codes, limit 2 rounds, 3 players, seed 5, you are P1")
    assert "Winners: " in text and "game over" in text


def test_offline_q_leaves_with_130() -> None:
    from adp2p.cli.hacker.play import run_offline

    out = io.StringIO()
    rc, _ = run_offline(_play("--offline", "--bots", "3", "--seed", "1", "--lang", "de"), out, Keys(1, quit_after=2))
    assert rc == 130 and "Spiel abgebrochen." in out.getvalue()


def test_offline_watched_the_account_in_german_then_the_last_page(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["play", "--game", "hacker", "--offline", "--watch", "--bots", "3", "--seed", "2", "--round-limit", "2",
               "--lang", "de", "--strategy", "random"])
    text = capsys.readouterr().out
    assert rc == 0, text[-1500:]
    assert text.startswith("ad-p2p play: basic, Ziel 5 Codes, Limit 2 Runden, 3 Spieler, Seed 2\n")
    assert "  S1* legt Karten:" in text and "Spielende" in text and "Sieger: " in text
    assert not [line for line in text.splitlines() if any(w in line for w in ENGLISH)]


def test_hacker_defaults_are_hackers_own() -> None:
    args = _play()
    assert (args.rules, args.strategy) == ("basic", "planner")
    ad = parser().parse_args(["play"])
    check(ad)
    assert (ad.rules, ad.strategy, ad.react) == ("classic", "deduction", "mine")


@pytest.mark.parametrize(
    "argv,words",
    [
        (["--game", "hacker", "--rules", "classic"], "--rules: unknown Hacker profile 'classic'"),
        (["--game", "hacker", "--strategy", "deduction"], "--strategy: 'deduction' is not a Hacker bot"),
        (["--game", "hacker", "--react", "all"], "--react is for Access Denied"),
        (["--game", "hacker", "--react", "mine"], "--react is for Access Denied"),  # given, even as the default
        (["--game", "hacker", "--react-seconds", "5"], "--react-seconds is for Access Denied"),
        (["--game", "hacker", "--stalemate", "5"], "--stalemate is for Access Denied"),
        (["--game", "hacker", "--ui", "full"], "--ui full is Access Denied's screen"),
        (["--game", "hacker", "--bots", "6"], "--bots 6 and you: basic is for 3 to 6 players, not 7"),
        (["--game", "hacker", "--rules", "closed", "--bots", "4"], "closed is for 3 to 4 players, not 5"),
        (["--game", "hacker", "--offline", "--watch", "--bots", "2"], "--bots: basic is for 3 to 6 players, not 2"),
        (["--rules", "advanced"], "--rules: 'advanced' is a Hacker profile"),
        (["--strategy", "planner"], "--strategy: 'planner' is a Hacker bot"),
        (["--game", "chess"], "invalid choice: 'chess'"),
    ],
)
def test_an_option_that_does_not_fit_the_game_is_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        rc = main(["play", *argv])
    except SystemExit as exc:  # argparse's own errors (an unknown choice)
        rc = exc.code  # type: ignore[assignment]
    err = capsys.readouterr().err.strip()
    assert rc == 2 and words in err and "\n" not in err, err


def test_watched_at_a_terminal_the_seat_s_page_follows_the_table() -> None:
    """--watch at a terminal: the bot decides; each line of the table draws the seat's page again (the account on it,
    and who is who when the names do not fit); before the game starts the table's notices are lines."""
    from types import SimpleNamespace

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adversaries"))
    from _zoo import Table
    from adp2p.cli.hacker.human import Human
    from adp2p.cli.hacker.play import watching
    from adp2p.games.hacker import GAME

    t = Table(3, seed=2, profile="basic", round_limit=1, bots="random", game="hacker").run()
    m = t.ms[0]
    out = io.StringIO()
    bot = GAME.make_bot("random", 1)
    choose = watching(bot, "de", Human("de", out=out, size=(80, 24)))
    names = ["Zuschauer", "Bot-1", "Bot-2"]
    choose.attach(SimpleNamespace(machine=SimpleNamespace(state=m.state, seat=0, game=m.game, names=names)))
    choose.say("Spiel vorbei")
    page = out.getvalue()
    assert "HACKER Runde" in page and "S1* = Zuschauer, S2 = Bot-1, S3 = Bot-2" in page
    assert len(page.split("\n")) <= 24  # the page fits the terminal (its last row: whose decision it is)
    before = io.StringIO()
    early = watching(bot, "de", Human("de", out=before, size=(80, 24)))
    early.attach(SimpleNamespace(machine=None))
    early.say("Warte an Tisch 'x' auf 3 Spieler")
    early.say("  (an account line before the game: not a notice)")
    assert before.getvalue() == "Warte an Tisch 'x' auf 3 Spieler\n"
