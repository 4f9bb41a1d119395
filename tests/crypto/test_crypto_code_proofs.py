"""Proved answers (primitive): Pedersen code commitments and the distinct / match / no-match OR-proofs.

Honest proofs for every password and every code; one negative test per check (code, each context field,
commitments, every branch's challenge and response, lengths, encodings); a cheating prover cannot prove a
false answer; known answers; fuzz."""

from __future__ import annotations

import hashlib
import itertools
import random

import nacl.bindings as nb
import pytest
from adp2p.crypto import code_proofs as cp
from adp2p.crypto import domains
from adp2p.crypto.errors import (
    CommitmentMismatch,
    CryptoError,
    FalseStatement,
    InvalidPoint,
    InvalidProof,
    InvalidScalar,
    MalformedEncoding,
)
from adp2p.crypto.group import (
    IDENTITY,
    L,
    add,
    base_mul,
    is_valid_point,
    mul,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    scalar_sub,
    sub,
)
from adp2p.crypto.hashing import frame, hash32, u32, u64
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

G = base_mul(scalar_from_int(1))
ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = p
CTX = cp.ProofContext(GAME_ID, 2, (10, 11, 12), b"answer", 99)
PASSWORDS = list(itertools.combinations(range(6), 3))  # the 20 sets of three distinct codes
KINDS = ("distinct", "match", "no_match")


def _flip(proof: bytes, byte: int, bit: int = 0) -> bytes:
    return proof[:byte] + bytes([proof[byte] ^ (1 << bit)]) + proof[byte + 1 :]


def _prove(kind: str, cs: cp.Commitments, op: cp.PasswordOpening, x: int, ctx: cp.ProofContext = CTX) -> bytes:
    if kind == "distinct":
        return cp.prove_distinct(cs, op, ctx)
    return (cp.prove_match if kind == "match" else cp.prove_no_match)(cs, op, x, ctx)


def _verify(kind: str, cs: cp.Commitments, x: int, proof: bytes, ctx: cp.ProofContext = CTX) -> None:
    if kind == "distinct":
        cp.verify_distinct(cs, proof, ctx)
    else:
        (cp.verify_match if kind == "match" else cp.verify_no_match)(cs, x, proof, ctx)


@pytest.fixture(scope="module")
def honest() -> dict[str, tuple[cp.Commitments, cp.PasswordOpening, int, bytes]]:
    """One proof of each kind for the password (1, 4, 2): match 4, no match 3."""
    cs, op = cp.commit_codes((1, 4, 2))
    return {
        "distinct": (cs, op, 0, cp.prove_distinct(cs, op, CTX)),
        "match": (cs, op, 4, cp.prove_match(cs, op, 4, CTX)),
        "no_match": (cs, op, 3, cp.prove_no_match(cs, op, 3, CTX)),
    }


# --- the generator H ---


def test_h_is_hashed_to_the_curve_in_the_prime_order_subgroup() -> None:
    assert nb.crypto_core_ed25519_from_uniform(hash32(domains.PEDERSEN_H, u32(0))) == cp.H
    assert cp.H.hex() == "214aa1aeec3b607824e8eadcd79205062b8f947725bf9b54b4db7d06e923447d"  # known answer
    assert is_valid_point(cp.H) and cp.H != G
    assert add(mul(scalar_from_int(L - 1), cp.H), cp.H) == IDENTITY  # L·H = 0: in the prime-order subgroup
    assert not is_valid_point(nb.crypto_core_ed25519_from_uniform(bytes(32)))  # why from_uniform is checked


def test_pedersen_commitment_hides_and_checks_its_inputs() -> None:
    r = scalar_from_int(7)
    assert cp.pedersen_commit(0, r) == mul(r, cp.H)
    assert cp.pedersen_commit(3, r) == add(mul(r, cp.H), base_mul(scalar_from_int(3)))
    a, _ = cp.commit_codes((1, 2, 3))
    b, _ = cp.commit_codes((1, 2, 3))
    assert not set(a) & set(b)  # fresh blindings: the same codes commit to unrelated points
    with pytest.raises(MalformedEncoding):
        cp.pedersen_commit(6, r)
    with pytest.raises(InvalidScalar):
        cp.pedersen_commit(1, bytes(32))
    with pytest.raises(InvalidScalar):
        cp.commit_codes((1, 2, 3), blinds=(r, r, scalar_from_int(8)))
    with pytest.raises(MalformedEncoding):
        cp.commit_codes((1, 2))


def test_commitment_encoding_is_strict() -> None:
    cs, _ = cp.commit_codes((0, 1, 2))
    raw = cp.encode_commitments(cs)
    assert cp.decode_commitments(raw) == cs and len(raw) == 96
    for bad in (raw[:95], raw + b"\0", bytearray(raw)):
        with pytest.raises(MalformedEncoding):
            cp.decode_commitments(bad)  # type: ignore[arg-type]
    for p in (IDENTITY, ORDER_8, NON_CANONICAL, add(cs[1], ORDER_8)):
        with pytest.raises(InvalidPoint):
            cp.decode_commitments(raw[:32] + p + raw[64:])


# --- completeness: every password, every code ---


def test_every_password_and_every_code_proves_and_verifies() -> None:
    rng = random.Random(14)
    for codes in PASSWORDS:
        order = list(codes)
        rng.shuffle(order)
        cs, op = cp.commit_codes(order)
        d = cp.prove_distinct(cs, op, CTX)
        assert len(d) == cp.PROOF_LEN[cp.KIND_DISTINCT] == 48 * 64
        cp.verify_distinct(cs, d, CTX)
        for x in range(6):
            matched, p = cp.prove_answer(cs, op, x, CTX)
            assert matched == (x in codes)
            assert len(p) == (3 * 64 if matched else 15 * 64)
            cp.verify_answer(cs, x, matched, p, CTX)
            with pytest.raises(InvalidProof):
                cp.verify_answer(cs, x, not matched, p, CTX)  # the other answer with this proof


def test_proofs_are_randomised(honest: dict) -> None:
    cs, op, x, p = honest["match"]
    assert cp.prove_match(cs, op, x, CTX) != p


# --- soundness checks, one per input ---


@pytest.mark.parametrize("kind", ["match", "no_match"])
def test_a_proof_for_x_does_not_verify_for_another_code(honest: dict, kind: str) -> None:
    cs, _, x, p = honest[kind]
    for y in range(6):
        if y != x:
            with pytest.raises(InvalidProof):
                _verify(kind, cs, y, p)  # true statements (match 1, no match 0) included
    with pytest.raises(MalformedEncoding):
        _verify(kind, cs, 6, p)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "field, value",
    [
        ("game_id", bytes(16)),
        ("seat", 3),
        ("password_handles", (10, 11, 13)),
        ("password_handles", (11, 10, 12)),
        ("purpose", b"password"),
        ("handle", 100),
    ],
)
def test_a_proof_is_bound_to_each_context_field(honest: dict, kind: str, field: str, value: object) -> None:
    cs, _, x, p = honest[kind]
    _verify(kind, cs, x, p)
    with pytest.raises(InvalidProof):
        _verify(kind, cs, x, p, CTX._replace(**{field: value}))


def test_a_proof_is_bound_to_its_kind(honest: dict) -> None:
    cs, op, _, _ = honest["match"]
    with pytest.raises(InvalidProof):
        cp.verify_no_match(cs, 4, cp.prove_match(cs, op, 4, CTX), CTX)
    with pytest.raises(InvalidProof):
        cp.verify_match(cs, 3, cp.prove_no_match(cs, op, 3, CTX), CTX)


def test_context_is_checked() -> None:
    for bad in (
        CTX._replace(game_id=bytes(15)),
        CTX._replace(seat=256),
        CTX._replace(password_handles=(1, 2)),
        CTX._replace(handle=-1),
        CTX._replace(purpose=b""),
        CTX._replace(purpose=b"x" * 65),
    ):
        with pytest.raises(MalformedEncoding):
            bad.to_bytes()


@pytest.mark.parametrize("kind", KINDS)
def test_a_proof_is_bound_to_its_commitments(honest: dict, kind: str) -> None:
    cs, op, x, p = honest[kind]
    swapped = (cs[1], cs[0], cs[2])
    with pytest.raises(InvalidProof):
        _verify(kind, swapped, x, p)
    for k in range(3):
        again = cp.pedersen_commit(op.codes[k], scalar_from_int(1000 + k))  # the same code, another blinding
        changed = tuple(again if i == k else c for i, c in enumerate(cs))
        with pytest.raises(InvalidProof):
            _verify(kind, changed, x, p)  # type: ignore[arg-type]
    with pytest.raises(InvalidPoint):
        _verify(kind, (cs[0], IDENTITY, cs[2]), x, p)
    with pytest.raises(MalformedEncoding):
        _verify(kind, (cs[0], cs[1]), x, p)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", KINDS)
def test_every_branch_challenge_and_response_is_checked(honest: dict, kind: str) -> None:
    cs, _, x, p = honest[kind]
    for i in range(len(p) // 64):
        for offset in (0, 32):  # challenge e_i, response s_i
            with pytest.raises(InvalidProof):
                _verify(kind, cs, x, _flip(p, 64 * i + offset + i % 32, i % 7))


@pytest.mark.parametrize("kind", KINDS)
def test_lengths_and_scalar_encodings_are_strict(honest: dict, kind: str) -> None:
    cs, _, x, p = honest[kind]
    for bad in (b"", p[:-1], p + b"\0", p[:-64], p + p[-64:], bytearray(p)):
        with pytest.raises(InvalidProof):
            _verify(kind, cs, x, bad)  # type: ignore[arg-type]
    for i in range(0, len(p), 32):  # every scalar: + L (non-canonical, same value mod L), and zero
        v = int.from_bytes(p[i : i + 32], "little") + L
        if v < 2**256:
            with pytest.raises(InvalidProof, match="not reduced"):
                _verify(kind, cs, x, p[:i] + v.to_bytes(32, "little") + p[i + 32 :])
    with pytest.raises(InvalidProof, match="zero"):
        _verify(kind, cs, x, bytes(32) + p[32:])


def test_a_commitment_without_blinding_is_refused() -> None:
    """C_k = c·G (blinding zero) leaves a branch point at the identity: refused, never multiplied."""
    cs, op = cp.commit_codes((1, 2, 3))
    p = cp.prove_match(cs, op, 2, CTX)
    with pytest.raises(InvalidProof, match="blinding"):
        cp.verify_match((cs[0], base_mul(scalar_from_int(2)), cs[2]), 2, p, CTX)


# --- a cheating prover ---


def test_the_honest_prover_refuses_false_statements() -> None:
    cs, op = cp.commit_codes((0, 2, 5))
    with pytest.raises(FalseStatement):
        cp.prove_match(cs, op, 1, CTX)
    with pytest.raises(FalseStatement):
        cp.prove_no_match(cs, op, 2, CTX)
    rep, rop = cp.commit_codes((3, 1, 3))
    with pytest.raises(FalseStatement):
        cp.prove_distinct(rep, rop, CTX)
    other, _ = cp.commit_codes((0, 2, 5))
    with pytest.raises(CommitmentMismatch):
        cp.prove_match(other, op, 2, CTX)  # an opening of other commitments
    with pytest.raises(MalformedEncoding):
        cp.prove_answer(cs, op, 6, CTX)


def _forge(kind: int, cs: cp.Commitments, x: int | None, groups: list, witnesses: list) -> bytes:
    """Run the prover's machinery with a witness that does not satisfy the statement (what a cheater can do)."""
    return cp._prove(kind, CTX, cs, x, groups, witnesses, b"cheat", None)


def test_a_cheating_prover_cannot_make_a_false_answer_verify() -> None:
    cs, op = cp.commit_codes((0, 2, 5))
    rs = op.blinds
    for x in (1, 3, 4):  # "match x" without x: claim each slot in turn
        for k in range(3):
            p = _forge(cp.KIND_MATCH, cs, x, cp._match_groups(cs, x), [(k, rs[k])])
            with pytest.raises(InvalidProof):
                cp.verify_match(cs, x, p, CTX)
            for byte in range(0, len(p), 37):
                with pytest.raises(InvalidProof):
                    cp.verify_match(cs, x, _flip(p, byte), CTX)
    for x in (0, 2, 5):  # "no match x" with x: the slot holding x claims each of the other codes
        k = op.codes.index(x)
        for wrong in range(5):
            w = [(c if c < x else c - 1, r) for c, r in zip(op.codes, rs, strict=True)]
            w[k] = (wrong, rs[k])
            p = _forge(cp.KIND_NO_MATCH, cs, x, cp._no_match_groups(cs, x), w)
            with pytest.raises(InvalidProof):
                cp.verify_no_match(cs, x, p, CTX)
    # an honest proof of the true answer, bit-flipped anywhere, never proves the false one
    good = cp.prove_no_match(cs, op, 1, CTX)
    for byte in range(0, len(good), 31):
        with pytest.raises(InvalidProof):
            cp.verify_no_match(cs, 1, _flip(good, byte), CTX)


def test_a_cheating_prover_cannot_prove_a_repeated_code_distinct() -> None:
    cs, op = cp.commit_codes((3, 1, 3))
    c, r = op.codes, op.blinds
    groups = cp._distinct_groups(cs)
    for claimed in cp.DIFFS:  # the pair (0, 2) has difference 0: every claimed difference is false
        w = [(c[k], r[k]) for k in range(3)]
        w += [(cp.DIFFS.index(c[0] - c[1]), scalar_sub(r[0], r[1]))]
        w += [(cp.DIFFS.index(claimed), scalar_sub(r[0], r[2]))]
        w += [(cp.DIFFS.index(c[1] - c[2]), scalar_sub(r[1], r[2]))]
        p = _forge(cp.KIND_DISTINCT, cs, None, groups, w)
        with pytest.raises(InvalidProof):
            cp.verify_distinct(cs, p, CTX)
    # a code out of range cannot be committed by the API; a forged opening of 0..5 for it is refused too
    honest, hop = cp.commit_codes((3, 1, 4))
    with pytest.raises(InvalidProof):
        cp.verify_distinct(cs, cp.prove_distinct(honest, hop, CTX), CTX)


def _simulate_group(kind: int, cs: cp.Commitments, x: int | None, groups: list, witnesses: list) -> bytes:
    """A cheater's proof: true groups proved honestly, groups whose witness is None fully simulated (each
    branch's challenge chosen freely, so they cannot also sum to the Fiat-Shamir challenge)."""
    rng = random.Random(7)
    rows, rs = [], []
    for ys, wit in zip(groups, witnesses, strict=True):
        row = []
        for j, y in enumerate(ys):
            if wit is not None and j == wit[0]:
                k = scalar_from_int(rng.randrange(1, L))
                row.append((k, None))
                rs.append(mul(k, cp.H))
            else:
                e, s = scalar_from_int(rng.randrange(1, L)), scalar_from_int(rng.randrange(1, L))
                row.append((e, s))
                rs.append(sub(mul(s, cp.H), mul(e, y)))
        rows.append(row)
    big_e = cp._challenge(kind, CTX.to_bytes(), cs, cp._x_part(x), rs)
    out = b""
    for row, wit in zip(rows, witnesses, strict=True):
        if wit is None:
            out += b"".join(e + s for e, s in row)
            continue
        t, w = wit
        e_t = big_e
        for j, (e, _) in enumerate(row):
            if j != t:
                e_t = scalar_sub(e_t, e)
        s_t = scalar_add(row[t][0], scalar_mul(e_t, w))
        out += b"".join(e_t + s_t if j == t else e + s for j, (e, s) in enumerate(row))
    return out


def test_each_group_challenges_must_sum_to_the_fiat_shamir_challenge() -> None:
    cs, op = cp.commit_codes((0, 2, 5))
    c, r = op.codes, op.blinds
    honest_w = [(c[k], r[k]) for k in range(3)]
    honest_w += [(cp.DIFFS.index(c[k] - c[m]), scalar_sub(r[k], r[m])) for k, m in cp.PAIRS]
    groups = cp._distinct_groups(cs)
    cp.verify_distinct(cs, _simulate_group(cp.KIND_DISTINCT, cs, None, groups, honest_w), CTX)  # the helper works
    for g in range(len(groups)):  # one group simulated outright, wherever it is
        w = [None if i == g else wi for i, wi in enumerate(honest_w)]
        with pytest.raises(InvalidProof):
            cp.verify_distinct(cs, _simulate_group(cp.KIND_DISTINCT, cs, None, groups, w), CTX)
    with pytest.raises(InvalidProof):  # "match 1" by simulating every branch
        cp.verify_match(cs, 1, _simulate_group(cp.KIND_MATCH, cs, 1, cp._match_groups(cs, 1), [None]), CTX)


# --- known answers (fixed blindings and entropy) ---

KAT_BLINDS = (scalar_from_int(11), scalar_from_int(12), scalar_from_int(13))
KAT_ENTROPY = bytes(range(32))
KAT = {  # SHA-256 of the bytes
    "commitments": "f755526b5e67307dc65c49076089aa2e8b8b561378be52c45ba659cb1330aa9a",
    "distinct": "70aca7117454b73ffde8eec30993f7e2089accb775e1bbd798d67c8554ce0edb",
    "match": "270baa4e3a482dd30d3a46e783fc4c2256e5b21e8aa3adda4e6a9db8af6b3ccd",
    "no_match": "da89c6c3928e050adf2cc89808e54dd7073e1e01bd14147a50dc2fa054dca6eb",
}


def test_known_answers() -> None:
    cs, op = cp.commit_codes((1, 3, 4), blinds=KAT_BLINDS)
    got = {
        "commitments": cp.encode_commitments(cs),
        "distinct": cp.prove_distinct(cs, op, CTX, entropy=KAT_ENTROPY),
        "match": cp.prove_match(cs, op, 3, CTX, entropy=KAT_ENTROPY),
        "no_match": cp.prove_no_match(cs, op, 2, CTX, entropy=KAT_ENTROPY),
    }
    cp.verify_distinct(cs, got["distinct"], CTX)
    cp.verify_match(cs, 3, got["match"], CTX)
    cp.verify_no_match(cs, 2, got["no_match"], CTX)
    assert cs[0].hex() == "733f76b8198557ae54745ede50a59781d1421abdb6e5a51a03c0f5536ec8408f"  # 1·G + 11·H
    assert {k: hashlib.sha256(v).hexdigest() for k, v in got.items()} == KAT
    assert cp.prove_match(cs, op, 3, CTX, entropy=bytes(32)) != got["match"]


# --- fuzz ---


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 5), st.binary(max_size=3200), st.booleans())
def test_random_bytes_as_a_proof_only_raise_invalid_proof(kind: str, x: int, raw: bytes, exact: bool) -> None:
    cs = _FUZZ_CS
    if exact:  # the right length, so the scalars and the equations are what gets checked
        n = cp.PROOF_LEN[{"distinct": cp.KIND_DISTINCT, "match": cp.KIND_MATCH, "no_match": cp.KIND_NO_MATCH}[kind]]
        raw = (raw * (n // max(len(raw), 1) + 1))[:n] if raw else bytes(n)
    with pytest.raises(InvalidProof):
        _verify(kind, cs, x, raw)


_FUZZ_CS = cp.commit_codes((0, 1, 2), blinds=KAT_BLINDS)[0]


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=0, max_size=100))
def test_random_bytes_as_commitments_only_raise_crypto_errors(raw: bytes) -> None:
    try:
        cp.decode_commitments(raw)
    except (MalformedEncoding, InvalidPoint):
        pass
    except CryptoError as exc:  # pragma: no cover - would be a wrong error type
        raise AssertionError(f"unexpected {type(exc).__name__}") from exc


# --- the table's use: blindings from the salts of the hash commitments (docs/protocol.md, "Proved answers at the
# table"), and the per-process memory of distinct proofs that verified


def test_code_blinding_known_answer_and_binding() -> None:
    salt = bytes([7]) * 32
    r = cp.code_blinding(GAME_ID, 42, salt)
    assert r.hex() == "2c77d69a26dc608a11ae0155b5abccd36cdea0c08aed4a3e67cdd3a2ed7f0c07"
    digest = hashlib.sha512(domains.CODE_BLIND + frame(GAME_ID, u64(42), salt)).digest()
    assert r == (int.from_bytes(digest, "little") % L).to_bytes(32, "little")  # H2S(CODE_BLIND, game, handle, salt)
    assert cp.code_blinding(GAME_ID, 43, salt) != r  # bound to the handle
    assert cp.code_blinding(GAME_ID[::-1], 42, salt) != r  # to the game
    assert cp.code_blinding(GAME_ID, 42, bytes([8]) * 32) != r  # and to the salt
    for bad in (b"", b"x" * 65, "salt"):
        with pytest.raises(MalformedEncoding):
            cp.code_blinding(GAME_ID, 42, bad)  # type: ignore[arg-type]


def test_password_commitments_from_openings_known_answer() -> None:
    openings = [(1, bytes([7]) * 32), (3, bytes([8]) * 32), (4, bytes([9]) * 32)]
    cs, op = cp.password_commitments(GAME_ID, (42, 43, 44), openings)
    assert [c.hex() for c in cs] == [
        "c198560c9160d2e2a79be33c7944a7a32254f7b73f6dbebb3e6ea0836f2aa696",
        "70831d4393bf51222ec6c2e1b2322f1dfba59a4402ef2d635d1e4ebed9d30d8a",
        "3ea7f7e179fba9e9d64811cf4a2aa8255ab05e87aeb52ed6c0f8f347568b4fe8",
    ]
    assert op.codes == (1, 3, 4)
    assert cs[0] == cp.pedersen_commit(1, cp.code_blinding(GAME_ID, 42, openings[0][1]))
    cp.verify_distinct(cs, cp.prove_distinct(cs, op, CTX), CTX)


def test_a_distinct_proof_that_failed_is_never_remembered_as_verified() -> None:
    cs, op = cp.commit_codes([0, 1, 2])
    proof = cp.prove_distinct(cs, op, CTX)
    bad = _flip(proof, 40)
    for _ in range(2):  # the second time is not answered from memory
        with pytest.raises(InvalidProof):
            cp.verify_distinct(cs, bad, CTX)
    cp.verify_distinct(cs, proof, CTX)
    cp.verify_distinct(cs, proof, CTX)  # remembered
    other = cp.ProofContext(GAME_ID, 3, (10, 11, 12), b"answer", 99)
    with pytest.raises(InvalidProof):
        cp.verify_distinct(cs, proof, other)  # the memory is of everything checked, the context included


# --- the audit's check of an answer with the password's opening known (crypto/code_proofs.py, `verify_answer`)


def _answer_table() -> tuple[cp.Commitments, cp.PasswordOpening, cp.ProofContext]:
    cs, op = cp.commit_codes((1, 3, 4), blinds=[scalar_from_int(v) for v in (11, 12, 13)])
    return cs, op, cp.ProofContext(GAME_ID, 2, (10, 11, 12), b"answer", 99)


def test_with_the_opening_every_answer_verifies_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    cs, op, ctx = _answer_table()
    short: list[int] = []
    real = cp._known_branch
    monkeypatch.setattr(cp, "_known_branch", lambda *a: short.append(1) or real(*a))
    for x in range(cp.NUM_CODES):
        matched, proof = cp.prove_answer(cs, op, x, ctx, entropy=bytes(range(32)))
        before = len(short)
        cp.verify_answer(cs, x, matched, proof, ctx, op)
        assert len(short) - before == (3 if matched else 15)  # every branch the short way
        cp.verify_answer(cs, x, matched, proof, ctx)  # and the generic way


def test_with_the_opening_a_forged_or_misread_answer_fails_as_generically() -> None:
    cs, op, ctx = _answer_table()
    for x in range(cp.NUM_CODES):
        matched, proof = cp.prove_answer(cs, op, x, ctx, entropy=bytes(range(32)))
        flipped = proof[:40] + bytes([proof[40] ^ 1]) + proof[41:]
        for opening in (None, op):
            with pytest.raises(InvalidProof):
                cp.verify_answer(cs, x, matched, flipped, ctx, opening)
            with pytest.raises(InvalidProof):
                cp.verify_answer(cs, (x + 1) % cp.NUM_CODES, matched, proof, ctx, opening)
            with pytest.raises(InvalidProof):
                cp.verify_answer(cs, x, matched, proof, ctx._replace(handle=98), opening)


def test_an_opening_that_does_not_open_the_commitments_leaves_the_generic_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cs, op, ctx = _answer_table()
    short: list[int] = []
    real = cp._known_branch
    monkeypatch.setattr(cp, "_known_branch", lambda *a: short.append(1) or real(*a))
    matched, proof = cp.prove_answer(cs, op, 2, ctx, entropy=bytes(range(32)))
    lies = [
        cp.PasswordOpening((1, 3, 5), op.blinds),  # another code
        cp.PasswordOpening(op.codes, (op.blinds[1], op.blinds[0], op.blinds[2])),  # blindings swapped
        cp.PasswordOpening((1, 3, 9), op.blinds),  # no code at all
        [[1, 3, 5], list(op.blinds)],  # lists, another code
        [[1, 3], list(op.blinds)],  # two codes
    ]
    for lie in lies:
        cp.verify_answer(cs, 2, matched, proof, ctx, lie)  # type: ignore[arg-type]
    assert short == []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(1, 2**250), st.integers(1, 2**250), st.integers(1, 2**250))
def test_the_short_branch_is_the_generic_point(code: int, v: int, r: int, e: int, s: int) -> None:
    blind, es, ss = scalar_from_int(r), scalar_from_int(e), scalar_from_int(s)
    c = cp.pedersen_commit(code, blind)
    assert cp._known_branch(ss, es, code, blind, v) == sub(mul(ss, cp.H), mul(es, cp.minus_code(c, v)))
    # the identity, where s = e·blind and the codes agree: the generic sub gives it too
    s0 = scalar_mul(es, blind)
    generic = sub(mul(s0, cp.H), mul(es, cp.minus_code(c, code)))
    assert cp._known_branch(s0, es, code, blind, code) == IDENTITY == generic
