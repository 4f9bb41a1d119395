"""Link proofs at the table (games/access_denied/links.py): a controller's first answer about a password carries, per
password card, every other seat's decryption share and the proof that the card's Pedersen commitment holds that
card's code; every peer checks it on arrival, and a missing, surplus or false one names the controller at once
(rule `password_link`), before the answer counts. Seeded in-process tables, bad bodies handed to single machines'
`apply` (as in test_answer_proofs.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from adp2p.crypto.card_link import prove_card_link, verify_card_link
from adp2p.crypto.code_proofs import ProofContext, code_blinding, pedersen_commit
from adp2p.crypto.deck import Share, combine, make_share
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CommitmentMismatch, FalseStatement, InvalidProof
from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied.answers import attempt_of
from adp2p.games.access_denied.links import PURPOSE_LINK
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Duty, Machine, ProtocolError
from adp2p.p2p.protocol import Kind, decode_body, encode_body
from seeds import seeded_table


def table(seed: int = 7) -> LocalTable:
    return seeded_table(3, seed, round_limit=40, bots="deduction")


def answer_due(d: Duty, m: Machine) -> bool:
    return d.kind == Kind.EVENT and d.what == "answer"


def password_of(m: Machine) -> tuple[int, int, int]:
    return attempt_of(m.state)[1]


def at_answer(t: LocalTable, first: bool) -> tuple[int, tuple[int, int, int], dict[str, Any]]:
    """Play on to a controller's answer that is (first=True) or is not the first about its password: (controller,
    its password, the honest body through the codec). The table stands before that answer."""
    while (d := t.ms[0].duty()) is not None:
        if answer_due(d, t.ms[0]) and t.ms[0].part.links.link_due(password_of(t.ms[0])) == first:
            out = t.ms[d.seat].author_next(t.bots[d.seat])
            assert out is not None
            return d.seat, password_of(t.ms[0]), decode_body(encode_body(out[1]))
        t.step()
    pytest.fail("the game ended before the answer the test needs")


def unchanged(m: Machine) -> tuple[Any, ...]:
    return m.entries, copy.deepcopy(m.state.access), m.state.seq, m.duty(), set(m.part.links.linked)


def rejected_by_every_peer(t: LocalTable, ctrl: int, body: dict[str, Any], words: str) -> None:
    for m in t.ms:
        before = unchanged(m)
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(ctrl, Kind.EVENT, body)
        assert ei.value.seat == ctrl and words in str(ei.value), str(ei.value)
        assert ei.value.rule == "password_link"
        assert unchanged(m) == before


# ---------------------------------------------------------------- honest play


def test_each_attacked_password_is_linked_once_with_its_first_answer_and_the_audit_agrees() -> None:
    t = table(3).run()
    firsts = later = 0
    for raw in t.raws:
        e = decode_entry(raw)
        if e.kind != Kind.EVENT:
            continue
        body = decode_body(e.body)
        if body["ev"].get("t") == "answer":
            if "code_link" in body:
                firsts += 1
                assert len(body["code_link"]) == 3
                for shares, proof in body["code_link"]:
                    assert len(shares) == 2 and len(proof) == 128  # version 5: constant size (version 4: 63 × 96)
            else:
                later += 1
    assert firsts >= 1 and later >= 1, (firsts, later)
    for m in t.ms:
        assert len(m.part.links.linked) == 3 * firsts and m.part.links.linked <= set(m.part.records.pedersen)
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations


def test_the_first_answer_about_a_password_carries_its_link_and_every_peer_takes_it() -> None:
    t = table()
    ctrl, pw, body = at_answer(t, first=True)
    assert "code_link" in body
    for m in t.ms:
        c = m.snapshot()
        c.apply(ctrl, Kind.EVENT, body)
        assert set(pw) <= c.part.links.linked


def test_a_later_answer_about_the_same_password_carries_none() -> None:
    t = table()
    _ctrl, pw, body = at_answer(t, first=False)
    assert "code_link" not in body and set(pw) <= t.ms[0].part.links.linked


def test_a_link_made_ahead_while_others_are_on_duty_is_the_one_sent() -> None:
    """`prepare_ahead` (called by a peer while it waits) makes the link of a password of its own that has none yet,
    only when another seat is on duty; the first answer then sends exactly that (at a seeded table the proof's
    randomness is fixed by the seed and the password entry, so it is the link authoring would make)."""
    t = table()
    while (d := t.ms[0].duty()) is not None:
        m = next((m for m in t.ms if m.seat != d.seat and m.prepare_ahead()), None)
        if m is not None:
            break
        t.step()
    else:
        pytest.fail("nobody could make a link ahead")
    ((pw, items),) = m.part.links.ready.items()
    assert items is not None and items == m.part.links.make_link(m, pw)
    assert not m.prepare_ahead()  # one password of ours: nothing more to make
    assert t.ms[d.seat].duty() == d and not t.ms[d.seat].prepare_ahead()  # the seat on duty makes none
    while not (answer_due(t.ms[0].duty(), t.ms[0]) and password_of(t.ms[0]) == pw):  # type: ignore[arg-type]
        t.step()
        if t.ms[0].duty() is None:
            pytest.fail("seeded game: no attempt on that password (pick another seed)")
    out = m.author_next(t.bots[m.seat])  # type: ignore[index]
    assert out is not None and out[1]["code_link"] == items


def test_a_link_made_ahead_is_checked_then_and_not_again_when_its_answer_is_folded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: the controller checks the links it made ahead right then, off the critical path, exactly as every
    peer checks them (the same statement, bytes for bytes); when it folds its own answer entry, each proof is found
    remembered and not checked again. A proof changed in one bit is checked and refused all the same."""
    from adp2p.crypto import card_link

    card_link.forget_verified()
    t = table()
    ctrl, pw, body = at_answer(t, first=True)
    m = t.ms[ctrl]
    checked: list[bytes] = []
    real = card_link._challenge
    monkeypatch.setattr(card_link, "_challenge", lambda *a: checked.append(a[0]) or real(*a))
    m.part.links.check_ahead(m, pw, body["code_link"])  # (what `prepare_ahead` does after making them)
    assert len(checked) == 3  # one check per card, made now
    m.snapshot().apply(ctrl, Kind.EVENT, body)
    assert len(checked) == 3  # the fold of the answer: every proof remembered
    bad = [list(it) for it in body["code_link"]]
    bad[1][1] = flip(bad[1][1])
    with pytest.raises(ProtocolError, match="does not verify"):
        m.snapshot().apply(ctrl, Kind.EVENT, dict(body, code_link=bad))
    card_link.forget_verified()
    m.snapshot().apply(ctrl, Kind.EVENT, body)
    assert len(checked) == 3 + 1 + 3  # the bad body: card 1 checked, refused (card 0 remembered); then all three


# ---------------------------------------------------------------- a missing, surplus or false link: every peer


def test_a_first_answer_without_its_link_is_rejected_by_every_peer() -> None:
    t = table()
    ctrl, _pw, body = at_answer(t, first=True)
    rejected_by_every_peer(t, ctrl, {k: v for k, v in body.items() if k != "code_link"}, "carries no link proof")


def test_a_link_on_a_later_answer_is_rejected_by_every_peer() -> None:
    t = table()
    ctrl, _pw, body = at_answer(t, first=False)
    rejected_by_every_peer(t, ctrl, dict(body, code_link=[]), "already linked")


def swap_proofs(body: dict[str, Any]) -> dict[str, Any]:
    """Each card's valid proof given for the next card: valid proofs, of other statements."""
    items = body["code_link"]
    return dict(body, code_link=[[items[i][0], items[(i + 1) % 3][1]] for i in range(3)])


def flip(proof: bytes) -> bytes:
    return proof[:40] + bytes([proof[40] ^ 1]) + proof[41:]


@pytest.mark.parametrize(
    "spoil,words",
    [
        (swap_proofs, "does not verify"),
        (lambda b: dict(b, code_link=[[s, flip(p)] for s, p in b["code_link"]]), "does not verify"),
        (lambda b: dict(b, code_link=[[s, p[:-32]] for s, p in b["code_link"]]), "does not verify"),
        (lambda b: dict(b, code_link=b["code_link"][:2]), "no link proof per card"),
        (lambda b: dict(b, code_link=[[s[:1], p] for s, p in b["code_link"]]), "1 share(s), due 2"),
        (lambda b: dict(b, code_link=[[s[::-1], p] for s, p in b["code_link"]]), "not one per other seat"),
        (lambda b: dict(b, code_link=[[[b"x"] * 2, p] for s, p in b["code_link"]]), "malformed share"),
        (lambda b: dict(b, code_link=[[s, "proof"] for s, p in b["code_link"]]), "a link item is"),
        (lambda b: dict(b, code_link=[[s, p + bytes(32)] for s, p in b["code_link"]]), "160 bytes (at most 128)"),
    ],
    ids=["swapped", "flipped", "short", "two-items", "one-share", "share-order", "junk-share", "not-bytes", "too-long"],
)
def test_a_false_or_malformed_link_names_the_controller_at_every_peer(spoil: Any, words: str) -> None:
    t = table()
    ctrl, _pw, body = at_answer(t, first=True)
    rejected_by_every_peer(t, ctrl, spoil(body), words)


def test_a_share_in_a_link_that_is_not_its_seats_names_the_controller_who_supplied_it() -> None:
    """Check before blame: the share of another seat carried in the link is checked against that seat's deck key;
    a false one is the controller's (it supplied it), never the seat whose name it bears."""
    t = table()
    ctrl, pw, body = at_answer(t, first=True)
    m = t.ms[ctrl]
    other = next(s for s in range(3) if s != ctrl)
    real = Share.from_bytes(body["code_link"][0][0][0])
    assert real.seat == other
    fake = Share(other, make_share(m.game_id, m.deck_key, pw[0], m.hmap[pw[0]]).d, real.proof)  # type: ignore[arg-type]
    items = [list(x) for x in body["code_link"]]
    items[0] = [[fake.to_bytes(), *items[0][0][1:]], items[0][1]]
    for peer in t.ms:
        with pytest.raises(ProtocolError) as ei:
            peer.snapshot().apply(ctrl, Kind.EVENT, dict(body, code_link=items))
        assert ei.value.seat == ctrl, str(ei.value)


def test_a_proof_for_the_true_code_does_not_pass_for_a_false_commitment() -> None:
    """What a consistent liar (FalseCommitment in the zoo) can at best send: the valid link proof of a commitment to
    the card's TRUE code with the same blinding. It does not verify for the commitment it published, and an honest
    prover refuses the false statement outright."""
    t = table()
    ctrl, pw, body = at_answer(t, first=True)
    m = t.ms[ctrl]
    h = pw[0]
    code, salt = m.me.openings[h]  # type: ignore[union-attr]
    blind = code_blinding(m.game_id, h, salt)
    assert pedersen_commit(code, blind) == m.part.records.pedersen[h] and card(m.state.faces[h]).code == code
    ct = m.hmap[h]
    others = [Share.from_bytes(r) for r in body["code_link"][0][0]]
    c2p = combine(ct, (s.d for s in others))
    ctx = ProofContext(m.game_id, ctrl, pw, PURPOSE_LINK, h)
    j, secret, face = m.table.id_base, m.deck_key.secret, m.state.faces[h]  # type: ignore[union-attr]
    false = (code + 1) % 6
    with pytest.raises(CommitmentMismatch):
        prove_card_link(j, ct.c1, c2p, secret, pedersen_commit(false, blind), code, blind, face, ctx)
    with pytest.raises(FalseStatement):
        prove_card_link(j, ct.c1, c2p, secret, pedersen_commit(false, blind), false, blind, face, ctx)
    true_proof = prove_card_link(j, ct.c1, c2p, secret, m.part.records.pedersen[h], code, blind, face, ctx)
    verify_card_link(j, ct.c1, c2p, m.deck_key.public, m.part.records.pedersen[h], true_proof, ctx)  # type: ignore[union-attr]
    with pytest.raises(InvalidProof):
        verify_card_link(j, ct.c1, c2p, m.deck_key.public, pedersen_commit(false, blind), true_proof, ctx)  # type: ignore[union-attr]
