"""Results are final (issue 34), in process: a game reaches its end by honest play (Hacker, three players, two rounds:
every seat shares the result), then a seat cheats. Each test checks every honest machine, a peer's outcome (what its
player is told at the end) and the offline audit (text and --json): the cheater is named, no honest seat is, and the
result of every seat but the one named stands. Each failed on main before the rules of docs/protocol.md
("Precedence at one seq", "Results are final") were built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _zoo import Table
from _zoo_final import LateLieThenStall, OversizedSecretsThenStall, PadsWitness, self_accusation
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.audit import audit_log, dumps
from adp2p.p2p.machine import Machine, ProtocolError, Verdict
from adp2p.p2p.peer.common import Outcome
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.protocol import Kind, encode_body

CHEATER = 1
TABLE = {"seed": 2, "profile": "basic", "round_limit": 2, "bots": "random", "game": "hacker"}  # p1, p2, p3 all win


def outcome(m: Machine, ended: str | None, lang: str = "en") -> Outcome:
    """The outcome a peer whose machine is `m` reports at the end (`ended`: why the game ended early, if it did)."""
    o = Outcome()
    Narrator(lang, lambda _line: None).finish(m, o, ended, ended)
    return o


def play(cls: type[Machine], tmp_path: Path) -> tuple[Table, Any]:
    t = Table(3, cheats={CHEATER: cls}, **TABLE).run()
    assert t.ms[CHEATER].cheat_seq is not None, "the cheater found no chance"
    return t, audit_log(t.write_log(tmp_path / "log"))


def assert_result_stands_but_the_cheaters(t: Table, res: Any, ended: str | None) -> None:
    for m in (t.ms[0], t.ms[2]):
        assert m.state.over and m.verdict is not None and m.verdict.seat == CHEATER, m.verdict
        assert m.standing_winners() == [0, 2], (m.state.winners, m.named())
        o = outcome(m, ended)
        assert o.winners == ["p1", "p3"], o
        assert not any(v.startswith(("p1 ", "p3 ")) for v in o.violations), o.violations
    assert res.winners == [0, 2] and res.void == [CHEATER], res.text()
    assert {f.seat for f in res.findings} == {CHEATER}, res.text()
    text = res.text()
    assert "winner(s): p1, p3" in text and "void: the result of seat 2 p2" in text, text
    js = json.loads(dumps(res))
    assert js["winners"] == [0, 2] and js["void"] == [1] and js["seat_base"] == 0, js


def test_a_late_lie_then_a_stall_keeps_every_other_seats_result(tmp_path: Path) -> None:
    """Attack 2: after the end, a seat reveals a false box secret (named at once), then stalls and is abandoned. Each
    alone kept the result; the two together gave `winners=[]` at every peer (the outcome of an abandoned game kept
    its winners only without a verdict)."""
    t, res = play(LateLieThenStall, tmp_path)
    assert t.abandoned == CHEATER and res.abandoned_by == CHEATER
    assert_result_stands_but_the_cheaters(t, res, "the game was abandoned")


def test_a_secrets_body_one_byte_over_its_bound_then_a_stall_keeps_the_result(tmp_path: Path) -> None:
    """Attack 7: a `secrets` body exactly one byte over the bound for its log is malformed (named at once), then the
    seat is abandoned: every honest peer's outcome lost the round-limit result though the offline audit kept it."""
    t, res = play(OversizedSecretsThenStall, tmp_path)
    assert "bytes: an honest seat's is at most" in t.ms[0].verdict.msg, t.ms[0].verdict  # type: ignore[union-attr]
    assert_result_stands_but_the_cheaters(t, res, "the game was abandoned")


def test_a_witness_for_a_pile_no_pile_uses_is_refused_naming_its_revealer(tmp_path: Path) -> None:
    """Attack 9: a `secrets` body padded, up to exactly its bound, with a witness for a pile index that no pile of the
    log uses (no verdict cut a shuffle short) was taken and never checked; it is the revealer's malformed entry."""
    t, res = play(PadsWitness, tmp_path)
    assert "witness for pile" in t.ms[0].verdict.msg, t.ms[0].verdict  # type: ignore[union-attr]
    assert_result_stands_but_the_cheaters(t, res, None)


@pytest.mark.parametrize("cls", [LateLieThenStall, OversizedSecretsThenStall, PadsWitness], ids=lambda c: c.__name__)
def test_a_seat_that_cheats_only_after_the_end_plays_the_honest_game_up_to_it(cls: type[Machine]) -> None:
    """The result these cheaters attack is the one honest play reaches: up to the end, the game with the cheater is
    the honest game of its seed (the same entries by the same seats, the same public history). As plain `Blind`
    cheaters their Hacker engine and bot lost their own faces and played another game (`_zoo.SeesOwnFaces`)."""

    def shape(t: Table) -> Any:
        m = t.ms[0]
        assert m.ended_at is not None
        return [(decode_entry(r).kind, decode_entry(r).author) for r in t.raws[: m.ended_at + 1]], list(m.state.history)

    assert shape(Table(3, cheats={CHEATER: cls}, **TABLE).run()) == shape(Table(3, **TABLE).run())


# ======================================================================================================
# evidence at a seq already taken (docs/protocol.md, "Precedence at one seq"): judged from the log alone


def folds(t: Table) -> tuple[list[Machine], Table]:
    """An observer's folds of an honest game's log: `ms[k]` holds entries 0..k-1 (up to the first `secrets`)."""
    m = Machine(t.genesis, None)
    ms = [m, m]
    for raw in t.raws[1:]:
        e = decode_entry(raw)
        if e.kind == Kind.SECRETS:
            break
        m = m.snapshot()
        m.apply_entry(e)
        ms.append(m)
    return ms, t


@pytest.fixture(scope="module")
def honest() -> tuple[list[Machine], Table]:
    return folds(Table(3, **TABLE).run())


def evidence(t: Table, seat: int, seq: int, body: dict[str, Any]) -> bytes:
    prev = decode_entry(t.raws[seq - 1]).id
    return encode_entry(t.ids[seat], t.genesis.game_id, seq, prev, seat, int(Kind.EVIDENCE), encode_body(body))


def test_self_accusation_at_the_winning_seq_sets_nothing_aside_and_names_only_itself(honest: Any) -> None:
    """Attack 3: a loser posts evidence against its own junk entry at the seq of the entry that ended the game. It is
    valid evidence (it proves the seat's own lie) but sets nothing aside; `refused` at the head names it alone."""
    ms, t = honest
    end = ms[-1]
    w = end.ended_at
    assert w is not None and end.state.over and end.state.winners == [0, 1, 2]
    prev = decode_entry(t.raws[w - 1]).id
    raw = evidence(t, CHEATER, w, self_accusation(t.ids[CHEATER], t.genesis.game_id, w, prev, CHEATER))
    trial = ms[w].snapshot()  # the fold before seq w: the evidence is valid there
    trial.apply_entry(decode_entry(raw))
    v = trial.verdict
    assert v is not None and v.seat == CHEATER
    assert "own accuser" in (end.displaces(decode_entry(raw), v) or "")
    head = end.snapshot()
    head.apply(0, Kind.EVIDENCE, {"what": "refused", "raw": raw}, prev=bytes(32))
    assert head.verdict is not None and head.verdict.rule == "self_accusation" and head.verdict.seat == CHEATER
    assert head.standing_winners() == [0, 2]
    assert "seat 2 accused its own entry" in head.result_line()
    with pytest.raises(ProtocolError):  # named once
        head.apply(2, Kind.EVIDENCE, {"what": "refused", "raw": raw}, prev=bytes(32))


def test_evidence_held_back_after_signing_on_top_of_its_entry_is_late_and_names_its_poster(honest: Any) -> None:
    """Attack 1's lever: evidence about the entry at seq s, by a seat that signed an entry after s, is late (an honest
    seat checks every entry on arrival and posts before it signs anything): it sets nothing aside, and `refused` names
    the late accuser from the log alone. Evidence by a seat that signed nothing after s is timely (before the end)."""
    ms, t = honest
    end = ms[-1]
    authors = [decode_entry(r).author for r in t.raws]
    s = next(
        k for k in range(40, end.entries - 5) if authors[k] != CHEATER and CHEATER in authors[k + 1 : k + 3]
    )
    raw = evidence(t, CHEATER, s, {"what": "entry", "raw": t.raws[s], "reason": "held back"})
    mid = ms[s + 3].snapshot()  # a fold holding s and the cheater's entry after it, before the end
    assert mid.ended_at is None and mid.signed_after(CHEATER, s) is not None
    why = mid.displaces(decode_entry(raw), Verdict(authors[s], "entry", "a lie"))
    assert why is not None and why.startswith("late"), why
    mid.apply(0, Kind.EVIDENCE, {"what": "refused", "raw": raw}, prev=bytes(32))
    assert mid.verdict is not None and mid.verdict.rule == "late_evidence" and mid.verdict.seat == CHEATER
    timely = ms[s + 1]  # the same evidence where the accuser has signed nothing after s: it may take the seq
    assert timely.displaces(decode_entry(raw), Verdict(authors[s], "entry", "a lie")) is None
    with pytest.raises(ProtocolError) as exc:  # and it names nobody but its poster as late
        timely.snapshot().apply(0, Kind.EVIDENCE, {"what": "refused", "raw": raw}, prev=bytes(32))
    assert exc.value.seat == 0


def test_no_evidence_sets_aside_the_entry_that_ended_the_game(honest: Any) -> None:
    """Once the log holds the entry that ends the game, evidence at an earlier seq (timely, not against its poster)
    sets nothing aside: the result is final; only the seat a verdict names loses its share (at the head)."""
    ms, t = honest
    end = ms[-1]
    w = end.ended_at
    assert w is not None
    s, poster = next(  # an entry before the end, and a seat that signed nothing after it (its evidence is timely)
        (k, p)
        for k in range(w - 1, 0, -1)
        for p in range(3)
        if p != decode_entry(t.raws[k]).author and end.signed_after(p, k) is None
    )
    author = decode_entry(t.raws[s]).author
    raw = evidence(t, poster, s, {"what": "entry", "raw": t.raws[s], "reason": "x"})
    why = end.displaces(decode_entry(raw), Verdict(author, "entry", "a lie"))
    assert why is not None and "result is final" in why, why


def test_a_broken_answer_proof_kept_quiet_by_its_attempter_is_named_by_the_audit(tmp_path: Path) -> None:
    """Attack 1's coalition, without the late post: the controller seals a broken answer proof to its partner, who
    accepts it and plays on. Nobody else could see it during play; the audit (every box secret revealed) opens every
    answer's sealed proofs and names the controller, voiding only its share of the result. Before, nothing checked
    a sealed answer proof after play: the controller was never named."""
    from _zoo import UnprovenAnswer, first_chance
    from _zoo_final import Accomplice

    seed, alone = first_chance(UnprovenAnswer, 1, 3)
    attempter = next(decode_entry(r).author for r in alone.raws if decode_entry(r).kind == Kind.EVIDENCE)
    honest_seat = ({0, 1, 2} - {1, attempter}).pop()
    t = Table(3, seed=seed, cheats={1: UnprovenAnswer, attempter: Accomplice}).run()
    assert t.ms[attempter].held is not None, "the partner never met the broken proof"  # type: ignore[attr-defined]
    h = t.ms[honest_seat]
    assert h.verdict is None and h.audit_report is not None, h.verdict
    seats = {v.seat for v in h.audit_report.violations}
    assert seats == {1} and "controller_answer" in {v.rule for v in h.audit_report.violations}, seats
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {1}, res.text()
    if h.state.over:
        assert res.winners == [w for w in h.state.winners if w != 1] == h.standing_winners(), res.text()


def test_an_audit_only_cheat_voids_only_its_own_share_of_the_result(tmp_path: Path) -> None:
    """Attack 8: a seat keeps a card it must lay (`advanced-superspy`) out of its sealed laying once, then plays on
    honestly to the round limit. Only the audit's strict replay sees it (`must_lay_card`); it stopped there, before
    the winners, so `ad-p2p audit --json` said `winners: []` and the text no winner line, while the peers still listed
    the cheater among the winners; and its message counted seats from 0 ("seat 1" about seat 2)."""
    from _zoo_final import KeepsBackMustLay

    t = Table(
        3, seed=5, cheats={CHEATER: KeepsBackMustLay}, profile="advanced-superspy", round_limit=3, bots="random",
        game="hacker",
    ).run()
    assert t.ms[CHEATER].cheat_seq is not None, "the cheater found no card to keep back"  # (its chance, taken)
    for m in (t.ms[0], t.ms[2]):
        rep = m.audit_report
        assert m.state.over and m.verdict is None and rep is not None, m.verdict
        assert [(v.seat, v.rule) for v in rep.violations] == [(CHEATER, "must_lay_card")], rep.violations
        assert "seat 2 cannot lay" in rep.violations[0].msg, rep.violations[0].msg
        assert m.state.winners == [0, 1, 2] and rep.winners == [0, 2] == m.standing_winners()
        o = outcome(m, None)
        assert o.winners == ["p1", "p3"] and o.audit_ok is False, o
        assert "void: the result of p2" in o.line, o.line
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.winners == [0, 2] and res.void == [CHEATER] and {f.seat for f in res.findings} == {CHEATER}, res.text()
    assert "winner(s): p1, p3" in res.text(), res.text()
    assert json.loads(dumps(res))["winners"] == [0, 2]
