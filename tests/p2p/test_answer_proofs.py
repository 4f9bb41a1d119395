"""Proved answers at the table (games/access_denied/answers.py): a password entry carries Pedersen commitments and
the proof that its three codes differ, checked by every peer; a controller's answer carries one proof per handed card,
sealed to the attempter, who checks them on arrival; a bad one is the controller's fault, proven to every peer by the
attempter's evidence (its box secret and the handed cards' certificates); false evidence names the accuser.

Seeded in-process tables (tests/support/seeds.py); a bad entry is handed to single machines' `apply`, as in
test_machine.py, so the test sees which peers can tell."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from adp2p.crypto import code_proofs as cp
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.hashing import u64
from adp2p.crypto.private import open_private, seal_private
from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied import openings
from adp2p.games.access_denied.answers import answer_context
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Duty, Machine, ProtocolError
from adp2p.p2p.protocol import Kind, SealedFault, decode_body, encode_body
from seeds import seeded_table


def table(seed: int = 7, n: int = 3) -> LocalTable:
    return seeded_table(n, seed, round_limit=40, bots="deduction")


def play_to(t: LocalTable, want: Any) -> Duty:
    while (d := t.ms[0].duty()) is not None:
        if want(d, t.ms[0]):
            return d
        t.step()
    pytest.fail("the game ended before the duty the test needs")


def answer_due(d: Duty, m: Machine) -> bool:
    return d.kind == Kind.EVENT and d.what == "answer"


def at_answer(seed: int = 7) -> tuple[LocalTable, int, int, dict[str, Any]]:
    """A table at a controller's answer: (table, controller, attempter, the honest body through the codec)."""
    t = table(seed)
    d = play_to(t, answer_due)
    m = t.ms[d.seat]
    st = m.state
    att = st.ctx[st.stack[-1]["ctx"]]["p"]
    out = m.author_next(t.bots[d.seat])
    assert out is not None
    return t, d.seat, att, decode_body(encode_body(out[1]))


def third(ctrl: int, att: int) -> int:
    return next(s for s in range(3) if s not in (ctrl, att))


def unchanged(m: Machine) -> tuple[Any, ...]:
    return m.entries, copy.deepcopy(m.state.access), m.state.seq, m.duty()


def proofs_in(t: LocalTable, ctrl: int, att: int, body: dict[str, Any]) -> list[bytes]:
    m = t.ms[att]
    ctx = answer_context(m, ctrl, att)
    return unpack_canonical(open_private(t.ids[att], m.ids[ctrl], ctx, body["proof"]), "proofs")


def resealed(t: LocalTable, ctrl: int, att: int, payload: bytes) -> bytes:
    return seal_private(t.ids[ctrl], t.ms[att].ids[att], answer_context(t.ms[att], ctrl, att), payload)


# ---------------------------------------------------------------- an honest game


def test_every_password_and_every_answer_of_an_honest_game_is_proved() -> None:
    t = table(3).run()
    passwords = answers = 0
    for raw in t.raws:
        e = decode_entry(raw)
        if e.kind != Kind.EVENT:
            continue
        body = decode_body(e.body)
        if "commit" in body:
            passwords += 1
            assert len(body["codes"]) == 96 and len(body["distinct"]) == 3072
        if body["ev"].get("t") == "answer":
            answers += 1
            assert 0 < len(body["proof"]) <= 8192
    assert passwords >= 3 and answers >= 1
    for m in t.ms:
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
        assert set(m.part.records.pedersen) == set(m.part.records.commitments)


def test_the_attempter_opens_one_valid_proof_per_handed_card() -> None:
    t, ctrl, att, body = at_answer()
    m = t.ms[att]
    st = m.state
    ctx = st.ctx[st.stack[-1]["ctx"]]
    pw = tuple(st.passwords[ctx["s"]])
    cs = tuple(m.part.records.pedersen[h] for h in pw)
    proofs = proofs_in(t, ctrl, att, body)
    assert len(proofs) == len(ctx["cards"]) == len(body["ev"]["match"])
    for h, matched, proof in zip(ctx["cards"], body["ev"]["match"], proofs, strict=True):
        x = card(st.faces[h]).code
        cp.verify_answer(cs, x, matched, proof, cp.ProofContext(m.game_id, ctrl, pw, b"answer", h))  # type: ignore[arg-type]
        with pytest.raises(cp.InvalidProof):  # and says nothing for another code (why it is sealed)
            cp.verify_answer(cs, x, not matched, proof, cp.ProofContext(m.game_id, ctrl, pw, b"answer", h))  # type: ignore[arg-type]
    for s in range(3):
        t.ms[s].apply(ctrl, Kind.EVENT, body)  # everyone accepts the honest answer


# ---------------------------------------------------------------- a bad answer proof: the attempter alone can tell


def forged(t: LocalTable, ctrl: int, att: int, body: dict[str, Any]) -> dict[str, Any]:
    """The same answer with the first card's proof swapped for the proof of the same claim about another code."""
    proofs = proofs_in(t, ctrl, att, body)
    m = t.ms[ctrl]
    st = m.state
    ctx = st.ctx[st.stack[-1]["ctx"]]
    pw = tuple(st.passwords[ctx["s"]])
    cs, op = m.part.answers.current_password(m, pw)  # type: ignore[attr-defined]
    h, matched = ctx["cards"][0], body["ev"]["match"][0]
    other = next(c for c in range(6) if (c in op.codes) == matched and c != card(st.faces[h]).code)
    pctx = cp.ProofContext(m.game_id, ctrl, pw, b"answer", h)  # type: ignore[arg-type]
    proofs[0] = (cp.prove_match if matched else cp.prove_no_match)(cs, op, other, pctx)
    return dict(body, proof=resealed(t, ctrl, att, pack(proofs)))


@pytest.mark.parametrize(
    "spoil,words",
    [
        (forged, "does not verify"),
        (lambda t, c, a, b: dict(b, proof=resealed(t, c, a, pack([]))), "no proof for each"),
        (lambda t, c, a, b: dict(b, proof=resealed(t, c, a, b"\xc1")), "do not open"),
        (lambda t, c, a, b: dict(b, proof=b"\x00" * 200), "do not open"),
    ],
    ids=["proof-of-another-code", "no-proofs", "not-msgpack", "not-a-box"],
)
def test_a_bad_answer_proof_is_rejected_by_the_attempter_alone_naming_the_controller(spoil: Any, words: str) -> None:
    t, ctrl, att, body = at_answer()
    bad = spoil(t, ctrl, att, body)
    m = t.ms[att]
    before = unchanged(m)
    snap = m.snapshot()
    with pytest.raises(SealedFault) as ei:
        snap.apply(ctrl, Kind.EVENT, bad)
    assert (ei.value.seat, ei.value.rule) == (ctrl, "controller_answer") and words in ei.value.msg
    assert unchanged(m) == before
    other = t.ms[third(ctrl, att)].snapshot()
    other.apply(ctrl, Kind.EVENT, bad)  # a peer that cannot open the box takes it


def test_the_attempters_evidence_names_the_controller_at_every_peer() -> None:
    t, ctrl, att, body = at_answer()
    bad = forged(t, ctrl, att, body)
    raw = t.sign(ctrl, Kind.EVENT, bad)
    m = t.ms[att].snapshot()
    with pytest.raises(SealedFault) as ei:
        m.apply_entry(decode_entry(raw))
    evidence = t.ms[att].evidence_for_entry(raw, ei.value)
    assert evidence["box_secret"] == bytes(t.ids[att].box_key)
    hs = t.ms[att].state.ctx[t.ms[att].state.stack[-1]["ctx"]]["cards"]
    assert set(hs) <= {c[0] for c in evidence["certs"]}  # the handed cards are shown: the proofs can be judged
    for s in range(3):
        v = t.ms[s]
        v.apply(att, Kind.EVIDENCE, decode_body(encode_body(evidence)))
        assert v.verdict is not None and (v.verdict.seat, v.verdict.rule) == (ctrl, "controller_answer")


def test_evidence_against_an_honest_answer_names_the_accuser() -> None:
    """The attempter posts the honest answer as if its proofs were bad, with its true box secret and certificates:
    every peer opens the box, the proofs verify, and the accuser is named (check before blame)."""
    t, ctrl, att, body = at_answer()
    raw = t.sign(ctrl, Kind.EVENT, body)
    evidence = t.ms[att].evidence_for_entry(raw, SealedFault(ctrl, "a lie", rule="controller_answer"))
    for s in range(3):
        v = t.ms[s]
        with pytest.raises(ProtocolError) as ei:
            v.apply(att, Kind.EVIDENCE, decode_body(encode_body(evidence)))
        assert ei.value.seat == att and "the entry is valid" in ei.value.msg
        assert v.verdict is None


def test_evidence_by_another_seat_than_the_attempter_cannot_open_the_box() -> None:
    """A third seat cannot open the box sealed to the attempter: its evidence, with its own box secret, is false."""
    t, ctrl, att, body = at_answer()
    bad = forged(t, ctrl, att, body)
    raw = t.sign(ctrl, Kind.EVENT, bad)
    who = third(ctrl, att)
    evidence = t.ms[who].evidence_for_entry(raw, SealedFault(ctrl, "a lie"))
    with pytest.raises(ProtocolError) as ei:
        t.ms[ctrl].apply(who, Kind.EVIDENCE, decode_body(encode_body(evidence)))
    assert ei.value.seat == who


# ---------------------------------------------------------------- shapes every peer checks


@pytest.mark.parametrize(
    "spoil,words",
    [
        (lambda b: {k: v for k, v in b.items() if k != "proof"}, "missing field 'proof'"),
        (lambda b: dict(b, proof=b"\x00" * 9000), "longer than 8192"),
        (lambda b: dict(b, proof="box"), "wrong type"),
    ],
    ids=["missing", "too-long", "not-bytes"],
)
def test_an_answer_without_a_proof_box_is_rejected_by_every_peer(spoil: Any, words: str) -> None:
    t, ctrl, _att, body = at_answer()
    for s in range(3):
        m = t.ms[s]
        before = unchanged(m)
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(ctrl, Kind.EVENT, spoil(body))
        assert ei.value.seat == ctrl and words in str(ei.value)
        assert unchanged(m) == before


def test_a_proof_box_on_an_event_that_answers_nothing_is_rejected() -> None:
    t = table()
    d = play_to(t, lambda d, m: d.kind == Kind.EVENT and d.what not in ("answer", "password"))
    out = t.ms[d.seat].author_next(t.bots[d.seat])
    assert out is not None
    body = dict(decode_body(encode_body(out[1])), proof=b"\x00" * 64)
    with pytest.raises(ProtocolError) as ei:
        t.ms[(d.seat + 1) % 3].snapshot().apply(d.seat, Kind.EVENT, body)
    assert ei.value.seat == d.seat and "answers no attempt" in str(ei.value)


def at_password() -> tuple[LocalTable, int, dict[str, Any]]:
    t = table()
    d = play_to(t, lambda d, m: d.kind == Kind.EVENT and d.what == "password")
    out = t.ms[d.seat].author_next(t.bots[d.seat])
    assert out is not None
    return t, d.seat, decode_body(encode_body(out[1]))


def other_distinct(t: LocalTable, seat: int, body: dict[str, Any]) -> bytes:
    """A valid distinct proof, for other commitments (what a password with a repeated code can send)."""
    hs = body["ev"]["cards"]
    cs, op = cp.commit_codes([0, 1, 2])
    return cp.prove_distinct(cs, op, cp.ProofContext(t.ms[0].game_id, seat, tuple(hs), b"password", t.ms[0].entries))


@pytest.mark.parametrize(
    "spoil,words",
    [
        (lambda t, s, b: dict(b, distinct=other_distinct(t, s, b)), "three codes differ does not verify"),
        (lambda t, s, b: dict(b, codes=b["codes"][32:] + b["codes"][:32]), "three codes differ does not verify"),
        (lambda t, s, b: dict(b, codes=bytes(96)), "three codes differ does not verify"),
        (lambda t, s, b: {k: v for k, v in b.items() if k != "distinct"}, "missing field 'distinct'"),
        (lambda t, s, b: {k: v for k, v in b.items() if k != "codes"}, "missing field 'codes'"),
    ],
    ids=["proof-of-other-codes", "codes-reordered", "identity-codes", "no-proof", "no-codes"],
)
def test_a_password_without_its_proof_of_distinct_codes_is_rejected_by_every_peer(spoil: Any, words: str) -> None:
    t, seat, body = at_password()
    bad = spoil(t, seat, body)
    for s in range(3):
        m = t.ms[s]
        before = unchanged(m)
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(seat, Kind.EVENT, bad)
        assert ei.value.seat == seat and words in str(ei.value)
        assert unchanged(m) == before
    t.ms[1].snapshot().apply(seat, Kind.EVENT, body)


def test_pedersen_commitments_on_an_entry_that_sets_no_password_are_rejected() -> None:
    t, ctrl, att, body = at_answer()
    _, _, pw_body = at_password()
    with pytest.raises(ProtocolError) as ei:
        t.ms[att].snapshot().apply(ctrl, Kind.EVENT, dict(body, codes=pw_body["codes"]))
    assert ei.value.seat == ctrl and "sets no password" in str(ei.value)


def test_an_opening_must_open_the_pedersen_commitment_too() -> None:
    """A hash-commitment opening that does not open the card's Pedersen commitment is the supplier's fault."""
    t, seat, body = at_password()
    m = t.ms[seat]
    h = body["ev"]["cards"][0]
    code, salt = t.ms[seat].me.openings[h]  # type: ignore[union-attr]
    c, ped = body["commit"][0], body["codes"][:32]
    openings.code_opening(m.game_id, h, c, code, salt, seat, ped)
    with pytest.raises(ProtocolError) as ei:
        openings.code_opening(m.game_id, h, c, code, salt, seat, body["codes"][32:64])
    assert (ei.value.seat, ei.value.rule) == (seat, "commitment") and "Pedersen" in ei.value.msg


# ---------------------------------------------------------------- attacks (docs/security.md, threat table)


def test_evidence_without_the_attempters_box_secret_is_judged_alike_by_every_peer() -> None:
    """A third seat (in league with a lying controller, or guessing) posts the bad answer as evidence with no box
    secret and no certificate: it proves nothing any peer can check. Every peer must judge it alike, false, the
    attempter too: were the attempter to open the box with its own key, it alone would take the evidence (a lower
    seat's evidence beats its own) while the others refuse it, and the table would split."""
    t, ctrl, att, body = at_answer()
    raw = t.sign(ctrl, Kind.EVENT, forged(t, ctrl, att, body))
    who = third(ctrl, att)
    for s in range(3):
        v = t.ms[s].snapshot()
        with pytest.raises(ProtocolError) as ei:
            v.apply(who, Kind.EVIDENCE, {"what": "entry", "raw": raw})
        assert ei.value.seat == who and "the entry is valid" in ei.value.msg, s
        assert v.verdict is None


def answer_parts(t: LocalTable, ctrl: int) -> tuple[Any, Any, tuple[int, int, int], list[int], list[bool]]:
    """The controller's commitments and opening, the password handles, the handed cards and the true answer."""
    m = t.ms[ctrl]
    st = m.state
    ctx = st.ctx[st.stack[-1]["ctx"]]
    pw = tuple(st.passwords[ctx["s"]])
    cs, op = m.part.answers.current_password(m, pw)  # type: ignore[attr-defined]
    hs = list(ctx["cards"])
    return cs, op, pw, hs, [card(st.faces[h]).code in op.codes for h in hs]  # type: ignore[return-value]


def reproved(t: LocalTable, ctrl: int, att: int, body: dict[str, Any], **ctx_change: Any) -> dict[str, Any]:
    """Every proof made again for its true statement, but in another context (another handle, seat, order of the
    password): a valid proof, replayed where it does not belong."""
    cs, op, pw, hs, truth = answer_parts(t, ctrl)
    proofs = []
    for h, m in zip(hs, truth, strict=True):
        x = card(t.ms[ctrl].state.faces[h]).code
        pctx = cp.ProofContext(t.ms[ctrl].game_id, ctrl, pw, b"answer", h)._replace(**ctx_change)
        proofs.append(cp.prove_answer(cs, op, x, pctx)[1])
        assert cp.prove_answer(cs, op, x, pctx)[0] == m
    return dict(body, proof=resealed(t, ctrl, att, pack(proofs)))


def resealed_at(t: LocalTable, ctrl: int, to: int, att: int, seq: int, payload: bytes) -> bytes:
    """A box of `payload` sealed by the controller to seat `to`, in the context of the answer at `seq` to `att`."""
    m = t.ms[att]
    ctx = b"adp2p/answer" + m.game_id + u64(seq) + bytes([ctrl, att])
    return seal_private(t.ids[ctrl], m.ids[to], ctx, payload)


SPOILS = {
    "proof-for-another-handle": lambda t, c, a, b: reproved(t, c, a, b, handle=10**6),
    "proof-for-another-seat": lambda t, c, a, b: reproved(t, c, a, b, seat=a),
    "proof-for-another-purpose": lambda t, c, a, b: reproved(t, c, a, b, purpose=b"password"),
    "proof-for-the-password-reordered": lambda t, c, a, b: reproved(
        t, c, a, b, password_handles=tuple(reversed(answer_parts(t, c)[2]))
    ),
    "one-proof-too-many": lambda t, c, a, b: dict(
        b, proof=resealed(t, c, a, pack([*proofs_in(t, c, a, b), proofs_in(t, c, a, b)[0]]))
    ),
    "box-of-another-seq": lambda t, c, a, b: dict(
        b, proof=resealed_at(t, c, a, a, t.ms[a].entries - 1, pack(proofs_in(t, c, a, b)))
    ),
    "box-sealed-to-another-seat": lambda t, c, a, b: dict(
        b, proof=resealed_at(t, c, third(c, a), a, t.ms[a].entries, pack(proofs_in(t, c, a, b)))
    ),
    "payload-a-map": lambda t, c, a, b: dict(b, proof=resealed(t, c, a, pack({"proofs": proofs_in(t, c, a, b)}))),
    "payload-ints": lambda t, c, a, b: dict(b, proof=resealed(t, c, a, pack([1] * len(proofs_in(t, c, a, b))))),
    "payload-nested": lambda t, c, a, b: dict(b, proof=resealed(t, c, a, pack([[p] for p in proofs_in(t, c, a, b)]))),
    "payload-deep": lambda t, c, a, b: dict(b, proof=resealed(t, c, a, b"\x91" * 3000 + b"\xc0")),
    "proofs-of-junk-bytes": lambda t, c, a, b: dict(
        b, proof=resealed(t, c, a, pack([b"\xff" * 1500] * len(proofs_in(t, c, a, b))))
    ),
    "proofs-of-zero-scalars": lambda t, c, a, b: dict(
        b, proof=resealed(t, c, a, pack([bytes(len(p)) for p in proofs_in(t, c, a, b)]))
    ),
}


@pytest.mark.parametrize("name", list(SPOILS))
def test_a_replayed_or_malformed_answer_proof_is_the_controllers_fault_at_every_peer(name: str) -> None:
    """Valid proofs of true statements replayed in another context, a box of another seq or for another seat,
    payloads of every wrong shape: the attempter rejects the answer (a `SealedFault`, never another exception),
    and its evidence names the controller at every peer with rule `controller_answer`."""
    t, ctrl, att, body = at_answer()
    raw = t.sign(ctrl, Kind.EVENT, SPOILS[name](t, ctrl, att, body))
    with pytest.raises(SealedFault) as ei:
        t.ms[att].snapshot().apply_entry(decode_entry(raw))
    assert (ei.value.seat, ei.value.rule) == (ctrl, "controller_answer"), ei.value
    t.ms[third(ctrl, att)].snapshot().apply_entry(decode_entry(raw))  # the others cannot tell
    evidence = decode_body(encode_body(t.ms[att].evidence_for_entry(raw, ei.value)))
    for s in range(3):
        v = t.ms[s].snapshot()
        v.apply(att, Kind.EVIDENCE, evidence)
        assert v.verdict is not None and (v.verdict.seat, v.verdict.rule) == (ctrl, "controller_answer"), s


def honest_evidence(t: LocalTable, ctrl: int, att: int, body: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
    raw = t.sign(ctrl, Kind.EVENT, body)
    return raw, t.ms[att].evidence_for_entry(raw, SealedFault(ctrl, "a lie", rule="controller_answer"))


FALSE_EVIDENCE = {  # (accuser: "att" or "ctrl" or "third", change of the attempter's evidence, lie or honest answer)
    "box-secret-of-another-seat": ("att", lambda t, c, a, e: dict(e, box_secret=bytes(t.ids[third(c, a)].box_key))),
    "box-secret-of-the-controller": ("att", lambda t, c, a, e: dict(e, box_secret=bytes(t.ids[c].box_key))),
    "box-secret-short": ("att", lambda t, c, a, e: dict(e, box_secret=bytes(31))),
    "box-secret-a-string": ("att", lambda t, c, a, e: dict(e, box_secret="secret")),
    "no-certificates": ("att", lambda t, c, a, e: {k: v for k, v in e.items() if k != "certs"}),
    "certificates-junk": ("att", lambda t, c, a, e: dict(e, certs=[[x[0], [bytes(96)] * 3] for x in e["certs"]])),
    "certificates-a-string": ("att", lambda t, c, a, e: dict(e, certs="certs")),
    "the-controller-accuses-itself": ("ctrl", lambda t, c, a, e: dict(e, box_secret=bytes(t.ids[c].box_key))),
    "a-third-seat-with-the-attempters-certs": (
        "third",
        lambda t, c, a, e: {k: v for k, v in e.items() if k != "box_secret"},
    ),
}


@pytest.mark.parametrize("lie", [False, True], ids=["honest-answer", "lying-answer"])
@pytest.mark.parametrize("name", list(FALSE_EVIDENCE))
def test_evidence_that_proves_nothing_names_its_accuser_never_the_controller(name: str, lie: bool) -> None:
    """Evidence about an answer (honest, or a lie whose proof fails) that does not show what makes it true: a box
    secret that is not the accuser's, missing or junk certificates, an accuser that is not the attempter. Every
    peer rejects it naming the accuser (a clean ProtocolError), and nobody is convicted by it."""
    who, change = FALSE_EVIDENCE[name]
    t, ctrl, att, body = at_answer()
    accuser = {"att": att, "ctrl": ctrl, "third": third(ctrl, att)}[who]
    _raw, evidence = honest_evidence(t, ctrl, att, forged(t, ctrl, att, body) if lie else body)
    for s in range(3):
        v = t.ms[s].snapshot()
        with pytest.raises(ProtocolError) as ei:
            v.apply(accuser, Kind.EVIDENCE, decode_body(encode_body(change(t, ctrl, att, evidence))))
        assert ei.value.seat == accuser, (s, ei.value)
        assert v.verdict is None


def test_evidence_of_an_older_answer_names_the_accuser() -> None:
    """The honest answer, once applied, posted as evidence at the next seq: an entry of another seq is no proof."""
    t, ctrl, att, body = at_answer()
    raw, evidence = honest_evidence(t, ctrl, att, body)
    for s in range(3):
        v = t.ms[s].snapshot()
        v.apply_entry(decode_entry(raw))
        with pytest.raises(ProtocolError) as ei:
            v.apply(att, Kind.EVIDENCE, decode_body(encode_body(evidence)))
        assert ei.value.seat == att and "not for seq" in ei.value.msg


def distinct_of(t: LocalTable, author: int, body: dict[str, Any], **ctx_change: Any) -> bytes:
    """The password's own distinct proof made again in another context (seq, seat, order): valid, but elsewhere."""
    hs = tuple(body["ev"]["cards"])
    cs, op = cp.password_commitments(t.ms[0].game_id, hs, [t.ms[author].me.openings[h] for h in hs])  # type: ignore[union-attr]
    ctx = cp.ProofContext(t.ms[0].game_id, author, hs, b"password", t.ms[0].entries)._replace(**ctx_change)  # type: ignore[arg-type]
    return cp.prove_distinct(cs, op, ctx)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda t, s, b: dict(b, distinct=distinct_of(t, s, b, handle=t.ms[0].entries - 1)),
        lambda t, s, b: dict(b, distinct=distinct_of(t, s, b, seat=(s + 1) % 3)),
        lambda t, s, b: dict(b, distinct=distinct_of(t, s, b, purpose=b"answer")),
        lambda t, s, b: dict(b, codes=b["codes"][:64] + cp.pedersen_commit(5, bytes([1]) + bytes(31))),
        lambda t, s, b: dict(b, codes=b["codes"][:64] + bytes([1]) + bytes(31)),  # the identity
        lambda t, s, b: dict(b, codes=b["codes"][:64] + bytes([0xEC]) + bytes([0xFF]) * 30 + bytes([0x7F])),
        lambda t, s, b: dict(b, codes=b["codes"][:64] + bytes(32)),  # a point of small order
        lambda t, s, b: dict(b, codes=list(b["codes"])),
        lambda t, s, b: dict(b, codes=b["codes"].hex()),
        lambda t, s, b: dict(b, codes=b["codes"] + b"\x00"),
        lambda t, s, b: dict(b, distinct=b["distinct"][:-1]),
        lambda t, s, b: dict(b, distinct=b["distinct"] * 2),
        lambda t, s, b: dict(b, distinct=None),
        lambda t, s, b: dict(b, distinct=[b["distinct"]]),
        lambda t, s, b: dict(b, distinct=bytes(3072)),
        lambda t, s, b: dict(b, distinct=b"\xff" * 3072),
    ],
    ids=[
        "distinct-of-another-seq", "distinct-of-another-seat", "distinct-for-another-purpose",
        "codes-another-commitment", "codes-identity", "codes-not-a-point", "codes-small-order", "codes-a-list",
        "codes-a-string", "codes-too-long", "distinct-short", "distinct-long", "distinct-none", "distinct-a-list",
        "distinct-zero-scalars", "distinct-not-scalars",
    ],
)
def test_a_replayed_or_malformed_password_proof_is_its_authors_fault_at_every_peer(spoil: Any) -> None:
    t, seat, body = at_password()
    bad = spoil(t, seat, body)
    for s in range(3):
        m = t.ms[s]
        before = unchanged(m)
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(seat, Kind.EVENT, bad)
        assert ei.value.seat == seat, ei.value
        assert unchanged(m) == before


def test_nothing_public_says_which_card_was_handed() -> None:
    """The answer entry carries its proofs only sealed: the public body is the event, one box and (the first answer
    about a password) the password's link proof, which is about the password cards, not the handed ones
    (tests/p2p/test_link_proofs.py); none of the answer proofs is in it in the clear (a proof in the clear would
    tell every seat the handed card's code: try the six)."""
    t, ctrl, att, body = at_answer()
    assert set(body) - {"passes", "code_link"} == {"ev", "proof"}
    public = encode_body(body)
    for proof in proofs_in(t, ctrl, att, body):
        assert proof[:32] not in public and proof[-32:] not in public


# ---------------------------------------------------------------- every attempt size, both lies


def answer_of_size(k: int) -> tuple[LocalTable, int, int, dict[str, Any]]:
    """The first seeded table that comes to a controller's answer to an attempt with k cards."""
    for seed in range(1, 30):
        t = table(seed)
        while (d := t.ms[0].duty()) is not None:
            st = t.ms[0].state
            if answer_due(d, t.ms[0]) and len(st.ctx[st.stack[-1]["ctx"]]["cards"]) == k:
                att = st.ctx[st.stack[-1]["ctx"]]["p"]
                out = t.ms[d.seat].author_next(t.bots[d.seat])
                assert out is not None
                return t, d.seat, att, decode_body(encode_body(out[1]))
            t.step()
    pytest.fail(f"no seeded game came to an attempt with {k} card(s)")


def lie(t: LocalTable, ctrl: int, att: int, body: dict[str, Any], match: list[bool]) -> dict[str, Any]:
    """The answer `match` with the best proofs a liar has: for each card it lies about, the valid proof of the same
    claim about another code (a true statement); the true proofs for the others."""
    m = t.ms[ctrl]
    st = m.state
    ctx = st.ctx[st.stack[-1]["ctx"]]
    pw = tuple(st.passwords[ctx["s"]])
    cs, op = m.part.answers.current_password(m, pw)  # type: ignore[attr-defined]
    proofs = []
    for h, said in zip(ctx["cards"], match, strict=True):
        x = card(st.faces[h]).code
        if (x in op.codes) != said:
            x = next(c for c in range(6) if (c in op.codes) == said)
        pctx = cp.ProofContext(m.game_id, ctrl, pw, b"answer", h)  # type: ignore[arg-type]
        proofs.append((cp.prove_match if said else cp.prove_no_match)(cs, op, x, pctx))
    return dict(body, ev=dict(body["ev"], match=match), proof=resealed(t, ctrl, att, pack(proofs)))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_denial_or_a_grant_that_lies_is_caught_by_the_attempter_at_every_attempt_size(k: int) -> None:
    t, ctrl, att, body = answer_of_size(k)
    truth = list(body["ev"]["match"])
    lies = []
    if any(truth):  # deny a matching card
        i = truth.index(True)
        lies.append([*truth[:i], False, *truth[i + 1 :]])
    if not all(truth):  # grant every card
        lies.append([True] * k)
    assert lies
    for match in lies:
        bad = lie(t, ctrl, att, body, match)
        with pytest.raises(SealedFault) as ei:
            t.ms[att].snapshot().apply(ctrl, Kind.EVENT, bad)
        assert (ei.value.seat, ei.value.rule) == (ctrl, "controller_answer") and "does not verify" in ei.value.msg
        t.ms[third(ctrl, att)].snapshot().apply(ctrl, Kind.EVENT, bad)  # nobody else can tell
    t.ms[att].snapshot().apply(ctrl, Kind.EVENT, body)  # the truth, proved, is taken
