"""The auditor's check of a pile's proofs of shuffle with every secret known (crypto/shuffle_audit.py): its verdict is
the generic check's on honest proofs, on proofs that fail only the equations it computes another way (t4a, t4b),
and on wrong claimed secrets (then the generic sums decide); and it does use the shorter way where it can."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from adp2p.crypto import domains, shuffle_audit
from adp2p.crypto.deck import Ciphertext, ShuffleWitness, apply_shuffle, initial_deck
from adp2p.crypto.errors import ShuffleError
from adp2p.crypto.group import (
    CardTable,
    add,
    base_mul,
    hash_to_scalar,
    scalar_add,
    scalar_from_int,
    scalar_to_int,
)
from adp2p.crypto.hashing import u32
from adp2p.crypto.shuffle_audit import KnownPile, verify_pile
from adp2p.crypto.shuffle_proof import (
    ShuffleContext,
    decode_proof,
    failed_equations,
    forget_verified,
    prove_shuffle,
    verify_shuffle_proof,
)

GID = bytes(range(16))
N = 12  # a small pile (the algebra does not depend on its size)
ATTRS = [i % 6 for i in range(N)]
XS = [scalar_from_int(v) for v in (1111, 2222, 3333)]


def _pile(seed: int, rs_of_proof: dict[int, bytes] | None = None) -> tuple[bytes, KnownPile, list[Ciphertext], list]:
    """A fresh pile shuffled by three seats (seeded); `rs_of_proof` {step: r}: that step's proof is made with its first
    masking scalar replaced (its output stays the true one): a proof whose only false equations are t4a and t4b."""
    rng = random.Random(seed)
    table = CardTable.linear(GID, ATTRS)
    pk = base_mul(XS[0])
    for x in XS[1:]:
        pk = add(pk, base_mul(x))
    x_total = scalar_add(scalar_add(XS[0], XS[1]), XS[2])
    start = initial_deck(GID, pk, table)
    rho0 = [scalar_to_int(hash_to_scalar(domains.INITIAL_MASK, GID, b"initial", u32(j))) for j in range(N)]
    steps: list[Any] = []
    cur = start
    for s in range(3):
        perm = list(range(N))
        rng.shuffle(perm)
        w = ShuffleWitness(perm, [scalar_from_int(rng.randrange(1, 2**250)) for _ in range(N)])
        out = apply_shuffle(cur, pk, w)
        ctx = ShuffleContext(GID, b"initial", s, s)
        rs = list(w.rs)
        if rs_of_proof and s in rs_of_proof:
            rs[0] = rs_of_proof[s]
        proof = prove_shuffle(ctx, pk, cur, out, perm, rs, seed=bytes([seed, s]) * 16)
        steps.append((ctx, out, proof, w.to_bytes()))
        cur = out
    return pk, KnownPile(x_total, table.points, ATTRS, table.id_base or b"", rho0, list(range(N))), start, steps


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    forget_verified()  # every check here is made, none remembered
    yield
    forget_verified()


def _generic(pk: bytes, start: list[Ciphertext], steps: list) -> ShuffleError | None:
    forget_verified()
    cur = start
    try:
        for ctx, out, proof, _w in steps:
            verify_shuffle_proof(ctx, pk, cur, out, proof, trusted=True)
            cur = out
    except ShuffleError as exc:
        return exc
    finally:
        forget_verified()
    return None


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each step's t4a/t4b were computed the short way (True) or left to the generic sums (False)."""
    used: list[bool] = []
    real = shuffle_audit._t4

    def spy(*a: Any) -> Any:
        hook = real(*a)

        def counted(*b: Any) -> Any:
            got = hook(*b)
            used.append(got is not None)
            return got

        return counted

    monkeypatch.setattr(shuffle_audit, "_t4", spy)
    return used


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_honest_piles_verify_the_short_way(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pk, known, start, steps = _pile(seed)
    used = _spy(monkeypatch)
    verify_pile(pk, known, start, steps)
    assert used == [True, True, True]
    assert _generic(pk, start, steps) is None


@pytest.mark.parametrize("step", [0, 1, 2])
def test_a_proof_false_only_in_t4_fails_alike_naming_its_step(step: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof's s4 is made from another masking scalar: only t4a and t4b fail, the equations the short way
    computes; both ways name the same seat, step and equations."""
    pk, known, start, steps = _pile(7, {step: scalar_from_int(5)})
    ctx, out, proof, _w = steps[step]
    cur = start if step == 0 else steps[step - 1][1]
    assert failed_equations(ctx, pk, cur, out, decode_proof(proof, N)) == ["t4a", "t4b"]
    want = _generic(pk, start, steps)
    assert want is not None and (want.seat, want.step) == (step, step)
    used = _spy(monkeypatch)
    with pytest.raises(ShuffleError) as got:
        verify_pile(pk, known, start, steps)
    assert (got.value.seat, got.value.step, str(got.value)) == (want.seat, want.step, str(want))
    assert used == [True] * (step + 1)  # it was the short way that found it


def test_a_wrong_claimed_witness_or_key_leaves_the_check_to_the_generic_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    pk, known, start, steps = _pile(4)
    used = _spy(monkeypatch)
    lied = list(steps)
    w = ShuffleWitness.from_bytes(steps[1][3])
    lied[1] = (*steps[1][:3], ShuffleWitness(w.perm[1:] + w.perm[:1], w.rs).to_bytes())  # another permutation
    verify_pile(pk, known, start, lied)  # honest proofs still verify
    assert used == [True]  # step 0 the short way; from the false witness on, the generic sums
    used.clear()
    verify_pile(pk, known._replace(x=scalar_from_int(7)), start, steps)
    assert used == []
    used.clear()
    verify_pile(pk, known, start, [(*s[:3], None) for s in steps])  # no witness revealed
    assert used == []
    bad = list(steps)
    bad[2] = (*steps[2][:2], steps[1][2], steps[2][3])  # another step's proof
    with pytest.raises(ShuffleError) as got:
        verify_pile(pk, known._replace(x=scalar_from_int(7)), start, bad)
    assert (got.value.seat, got.value.step) == (2, 2)


def test_the_short_way_declines_where_a_generic_multiplication_would_fail() -> None:
    _pk, known, _start, _steps = _pile(5)
    hook = shuffle_audit._t4(known, 9, known.rho, known.faces, known.rho, known.faces)
    one = scalar_from_int(1)
    us = [scalar_from_int(3)] * N
    assert hook(one, one, us, us) is not None
    assert hook(bytes(32), one, us, us) is None  # s4 = 0: the generic −s4·PK fails
    assert hook(one, bytes(32), us, us) is None  # e = 0
    assert hook(one, one, [bytes(32), *us[1:]], us) is None  # a u_j = 0
    assert hook(one, one, us, [*us[:-1], bytes(32)]) is None  # a s̃_i = 0
