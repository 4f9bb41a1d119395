"""The adversary zoo at a Hacker table: each cheater (tests/adversaries/_zoo_hacker.py) lies once against honest
random bots; the lie is caught at once by every honest peer (its entry rejected, an honest peer's evidence stops the
game naming the cheater; a pad that breaks the hack table is sealed unseen, so it is caught when it is opened at
the end of the attempt), the offline audit of the log names the cheater too, and no honest seat is ever named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _zoo import Table, first_chance
from _zoo_hacker import (
    ChangedPlace,
    DiscardsPlayable,
    FalseSealOpening,
    ForgedPlaceOpening,
    HiddenLaidCard,
    HidesBadPad,
    LyingController,
    OmitsSealOpening,
    PadBreaksTable,
    PlaysAsOther,
    PlaysUnlaid,
    WrongRoll,
)
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.protocol import Kind

TABLE = {"profile": "basic", "round_limit": 4, "bots": "random", "game": "hacker"}
CHEATS = [  # cheater, its seat, words the verdict gives, caught at the lying entry itself
    (LyingController, 1, "against its pad", True),
    (PadBreaksTable, 1, "controller_pad_breaks_table", False),  # sealed unseen: caught when the pad is opened
    (WrongRoll, 1, "other than its private roll", True),
    (ChangedPlace, 2, "other than the one it sealed", True),
    (ForgedPlaceOpening, 2, "does not open its commitment", True),
    (HiddenLaidCard, 0, "other than the one it sealed", True),
    (PlaysUnlaid, 0, "not_laid", True),
    (DiscardsPlayable, 0, "laid_card_not_played", True),  # the card is face up when its turn comes
    (PlaysAsOther, 0, "but its shares open to", True),  # its face is public in the shares after the play
]


@pytest.mark.parametrize("cls,seat,why,at_once", CHEATS, ids=[c[0].__name__ for c in CHEATS])
def test_a_hacker_cheat_is_caught_at_once_naming_the_cheater(
    cls: type[Machine], seat: int, why: str, at_once: bool, tmp_path: Path
) -> None:
    _, t = first_chance(cls, seat, 4, tries=12, **TABLE)
    assert t.verdict_seats() == {seat}, f"verdicts {t.verdict_seats()}"
    verdicts = [m.verdict for m in t.ms if m.seat not in t.cheaters]
    assert all(v is not None and why in v.msg for v in verdicts), [v.msg for v in verdicts if v]
    caught, lied = t.ms[t.referee].verdict.seq, t.ms[seat].cheat_seq
    assert caught == lied if at_once else caught > lied, (caught, lied)
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    named = {f.seat for f in res.findings}
    assert seat in named and named <= {seat, None}, res.text()



HONEST = [(3, "basic", 1), (4, "advanced", 2), (5, "advanced-superspy", 3), (3, "closed", 4)]


@pytest.mark.parametrize("n,profile,seed", HONEST, ids=[f"{p}-{n}" for n, p, _ in HONEST])
def test_honest_hacker_players_are_never_named(n: int, profile: str, seed: int) -> None:
    """Every card turned over is a claim checked against its public shares: honest play never trips it (a copy of a
    card is that card); a claim no reveal round followed (the event that ended the game, or a card every seat knew
    already) is true against the audit's faces."""
    t = Table(n, seed=seed, profile=profile, round_limit=3, bots="random", game="hacker").run()
    assert t.complete and t.verdict_seats() == set()
    claimed = sum(bool(t.ms[0].game.claims(ev)) for ev in t.ms[0].events)
    assert claimed > 0
    for m in t.ms:
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
        faces = m.audit_report.faces
        assert all(m.game.same_card(f, faces[h]) for h, (f, _) in m.claims.items()), m.claims


END_LIES = [(FalseSealOpening, "does not open its seal"), (OmitsSealOpening, "revealed the openings of its seals")]


@pytest.mark.parametrize("cls,why", END_LIES, ids=[c[0].__name__ for c in END_LIES])
def test_a_false_or_missing_end_opening_names_its_revealer(cls: type[Machine], why: str, tmp_path: Path) -> None:
    """ChangedPlace (seat 3) stops the game while seat 4's place is still sealed; seat 4 must open it in its secrets:
    its false or missing opening is rejected by every peer naming seat 4 alone (then it reveals truly)."""
    t = Table(4, seed=1, cheats={2: ChangedPlace, 3: cls}, **TABLE).run()  # type: ignore[arg-type]
    assert t.ms[2].cheat_seq is not None and t.ms[3].cheat_seq is not None
    for m in t.ms[:2]:
        named = {(v.seat, why in v.msg) for _, _, v in m.evidence_seen}
        assert named == {(2, False), (3, True)}, m.evidence_seen
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {2, 3}, res.text()


def test_honest_seats_reveal_their_unopened_seals_truly() -> None:
    """ChangedPlace stops the game with its own place and seat 4's sealed: both reveal them, nobody else is named."""
    t = Table(4, seed=1, cheats={2: ChangedPlace}, **TABLE).run()  # type: ignore[arg-type]
    m = t.ms[0]
    assert {k.split(":")[1] for k in m.part.seals.seals} == {"2", "3"} and len(m.revealed) == 4
    for m in t.ms[:2] + t.ms[3:]:
        assert {v.seat for _, _, v in m.evidence_seen} == {2}
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations


def test_a_pad_left_sealed_is_judged_against_the_hack_table_at_the_end(tmp_path: Path) -> None:
    """A pad the hack table does not allow, kept from `open_pad` by a false answer: revealed at the end, every peer's
    audit (and the offline audit) names the controller for the pad too."""
    for seed in range(4, 16):  # seeds 2-3 give it no probe to answer falsely (rolls are seeded: tests/support/seeds.py)
        t = Table(4, seed=seed, cheats={1: HidesBadPad}, **TABLE).run()  # type: ignore[arg-type]
        if t.ms[1].lied_again:  # type: ignore[attr-defined]
            break
    else:
        pytest.fail("the controller of a pad that breaks the table never had to answer")
    for m in t.ms:
        if m.seat != 1:
            assert m.verdict is not None and m.verdict.seat == 1 and "against its pad" in m.verdict.msg
            assert "pad:1" in m.part.seals.seals
            rules = {(v.seat, v.rule) for v in m.audit_report.violations}  # type: ignore[union-attr]
            assert rules == {(1, "controller_pad_breaks_table")}, rules
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {1}, res.text()
    assert "controller_pad_breaks_table" in res.text()


BAD_END = {  # a seat's `seals` changed: (change, words of the rejection)
    "an empty list": (lambda s: [], "leaving `seals` out"),
    "an extra part": (lambda s: [*s, [s[0][0], 1, s[0][2], s[0][3]]], "not due"),
    "one part twice": (lambda s: [s[0], s[0]], "two openings"),
    "a short salt": (lambda s: [[*s[0][:3], s[0][3][:31]]], "32-byte salt"),
    "a bool for seq": (lambda s: [[True, *s[0][1:]]], "[seq, k, value"),
    "too many": (lambda s: s * 29, "seals"),
}


@pytest.fixture(scope="module")
def at_end_secrets() -> tuple[Machine, dict[str, Any]]:
    """An honest peer's fold when seat 4 (a place left sealed: ChangedPlace stopped the game) owes its secrets, and
    seat 4's true secrets body."""
    t = Table(4, seed=1, cheats={2: ChangedPlace}, **TABLE)  # type: ignore[arg-type]
    for _ in range(400):
        d = t.ms[0].duty()
        if d is not None and d.kind == Kind.SECRETS and d.seat == 3:
            break
        t.step()
    else:
        raise AssertionError("no secrets of seat 4 in 400 steps")
    out = t.ms[3].author_next()
    assert out is not None and out[1]["seals"]
    return t.ms[0], out[1]


@pytest.mark.parametrize("bad", list(BAD_END))
def test_malformed_end_openings_name_their_revealer(bad: str, at_end_secrets: tuple[Machine, dict[str, Any]]) -> None:
    """Total input handling of `seals`: every shape off the one due is the revealer's entry rejected (its true one
    passes), never an exception out of the fold."""
    ref, body = at_end_secrets
    change, words = BAD_END[bad]
    m = ref.snapshot()
    with pytest.raises(ProtocolError) as ei:
        m.apply(3, Kind.SECRETS, dict(body, seals=change(body["seals"])))
    assert ei.value.seat == 3 and words in str(ei.value), str(ei.value)
    ref.snapshot().apply(3, Kind.SECRETS, body)
