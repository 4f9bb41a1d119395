"""The adversary zoo: each cheater cheats in one way against honest bots; the cheat is detected (at once by
an honest peer's evidence or by every peer, or by the offline audit of the log) and the RIGHT seat is named.

Games are seeded (every secret from the table seed, tests/support/seeds.py): each case plays the seeds of a fixed
range until the cheater found its chance, and fails if none gave it."""

from __future__ import annotations

from pathlib import Path

import pytest
from _zoo import (
    DUMPSTER_DIVING,
    BadCertificate,
    BadCertificateAny,
    BadShare,
    BrokenPromise,
    BrokenReplyPromise,
    DenyingController,
    DumpsterDiver,
    Duplicator,
    Equivocator,
    FalseCommitment,
    FalseFace,
    Forger,
    GrantingController,
    IgnoresBug,
    IgnoresHarm,
    JunkProofOnLearnerShare,
    LastLinkPeeker,
    OtherCardLink,
    RepeatedCodePassword,
    Staller,
    Substituter,
    Table,
    TwinMismatch,
    UnprovenAnswer,
    WrongLink,
    WrongOpening,
    WrongSalt,
    dumpster_game,
    dumpster_shown,
    first_chance,
)
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind, decode_body


def play(cls: type[Machine], seat: int, n: int = 3, tries: int = 25, **kw: object) -> Table:
    return first_chance(cls, seat, n, tries, **kw)[1]


def audited(t: Table, tmp_path: Path) -> dict[int | None, set[str]]:
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    out: dict[int | None, set[str]] = {}
    for f in res.findings:
        out.setdefault(f.seat, set()).add(f.rule)
    return out


CASES = [
    # cheater, seat, players, always caught at once? (else: at once when a peer holds the proof), audit rule
    (DenyingController, 1, 3, True, "controller_answer"),  # its answer proof fails at the attempter
    (GrantingController, 2, 3, True, "controller_answer"),
    (UnprovenAnswer, 1, 3, True, "controller_answer"),  # its sealed answer proofs are junk
    (RepeatedCodePassword, 1, 3, True, "password_distinct"),  # it cannot prove its codes distinct
    (FalseCommitment, 0, 3, True, "password_link"),  # its link proof, due with its first answer, fails
    (TwinMismatch, 0, 3, True, "password_link"),  # hash commitments true, Pedersen twins false: no link proof
    (OtherCardLink, 0, 3, True, "password_link"),  # false codes, the link proved with another card's id
    (FalseFace, 1, 4, True, "face_mismatch"),
    (BrokenPromise, 1, 3, True, "trade_promise"),
    (WrongLink, 1, 3, True, "entry"),
    (BadShare, 1, 3, True, "entry"),
    (JunkProofOnLearnerShare, 0, 3, True, "entry"),
    (Equivocator, 1, 3, True, "equivocation"),
    (Substituter, 2, 3, True, "entry"),  # its proof of shuffle fails on arrival
    (Duplicator, 3, 4, True, "entry"),
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
    """Any card the cheater shows by certificate (the path a password card takes; see the Dumpster Diving tests
    below for a password card itself)."""
    t = play(BadCertificateAny, 0, 3)
    assert t.verdict_seats() == {0}
    assert "entry" in audited(t, tmp_path)[0]


# -- Dumpster Diving: the controller (the cheater, seat 0) must show one of its password cards, chosen at random,
# to the player; the card's item carries the opening of its code commitment. Every other seat plays Dumpster
# Diving against the cheater whenever it can (_zoo.dumpster_game: 5 players, a few fixed seeds).


def dumpster_play(cls: type[Machine]) -> tuple[Table, int]:
    """The seeded game and the seat that dived (the learner: it alone sees the card)."""
    found = dumpster_game(cls)
    if found is None:
        pytest.fail(f"Dumpster Diving never made {cls.__name__} show a password card it lies about: pick other seeds")
    t = found[1]
    m = t.ms[1]
    dives = [ev for ev in m.events if ev.get("t") == "play" and ev["face"] == DUMPSTER_DIVING]
    assert dives and dumpster_shown(m)
    learner = dives[-1]["p"]
    assert m.state.controller[dives[-1]["s"]] == 0
    assert isinstance(t.bots[learner], DumpsterDiver) and t.bots[learner].dived
    return t, learner


def honest_verdicts(t: Table) -> set[tuple[int | None, str, int | None]]:
    return {(m.verdict.seat, m.verdict.rule, m.verdict.seq) for m in t.ms if m.seat and m.verdict is not None}


def entry_evidence(t: Table, seq: int, learner: int) -> None:
    """The evidence entry at seq is the learner's, of the cheater's rejected shares entry, with its box secret."""
    e = decode_entry(t.raws[seq])
    body = decode_body(e.body)
    assert (e.kind, e.author, body["what"]) == (Kind.EVIDENCE, learner, "entry"), body
    assert body["box_secret"] == bytes(t.ids[learner].box_key)  # the others open the box sealed to it with it
    bad = decode_entry(body["raw"])
    assert (bad.kind, bad.author, bad.seq) == (Kind.SHARES, 0, seq)


@pytest.mark.parametrize(
    "cls,why",
    [
        (WrongOpening, "the opening does not match its commitment"),
        (WrongSalt, "the opening does not match its commitment"),
        (BadCertificate, "invalid decryption share of seat 1"),
    ],
    ids=["WrongOpening", "WrongSalt", "BadCertificate"],
)
def test_wrong_code_shown_for_a_dumpster_dived_password_card(cls: type[Machine], why: str, tmp_path: Path) -> None:
    """The cheater shows the card with an opening for another code (or another salt) and its true certificate,
    or with a certificate whose share of its own does not fit and a true opening: only the learner can open the
    box; it rejects the entry and posts it with its box secret, and every peer's verdict names the cheater at
    once."""
    t, learner = dumpster_play(cls)
    seq = t.ms[0].cheat_seq  # type: ignore[attr-defined]
    entry_evidence(t, seq, learner)
    assert honest_verdicts(t) == {(0, "entry", seq)}
    assert all(why in m.verdict.msg for m in t.ms[1:] if m.verdict)
    assert audited(t, tmp_path) == {0: {"entry"}}


def test_false_commitment_caught_at_once_when_dumpster_diving_shows_the_card(tmp_path: Path) -> None:
    """The cheater committed codes that are not its password cards' codes (entry cheat_seq) and opens them as
    committed: the opening matches the commitment, not the card. The learner alone sees the face; it posts an
    'opening' evidence (the opening and the card's certificate) and every peer's verdict names the cheater."""
    t, learner = dumpster_play(FalseCommitment)
    committed_at = t.ms[0].cheat_seq  # type: ignore[attr-defined]
    seqs = {seq for _, _, seq in honest_verdicts(t)}
    assert len(seqs) == 1
    seq = seqs.pop()
    assert honest_verdicts(t) == {(0, "commitment", seq)}
    e = decode_entry(t.raws[seq])
    body = decode_body(e.body)
    assert (e.kind, e.author, body["what"]) == (Kind.EVIDENCE, learner, "opening"), body
    h = body["h"]
    assert h in [x for x, _ in dumpster_shown(t.ms[1])] and t.ms[1].part.records.committed[h] == (0, committed_at)
    assert t.ms[learner].openings_shown[h] == (body["code"], body["salt"])
    assert [m.seat for m in t.ms if h in m.state.faces] == sorted({0, learner}), "only the learner saw the card"
    found = audited(t, tmp_path)
    # its answers follow its false codes, with valid proofs: only the audit's replay shows them false
    assert found.keys() == {0} and "commitment" in found[0] and found[0] <= {"commitment", "controller_answer"}, found


def test_pedersen_twins_that_differ_from_the_hash_commitments_are_named_when_dumpster_diving_shows_a_card(
    tmp_path: Path,
) -> None:
    """The cheater's hash commitments are its cards' true codes but their Pedersen twins commit other codes (it
    answers by those, with valid proofs). The card it must show carries its true opening, which opens the hash
    commitment and not the twin: the learner alone can check it, rejects the shares entry and posts it with its
    box secret; every peer names the cheater at once (rule `commitment`), and the audit again for every card."""
    t, learner = dumpster_play(TwinMismatch)
    seqs = {seq for _, _, seq in honest_verdicts(t)}
    assert len(seqs) == 1
    seq = seqs.pop()
    assert honest_verdicts(t) == {(0, "commitment", seq)}
    entry_evidence(t, seq, learner)
    assert all("Pedersen commitment" in m.verdict.msg for m in t.ms[1:] if m.verdict)
    found = audited(t, tmp_path)
    assert found.keys() == {0} and "commitment" in found[0] and found[0] <= {"commitment", "controller_answer"}, found


def test_a_lying_controller_of_a_two_player_game_is_named_by_the_peers_and_the_audit_alike(tmp_path: Path) -> None:
    """With two players every handed card is known to both seats, so its shares are public: the attempter's
    evidence shows no certificate for it, yet every peer and the offline audit (an observer) judge it alike."""
    t = play(DenyingController, 0, 2, profile="two-player")
    assert t.verdict_seats() == {0}
    assert audited(t, tmp_path) == {0: {"controller_answer"}}


def test_refusing_to_reveal_abandons_naming_it(tmp_path: Path) -> None:
    t = play(Staller, 1, 3)
    assert t.abandoned == 1
    found = audited(t, tmp_path)
    assert found.keys() == {1} and {"abandoned", "unchecked"} <= found[1], found


def test_a_key_grinder_peeking_at_the_last_link_only_ends_the_game_naming_itself(tmp_path: Path) -> None:
    t = play(LastLinkPeeker, 2, 3)
    assert t.abandoned == 2 and t.verdict_seats() == set()
    found = audited(t, tmp_path)
    assert found.keys() == {2} and "abandoned" in found[2], found


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


def test_a_false_promise_in_a_two_card_trade_reply_names_the_replier(tmp_path: Path) -> None:
    """Issue 33: a trade may be answered with several cards, each with its promised code. The replier lies about the
    last one: the offerer, who receives the cards, proves it at once, and the audit names the replier alone (random
    bots at the other seats: they offer trades)."""
    t = play(BrokenReplyPromise, 1, 3, bots="random")
    assert t.verdict_seats() == {1}
    found = audited(t, tmp_path)
    assert "trade_promise" in found.get(1, set()), found
    assert set(found) <= {1, None}, f"an honest seat was accused: {found}"
