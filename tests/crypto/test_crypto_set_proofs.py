"""Set membership proofs: a Pedersen-committed number lies in a public set, or outside it.

Known answer; honest proofs for every number and many sets; a prover that refuses a false statement; forged proofs
(a liar's witness on a branch that is not its number, a proof moved to another set, commitment or context) rejected;
every byte flip rejected; malformed sets, contexts, commitments and scalars refused with the one error each names."""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest
from adp2p.crypto import set_proofs as sp
from adp2p.crypto.code_proofs import H
from adp2p.crypto.errors import (
    CommitmentMismatch,
    FalseStatement,
    InvalidPoint,
    InvalidProof,
    InvalidScalar,
    MalformedEncoding,
)
from adp2p.crypto.group import (
    L,
    add,
    base_mul,
    mul,
    scalar_from_int,
    scalar_sub,
)
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st
from set_forgery import forge_set_proof

U = tuple(range(1, 10))
CTX = sp.NumberContext(GAME_ID, 1, 7, b"near", 42)
BLIND = scalar_from_int(13)


def _flip(proof: bytes, byte: int, bit: int = 0) -> bytes:
    return proof[:byte] + bytes([proof[byte] ^ (1 << bit)]) + proof[byte + 1 :]


def test_known_answer() -> None:
    """Game id 00112233…eeff, number 4, blinding 13, set {2..6}, context (seat 1, handle 7, "near", seq 42),
    randomness 00 01 … 1f (docs/protocol.md)."""
    c = sp.commit_number(4, BLIND)
    assert c.hex() == "73aba361788b40761063e1a66162ccb0148512899dbcd3b5cfb87fdf95096a3f"
    assert c == add(base_mul(scalar_from_int(4)), mul(BLIND, H))
    p = sp.prove_in_set(c, 4, BLIND, (2, 3, 4, 5, 6), CTX, entropy=bytes(range(32)))
    assert len(p) == 5 * 64
    assert hashlib.sha256(p).hexdigest() == "b9ef10d1441b02db9b1b06a9453c03ea05cbf0e949ee081a3b00fb112a9f9c90"
    assert p[:32].hex() == "c547665b53adb4f311a769bdde059b40b29909c0d79af7dd6422b5f58cf99305"
    sp.verify_in_set(c, (2, 3, 4, 5, 6), p, CTX)
    assert sp.commit_number(0, BLIND) == mul(BLIND, H)  # zero: no 0·G (libsodium refuses it)


def test_honest_proofs_verify_for_every_number_and_many_sets() -> None:
    rng = random.Random(31)
    for v in U:
        blind = scalar_from_int(rng.randrange(1, L))
        c = sp.commit_number(v, blind)
        for _ in range(4):
            others = rng.sample([u for u in U if u != v], rng.randrange(0, 8))
            members = sp.number_set([v, *others])
            p = sp.prove_in_set(c, v, blind, members, CTX)
            assert len(p) == sp.proof_len(members) == 64 * len(members)
            sp.verify_in_set(c, members, p, CTX)
            if len(members) < len(U):
                out = sp.complement(members, U)
                q = sp.prove_outside_set(c, v, blind, out, U, CTX)
                sp.verify_outside_set(c, out, U, q, CTX)
                assert len(q) == 64 * len(members)  # outside `out` is inside `members`
                with pytest.raises(InvalidProof):  # a proof of "in" is no proof of "outside"
                    sp.verify_in_set(c, out, p, CTX)


def test_an_honest_prover_refuses_a_false_statement() -> None:
    c = sp.commit_number(4, BLIND)
    with pytest.raises(FalseStatement):
        sp.prove_in_set(c, 4, BLIND, (1, 2, 3), CTX)
    with pytest.raises(FalseStatement):
        sp.prove_outside_set(c, 4, BLIND, (3, 4, 5), U, CTX)
    with pytest.raises(CommitmentMismatch):  # a number the commitment does not hold
        sp.prove_in_set(c, 5, BLIND, (5,), CTX)
    with pytest.raises(CommitmentMismatch):  # another blinding
        sp.prove_in_set(c, 4, scalar_from_int(14), (4,), CTX)


def test_the_forger_is_sound_when_honest_and_every_lie_is_rejected() -> None:
    """The liar's prover makes an accepted proof with the true witness (so it is the real algorithm), and a rejected
    one on every branch of a set that does not hold its number, with its blinding or any other scalar."""
    c = sp.commit_number(4, BLIND)
    sp.verify_in_set(c, (2, 4, 6), forge_set_proof(c, (2, 4, 6), 1, BLIND, CTX), CTX)
    for members in ((1,), (1, 2, 3), (5, 6, 7, 8, 9), (1, 2, 3, 5, 6, 7, 8, 9)):
        for t in range(len(members)):
            for w in (BLIND, scalar_sub(BLIND, scalar_from_int(1)), scalar_from_int(99)):
                with pytest.raises(InvalidProof):
                    sp.verify_in_set(c, members, forge_set_proof(c, members, t, w, CTX), CTX)


def test_a_proof_is_bound_to_its_commitment_set_and_context() -> None:
    c = sp.commit_number(4, BLIND)
    members = (3, 4, 5)
    p = sp.prove_in_set(c, 4, BLIND, members, CTX)
    sp.verify_in_set(c, members, p, CTX)
    for other in (sp.commit_number(4, scalar_from_int(14)), sp.commit_number(3, BLIND), base_mul(BLIND)):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(other, members, p, CTX)
    for s in ((2, 4, 5), (3, 4, 6), (4, 5, 6), (2, 3, 4)):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(c, s, p, CTX)
    for ctx in (
        CTX._replace(game_id=bytes(16)),
        CTX._replace(seat=2),
        CTX._replace(handle=8),
        CTX._replace(purpose=b"equal"),
        CTX._replace(seq=43),
    ):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(c, members, p, ctx)


def test_every_byte_flip_is_rejected() -> None:
    c = sp.commit_number(9, BLIND)
    members = (1, 2, 3, 4, 5, 6, 7, 9)  # the longest answer over 1..9: 8 branches, 512 bytes
    p = sp.prove_in_set(c, 9, BLIND, members, CTX)
    for byte in range(len(p)):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(c, members, _flip(p, byte, byte % 8), CTX)


def test_malformed_proofs_are_refused() -> None:
    c = sp.commit_number(4, BLIND)
    members = (3, 4, 5)
    p = sp.prove_in_set(c, 4, BLIND, members, CTX)
    big = (L + 1).to_bytes(32, "little")
    for bad in (p[:-1], p + b"\0", b"", bytes(len(p)), big + p[32:], p[:32] + big + p[64:], p[:-32] + bytes(32),
                p[:64], p + p[:64], "x" * len(p), bytearray(p)):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(c, members, bad, CTX)  # type: ignore[arg-type]
    with pytest.raises(InvalidPoint):
        sp.verify_in_set(bytes(32), members, p, CTX)
    with pytest.raises(InvalidPoint):
        sp.verify_in_set(b"\1" + bytes(31), members, p, CTX)  # the identity
    unblinded = base_mul(scalar_from_int(4))  # 4·G: no blinding for the member 4
    with pytest.raises(InvalidProof):
        sp.verify_in_set(unblinded, members, p, CTX)


def test_malformed_sets_and_contexts_are_refused() -> None:
    c = sp.commit_number(4, BLIND)
    for bad in ((), (4, 3), (3, 3, 4), (4, 2**16), (-1, 4), (True, 4), [3, 4], (3.0, 4), tuple(range(65)), "34"):
        with pytest.raises(MalformedEncoding):
            sp.check_set(bad)
        with pytest.raises(MalformedEncoding):
            sp.verify_in_set(c, bad, bytes(64), CTX)  # type: ignore[arg-type]
    assert sp.number_set([5, 3, 3, 4]) == (3, 4, 5)
    assert sp.complement((3, 4), U) == (1, 2, 5, 6, 7, 8, 9)
    with pytest.raises(MalformedEncoding):
        sp.complement((3, 10), U)  # 10 is outside the wheel
    with pytest.raises(MalformedEncoding):
        sp.complement(U, U)  # nothing left: no proof of "outside everything"
    for ctx in (
        CTX._replace(game_id=bytes(15)),
        CTX._replace(game_id="x" * 16),
        CTX._replace(seat=256),
        CTX._replace(seat=True),
        CTX._replace(handle=-1),
        CTX._replace(seq=2**64),
        CTX._replace(purpose=b""),
        CTX._replace(purpose=b"x" * 65),
    ):
        with pytest.raises(MalformedEncoding):
            ctx.to_bytes()
    with pytest.raises(MalformedEncoding):
        sp.prove_in_set(c, 4, BLIND, (4,), CTX, entropy=b"short")
    p = sp.prove_in_set(c, 4, BLIND, (4,), CTX)
    for bad_ctx in (None, CTX.to_bytes(), tuple(CTX)):
        with pytest.raises(MalformedEncoding):
            sp.verify_in_set(c, (4,), p, bad_ctx)  # type: ignore[arg-type]
    with pytest.raises(MalformedEncoding):
        sp.commit_number(2**16, BLIND)


def test_proofs_reveal_nothing_repeatable() -> None:
    """Fresh randomness: two proofs of one statement differ (and both verify); fixed entropy reproduces."""
    c = sp.commit_number(6, BLIND)
    a, b = (sp.prove_in_set(c, 6, BLIND, (5, 6, 7), CTX) for _ in range(2))
    assert a != b
    for p in (a, b):
        sp.verify_in_set(c, (5, 6, 7), p, CTX)
    e = bytes(32)
    assert sp.prove_in_set(c, 6, BLIND, (5, 6, 7), CTX, entropy=e) == sp.prove_in_set(c, 6, BLIND, (5, 6, 7), CTX,
                                                                                        entropy=e)


def test_every_member_position_is_a_possible_true_branch() -> None:
    """The true branch may be anywhere in the set (first, middle, last), over every set of up to three members."""
    for members in itertools.chain.from_iterable(itertools.combinations(U, k) for k in (1, 2, 3)):
        for v in members:
            blind = scalar_from_int(100 + v)
            c = sp.commit_number(v, blind)
            sp.verify_in_set(c, members, sp.prove_in_set(c, v, blind, members, CTX), CTX)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.binary(min_size=0, max_size=600), st.sets(st.integers(1, 9), min_size=1, max_size=8))
def test_fuzz_never_raises_anything_but_invalid_proof(junk: bytes, members: set[int]) -> None:
    s = sp.number_set(members)
    c = sp.commit_number(5, BLIND)
    for proof in (junk, (junk * 600)[: 64 * len(s)] if junk else bytes(64 * len(s))):
        with pytest.raises(InvalidProof):
            sp.verify_in_set(c, s, proof, CTX)


def test_number_blinding_known_answer_and_bounds() -> None:
    """A hidden card's blinding from its holder's deck secret: game id 00112233…eeff, handle 42, secret 11."""
    r = sp.number_blinding(GAME_ID, 42, scalar_from_int(11))
    assert r.hex() == "9141f2f2ff555327121e23cdb19b5e70d31c975647e926e3979f86b624cbeb06"
    assert r != sp.number_blinding(GAME_ID, 43, scalar_from_int(11))
    assert r != sp.number_blinding(GAME_ID, 42, scalar_from_int(12))
    assert r != sp.number_blinding(bytes(16), 42, scalar_from_int(11))
    for args in ((bytes(15), 42, scalar_from_int(11)), (GAME_ID, -1, scalar_from_int(11)), (GAME_ID, 2**64, BLIND),
                 (GAME_ID, True, BLIND)):
        with pytest.raises(MalformedEncoding):
            sp.number_blinding(*args)  # type: ignore[arg-type]
    for bad in (bytes(32), (L + 1).to_bytes(32, "little")):  # a zero or non-canonical secret
        with pytest.raises(InvalidScalar):
            sp.number_blinding(GAME_ID, 42, bad)
