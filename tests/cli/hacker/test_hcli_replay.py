"""`ad-p2p replay` of a Hacker log (cli/hacker/replay.py): round by round on the page from no seat (no hand, no face
a player held unseen), each round with its account, then the standings, the winners and the audit, in English and
German; Enter, b, a number and q step through it as in Access Denied's replay."""

from __future__ import annotations

import io
import re
import sys
from argparse import Namespace
from pathlib import Path

import pytest
from adp2p.cli.main import main
from adp2p.cli.tui.replay import run_replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adversaries"))


@pytest.fixture(scope="module")
def hacker_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    from _zoo import Table

    t = Table(3, seed=3, profile="basic", round_limit=3, bots="random", game="hacker").run()  # ends with cards unseen
    return t.write_log(tmp_path_factory.mktemp("hk") / "log"), t


def _replay(log: Path, lang: str = "en", keys: str = "", every: bool = True) -> tuple[int, str]:
    class Keys(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = io.StringIO()
    rc = run_replay(Namespace(log=str(log), lang=lang, all=every, width=80), out, Keys(keys))
    return rc, out.getvalue()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_shows_every_round_then_the_result_and_the_audit(
    hacker_log: tuple[Path, object], lang: str
) -> None:
    log, t = hacker_log
    rc, text = _replay(log, lang)
    assert rc == 0 and "Traceback" not in text
    rounds = t.ms[0].state.eng.round_no  # type: ignore[attr-defined]
    heads = re.findall(r"^HACKER (?:round|Runde) (\d+)", text, re.M)
    assert [int(r) for r in heads] == sorted(int(r) for r in heads) and int(heads[-1]) == rounds
    assert len(set(heads)) >= 3  # the setup's page, then a page per round
    assert all(len(line) < 80 for line in text.splitlines())
    winners = ", ".join(t.ms[0].names[w] for w in t.ms[0].state.winners)  # type: ignore[attr-defined]
    flat = " ".join(text.split())  # words wrap at the width
    if lang == "en":
        assert "Replay of Hacker game" in text and f"Winner(s): {winners}" in text
        assert re.search(r"Audit: [^.]*seal[^.]* checks out\. \(\d+ entries\)", flat), text[-600:]
        assert "Hand:" not in text and "*=you" not in text  # an onlooker has no hand, and is no player
    else:
        assert "Wiederholung von Hacker-Spiel" in text and f"Gewinner: {winners}" in text
        assert re.search(r"Prüfung: [^.]*Siegel[^.]* stimmt\. \(\d+ Einträge\)", flat), text[-600:]


def test_the_replay_names_no_card_a_player_held_unseen(hacker_log: tuple[Path, object]) -> None:
    """The account names a card only once it was shown; a card still in a hand at the end was never shown, so if
    the page named it, the replay would leak what the onlooker cannot know."""
    from adp2p.cli.hacker.words import card_name

    log, t = hacker_log
    _, text = _replay(log)
    m = _observer(log)
    onlooker = m.state.eng.faces
    shown_names = {card_name(f, "en") for f in onlooker.values()}
    held = [(p, h, seat.state.eng) for p, seat in enumerate(t.ms) for h in seat.state.eng.hands[p]]  # type: ignore[attr-defined]
    hidden = [(p, h) for p, h, eng in held if h not in onlooker and h in eng.faces]  # its holder knows it, nobody else
    assert hidden, "the game should end with cards in hands"
    only_hidden = {card_name(t.ms[p].state.eng.faces[h], "en") for p, h in hidden} - shown_names  # type: ignore[attr-defined]
    assert only_hidden, "the game should end with a card nobody has seen"
    for name in only_hidden:  # the replay may not name it
        assert name not in text, name


def _observer(log: Path):  # type: ignore[no-untyped-def]
    from adp2p.cli.tui.replay import fold_log

    m, _ = fold_log(log)
    return m


def test_the_replay_steps_on_back_and_to_a_round(hacker_log: tuple[Path, object]) -> None:
    log, _ = hacker_log
    rc, text = _replay(log, keys="\nb\n1\n\n", every=False)
    assert rc == 0
    steps = [int(x) for x in re.findall(r"\[(\d+)/\d+\] Enter = next round", text)]
    assert steps == [0, 1, 0, 1]  # on, back, jump to 1, on to the last round (2 of a 3-round game: no question)
    assert "round 3" in text.split("[1/2]")[-1]  # the last round shown after the last question


def test_the_replay_command_takes_the_game_directory(
    hacker_log: tuple[Path, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, _ = hacker_log
    game_dir = tmp_path / "game"
    game_dir.mkdir()
    (game_dir / "log").write_bytes(log.read_bytes())
    assert main(["replay", str(game_dir), "--all"]) == 0
    assert "Replay of Hacker game" in capsys.readouterr().out
