"""Attacks on Hacker's claims, end openings, secrets bound and private dice (the adversary zoo's in-process table,
tests/adversaries/_zoo.py): each asserts the cheater alone is named, no honest seat ever is, and nothing raises out
of a handler."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from _zoo import Table
from _zoo_hacker import ChangedPlace
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.protocol import decode_body, encode_body

TABLE = {"profile": "basic", "round_limit": 4, "bots": "random", "game": "hacker"}


def test_a_face_down_card_removed_unseen_is_shown_when_the_discard_pile_is_reshuffled(tmp_path: Path) -> None:
    """Under the face-down option SUPERSPY PROTECTION sends a face-down card to the discard pile unexamined (004:249):
    its face is known to its owner only. When that discard pile became the new deck, the table's fresh pile needs
    every face public (`Game.pile_faces`): the shuffler's machine raised KeyError authoring its step (an honest game
    could not go on; over the network that honest seat would fall silent and be named). The refill now shows them."""
    t = Table(4, seed=5, profile="advanced-superspy", round_limit=6, bots="random", game="hacker").run()
    m = t.ms[0]
    removed = [it for it in m.state.eng.history if isinstance(it, dict) and it.get("k") == "face_down_removed"]
    assert removed and len(m.hmap.piles) >= 2
    assert t.complete and t.verdict_seats() == set()
    for m in t.ms:
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()


def test_an_honest_seats_secrets_fit_one_entry_at_the_longest_round_limit_a_table_may_name() -> None:
    """Players who prolong a game (never winning, churning their hands) make every seat's witnesses grow: each pile is
    shuffled by every seat. A genesis may name up to 10,000 rounds; at a few hundred, an honest seat's `secrets`
    passed the 448 KiB an entry may have, was dropped unread, and that seat was named as silent. A Hacker table now
    names at most MAX_ROUND_LIMIT rounds, where the worst an honest seat can need fits: cards reach a pile only from
    the first deck or by a draw (a hand refilled to 5, once a round), every pile at least one card."""
    from adp2p.engine.hacker.profiles import get_profile
    from adp2p.games.hacker.end_openings import SECRETS_BYTES
    from adp2p.games.hacker.game import GAME, MAX_ROUND_LIMIT
    from adp2p.p2p.secrets_size import BASE_BYTES, MAX_SECRETS_ENTRY, witness_bytes

    hand, n = get_profile("advanced").hand, 6
    cards = GAME.deck_size + hand * n * (MAX_ROUND_LIMIT + 1)
    worst = BASE_BYTES + cards * witness_bytes(1) + SECRETS_BYTES  # every pile a single card: 67 bytes a card
    assert worst + 1024 <= MAX_SECRETS_ENTRY, worst  # 1 KiB for the entry's header and signature
    assert GAME.configure({"profile": "advanced", "round_limit": MAX_ROUND_LIMIT}, n).round_limit == MAX_ROUND_LIMIT
    assert GAME.configure({"profile": "advanced", "round_limit": None}, n).round_limit <= MAX_ROUND_LIMIT
    with pytest.raises(ValueError, match="at most"):
        GAME.configure({"profile": "advanced", "round_limit": 10_000}, n)
    with pytest.raises(ProtocolError) as ei:  # a genesis naming more: every peer refuses it, naming nobody
        Table(3, seed=1, profile="basic", round_limit=MAX_ROUND_LIMIT + 1, bots="random", game="hacker")
    assert ei.value.seat is None and "at most" in str(ei.value)


def test_a_player_named_like_markup_breaks_neither_the_replay_nor_a_players_news(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name is any printable UTF-8 (crypto/identity.py): "[/x]" is one. The Hacker replay printed its lines as rich
    markup, so a log with that player in it stopped with MarkupError ('internal error') before its first page; the
    live page's news of an opponent so named did too, ending an honest player's seat mid-game."""
    import io

    from adp2p.cli.hacker.human import Human
    from adp2p.cli.main import main
    from adp2p.crypto.identity import make_bundle
    from adp2p.p2p import local

    name = "[/x]"
    monkeypatch.setattr(local, "make_bundle", lambda s, n: make_bundle(s, name if n == "p2" else n))
    t = Table(3, seed=1, profile="basic", round_limit=1, bots="random", game="hacker").run()
    log = t.write_log(tmp_path / "log")
    assert main(["replay", "--all", str(log)]) == 0
    out = capsys.readouterr()
    assert out.err == "" and name in out.out
    seen = io.StringIO()
    h = Human(inp=io.StringIO("\n" * 50), out=seen, size=(80, 24), names=list(t.ms[0].names))
    v = t.ms[0].state.eng
    h.news(v, 0, room=0)  # no room on the page: every new line on the news pages
    assert name in seen.getvalue()


def test_an_honest_controllers_pad_left_sealed_mid_attempt_names_only_the_cheater(tmp_path: Path) -> None:
    """The hacker stops the game by a bad probe after its controller answered one: the controller's pad stays sealed
    and its private roll drawn but never opened. The controller reveals both at the end (25 squares and the roll's
    secret), every peer checks them and judges the pad against the hack table for the revealed dice and the answer
    given: the honest controller is not named, the hacker alone is (live and by the offline audit)."""
    from _zoo import first_chance
    from _zoo_hacker import StopsMidAttempt
    from adp2p.games.hacker.seals import ROLL_SLOT

    _, t = first_chance(StopsMidAttempt, 1, 4, tries=6, profile="basic", round_limit=4, bots="random", game="hacker")
    assert t.verdict_seats() == {1}
    for m in t.ms:
        if m.seat == 1:
            continue
        assert m.verdict is not None and m.verdict.seat == 1 and "may not announce" in m.verdict.msg
        seq, _ = m.part.seals.seals["pad:2"]
        roll = m.part.seals.rolls[2]
        assert roll["b"] is not None and m.state.eng.work["hack"]["answers"]  # judged: dice drawn, an answer given
        assert {k for s, k in m.revealed[2]["seals"] if s == seq} == set(range(25))
        assert (roll["r"] // 2, ROLL_SLOT) in m.revealed[2]["seals"]
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {1}, res.text()


def _deep(n: int) -> list[Any]:
    x: list[Any] = []
    for _ in range(n):
        x = [x]
    return x


CRAFTED_SEALS = {  # the last seat's `seals` in a log it re-signs: (value, words of the one line `replay` says)
    "nested 400 deep": (_deep(400), "[seq, k, value, 32-byte salt]"),
    "a map": ({"a": 1}, "wrong type"),
    "a u64 seq": ([[1 << 63, 31, b"", b"x" * 32]], "wrongly"),
    "negative numbers": ([[-1, -5, b"", b"x" * 32]], "wrongly"),
    "5,000 openings": ([[i, 0, b"", b"x" * 32] for i in range(5000)], "an honest seat's is at most"),
}


@pytest.fixture(scope="module")
def stopped_with_seals() -> tuple[list[bytes], Any]:
    """A Hacker log that ends with seat 4's secrets opening a place left sealed (ChangedPlace stopped the game), and
    seat 4's signing identity."""
    t = Table(4, seed=1, cheats={2: ChangedPlace}, **TABLE).run()  # type: ignore[arg-type]
    assert "seals" in decode_body(decode_entry(t.raws[-1]).body)
    return list(t.raws), t.ms[3].me.identity  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", list(CRAFTED_SEALS))
def test_a_crafted_hacker_log_is_audited_and_replayed_without_a_traceback(
    bad: str, stopped_with_seals: tuple[list[bytes], Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Logs an attacker hands you: seat 4 re-signs its last entry, its secrets, with `seals` of every bad shape. The
    offline audit names seat 4 (and ChangedPlace's seat 3), nobody else; `ad-p2p audit` and `ad-p2p replay` say so
    without a traceback and exit non-zero, at once."""
    from adp2p.cli.main import main

    raws, ident = stopped_with_seals
    last = decode_entry(raws[-1])
    value, words = CRAFTED_SEALS[bad]
    body = encode_body(dict(decode_body(last.body), seals=value))
    raw = encode_entry(ident, last.game_id, last.seq, last.prev_hash, last.author, last.kind, body)
    log = tmp_path / "log"
    log.write_bytes(b"".join(struct.pack(">I", len(r)) + r for r in [*raws[:-1], raw]))
    res = audit_log(log)
    assert {f.seat for f in res.findings} == {2, 3, None}, res.text()  # None: the game's secrets are incomplete
    assert main(["audit", str(log)]) != 0
    capsys.readouterr()
    assert main(["replay", "--all", str(log)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "seat 4" in err[0] and words in err[0], err


def test_a_verdict_on_the_secrets_of_a_game_already_over_keeps_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Results stand: the game reached its end (the round limit) by honest play; a seat then reveals a false box
    secret. Every peer names it, and the result stays what play reached but for that seat's own share:
    `result_line` (the replay's last lines, a peer's outcome) said only "stopped: ..." before, as if the game had
    been cut short."""
    from _zoo_hacker import LateFalseSecret
    from adp2p.cli.main import main

    t = Table(3, seed=2, cheats={1: LateFalseSecret}, profile="basic", round_limit=2, bots="random", game="hacker")
    t.run()
    for m in t.ms[::2]:
        assert m.state.over and m.verdict is not None and m.verdict.seat == 1, m.verdict
        line = m.result_line()
        assert line.startswith("winner(s): p1, p3 ") and "; then stopped: seat 2 " in line, line
        assert "(void: the result of p2, named for cheating)" in line, line  # results are final but for the cheater
        assert m.audit_report is not None and m.audit_report.ok
    log = t.write_log(tmp_path / "log")
    res = audit_log(log)
    assert t.ms[0].state.winners == [0, 1, 2]
    assert res.winners == [0, 2] and res.void == [1] and {f.seat for f in res.findings} == {1}, res.text()
    assert main(["replay", "--all", str(log)]) == 0
    assert "winner(s): p1" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_peers_outcome_keeps_the_result_of_a_game_over_before_a_late_verdict(lang: str) -> None:
    """The peer's outcome (what the player is told at the end, and its `outcome.line`) of the game above: the winners
    and why (but the seat the verdict names), then the verdict; never only "stopped by evidence"."""

    from _zoo_hacker import LateFalseSecret
    from adp2p.p2p.peer.common import Outcome
    from adp2p.p2p.peer.narrator import Narrator

    t = Table(3, seed=2, cheats={1: LateFalseSecret}, profile="basic", round_limit=2, bots="random", game="hacker")
    t.run()
    told: list[str] = []

    o = Outcome()
    Narrator(lang, told.append).finish(t.ms[0], o, None, None)
    assert o.winners == ["p1", "p3"], o  # the verdict names p2: its own share of the result is void (issue 34)
    assert o.line.startswith("winner(s): p1, p3") and "then stopped" in o.line, o.line
    assert ("p1, p3" in o.said) and ("danach" in o.said if lang == "de" else "then" in o.said), o.said


def test_a_false_answer_backed_by_another_squares_true_opening_names_the_controller(tmp_path: Path) -> None:
    """A controller answers a probe falsely and sends the true opening of another square of its pad whose value is that
    answer: every square's commitment is bound to its slot (the pad's seal ‖ u8(square)), so it does not open the
    probed square's; every peer rejects the answer naming the controller, nobody else."""
    from _zoo import first_chance
    from _zoo_hacker import AnswersWithOtherSquare

    _, t = first_chance(AnswersWithOtherSquare, 1, 4, tries=6, **TABLE)
    assert t.verdict_seats() == {1}
    for m in t.ms:
        if m.seat != 1:
            assert m.verdict is not None and "does not open its commitment" in m.verdict.msg, m.verdict
    assert t.ms[t.referee].verdict.seq == t.ms[1].cheat_seq  # type: ignore[union-attr]
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {1}, res.text()
