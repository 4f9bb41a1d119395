"""The proofs of shuffle of one pile, checked by an auditor who knows every secret: the verdict of
:func:`adp2p.crypto.shuffle_proof.verify_shuffle_proof` on every step, with fewer multiplications.

Once every seat has revealed its deck secret ``x_s`` and its witnesses (the offline audit), every ciphertext of a
pile is ``(ρ·G, M_f + ρ·PK)`` for a scalar ``ρ`` the auditor knows (the fresh pile's public mask ``r0_j`` plus the
``r`` of every step that moved the card there) and a face ``f`` it knows, with ``PK = x·G``, ``x = Σ x_s``. Where
that holds for a step's input and output — checked point by point from the claimed secrets, two fixed-base
multiplications a card, never assumed — the two sums over the decks in equations t4a and t4b (``4n`` variable-base
multiplications) collapse, with version-5 card points ``M_f = a_f·G + (f+1)·J`` (crypto/group.py), to

    t4b = σ·G        t4a = (σ·x + α)·G + β·J

    σ = −s4 + Σ_i s̃_i·ρ'_i − e·Σ_j u_j·ρ_j
    α = Σ_i s̃_i·a(f'_i) − e·Σ_j u_j·a(f_j)        β = Σ_i s̃_i·(f'_i + 1) − e·Σ_j u_j·(f_j + 1)

(``ρ_j, f_j`` of the input, ``ρ'_i, f'_i`` of the output): the very points the generic sums give, so each equation
holds exactly when it holds there. Where a multiplication of the generic sums could fail (a zero ``s4``, ``e``,
``s̃_i`` or ``u_j``, a sum that is the identity) the generic sums are evaluated instead. A claimed secret that does not
reproduce the published points (a wrong witness, a wrong deck secret) only makes that step and the pile's later steps
use the generic check: the secrets themselves are judged by the end-of-game audit (crypto/deck.py, `verify_shuffles`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .deck import Ciphertext, ShuffleWitness
from .errors import CryptoError
from .group import IDENTITY, L, add, base_mul, mul, scalar_from_int, scalar_to_int
from .shuffle_proof import T4, ShuffleContext, verify_shuffle_proof


class KnownPile(NamedTuple):
    """What the auditor claims to know of a pile before its first step (nothing here is trusted)."""

    x: bytes  # the joint deck secret Σ x_s (claimed: checked against the joint key)
    points: Sequence[bytes]  # the card table's points M_f
    attributes: Sequence[int]  # a_f of every face (version-5 card points)
    id_base: bytes  # J
    rho: Sequence[int]  # the start's public masks r0_j
    faces: Sequence[int]  # the start's faces


Step = tuple[ShuffleContext, Sequence[Ciphertext], bytes, bytes | None]  # (context, output, proof, witness bytes)


def _holds(
    deck: Sequence[Ciphertext], rho: Sequence[int], faces: Sequence[int], x: int, points: Sequence[bytes]
) -> bool:
    """Whether every ``deck[j]`` is ``(ρ_j·G, M_{f_j} + (ρ_j·x)·G)``, point by point."""
    try:
        for ct, r, f in zip(deck, rho, faces, strict=True):
            if r % L == 0 or ct.c1 != base_mul(scalar_from_int(r)) or ct.c2 == IDENTITY:
                return False
            if ct.c2 != add(points[f], base_mul(scalar_from_int(r * x))):
                return False
    except (CryptoError, IndexError, ValueError):
        return False
    return True


def _times(s: int, p: bytes | None) -> bytes | None:
    """``s·P`` (``P`` None: ``G``), None for the identity."""
    s %= L
    if s == 0:
        return None
    return base_mul(scalar_from_int(s)) if p is None else mul(scalar_from_int(s), p)


def _plus(a: bytes | None, b: bytes | None) -> bytes:
    if a is None or b is None:
        return a or b or IDENTITY
    return add(a, b)


def _t4(
    known: KnownPile, x: int, rho: Sequence[int], faces: Sequence[int], rho2: Sequence[int], faces2: Sequence[int]
) -> T4:
    """The t4a, t4b hook of `failed_equations` for one step whose input and output are known as above."""

    def t4(s4: bytes, e: bytes, u: list[bytes], stl: list[bytes]) -> tuple[bytes, bytes] | None:
        ei, s4i = scalar_to_int(e), scalar_to_int(s4)
        us, ss = [scalar_to_int(v) for v in u], [scalar_to_int(v) for v in stl]
        if 0 in (ei, s4i) or 0 in us or 0 in ss:
            return None  # the generic sums multiply by zero there: they decide
        ur = sum(a * b for a, b in zip(us, rho, strict=True)) % L
        uid = sum(a * (f + 1) for a, f in zip(us, faces, strict=True)) % L
        if ur == 0 or uid == 0:
            return None  # Σ u_j·in_j could be the identity, which the generic check multiplies by e
        attrs = known.attributes
        sigma = (-s4i + sum(a * b for a, b in zip(ss, rho2, strict=True)) - ei * ur) % L
        alpha = (sum(a * attrs[f] for a, f in zip(ss, faces2, strict=True))
                 - ei * sum(a * attrs[f] for a, f in zip(us, faces, strict=True))) % L
        beta = (sum(a * (f + 1) for a, f in zip(ss, faces2, strict=True)) - ei * uid) % L
        return _plus(_times(sigma * x + alpha, None), _times(beta, known.id_base)), _plus(_times(sigma, None), None)

    return t4


def verify_pile(pk: bytes, known: KnownPile, start: Sequence[Ciphertext], steps: Sequence[Step]) -> None:
    """Check the proof of every step of one pile (``start``: its public fresh pile; ``steps``: each step's context,
    published output, proof and its shuffler's revealed witness, None if none). Raises :class:`ShuffleError` naming
    the first step whose proof fails, exactly as :func:`verify_shuffle_proof` on each step in turn would."""
    try:
        x = scalar_to_int(known.x) % L
        ok = x != 0 and base_mul(known.x) == pk and _holds(start, known.rho, known.faces, x, known.points)
    except (CryptoError, TypeError, ValueError):
        ok = False
    rho, faces = list(known.rho), list(known.faces)
    deck_in = list(start)
    for ctx, out, proof, raw in steps:
        hook = None
        if ok and raw is not None:
            try:
                w = ShuffleWitness.from_bytes(raw)
                w.validate(len(deck_in))
                rho2 = [(rho[p] + scalar_to_int(r)) % L for p, r in zip(w.perm, w.rs, strict=True)]
                faces2 = [faces[p] for p in w.perm]
                ok = _holds(out, rho2, faces2, x, known.points)
            except (CryptoError, TypeError, ValueError, IndexError):
                ok = False
            if ok:
                hook = _t4(known, x, rho, faces, rho2, faces2)
                rho, faces = rho2, faces2
        else:
            ok = False
        verify_shuffle_proof(ctx, pk, deck_in, out, proof, trusted=True, t4=hook)
        deck_in = list(out)
