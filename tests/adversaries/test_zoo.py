"""The adversary zoo: each cheater cheats in one way against honest bots; the cheat is detected (at once by
an honest peer's evidence or by every peer, or by the offline audit of the log) and the RIGHT seat is named.

Games are random (beacon seeds are fresh), so each case plays games until the cheater found its chance."""

from __future__ import annotations

from pathlib import Path

import pytest
from _zoo import (
    BadCertificate,
    BadCertificateAny,
    BadShare,
    BrokenPromise,
    DenyingController,
    Duplicator,
    Equivocator,
    FalseCommitment,
    FalseFace,
    Forger,
    GrantingController,
    IgnoresBug,
    IgnoresHarm,
    RepeatedCodePassword,
    Staller,
    Substituter,
    Table,
    WrongLink,
)
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine


def play(cls: type[Machine], seat: int, n: int = 3, tries: int = 25, **kw: object) -> Table:
    for seed in range(1, tries + 1):
        t = Table(n, seed=seed, cheats={seat: cls}, **kw).run()  # type: ignore[arg-type]
        if getattr(t.ms[seat], "cheat_seq", None) is not None:
            return t
    pytest.fail(f"{cls.__name__} found no chance to cheat in {tries} seeded games: pick other seeds")


def audited(t: Table, tmp_path: Path) -> dict[int | None, set[str]]:
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    out: dict[int | None, set[str]] = {}
    for f in res.findings:
        out.setdefault(f.seat, set()).add(f.rule)
    return out


CASES = [
    # cheater, seat, players, always caught at once? (else: at once when a peer holds the proof), audit rule
    (DenyingController, 1, 3, None, "controller_answer"),
    (GrantingController, 2, 3, None, "controller_answer"),
    (RepeatedCodePassword, 1, 3, False, "password_distinct"),
    (FalseCommitment, 0, 3, False, "commitment"),
    (FalseFace, 1, 4, True, "face_mismatch"),
    (BrokenPromise, 1, 3, True, "trade_promise"),
    (WrongLink, 1, 3, True, "entry"),
    (BadShare, 1, 3, True, "entry"),
    (Equivocator, 1, 3, True, "equivocation"),
    (Substituter, 2, 3, False, "shuffle"),
    (Duplicator, 3, 4, None, "shuffle"),
]


@pytest.mark.parametrize("cls,seat,n,at_once,rule", CASES, ids=[c[0].__name__ for c in CASES])
def test_cheat_is_caught_and_the_right_seat_named(
    cls: type[Machine], seat: int, n: int, at_once: bool | None, rule: str, tmp_path: Path
) -> None:
    t = play(cls, seat, n)
    named = t.verdict_seats()
    if at_once:
        assert named == {seat}, f"verdicts {named}"
    else:  # may be caught at once (contradicting answers, a card seen twice) depending on the game
        assert named <= {seat, None}
    found = audited(t, tmp_path)
    assert rule in found.get(seat, set()), found
    assert set(found) <= {seat, None}, f"an honest seat was accused: {found}"


def test_ignoring_trojan_or_worm_caught_by_audit(tmp_path: Path) -> None:
    t = play(IgnoresHarm, 1, 3, tries=60)
    found = audited(t, tmp_path)
    assert found.keys() == {1}, found  # usually the rule broken (no_attempts, draw_count); see the report


def test_ignoring_bug_caught_by_audit(tmp_path: Path) -> None:
    """Holding Bug at the start of its turn, it takes a second action. Two actions need an extra one (retro2013:
    the TeleComm bonus or an upgrade), so the chance is rare: seed 1 has it (seed 14 too). Nobody sees the Bug
    in its hand, so the others accept the action; the strict replay of the audit, every face known, does not."""
    t = play(IgnoresBug, 1, 3, tries=14, profile="retro2013")
    assert t.ms[1].ignored == "one_action"  # type: ignore[attr-defined]
    assert t.verdict_seats() <= {1}  # a peer that knows its whole hand rejects the action at once
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    found = [(f.seat, f.rule, f.seq) for f in res.findings]
    assert (1, "no_actions", t.ms[1].cheat_seq) in found, res.text()  # type: ignore[attr-defined]
    assert {seat for seat, _, _ in found} == {1}, found


def test_wrong_certificate_for_a_shown_card(tmp_path: Path) -> None:
    """A password card shown (Dumpster Diving & co.) when the game offers it; else any card shown by cert."""
    for cls, tries in ((BadCertificate, 15), (BadCertificateAny, 25)):
        for seed in range(1, tries + 1):
            t = Table(3, seed=seed, cheats={0: cls}).run()
            if t.ms[0].cheat_seq is not None:  # type: ignore[attr-defined]
                assert t.verdict_seats() == {0}
                assert "entry" in audited(t, tmp_path)[0]
                return
    pytest.fail("no card shown by certificate in these seeded games: pick other seeds")


def test_refusing_to_reveal_abandons_naming_it(tmp_path: Path) -> None:
    t = play(Staller, 1, 3)
    assert t.abandoned == 1
    found = audited(t, tmp_path)
    assert found.keys() == {1} and "secrets_missing" in found[1], found


def test_forged_entry_in_another_name_rejected_victim_not_blamed(tmp_path: Path) -> None:
    t = play(Forger, 1, 3)
    assert t.forged_from == 1  # rejected by every peer (the signature is not the victim's); the sender noted
    assert t.verdict_seats() == set()
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()


def test_false_evidence_blames_the_accuser() -> None:
    t = Table(3, seed=5)
    for _ in range(40):
        t.step()
    good = t.raws[-1]
    before = len(t.raws)
    assert not t.deliver(t.sign(2, 8, {"what": "entry", "raw": good}))  # an old, valid entry is no proof
    assert {s for s, _ in t.rejected} == {0, 1, 2}
    assert all(exc.seat == 2 for _, exc in t.rejected)
    assert len(t.raws) == before
