"""Proof of shuffle: honest proofs verify, every verification equation and check rejects what it must, strict
decoding, a known-answer vector, and random bytes only ever raise ShuffleError."""

from __future__ import annotations

import functools
import hashlib

import msgpack
import pytest
from adp2p.crypto.deck import (
    Ciphertext,
    DeckKey,
    ShuffleWitness,
    apply_shuffle,
    encode_deck,
    fresh_pile,
    joint_key,
    receive_shuffle,
    shuffle,
)
from adp2p.crypto.errors import ShuffleError
from adp2p.crypto.group import (
    IDENTITY,
    CardTable,
    L,
    add,
    base_mul,
    check_point,
    is_valid_point,
    mul,
    scalar_add,
    scalar_from_int,
)
from adp2p.crypto.shuffle_proof import (
    PROOF_VERSION,
    ShuffleContext,
    ShuffleProof,
    decode_proof,
    encode_proof,
    failed_equations,
    generator,
    prove_shuffle,
    verify_shuffle_proof,
)
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

N = 5
CTX = ShuffleContext(GAME_ID, b"initial", 1, 1)
SEED = bytes(range(32))
ONE = scalar_from_int(1)


@functools.cache
def table() -> CardTable:
    return CardTable(GAME_ID)


@functools.cache
def pk() -> bytes:
    keys = [DeckKey(GAME_ID, s, scalar_from_int(11 * (s + 1))) for s in range(3)]
    return joint_key(GAME_ID, [(k.public, k.proof) for k in keys])


def deck(n: int = N) -> list[Ciphertext]:
    return fresh_pile(GAME_ID, pk(), list(range(n)), table(), b"initial")


WITNESS = ShuffleWitness([3, 0, 4, 1, 2], [scalar_from_int(101 + i) for i in range(N)])


@functools.cache
def honest() -> tuple[list[Ciphertext], list[Ciphertext], bytes]:
    d = deck()
    out = apply_shuffle(d, pk(), WITNESS)
    return d, out, prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs, seed=SEED)


def failed(proof: ShuffleProof, deck_out: list[Ciphertext] | None = None) -> list[str]:
    d, out, _ = honest()
    return failed_equations(CTX, pk(), d, out if deck_out is None else deck_out, proof)


def rejects(proof: bytes, *, ctx: ShuffleContext = CTX, key: bytes | None = None, deck_in=None, deck_out=None) -> str:
    d, out, _ = honest()
    with pytest.raises(ShuffleError) as info:
        verify_shuffle_proof(ctx, key or pk(), deck_in or d, deck_out or out, proof)
    assert info.value.seat == ctx.seat and info.value.step == ctx.step
    return str(info.value)


def bump(s: bytes) -> bytes:
    return scalar_add(s, ONE)


ALL_FAILED = ["t1", "t2", "t3", "t4a", "t4b", *(f"that{i}" for i in range(N))]


# --- generators ---


def test_generators_are_distinct_prime_order_points_not_g() -> None:
    gens = [generator(k) for k in range(64)]
    assert len(set(gens)) == 64 and base_mul(ONE) not in gens
    for p in gens:
        check_point(p)  # canonical, not small order, in the prime-order subgroup
        # L·P = identity, written (L−1)·P + P since libsodium refuses an identity result
        assert add(mul(scalar_from_int(L - 1), p), p) == IDENTITY
    assert generator(0).hex() == KAT_H0 and generator(1).hex() == KAT_H1


# --- completeness ---


@settings(max_examples=12, deadline=None)
@given(
    st.integers(1, 6).flatmap(lambda n: st.permutations(range(n))),
    st.lists(st.integers(1, L - 1), min_size=6, max_size=6),
    st.binary(min_size=32, max_size=32),
)
def test_honest_proofs_verify(perm: list[int], rs: list[int], seed: bytes) -> None:
    n = len(perm)
    w = ShuffleWitness(perm, [scalar_from_int(r) for r in rs[:n]])
    d = deck(n)
    out = apply_shuffle(d, pk(), w)
    ctx = ShuffleContext(GAME_ID, b"reshuffle" + bytes(4), n % 3, n % 3)
    proof = prove_shuffle(ctx, pk(), d, out, w.perm, w.rs, seed=seed)
    verify_shuffle_proof(ctx, pk(), d, out, proof)
    assert failed_equations(ctx, pk(), d, out, decode_proof(proof, n)) == []


def test_full_deck_chain_of_three_shuffles() -> None:
    cur = fresh_pile(GAME_ID, pk(), list(range(63)), table(), b"initial")
    for seat in range(3):
        out, w = shuffle(cur, pk())
        ctx = ShuffleContext(GAME_ID, b"initial", seat, seat)
        proof = prove_shuffle(ctx, pk(), cur, out, w.perm, w.rs)  # fresh randomness
        verify_shuffle_proof(ctx, pk(), cur, out, proof, trusted=True)
        cur = out


def test_proofs_are_randomised_unless_seeded() -> None:
    d, out, proof = honest()
    again = prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs, seed=SEED)
    fresh = prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs)
    assert again == proof and fresh != proof
    verify_shuffle_proof(CTX, pk(), d, out, fresh)


# --- every verification equation, alone ---


@pytest.mark.parametrize(("k", "expect"), [(0, ["t1"]), (1, ["t2"]), (2, ["t3"]), (3, ["t4a", "t4b"])])
def test_tampered_response_s_breaks_its_equation(k: int, expect: list[str]) -> None:
    p = decode_proof(honest()[2], N)
    s = list(p.s)
    s[k] = bump(s[k])
    bad = p._replace(s=s)
    assert failed(bad) == expect
    assert ", ".join(expect) in rejects(encode_proof(bad))


@pytest.mark.parametrize("i", range(N))
def test_tampered_s_hat_breaks_only_its_chain_link(i: int) -> None:
    p = decode_proof(honest()[2], N)
    sh = list(p.shat)
    sh[i] = bump(sh[i])
    assert failed(p._replace(shat=sh)) == [f"that{i}"]
    rejects(encode_proof(p._replace(shat=sh)))


@pytest.mark.parametrize("i", range(N))
def test_tampered_s_tilde_breaks_t3_t4_and_its_link(i: int) -> None:
    p = decode_proof(honest()[2], N)
    stl = list(p.stilde)
    stl[i] = bump(stl[i])
    assert failed(p._replace(stilde=stl)) == ["t3", "t4a", "t4b", f"that{i}"]
    rejects(encode_proof(p._replace(stilde=stl)))


def _substituted(side: str) -> list[Ciphertext]:
    """The honest output with card 2's c2 (the face) or c1 moved by G: a substitution the witness does not explain."""
    out = list(honest()[1])
    c1, c2 = out[2]
    out[2] = Ciphertext(c1, add(c2, base_mul(ONE))) if side == "c2" else Ciphertext(add(c1, base_mul(ONE)), c2)
    return out


@pytest.mark.parametrize(("side", "expect"), [("c2", ["t4a"]), ("c1", ["t4b"])])
def test_cheating_prover_substituting_a_card_fails_t4(side: str, expect: list[str]) -> None:
    d, _, _ = honest()
    out = _substituted(side)
    proof = prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs, seed=SEED)
    assert failed_equations(CTX, pk(), d, out, decode_proof(proof, N)) == expect
    rejects(proof, deck_out=out)


def test_a_proof_with_zero_responses_is_rejected_not_crashing() -> None:
    p = decode_proof(honest()[2], N)
    zero = bytes(32)
    bad = p._replace(s=[zero] * 4, shat=[zero] * N, stilde=[zero] * N)
    assert failed(bad) == ALL_FAILED
    rejects(encode_proof(bad))


# --- tampered commitments (they feed the challenge: every equation fails) ---


@pytest.mark.parametrize("field", ["c", "chat", "t", "that"])
@pytest.mark.parametrize("k", [0, 2, 4])
def test_tampered_commitment_breaks_the_proof(field: str, k: int) -> None:
    p = decode_proof(honest()[2], N)
    points = list(getattr(p, field))
    points[k] = add(points[k], base_mul(ONE))
    bad = p._replace(**{field: points})
    assert failed(bad)
    rejects(encode_proof(bad))


def test_swapped_commitments_break_the_proof() -> None:
    p = decode_proof(honest()[2], N)
    c = list(p.c)
    c[0], c[1] = c[1], c[0]
    assert failed(p._replace(c=c))


# --- the statement: decks, key, context ---


def test_swapped_output_cards_rejected() -> None:
    _, out, proof = honest()
    out = list(out)
    out[0], out[3] = out[3], out[0]
    rejects(proof, deck_out=out)


def test_output_card_replaced_by_a_reencryption_of_another_card_rejected() -> None:
    d, out, proof = honest()
    other = d[WITNESS.perm[1]]  # card of position 1, re-masked, put at position 0: a duplicate
    r = scalar_from_int(999)
    out = list(out)
    out[0] = Ciphertext(add(other.c1, base_mul(r)), add(other.c2, mul(r, pk())))
    rejects(proof, deck_out=out)
    # an honest-looking proof of the cheat with the original witness fails as well
    cheat = prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs, seed=SEED)
    assert set(failed_equations(CTX, pk(), d, out, decode_proof(cheat, N))) == {"t4a", "t4b"}
    rejects(cheat, deck_out=out)


def test_dropped_or_added_card_rejected() -> None:
    d, out, proof = honest()
    assert "size" in rejects(proof, deck_out=out[:-1])
    assert "size" in rejects(proof, deck_out=[*out, out[0]])
    assert "length" in rejects(proof, deck_in=d[:-1], deck_out=out[:-1])
    # a proof made for N-1 cards against N-1 cards of the deck: a different statement
    w = ShuffleWitness([0, 1, 2, 3], WITNESS.rs[:4])
    short = prove_shuffle(CTX, pk(), d[:4], apply_shuffle(d[:4], pk(), w), w.perm, w.rs, seed=SEED)
    rejects(short)


def test_input_deck_changed_rejected() -> None:
    d, _, proof = honest()
    d = list(d)
    d[0], d[1] = d[1], d[0]
    rejects(proof, deck_in=d)


def test_wrong_joint_key_rejected() -> None:
    rejects(honest()[2], key=add(pk(), base_mul(ONE)))


@pytest.mark.parametrize(
    "ctx",
    [
        CTX._replace(game_id=bytes(16)),
        CTX._replace(pile=b"reshuffle" + bytes(4)),
        CTX._replace(seat=2),
        CTX._replace(step=2),
    ],
)
def test_wrong_context_rejected(ctx: ShuffleContext) -> None:
    rejects(honest()[2], ctx=ctx)


def test_invalid_deck_points_and_key_rejected() -> None:
    _, out, proof = honest()
    torsion = add(out[0].c1, bytes(32))  # + a point of order 4: not in the prime-order subgroup
    assert not is_valid_point(torsion)
    assert "c1" in rejects(proof, deck_out=[Ciphertext(torsion, out[0].c2), *out[1:]])
    assert "joint key" in rejects(proof, key=add(pk(), bytes(32)))


@pytest.mark.parametrize("bad", ["torsion", "non-canonical", "small-order"])
def test_invalid_output_points_fail_the_proof_even_unchecked(bad: str) -> None:
    """A peer leaves an output deck's points to the proof (`receive_shuffle(validate=False)`, `trusted`): the
    verification multiplies every output point and libsodium refuses an invalid one, so the proof fails."""
    _, out, proof = honest()
    point = {"torsion": add(out[0].c1, bytes(32)), "non-canonical": P_PLUS_ONE, "small-order": IDENTITY}[bad]
    assert not is_valid_point(point)
    received = receive_shuffle(honest()[0], encode_deck([Ciphertext(point, out[0].c2), *out[1:]]), 1, 1,
                               validate=False)
    d = honest()[0]
    with pytest.raises(ShuffleError) as info:
        verify_shuffle_proof(CTX, pk(), d, received, proof, trusted=True)
    assert "t4b" in str(info.value) and info.value.seat == CTX.seat
    received = receive_shuffle(d, encode_deck([Ciphertext(out[0].c1, point), *out[1:]]), 1, 1, validate=False)
    with pytest.raises(ShuffleError, match="t4a"):
        verify_shuffle_proof(CTX, pk(), d, received, proof, trusted=True)


# --- strict decoding ---


def _fields() -> list:
    return msgpack.unpackb(honest()[2], raw=False)


def _pack(fields: list) -> bytes:
    return msgpack.packb(fields, use_bin_type=True)


def test_truncated_or_extended_bytes_rejected() -> None:
    proof = honest()[2]
    rejects(proof[:-1])
    rejects(proof + b"\x00")
    rejects(b"")


@pytest.mark.parametrize("k", range(1, 8))
def test_wrong_count_in_any_field_rejected(k: int) -> None:
    for change in (lambda b: b[:-32], lambda b: b + b[:32]):
        f = _fields()
        f[k] = change(f[k])
        assert "length" in rejects(_pack(f))


def test_wrong_structure_rejected() -> None:
    f = _fields()
    rejects(_pack(f[:-1]))
    rejects(_pack([*f, b""]))
    rejects(_pack([PROOF_VERSION + 1, *f[1:]]))
    rejects(_pack([f[0], f[1].hex(), *f[2:]]))  # str instead of bin
    rejects(_pack([True, *f[1:]]))
    rejects(_pack({"c": f[1]}))


def test_non_minimal_msgpack_rejected() -> None:
    proof = honest()[2]
    assert proof[:2] == bytes([0x98, PROOF_VERSION])  # fixarray(8), positive fixint 1
    rejects(bytes([0x98, 0xCC, PROOF_VERSION]) + proof[2:])  # version as uint8: not minimal
    rejects(bytes([0xDC, 0x00, 0x08]) + proof[1:])  # array16 header for 8 elements


P_PLUS_ONE = (2**255 - 19 + 1).to_bytes(32, "little")  # a non-canonical encoding of y = 1


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("bad", [P_PLUS_ONE, bytes(32), IDENTITY, b"\xff" * 32])
def test_non_canonical_or_small_order_points_rejected(k: int, bad: bytes) -> None:
    f = _fields()
    f[k] = bad + f[k][32:]
    rejects(_pack(f))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_non_canonical_scalars_rejected(k: int) -> None:
    f = _fields()
    s = int.from_bytes(f[k][:32], "little")
    for bad in (s + L, L, 2**256 - 1):
        if bad < 2**256:
            f[k] = bad.to_bytes(32, "little") + f[k][32:]
            assert "reduced" in rejects(_pack(f))


def test_points_moved_to_the_other_deck_side_rejected() -> None:
    """A valid proof and both decks exchanged (in ↔ out) is another statement."""
    d, out, proof = honest()
    rejects(proof, deck_in=out, deck_out=d)


# --- fuzz: only ShuffleError ---


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_only_raise_shuffle_error(raw: bytes) -> None:
    rejects(raw)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40 * N), st.integers(-2, 2**40), st.none()), max_size=9))
def test_random_structures_only_raise_shuffle_error(fields: list) -> None:
    rejects(_pack(fields))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_well_sized_fields_only_raise_shuffle_error(data: st.DataObject) -> None:
    sizes = [N, N, 5, N, 4, N, N]
    rejects(_pack([PROOF_VERSION, *(data.draw(st.binary(min_size=32 * k, max_size=32 * k)) for k in sizes)]))


# --- known answer ---

KAT_H0 = "b78a3c47ebb8a03973c69b01966aec7873d1dd74ccf7363044c9314f8e842ef5"
KAT_H1 = "bd6c984c7d8ae90b7e4e9531f679d203fe8a3bf7cc00eff8b0f9814abd131418"
KAT_PROOF_SHA256 = "f3ebcb39c7a057b5defdce1bddcb0c77613d8913cd59007c7d7a6b813024a613"


def test_known_answer_vector() -> None:
    """Fixed keys (11, 22, 33), pile ``fresh_pile(faces 0..4, "initial")`` of GAME_ID, perm (3, 0, 4, 1, 2),
    rs = 101..105, seed bytes(range(32)), context (GAME_ID, "initial", seat 1, step 1)."""
    d, out, proof = honest()
    assert hashlib.sha256(encode_proof_check(proof)).hexdigest() == KAT_PROOF_SHA256
    verify_shuffle_proof(CTX, pk(), d, out, proof)


def encode_proof_check(proof: bytes) -> bytes:
    assert encode_proof(decode_proof(proof, N)) == proof  # decoding then encoding is the identity
    return proof



# --- the memory of verified proofs ---


def test_a_verified_proof_is_not_checked_again_but_a_failed_one_is(monkeypatch: pytest.MonkeyPatch) -> None:
    import adp2p.crypto.shuffle_proof as sp

    monkeypatch.setattr(sp, "_verified", {})
    monkeypatch.setattr(sp, "MAX_REMEMBERED", 2)
    calls: list[int] = []
    real = sp.failed_equations
    monkeypatch.setattr(sp, "failed_equations", lambda *a: calls.append(1) or real(*a))
    d, out, proof = honest()
    verify_shuffle_proof(CTX, pk(), d, out, proof)
    verify_shuffle_proof(CTX, pk(), d, out, proof)
    assert len(calls) == 1
    verify_shuffle_proof(CTX, pk(), d, out, proof, trusted=True)  # another key: the decks were not validated
    assert len(calls) == 2
    for _ in range(2):
        rejects(proof, ctx=CTX._replace(step=3))  # a failure is never remembered
    assert len(calls) == 4
    other = prove_shuffle(CTX, pk(), d, out, WITNESS.perm, WITNESS.rs)  # a third proof: the oldest is forgotten
    verify_shuffle_proof(CTX, pk(), d, out, other)
    verify_shuffle_proof(CTX, pk(), d, out, proof)
    assert len(calls) == 6 and len(sp._verified) == 2
