"""Link proof: a code commitment holds the code of the (hidden) password card its holder has.

A real dealt card (three seats, shuffled deck, the other seats' proven shares removed); one negative test per
input (card, key, commitment, faces, context, every branch's scalars, lengths, encodings); a controller that
commits a code that is not its card's cannot link it; known answer; fuzz."""

from __future__ import annotations

import hashlib
import random
from typing import NamedTuple

import pytest
from adp2p.crypto import code_link as cl
from adp2p.crypto import code_proofs as cp
from adp2p.crypto import deck
from adp2p.crypto.errors import CommitmentMismatch, FalseStatement, InvalidPoint, InvalidProof, MalformedEncoding
from adp2p.crypto.group import CardTable, L, add, base_mul, mul, scalar_from_int, sub
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

TABLE = CardTable(GAME_ID)
FACES = [(p, i % 6) for i, p in enumerate(TABLE.points)]  # a code for every card (the game's are in engine/)
HOLDER = 1
CTX = cp.ProofContext(GAME_ID, HOLDER, (4, 9, 20), b"link", 9)


class Held(NamedTuple):
    c1: bytes
    c2p: bytes  # c2 minus every other seat's share: ElGamal under the holder's key alone
    c2: bytes
    face: int
    key: deck.DeckKey
    other_key: deck.DeckKey


def _deal(handle: int) -> Held:
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(3)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    pile, _ = deck.shuffle(deck.initial_deck(GAME_ID, pk, TABLE), pk)
    ct = pile[handle]
    shares = [deck.make_share(GAME_ID, k, handle, ct) for k in keys if k.seat != HOLDER]
    for s in shares:  # the other seats' shares are published with their DLEQ proofs
        deck.verify_share(GAME_ID, keys[s.seat].public, handle, ct, s)
    c2p = deck.combine(ct, [s.d for s in shares])
    face = TABLE.face(sub(c2p, mul(keys[HOLDER].secret, ct.c1)))  # only the holder can do this
    return Held(ct.c1, c2p, ct.c2, face, keys[HOLDER], keys[0])


@pytest.fixture(scope="module")
def held() -> Held:
    return _deal(9)


@pytest.fixture(scope="module")
def linked(held: Held) -> tuple[cp.Commitments, cp.PasswordOpening, bytes]:
    code = FACES[held.face][1]
    cs, op = cp.commit_codes((code, (code + 1) % 6, (code + 2) % 6))
    proof = cl.prove_link(held.c1, held.c2p, held.key.secret, cs[0], code, op.blinds[0], held.face, FACES, CTX)
    return cs, op, proof


def _flip(proof: bytes, byte: int, bit: int = 0) -> bytes:
    return proof[:byte] + bytes([proof[byte] ^ (1 << bit)]) + proof[byte + 1 :]


def test_honest_link_proofs_verify_for_dealt_cards() -> None:
    for handle in (0, 31, 62):
        h = _deal(handle)
        code = FACES[h.face][1]
        cs, op = cp.commit_codes(((code + 3) % 6, code, (code + 1) % 6))
        p = cl.prove_link(h.c1, h.c2p, h.key.secret, cs[1], code, op.blinds[1], h.face, FACES, CTX)
        assert len(p) == 63 * 96
        cl.verify_link(h.c1, h.c2p, h.key.public, cs[1], FACES, p, CTX)
        with pytest.raises(InvalidProof):
            cl.verify_link(h.c1, h.c2p, h.key.public, cs[0], FACES, p, CTX)  # another slot's commitment


def test_a_link_proof_is_bound_to_every_input(held: Held, linked: tuple) -> None:
    cs, _, p = linked
    h = held
    cl.verify_link(h.c1, h.c2p, h.key.public, cs[0], FACES, p, CTX)
    other = _deal(10)
    moved = FACES[1:] + FACES[:1]
    recoded = [(pt, (c + 1) % 6 if i == h.face else c) for i, (pt, c) in enumerate(FACES)]
    for args in (
        (h.c1, h.c2, h.key.public, cs[0], FACES, CTX),  # the other seats' shares not removed
        (other.c1, other.c2p, h.key.public, cs[0], FACES, CTX),  # another card
        (h.c1, h.c2p, h.other_key.public, cs[0], FACES, CTX),  # another seat's key
        (h.c1, h.c2p, h.key.public, cp.pedersen_commit(FACES[h.face][1], scalar_from_int(5)), FACES, CTX),
        (h.c1, h.c2p, h.key.public, cs[0], moved, CTX),  # the faces in another order
        (h.c1, h.c2p, h.key.public, cs[0], recoded, CTX),  # the card's code changed in the table
        (h.c1, h.c2p, h.key.public, cs[0], FACES, CTX._replace(handle=10)),
        (h.c1, h.c2p, h.key.public, cs[0], FACES, CTX._replace(seat=0)),
        (h.c1, h.c2p, h.key.public, cs[0], FACES, CTX._replace(purpose=b"answer")),
        (h.c1, h.c2p, h.key.public, cs[0], FACES, CTX._replace(password_handles=(4, 9, 21))),
        (h.c1, h.c2p, h.key.public, cs[0], FACES, CTX._replace(game_id=bytes(16))),
    ):
        c1, c2p, pub, c, faces, ctx = args
        with pytest.raises(InvalidProof):
            cl.verify_link(c1, c2p, pub, c, faces, p, ctx)


def test_the_honest_prover_refuses_a_false_link(held: Held) -> None:
    h = held
    code = FACES[h.face][1]
    cs, op = cp.commit_codes(((code + 1) % 6, code, (code + 2) % 6))
    with pytest.raises(FalseStatement):  # a committed code that is not the card's
        cl.prove_link(h.c1, h.c2p, h.key.secret, cs[0], op.codes[0], op.blinds[0], h.face, FACES, CTX)
    with pytest.raises(FalseStatement):  # another card than the one held
        cl.prove_link(h.c1, h.c2p, h.key.secret, cs[1], code, op.blinds[1], (h.face + 6) % 63, FACES, CTX)
    with pytest.raises(FalseStatement):  # another key than the holder's
        cl.prove_link(h.c1, h.c2p, h.other_key.secret, cs[1], code, op.blinds[1], h.face, FACES, CTX)
    with pytest.raises(CommitmentMismatch):
        cl.prove_link(h.c1, h.c2p, h.key.secret, cs[0], code, op.blinds[1], h.face, FACES, CTX)
    with pytest.raises(MalformedEncoding):
        cl.prove_link(h.c1, h.c2p, h.key.secret, cs[1], code, op.blinds[1], 63, FACES, CTX)


def test_a_controller_cannot_link_a_code_that_is_not_its_card(held: Held) -> None:
    h = held
    true_code = FACES[h.face][1]
    for false_code in range(6):
        if false_code == true_code:
            continue
        c, blind = cp.pedersen_commit(false_code, scalar_from_int(77)), scalar_from_int(77)
        # 1. it pretends its card has the false code (a doctored table the prover accepts)
        lie = [(pt, false_code if i == h.face else k) for i, (pt, k) in enumerate(FACES)]
        p = cl.prove_link(h.c1, h.c2p, h.key.secret, c, false_code, blind, h.face, lie, CTX)
        with pytest.raises(InvalidProof):
            cl.verify_link(h.c1, h.c2p, h.key.public, c, FACES, p, CTX)
        # 2. it claims another card with that code (a proof for another ciphertext of that card)
        f = next(i for i, (_, k) in enumerate(FACES) if k == false_code)
        fake_c2p = add(TABLE.point(f), mul(h.key.secret, h.c1))
        p = cl.prove_link(h.c1, fake_c2p, h.key.secret, c, false_code, blind, f, FACES, CTX)
        with pytest.raises(InvalidProof):
            cl.verify_link(h.c1, h.c2p, h.key.public, c, FACES, p, CTX)


SMALL = 8  # a small candidate table where every branch is tampered with (each face's branch costs ~0.5 ms)


def test_every_branch_scalar_is_checked(held: Held) -> None:
    h = held
    faces = [FACES[h.face], *[f for i, f in enumerate(FACES) if i != h.face][: SMALL - 1]]
    code = faces[0][1]
    c = cp.pedersen_commit(code, scalar_from_int(3))
    p = cl.prove_link(h.c1, h.c2p, h.key.secret, c, code, scalar_from_int(3), 0, faces, CTX)
    cl.verify_link(h.c1, h.c2p, h.key.public, c, faces, p, CTX)
    rng = random.Random(14)
    for i in range(0, len(p), 32):  # e, s, t of every branch
        with pytest.raises(InvalidProof):
            cl.verify_link(h.c1, h.c2p, h.key.public, c, faces, _flip(p, i + rng.randrange(31), rng.randrange(8)), CTX)
        v = int.from_bytes(p[i : i + 32], "little") + L
        if v < 2**256:
            with pytest.raises(InvalidProof, match="not reduced"):
                cl.verify_link(h.c1, h.c2p, h.key.public, c, faces, p[:i] + v.to_bytes(32, "little") + p[i + 32 :], CTX)
    for bad in (p[:-1], p + b"\0", p[:-96], p + p[:96], bytes(len(p)), bytearray(p)):
        with pytest.raises(InvalidProof):
            cl.verify_link(h.c1, h.c2p, h.key.public, c, faces, bad, CTX)  # type: ignore[arg-type]
    with pytest.raises(InvalidProof):
        cl.verify_link(h.c1, h.c2p, h.key.public, c, faces[:-1], p[:-96], CTX)  # a face dropped


def test_inputs_are_checked(held: Held, linked: tuple) -> None:
    h = held
    cs, _, p = linked
    bad_faces: list[list[tuple[bytes, int]]] = [
        [],
        [*FACES, FACES[0]],
        [(FACES[0][0], 6), *FACES[1:]],
        [(bytes(32), 0), *FACES[1:]],
    ]
    for faces in bad_faces:
        with pytest.raises((MalformedEncoding, InvalidPoint)):
            cl.verify_link(h.c1, h.c2p, h.key.public, cs[0], faces, p, CTX)
    identity = bytes([1]) + bytes(31)
    for i in range(4):
        args = [h.c1, h.c2p, h.key.public, cs[0]]
        args[i] = identity
        with pytest.raises(InvalidPoint):
            cl.verify_link(*args, FACES, p, CTX)  # type: ignore[call-arg]
    # a face equal to c2' would put the identity in a branch: refused, never multiplied
    with pytest.raises(InvalidProof, match="identity"):
        cl.verify_link(h.c1, h.c2p, h.key.public, cs[0], [*FACES[:-1], (h.c2p, 0)], p, CTX)


def test_known_answer() -> None:
    x, blind = scalar_from_int(1234567), scalar_from_int(11)
    c1 = base_mul(scalar_from_int(5))
    faces = FACES[:8]
    c2p = add(faces[3][0], mul(x, c1))
    c = cp.pedersen_commit(faces[3][1], blind)
    p = cl.prove_link(c1, c2p, x, c, faces[3][1], blind, 3, faces, CTX, entropy=bytes(range(32)))
    cl.verify_link(c1, c2p, base_mul(x), c, faces, p, CTX)
    assert hashlib.sha256(p).hexdigest() == "0c0c517079638aa639fda3cad240329bf018ac216f08175fd8ecba67d768242e"


_FUZZ: dict[str, tuple] = {}


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=4 * 96), st.booleans())
def test_random_bytes_as_a_link_proof_only_raise_invalid_proof(raw: bytes, exact: bool) -> None:
    if not _FUZZ:
        c1, x = base_mul(scalar_from_int(5)), scalar_from_int(9)
        _FUZZ["args"] = (c1, add(FACES[0][0], mul(x, c1)), base_mul(x), cp.pedersen_commit(0, scalar_from_int(2)))
    if exact:
        raw = (raw * (3 * 96 // max(len(raw), 1) + 1))[: 3 * 96] if raw else bytes(3 * 96)
    with pytest.raises(InvalidProof):
        cl.verify_link(*_FUZZ["args"], FACES[:3], raw, CTX)


def test_a_prover_without_its_checks_cannot_link_a_false_code(held: Held, monkeypatch: pytest.MonkeyPatch) -> None:
    """The prover's own refusals switched off: it claims the branch of a card it does not hold (its DLEQ half is
    false), or commits another code than the card's (its Pedersen half is false). Neither verifies."""
    h = held
    true_code = FACES[h.face][1]
    false_code = (true_code + 1) % 6
    blind = scalar_from_int(77)
    c = cp.pedersen_commit(false_code, blind)
    f = next(i for i, (_, k) in enumerate(FACES) if k == false_code)
    with monkeypatch.context() as m:
        m.setattr(cl, "add", lambda *_: h.c2p)  # "the card is face f"
        p = cl.prove_link(h.c1, h.c2p, h.key.secret, c, false_code, blind, f, FACES, CTX)
    with pytest.raises(InvalidProof):
        cl.verify_link(h.c1, h.c2p, h.key.public, c, FACES, p, CTX)
    with monkeypatch.context() as m:
        m.setattr(cl, "pedersen_commit", lambda *_: c)  # "the commitment holds the card's code"
        p = cl.prove_link(h.c1, h.c2p, h.key.secret, c, true_code, blind, h.face, FACES, CTX)
    with pytest.raises(InvalidProof):
        cl.verify_link(h.c1, h.c2p, h.key.public, c, FACES, p, CTX)
