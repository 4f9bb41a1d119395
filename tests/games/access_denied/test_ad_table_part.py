"""Access Denied's table part (games/access_denied/part.py) alone, against a fake fold of plain values
(tests/support/fake_fold.py): what it decides from what arrives, with no machine, log or network behind it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied.part import AccessDeniedPart
from adp2p.p2p.machine.common import Round
from adp2p.p2p.protocol import BodyError, ProtocolError
from fake_fold import FakeFold, seat_secrets

PW = [10, 11, 12]  # the handles of a password
FACES = {h: next(f for f in range(63) if card(f).code == code) for h, code in zip(PW, (0, 1, 2), strict=True)}
SAME_CODE = next(f for f in range(63) if card(f).code == 0 and f != FACES[10])  # another card of code A


def _state(**kw: Any) -> SimpleNamespace:
    return SimpleNamespace(**{"stack": [], "ctx": {}, "passwords": {}, "controller": {}, "faces": {}, **kw})


def _password(author: int = 1, seq: int = 7) -> tuple[dict[str, Any], Any]:
    """The body of seat `author`'s password entry at `seq`, made by its own part, and its secrets."""
    me = seat_secrets(author)
    fold = FakeFold(seat=author, me=me, entries=seq, state=_state(faces=dict(FACES)))
    ev = {"t": "password", "p": author, "s": 0, "cards": list(PW)}
    return {"ev": ev, **AccessDeniedPart().event_body(fold, ev)}, me


def _arrive(part: AccessDeniedPart, body: dict[str, Any], author: int = 1, seq: int = 7) -> FakeFold:
    """The password entry arriving at another seat's part (seat 0)."""
    fold = FakeFold(seat=0, entries=seq, sources=[(seq, author)], state=_state())
    ev = part.check_event(fold, author, body)
    assert part.after_event(fold, author, body, ev, fold.state) is None  # it learns nothing the state should know
    return fold


def test_a_password_entry_is_checked_and_its_commitments_kept_for_its_committer() -> None:
    body, _ = _password()
    assert len(body["commit"]) == 3 and body["codes"] and body["distinct"]
    part = AccessDeniedPart()
    _arrive(part, body)
    assert set(part.records.commitments) == set(part.records.pedersen) == set(PW)
    assert part.records.committed == {h: (1, 7) for h in PW}
    assert part.opening_due(1, 10) and not part.opening_due(0, 10)


def test_a_distinct_proof_that_does_not_verify_names_its_author() -> None:
    body, _ = _password()
    body["distinct"] = bytes(len(body["distinct"]))
    with pytest.raises(ProtocolError) as info:
        _arrive(AccessDeniedPart(), body)
    assert info.value.seat == 1 and info.value.rule == "password_distinct"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"commit": [bytes(32)] * 2}, "one 32-byte commitment per code"),
        ({"ev": {"t": "discard", "p": 1, "cards": [3]}}, "sets no password"),
        ({"ev": {"t": "first", "p": 1}}, "derived, never authored"),
    ],
)
def test_an_event_body_is_refused_before_the_rules_naming_its_author(change: dict[str, Any], why: str) -> None:
    body, _ = _password()
    with pytest.raises(ProtocolError, match=why) as info:
        AccessDeniedPart().check_event(FakeFold(state=_state()), 1, {**body, **change})
    assert info.value.seat == 1


def test_an_opening_shown_with_a_card_is_checked_against_its_commitment() -> None:
    body, me = _password()
    part = AccessDeniedPart()
    fold = _arrive(part, body)
    code, salt = me.openings[10]
    part.check_opening(fold, 1, 10, (code, salt))  # the true opening
    with pytest.raises(ProtocolError, match="does not match its commitment") as info:
        part.check_opening(fold, 1, 10, (code, bytes(b ^ 1 for b in salt)))
    assert info.value.seat == 1
    with pytest.raises(ProtocolError, match="without opening"):
        part.check_opening(fold, 1, 10, None)
    with pytest.raises(ProtocolError, match="not due"):
        part.check_opening(fold, 2, 5, (0, salt))


def test_an_opening_that_is_not_the_card_stops_the_game_if_public_else_is_evidence() -> None:
    body, me = _password()
    part = AccessDeniedPart()
    fold = _arrive(part, body)
    code, salt = me.openings[10]
    fold.openings_shown = {10: (code, salt)}
    fold.sources = [(9, None)]
    fold.certs = {10: [10, ["cert"]]}
    lie = {10: next(f for f in range(63) if card(f).code != code)}  # the card shown is not of the code opened
    public = part.check_shown(fold, Round({}, {10}, {10: 7}), lie)
    assert public.verdict is not None and public.verdict.seat == 1 and public.verdict.rule == "commitment"
    private = part.check_shown(fold, Round({}, set(), {10: 1}), lie)
    assert private.verdict is None and private.evidence == {
        "what": "opening", "h": 10, "code": code, "salt": salt, "certs": [[10, ["cert"]]]
    }
    assert part.check_shown(fold, Round({}, {10}, {10: 7}), {10: FACES[10]}).verdict is None  # the true card


def test_an_answer_against_a_known_code_is_evidence_and_the_evidence_names_the_controller() -> None:
    part = AccessDeniedPart()
    task = {"op": "answer", "ctx": 1}
    before = _state(stack=[task], ctx={1: {"s": 0, "cards": [20], "p": 0}}, controller={0: 2}, passwords={0: PW})
    fold = FakeFold(seat=0, entries=30, state=before)
    part.note(fold, before, {"t": "answer", "p": 2, "match": [False]})  # handed card 20 "does not match"
    assert part.records.answers == {30: (2, 0, tuple(PW), [20], [False])}
    fold.state = _state(faces={20: SAME_CODE, 10: FACES[10]})  # but card 20 has password card 10's code
    fold.certs = {20: [20, ["c20"]], 10: [10, ["c10"]]}
    evidence = part.immediate_checks(fold, {20})
    assert evidence == {"what": "answer", "seq": 30, "h": 20, "certs": [[20, ["c20"]], [10, ["c10"]]]}
    v = part.verify_evidence(fold, 0, "answer", evidence, {20: SAME_CODE, 10: FACES[10]}, 40)
    assert (v.seat, v.rule, v.seq) == (2, "controller_answer", 40)
    with pytest.raises(ProtocolError) as info:  # the same evidence with a true face is false: its accuser's
        part.verify_evidence(fold, 0, "answer", evidence, {20: FACES[11], 10: FACES[10]}, 40)
    assert info.value.seat == 0


def test_the_audit_names_a_commitment_never_opened_and_a_false_one() -> None:
    body, me = _password()
    part = AccessDeniedPart()
    fold = _arrive(part, body)
    code, salt = me.openings[11]
    fold.revealed = {0: {"openings": []}, 1: {"openings": [(11, code, salt)]}, 2: {"openings": []}}
    full = {**FACES, 11: FACES[10]}  # card 11 is not the code committed for it
    got = {(v.seat, v.rule, v.seq, "never opened" in v.msg) for v in part.audit_secrets(fold, full)}
    assert got == {(1, "commitment", 7, False), (1, "commitment", 7, True)}
    assert len(part.audit_secrets(fold, full)) == 3  # card 11 false; cards 10 and 12 never opened


def test_a_secrets_entry_reads_its_openings_in_shape() -> None:
    part = AccessDeniedPart()
    assert part.secret_fields(FakeFold(), 1, {"openings": [[10, 2, b"s" * 32]]}) == {"openings": [(10, 2, b"s" * 32)]}
    with pytest.raises(BodyError, match="two openings"):
        part.secret_fields(FakeFold(), 1, {"openings": [[10, 2, b"s"], [10, 3, b"t"]]})
