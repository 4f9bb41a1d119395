"""Non-interactive zero-knowledge proof of a re-encryption shuffle (Terelius-Wikström).

Owns the proof that a shuffle step ``out[i] = in[perm[i]] + (rs[i]·G, rs[i]·PK)`` (see
:mod:`adp2p.crypto.deck`) is a permutation and re-masking of its input, without revealing ``perm`` or
``rs``. It follows GenShuffleProof / CheckShuffleProof of Haenni, Locher, Koenig, Dubuis,
"Pseudo-code algorithms for verifiable re-encryption mix-nets" (FC 2017 workshops), written additively
over the Ed25519 prime-order subgroup, with our ciphertexts ``(c1, c2) = (r·G, M + r·PK)`` (the paper's
``(b, a)``) and 0-based positions. docs/protocol.md ("Proof of shuffle") is the normative text.

No trusted setup: the generators ``h = H_0`` and ``h_1..h_N = H_1..H_N`` are
``H_k = from_uniform(hash32(SHUFFLE_GENERATOR, u32(k)))`` (:func:`adp2p.crypto.group.hash_to_point`).
Every challenge is ``H2S`` (SHA-512 mod L) over the context ``frame("shuffle", game_id, pile, u8(seat),
u32(step))``, the joint key, both decks and the commitments.
Wire: msgpack ``[1, c: bin(32N), chat: bin(32N), t: bin(5·32), that: bin(32N), s: bin(4·32),
shat: bin(32N), stilde: bin(32N)]``; every point canonical and in the subgroup, every scalar < L.
Every failure of :func:`verify_shuffle_proof` is a :class:`ShuffleError` naming the shuffler. A proof that
verified is remembered (a bounded set of ``hash32(SHUFFLE_VERIFIED, ...)`` over everything checked), so the same
statement and proof are not checked twice in one process (in-process tables, evidence trials, offline audits).
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable, Sequence
from typing import NamedTuple

from . import domains
from .deck import MAX_PILE, Ciphertext, encode_deck
from .encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from .errors import CryptoError, InvalidPoint, InvalidScalar, MalformedEncoding, ShuffleError
from .group import (
    IDENTITY,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    check_scalar,
    hash_to_point,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_mul,
    scalar_negate,
    sub,
)
from .hashing import frame, hash32, hash64, u8, u32

PROOF_VERSION = 1
PT = 32
EQUATIONS = ("t1", "t2", "t3", "t4a", "t4b", "that")  # names of the verification equations (that_i per i)
MAX_REMEMBERED = 4096
_verified: dict[bytes, None] = {}  # keys of proofs that verified in this process, oldest first


class ShuffleContext(NamedTuple):
    """Where a shuffle step happens: game, pile (``Pile.context()``), shuffler seat, step in the pile."""

    game_id: bytes
    pile: bytes
    seat: int
    step: int

    def to_bytes(self) -> bytes:
        return frame(domains.CTX_SHUFFLE, self.game_id, self.pile, u8(self.seat), u32(self.step))


@functools.cache
def generator(k: int) -> bytes:
    """``H_k``: ``H_0`` is the chain base ``h``, ``H_1..H_N`` are the commitment generators ``h_i``."""
    return hash_to_point(domains.SHUFFLE_GENERATOR, u32(k))


def generators(n: int) -> tuple[bytes, list[bytes]]:
    """``(h, [h_1..h_n])`` (0-based list: ``hs[i]`` is ``H_{i+1}``)."""
    return generator(0), [generator(k) for k in range(1, n + 1)]


class _Statement(NamedTuple):
    ctx: bytes
    pk: bytes
    deck_in: bytes
    deck_out: bytes


def _us(st: _Statement, c: Sequence[bytes]) -> list[bytes]:
    """The per-position challenges ``u_i = H2S(SHUFFLE_U, ctx, PK, in, out, c_0‖…‖c_{N-1}, u32(i))``."""
    cc = b"".join(c)
    return [hash_to_scalar(domains.SHUFFLE_U, *st, cc, u32(i)) for i in range(len(c))]


def _challenge(st: _Statement, *parts: Sequence[bytes]) -> bytes:
    """``e = H2S(SHUFFLE_CHALLENGE, ctx, PK, in, out, c, ĉ, t1‖t2‖t3‖t4a‖t4b, t̂)`` (each list concatenated)."""
    return hash_to_scalar(domains.SHUFFLE_CHALLENGE, *st, *(b"".join(p) for p in parts))


def _sum(points: Sequence[bytes]) -> bytes:
    total = IDENTITY
    for p in points:
        total = add(total, p)
    return total


def _ssum(scalars: Sequence[bytes]) -> bytes:
    total = bytes(32)
    for s in scalars:
        total = scalar_add(total, s)
    return total


def _dot(scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
    """``Σ s_i·P_i`` (libsodium multiplications; raises InvalidPoint on a zero scalar or identity point)."""
    return _sum([mul(s, p) for s, p in zip(scalars, points, strict=True)])


def _chain_weights(ut: Sequence[bytes]) -> list[bytes]:
    """``v_{N-1} = 1``, ``v_{i-1} = ũ_i·v_i``: so ``ĉ_{N-1} = (Σ r̂_i·v_i)·G + (Π ũ_i)·h``."""
    n = len(ut)
    v = [bytes(32)] * n
    v[n - 1] = (1).to_bytes(32, "little")
    for i in range(n - 1, 0, -1):
        v[i - 1] = scalar_mul(ut[i], v[i])
    return v


def _check_witness(n: int, perm: Sequence[int], rs: Sequence[bytes]) -> None:
    if not 1 <= n <= MAX_PILE:
        raise ValueError("a shuffle proof needs 1 to MAX_PILE cards")
    if len(perm) != n or len(rs) != n or sorted(perm) != list(range(n)):
        raise ValueError("the witness is not a permutation of the deck with one scalar per card")
    for r in rs:
        check_nonzero_scalar(r, "shuffle masking scalar")


def prove_shuffle(
    ctx: ShuffleContext,
    pk: bytes,
    deck_in: Sequence[Ciphertext],
    deck_out: Sequence[Ciphertext],
    perm: Sequence[int],
    rs: Sequence[bytes],
    *,
    seed: bytes | None = None,
) -> bytes:
    """GenShuffleProof: prove ``deck_out[i] = deck_in[perm[i]] + (rs[i]·G, rs[i]·PK)`` in ``ctx``.

    ``(perm, rs)`` is exactly a :class:`~adp2p.crypto.deck.ShuffleWitness`. Randomness is hedged:
    every secret nonce is ``H2S(SHUFFLE_NONCE, K, label, u32(i))`` with ``K`` a SHA-512 of 32 fresh bytes
    (``seed``, only fixed in known-answer tests), the witness and the statement. The output is not
    checked against the witness: a false statement simply gives a proof that fails verification.
    """
    n = len(deck_in)
    _check_witness(n, perm, rs)
    if len(deck_out) != n:
        raise ValueError("input and output decks differ in size")
    st = _Statement(ctx.to_bytes(), pk, encode_deck(deck_in), encode_deck(deck_out))
    key = hash64(
        domains.SHUFFLE_NONCE,
        secrets.token_bytes(32) if seed is None else seed,
        pack(list(perm)),
        b"".join(rs),
        *st,
    )

    def rnd(label: bytes, i: int) -> bytes:
        for attempt in range(256):  # a zero scalar has probability 2^-252: never retried in practice
            s = hash_to_scalar(domains.SHUFFLE_NONCE, key, label, u32(i), u8(attempt))
            if s != bytes(32):
                return s
        raise AssertionError("unreachable")  # pragma: no cover

    h, hs = generators(n)
    # GenPermutationCommitment: c_{perm[i]} = r_{perm[i]}·G + h_i
    rc = [rnd(b"r", j) for j in range(n)]
    c = [b""] * n
    for i, j in enumerate(perm):
        c[j] = add(base_mul(rc[j]), hs[i])
    u = _us(st, c)
    ut = [u[j] for j in perm]
    # GenCommitmentChain: ĉ_i = r̂_i·G + ũ_i·ĉ_{i-1}, ĉ_{-1} = h
    rh = [rnd(b"rhat", i) for i in range(n)]
    chat: list[bytes] = []
    prev = h
    for i in range(n):
        prev = add(base_mul(rh[i]), mul(ut[i], prev))
        chat.append(prev)
    w1, w2, w3, w4 = (rnd(b"w", k) for k in range(1, 5))
    wh = [rnd(b"what", i) for i in range(n)]
    wt = [rnd(b"wtilde", i) for i in range(n)]
    neg_w4 = scalar_negate(w4)
    t = [
        base_mul(w1),
        base_mul(w2),
        add(base_mul(w3), _dot(wt, hs)),
        add(mul(neg_w4, pk), _dot(wt, [o.c2 for o in deck_out])),
        add(base_mul(neg_w4), _dot(wt, [o.c1 for o in deck_out])),
    ]
    prevs = [h, *chat]
    that = [add(base_mul(wh[i]), mul(wt[i], prevs[i])) for i in range(n)]
    e = _challenge(st, c, chat, t, that)
    v = _chain_weights(ut)
    s = [
        scalar_add(w1, scalar_mul(e, _ssum(rc))),
        scalar_add(w2, scalar_mul(e, _ssum([scalar_mul(a, b) for a, b in zip(rh, v, strict=True)]))),
        scalar_add(w3, scalar_mul(e, _ssum([scalar_mul(a, b) for a, b in zip(rc, u, strict=True)]))),
        scalar_add(w4, scalar_mul(e, _ssum([scalar_mul(a, b) for a, b in zip(rs, ut, strict=True)]))),
    ]
    sh = [scalar_add(wh[i], scalar_mul(e, rh[i])) for i in range(n)]
    stl = [scalar_add(wt[i], scalar_mul(e, ut[i])) for i in range(n)]
    return encode_proof(ShuffleProof(c, chat, t, that, s, sh, stl))


class ShuffleProof(NamedTuple):
    """The decoded proof π = (t, s, c, ĉ) of the paper; lists of 32-byte points / scalars."""

    c: list[bytes]  # permutation commitment
    chat: list[bytes]  # commitment chain ĉ_0..ĉ_{N-1}
    t: list[bytes]  # t1, t2, t3, t4a (PK / c2 side), t4b (G / c1 side)
    that: list[bytes]  # t̂_0..t̂_{N-1}
    s: list[bytes]  # s1, s2, s3, s4
    shat: list[bytes]  # ŝ_0..ŝ_{N-1}
    stilde: list[bytes]  # s̃_0..s̃_{N-1}


def encode_proof(p: ShuffleProof) -> bytes:
    return pack(
        [PROOF_VERSION, *(b"".join(part) for part in (p.c, p.chat, p.t, p.that, p.s, p.shat, p.stilde))]
    )


def _split(raw: bytes, count: int, what: str, check: Callable[[bytes, str], bytes]) -> list[bytes]:
    expect_bytes(raw, what, lengths=(PT * count,))
    return [check(raw[k : k + PT], f"{what} {k // PT}") for k in range(0, len(raw), PT)]


def _as_is(p: bytes, what: str) -> bytes:
    return p


def decode_proof(data: bytes, n: int) -> ShuffleProof:
    """Strict decoding for a deck of ``n`` cards (MalformedEncoding / InvalidPoint / InvalidScalar)."""
    f = expect_array(unpack_canonical(data, "shuffle proof"), 8, "shuffle proof")
    expect_int(f[0], PROOF_VERSION, PROOF_VERSION, "shuffle proof version")
    return ShuffleProof(
        # No point is checked here: every c_j and ĉ_i is multiplied in an equation (t3, t̂) and libsodium's
        # multiplication refuses an invalid point (that equation fails; all are evaluated); the t values are only
        # hashed and compared with computed points (an invalid one equals none). A check would repeat the work.
        _split(f[1], n, "permutation commitment", _as_is),
        _split(f[2], n, "commitment chain", _as_is),
        _split(f[3], 5, "proof commitment t", _as_is),
        _split(f[4], n, "proof commitment t-hat", _as_is),
        _split(f[5], 4, "response s", check_scalar),
        _split(f[6], n, "response s-hat", check_scalar),
        _split(f[7], n, "response s-tilde", check_scalar),
    )


def _equal(name: str, claimed: bytes, compute: Callable[[], bytes], failed: list[str]) -> None:
    try:
        ok = hmac.compare_digest(claimed, compute())
    except InvalidPoint:  # a zero scalar or an identity point on the way: the equation cannot hold
        ok = False
    if not ok:
        failed.append(name)


T4 = Callable[[bytes, bytes, list[bytes], list[bytes]], tuple[bytes, bytes] | None]  # (s4, e, u, s̃) -> (t4a, t4b)


def failed_equations(
    ctx: ShuffleContext,
    pk: bytes,
    deck_in: Sequence[Ciphertext],
    deck_out: Sequence[Ciphertext],
    proof: ShuffleProof,
    t4: T4 | None = None,
) -> list[str]:
    """CheckShuffleProof on a decoded proof: the names of the equations that do not hold (all are evaluated).

    ``t4`` (crypto/shuffle_audit.py only): the right-hand sides of t4a and t4b computed another way, by an auditor
    who knows every card's masking scalar: exactly the points the generic sums give, or None (then the generic sums
    are evaluated) wherever one of their multiplications could fail."""
    n = len(deck_in)
    st = _Statement(ctx.to_bytes(), pk, encode_deck(deck_in), encode_deck(deck_out))
    c, chat, t, that, s, sh, stl = proof
    h, hs = generators(n)
    u = _us(st, c)
    e = _challenge(st, c, chat, t, that)
    neg_e = scalar_negate(e)
    failed: list[str] = []
    # t1 = s1·G − e·c̄,  c̄ = Σ c_j − Σ h_i
    _equal("t1", t[0], lambda: add(base_mul(s[0]), mul(neg_e, sub(_sum(c), _sum(hs)))), failed)
    # t2 = s2·G − e·ĉ,  ĉ = ĉ_{N-1} − (Π u_i)·h
    u_prod = functools.reduce(scalar_mul, u)
    _equal("t2", t[1], lambda: add(base_mul(s[1]), mul(neg_e, sub(chat[-1], mul(u_prod, h)))), failed)
    # t3 = s3·G + Σ s̃_i·h_i − e·c̃,  c̃ = Σ u_j·c_j
    _equal("t3", t[2], lambda: add(add(base_mul(s[2]), _dot(stl, hs)), mul(neg_e, _dot(u, c))), failed)
    # t4a = −s4·PK + Σ s̃_i·c2'_i − e·Σ u_j·c2_j ;  t4b = −s4·G + Σ s̃_i·c1'_i − e·Σ u_j·c1_j
    neg_s4 = scalar_negate(s[3])
    known = t4(s[3], e, u, stl) if t4 is not None else None
    if known is not None:
        _equal("t4a", t[3], lambda: known[0], failed)
        _equal("t4b", t[4], lambda: known[1], failed)
    else:
        _equal(
            "t4a",
            t[3],
            lambda: add(
                add(mul(neg_s4, pk), _dot(stl, [o.c2 for o in deck_out])),
                mul(neg_e, _dot(u, [i.c2 for i in deck_in])),
            ),
            failed,
        )
        _equal(
            "t4b",
            t[4],
            lambda: add(
                add(base_mul(neg_s4), _dot(stl, [o.c1 for o in deck_out])),
                mul(neg_e, _dot(u, [i.c1 for i in deck_in])),
            ),
            failed,
        )
    # t̂_i = ŝ_i·G + s̃_i·ĉ_{i-1} − e·ĉ_i  (ĉ_{-1} = h)
    prevs = [h, *chat]
    for i in range(n):
        _equal(
            f"that{i}",
            that[i],
            lambda i=i: add(add(base_mul(sh[i]), mul(stl[i], prevs[i])), mul(neg_e, chat[i])),
            failed,
        )
    return failed


def forget_verified() -> None:
    """Forget every proof remembered as verified (benchmarks measure the check itself)."""
    _verified.clear()


def verify_shuffle_proof(
    ctx: ShuffleContext,
    pk: bytes,
    deck_in: Sequence[Ciphertext],
    deck_out: Sequence[Ciphertext],
    proof: bytes,
    *,
    trusted: bool = False,
    t4: T4 | None = None,
) -> None:
    """Raise :class:`ShuffleError` (seat and step of ``ctx``) unless ``proof`` proves the shuffle.

    ``t4``: an auditor's other way to the right-hand sides of t4a and t4b (crypto/shuffle_audit.py; same verdict).

    Unless ``trusted`` (the decks come from ``decode_deck`` / ``receive_shuffle`` and ``pk`` from
    ``joint_key``), the joint key and every point of both decks are validated first.
    """
    n = len(deck_in)
    key = hash32(
        domains.SHUFFLE_VERIFIED,
        ctx.to_bytes(),
        pk,
        encode_deck(deck_in),
        encode_deck(deck_out),
        proof if type(proof) is bytes else b"",
        u8(trusted),
    )
    if type(proof) is bytes and key in _verified:
        return

    def fail(why: str) -> ShuffleError:
        return ShuffleError(f"shuffle proof rejected: {why}", seat=ctx.seat, step=ctx.step)

    if not 1 <= n <= MAX_PILE or len(deck_out) != n:
        raise fail("input and output decks differ in size (or are empty)")
    try:
        if not trusted:
            check_point(pk, "joint key")
            for k, ct in enumerate([*deck_in, *deck_out]):
                check_point(ct.c1, f"card {k} c1")
                check_point(ct.c2, f"card {k} c2")
        decoded = decode_proof(proof, n)
    except (MalformedEncoding, InvalidPoint, InvalidScalar) as exc:
        raise fail(str(exc)) from None
    try:
        failed = failed_equations(ctx, pk, deck_in, deck_out, decoded, t4)
    except CryptoError as exc:  # pragma: no cover - every point was validated; kept as a safety net
        raise fail(str(exc)) from None
    if failed:
        more = f" and {len(failed) - 6} more" if len(failed) > 6 else ""
        raise fail(f"equations {', '.join(failed[:6])}{more} do not hold")
    if len(_verified) >= MAX_REMEMBERED:
        del _verified[next(iter(_verified))]
    _verified[key] = None
