"""Proved answers (primitive): Pedersen commitments to a password's three codes and zero-knowledge OR-proofs
that a controller's answer ("match" / "no match") and its password ("three distinct codes") are true.

Owns the second generator ``H``, the commitments, the proof context and the three proofs (issue 14, part 2); the
table uses them in p2p/machine/answers.py. Exact bytes: docs/protocol.md, "Proved answers (primitive)".

- ``H = crypto_core_ed25519_from_uniform(hash32(PEDERSEN_H, u32(i)))`` for the first ``i`` giving a valid
  prime-order point other than ``G``: hash to curve, so nobody knows ``log_G H``.
- Code ``c`` (0..5) with secret non-zero blinding ``r``: ``C = c·G + r·H`` (hiding, and binding under DL).
- Every proof is an AND of Cramer–Damgård–Schoenmakers OR-groups whose branches all say
  ``Y = w·H`` (knowledge of a discrete log to base ``H``). The true branch of a group is a Schnorr proof
  (``R = k·H``); every other branch is simulated (random ``e_i``, ``s_i``; ``R_i = s_i·H − e_i·Y_i``).
  One Fiat–Shamir challenge ``E = H2S(CODE_PROOF, u8(kind), context, H, C_0, C_1, C_2, x, R_0, …, R_{n−1})``
  covers every branch; in each group the challenges sum to ``E`` mod L. Wire: ``e_i ‖ s_i`` per branch, in
  order (64 bytes each, no header): "match" 3 branches, "no match" 15, "distinct" 48.
- distinct: for k = 0, 1, 2, OR over c in 0..5 of ``C_k − c·G = r_k·H``; then for (k, l) in (0,1), (0,2),
  (1,2), OR over d in −5..−1, 1..5 of ``C_k − C_l − d·G = (r_k − r_l)·H``.
- match X: OR over k of ``C_k − X·G = r_k·H``. no match X: for each k, OR over c ≠ X of ``C_k − c·G = r_k·H``.

In the table (docs/protocol.md, "Proved answers"), a password card's blinding is not a secret of its own: it is
derived from the salt of the card's hash commitment (``code_blinding``), so the secrets file, the end-of-game
openings and a password card shown with its opening carry it already, and one opening checks both commitments.

Nonces and simulated scalars are hedged: ``H2S(NONCE, secret, 32 random bytes, kind, context, statement,
attempt, branch, label)``; ``entropy`` fixes the random bytes for known-answer tests only.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Sequence
from typing import Any, NamedTuple

import nacl.bindings as nb

from . import domains
from .errors import (
    CommitmentMismatch,
    CryptoError,
    FalseStatement,
    InvalidPoint,
    InvalidProof,
    InvalidScalar,
    MalformedEncoding,
)
from .group import (
    IDENTITY,
    POINT_LEN,
    SCALAR_LEN,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    hash_to_scalar,
    is_valid_point,
    mul,
    random_scalar,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    scalar_negate,
    scalar_sub,
    sub,
)
from .hashing import frame, hash32, u8, u32, u64

NUM_CODES = 6  # codes 0..5 (A..F)
SLOTS = 3  # codes of a password
KIND_DISTINCT, KIND_MATCH, KIND_NO_MATCH, KIND_LINK = 1, 2, 3, 4  # KIND_LINK: crypto/code_link.py
BRANCH_LEN = 2 * SCALAR_LEN
COMMITMENTS_LEN = SLOTS * POINT_LEN
PAIRS = ((0, 1), (0, 2), (1, 2))
DIFFS = tuple(d for d in range(-(NUM_CODES - 1), NUM_CODES) if d)  # -5..-1, 1..5
BRANCHES = {KIND_DISTINCT: SLOTS * NUM_CODES + len(PAIRS) * len(DIFFS), KIND_MATCH: SLOTS, KIND_NO_MATCH: 15}
PROOF_LEN = {kind: n * BRANCH_LEN for kind, n in BRANCHES.items()}
MAX_PURPOSE = 64


def _derive_h() -> bytes:
    for i in range(256):
        p = nb.crypto_core_ed25519_from_uniform(hash32(domains.PEDERSEN_H, u32(i)))
        if is_valid_point(p) and p != base_mul(scalar_from_int(1)):
            return p
    raise InvalidPoint("no valid second generator")  # pragma: no cover - 256 identities in a row


H = _derive_h()
_CODE_G = {d: base_mul(scalar_from_int(d)) for d in DIFFS}  # d·G for d in ±1..±5


def minus_code(p: bytes, d: int) -> bytes:
    """``P − d·G`` (no multiplication by zero: libsodium refuses an identity result)."""
    return p if d == 0 else sub(p, _CODE_G[d])


def check_code(code: object, what: str = "code") -> int:
    if type(code) is not int or not 0 <= code < NUM_CODES:
        raise MalformedEncoding(f"{what}: expected an int in [0, {NUM_CODES})")
    return code


def pedersen_commit(code: int, blind: bytes) -> bytes:
    """``C = code·G + blind·H`` (``blind`` a canonical non-zero scalar)."""
    rh = mul(check_nonzero_scalar(blind, "pedersen blinding"), H)
    return rh if check_code(code) == 0 else add(rh, _CODE_G[code])


class PasswordOpening(NamedTuple):
    """The controller's secret: its three codes and their blindings (revealed only at the audit)."""

    codes: tuple[int, int, int]
    blinds: tuple[bytes, bytes, bytes]

    def __repr__(self) -> str:
        return "PasswordOpening(<secret>)"


Commitments = tuple[bytes, bytes, bytes]


def commit_codes(codes: Sequence[int], *, blinds: Sequence[bytes] | None = None) -> tuple[Commitments, PasswordOpening]:
    """Commit to three codes (each 0..5; a repeated code is committed, but cannot be proved distinct).
    ``blinds`` (three distinct non-zero scalars) is for known-answer tests; by default they are fresh."""
    if len(codes) != SLOTS:
        raise MalformedEncoding("password: expected three codes")
    rs = tuple(blinds) if blinds is not None else tuple(random_scalar() for _ in range(SLOTS))
    if len(rs) != SLOTS or len(set(rs)) != SLOTS:
        raise InvalidScalar("password blindings: expected three distinct scalars")
    cs = tuple(pedersen_commit(c, r) for c, r in zip(codes, rs, strict=True))
    return (cs[0], cs[1], cs[2]), PasswordOpening((codes[0], codes[1], codes[2]), (rs[0], rs[1], rs[2]))


def code_blinding(game_id: bytes, handle: int, salt: bytes) -> bytes:
    """The Pedersen blinding of password card ``handle``'s code: ``H2S(CODE_BLIND, game_id, u64(handle), salt)``
    from the salt of the card's hash commitment (as secret as the salt, and revealed with it)."""
    if type(salt) is not bytes or not 1 <= len(salt) <= 64:
        raise MalformedEncoding("code blinding: a salt of 1..64 bytes")
    if type(handle) is not int or not 0 <= handle < 2**64:
        raise MalformedEncoding("code blinding: a handle in [0, 2^64)")
    r = hash_to_scalar(domains.CODE_BLIND, game_id, u64(handle), salt)
    return check_nonzero_scalar(r, "code blinding")  # zero with probability 2^-252


def password_commitments(
    game_id: bytes, handles: Sequence[int], openings: Sequence[tuple[int, bytes]]
) -> tuple[Commitments, PasswordOpening]:
    """The Pedersen commitments of a password whose cards ``handles`` hold the (code, salt) ``openings`` of their
    hash commitments, in that order (blindings from ``code_blinding``)."""
    if len(handles) != SLOTS or len(openings) != SLOTS:
        raise MalformedEncoding("password: expected three cards")
    blinds = [code_blinding(game_id, h, salt) for h, (_code, salt) in zip(handles, openings, strict=True)]
    return commit_codes([code for code, _salt in openings], blinds=blinds)


def encode_commitments(cs: Commitments) -> bytes:
    return b"".join(cs)


def decode_commitments(raw: bytes) -> Commitments:
    """96 bytes ``C_0 ‖ C_1 ‖ C_2``, each a valid point (never the identity): MalformedEncoding / InvalidPoint."""
    if type(raw) is not bytes or len(raw) != COMMITMENTS_LEN:
        raise MalformedEncoding(f"code commitments: expected {COMMITMENTS_LEN} bytes")
    return _check_commitments((raw[:32], raw[32:64], raw[64:]))


def _check_commitments(cs: Sequence[bytes]) -> Commitments:
    if len(cs) != SLOTS:
        raise MalformedEncoding("code commitments: expected three")
    for k, c in enumerate(cs):
        check_point(c, f"code commitment {k}")
    return (cs[0], cs[1], cs[2])


class ProofContext(NamedTuple):
    """What a proof is about, inside its challenge: game, controller seat, the handles of its three password
    cards, the purpose (e.g. ``b"password"``, ``b"answer"``) and a handle (the attempt's handed card, ...)."""

    game_id: bytes
    seat: int
    password_handles: tuple[int, int, int]
    purpose: bytes
    handle: int

    def to_bytes(self) -> bytes:
        """``frame("code-proof", game_id, u8(seat), u64(h_0), u64(h_1), u64(h_2), purpose, u64(handle))``."""
        if type(self.game_id) is not bytes or len(self.game_id) not in (16, 32):
            raise MalformedEncoding("proof context: game id of 16 or 32 bytes")
        if type(self.seat) is not int or not 0 <= self.seat < 256:
            raise MalformedEncoding("proof context: seat in [0, 256)")
        hs = tuple(self.password_handles)
        if len(hs) != SLOTS or any(type(h) is not int or not 0 <= h < 2**64 for h in (*hs, self.handle)):
            raise MalformedEncoding("proof context: three password handles and a handle in [0, 2^64)")
        if type(self.purpose) is not bytes or not 1 <= len(self.purpose) <= MAX_PURPOSE:
            raise MalformedEncoding(f"proof context: purpose of 1..{MAX_PURPOSE} bytes")
        return frame(
            domains.CTX_CODE_PROOF, self.game_id, u8(self.seat), *(u64(h) for h in hs), self.purpose, u64(self.handle)
        )


# --- statements: a list of OR-groups, each a list of points Y (one of which is w·H) ---


def _distinct_groups(cs: Commitments) -> list[list[bytes]]:
    groups = [[minus_code(c, v) for v in range(NUM_CODES)] for c in cs]
    for k, m in PAIRS:
        diff = sub(cs[k], cs[m])
        groups.append([minus_code(diff, d) for d in DIFFS])
    return groups


def _match_groups(cs: Commitments, x: int) -> list[list[bytes]]:
    return [[minus_code(c, x) for c in cs]]


def _no_match_groups(cs: Commitments, x: int) -> list[list[bytes]]:
    return [[minus_code(c, v) for v in range(NUM_CODES) if v != x] for c in cs]


def _challenge(kind: int, ctx: bytes, cs: Commitments, x: bytes, rs: Sequence[bytes]) -> bytes:
    return hash_to_scalar(domains.CODE_PROOF, u8(kind), ctx, H, *cs, x, *rs)


def _x_part(x: int | None) -> bytes:
    return b"" if x is None else u8(check_code(x, "answered code"))


def _prove(
    kind: int,
    context: ProofContext,
    cs: Commitments,
    x: int | None,
    groups: list[list[bytes]],
    witnesses: list[tuple[int, bytes]],
    secret: bytes,
    entropy: bytes | None,
) -> bytes:
    """CDS proof of AND over groups of OR over branches; ``witnesses[g] = (true branch, w with Y = w·H)``."""
    seed = secrets.token_bytes(32) if entropy is None else entropy
    if type(seed) is not bytes or len(seed) != 32:
        raise MalformedEncoding("proof entropy: expected 32 bytes")
    ctx, xb = context.to_bytes(), _x_part(x)
    statement = frame(*cs, xb)
    for attempt in range(16):

        def derive(i: int, label: bytes, attempt: int = attempt) -> bytes:
            return hash_to_scalar(
                domains.NONCE, secret, seed, u8(kind), ctx, statement, u32(attempt), u32(i), label
            )

        rs: list[bytes] = []
        sims: list[list[tuple[bytes, bytes]]] = []  # per group: (e, s) of every branch, the true one's (k, -)
        i = 0
        for ys, (t, _w) in zip(groups, witnesses, strict=True):
            row = []
            for j, y in enumerate(ys):
                if j == t:
                    k = derive(i, b"k")
                    row.append((k, b""))
                    rs.append(mul(k, H))
                else:
                    e, s = derive(i, b"e"), derive(i, b"s")
                    row.append((e, s))
                    rs.append(sub(mul(s, H), mul(e, y)))
                i += 1
            sims.append(row)
        big_e = _challenge(kind, ctx, cs, xb, rs)
        out = []
        for row, (t, w) in zip(sims, witnesses, strict=True):
            e_t = big_e
            for j, (e, _s) in enumerate(row):
                if j != t:
                    e_t = scalar_sub(e_t, e)
            s_t = scalar_add(row[t][0], scalar_mul(e_t, w))
            out.extend(e_t + s_t if j == t else e + s for j, (e, s) in enumerate(row))
        if all(bytes(32) not in (b[:32], b[32:]) for b in out):  # a zero scalar: 2^-252, start over
            return b"".join(out)
    raise InvalidProof("could not make a proof (16 zero scalars in a row)")  # pragma: no cover


def proof_scalars(proof: bytes, size: int, what: str) -> list[bytes]:
    """A proof's bytes as its scalars: exactly `size` bytes of canonical non-zero scalars, else InvalidProof."""
    if type(proof) is not bytes or len(proof) != size:
        raise InvalidProof(f"{what} proof: expected {size} bytes")
    try:
        return [check_nonzero_scalar(proof[i : i + 32], f"{what} proof scalar {i // 32}") for i in range(0, size, 32)]
    except InvalidScalar as exc:
        raise InvalidProof(str(exc)) from None


def _known_branch(s: bytes, e: bytes, code: int, blind: bytes, v: int) -> bytes:
    """``s·H − e·(C − v·G)`` for ``C = code·G + blind·H`` (an opening checked before): ``(s − e·blind)·H −
    (e·(code − v))·G``, one multiplication by ``H`` and one by ``G`` where the generic way takes two by ``H`` and
    ``Y`` (the same point, the identity included)."""
    a = scalar_sub(s, scalar_mul(e, blind))
    h_part = mul(a, H) if a != bytes(SCALAR_LEN) else None
    g_part = base_mul(scalar_mul(scalar_negate(e), scalar_from_int(code - v))) if code != v else None
    if h_part is None or g_part is None:
        return h_part or g_part or IDENTITY
    return add(h_part, g_part)


def _verify(
    kind: int,
    context: ProofContext,
    cs: Commitments,
    x: int | None,
    proof: bytes,
    what: str,
    opening: PasswordOpening | None = None,
) -> None:
    ctx, xb = context.to_bytes(), _x_part(x)
    cs = _check_commitments(cs)
    n = BRANCHES[kind]
    scalars = proof_scalars(proof, n * BRANCH_LEN, what)
    try:
        if opening is not None:
            opening = PasswordOpening(*map(tuple, opening))
            if x is None or not _opens(cs, opening):
                opening = None  # the generic way: an opening that does not hold says nothing
    except (TypeError, ValueError):
        opening = None
    groups: list[list[Any]]
    if opening is not None and x is not None:  # each branch as (slot k, code v): its Y = C_k − v·G, never the identity
        others = [c for c in range(NUM_CODES) if c != x]
        groups = [[(k, x) for k in range(SLOTS)]] if kind == KIND_MATCH else [[(k, v) for v in others] for k in
                                                                               range(SLOTS)]
    elif x is None:
        groups = _distinct_groups(cs)
    else:
        groups = _match_groups(cs, x) if kind == KIND_MATCH else _no_match_groups(cs, x)
    rs, sums, i = [], [], 0
    for ys in groups:
        total: bytes | None = None
        for y in ys:
            e, s = scalars[2 * i], scalars[2 * i + 1]
            try:
                if opening is not None:
                    k, v = y
                    rs.append(_known_branch(s, e, opening.codes[k], opening.blinds[k], v))
                elif y == IDENTITY:
                    raise InvalidProof(f"{what} proof: a commitment has no blinding for one branch")
                else:
                    rs.append(sub(mul(s, H), mul(e, y)))
            except InvalidPoint:
                raise InvalidProof(f"{what} proof does not verify") from None
            total = e if total is None else scalar_add(total, e)
            i += 1
        assert total is not None
        sums.append(total)
    big_e = _challenge(kind, ctx, cs, xb, rs)
    if not all(hmac.compare_digest(t, big_e) for t in sums):
        raise InvalidProof(f"{what} proof does not verify (wrong commitments, code, context or proof)")


@functools.lru_cache(maxsize=256)
def _opens(cs: Commitments, opening: PasswordOpening) -> bool:
    """Whether ``opening`` opens all three commitments (codes in 0..5, non-zero blindings); a pure function of the
    bytes, remembered for the few passwords of a game (every answer about one shares it)."""
    try:
        return all(pedersen_commit(c, r) == cs[k] for k, (c, r) in enumerate(zip(opening.codes, opening.blinds,
                                                                                strict=True)))
    except (CryptoError, TypeError, ValueError):
        return False


def _opened(cs: Commitments, opening: PasswordOpening) -> None:
    """An honest prover checks its opening against the published commitments before proving anything."""
    _check_commitments(cs)
    for k, (c, r) in enumerate(zip(opening.codes, opening.blinds, strict=True)):
        if pedersen_commit(c, r) != cs[k]:
            raise CommitmentMismatch(f"code commitment {k} does not open to the prover's code")


def _secret(opening: PasswordOpening) -> bytes:
    return bytes(opening.codes) + b"".join(opening.blinds)


def prove_distinct(
    cs: Commitments, opening: PasswordOpening, context: ProofContext, *, entropy: bytes | None = None
) -> bytes:
    """Prove the three committed codes are in 0..5 and pairwise different (FalseStatement if they are not)."""
    _opened(cs, opening)
    codes, rs = opening.codes, opening.blinds
    if len(set(codes)) != SLOTS:
        raise FalseStatement("the password repeats a code")
    witnesses = [(c, r) for c, r in zip(codes, rs, strict=True)]
    witnesses += [(DIFFS.index(codes[k] - codes[m]), scalar_sub(rs[k], rs[m])) for k, m in PAIRS]
    return _prove(KIND_DISTINCT, context, cs, None, _distinct_groups(cs), witnesses, _secret(opening), entropy)


_verified: dict[bytes, None] = {}  # keys of distinct proofs that verified in this process, oldest first
MAX_REMEMBERED = 4096


def verify_distinct(cs: Commitments, proof: bytes, context: ProofContext) -> None:
    """Raise InvalidProof (InvalidPoint / MalformedEncoding for bad commitments or context) unless it verifies.

    A proof that verified is remembered by a hash of everything checked (at most 4096; failures never), so the
    peers of one process and the audit after them check one password once, as for proofs of shuffle."""
    key = hash32(domains.CODE_VERIFIED, context.to_bytes(), *cs, proof if type(proof) is bytes else b"")
    if type(proof) is bytes and key in _verified:
        return
    _verify(KIND_DISTINCT, context, cs, None, proof, "distinct")
    if len(_verified) >= MAX_REMEMBERED:
        del _verified[next(iter(_verified))]
    _verified[key] = None


def forget_verified() -> None:
    """Forget every distinct proof remembered as verified (benchmarks and tests measure the check itself)."""
    _verified.clear()


def prove_match(
    cs: Commitments, opening: PasswordOpening, x: int, context: ProofContext, *, entropy: bytes | None = None
) -> bytes:
    """Prove some committed code equals ``x`` (FalseStatement if none does)."""
    _opened(cs, opening)
    if check_code(x, "answered code") not in opening.codes:
        raise FalseStatement("no code of the password matches")
    k = opening.codes.index(x)
    witnesses = [(k, opening.blinds[k])]
    return _prove(KIND_MATCH, context, cs, x, _match_groups(cs, x), witnesses, _secret(opening), entropy)


def verify_match(cs: Commitments, x: int, proof: bytes, context: ProofContext) -> None:
    _verify(KIND_MATCH, context, cs, x, proof, "match")


def prove_no_match(
    cs: Commitments, opening: PasswordOpening, x: int, context: ProofContext, *, entropy: bytes | None = None
) -> bytes:
    """Prove no committed code equals ``x`` (FalseStatement if one does)."""
    _opened(cs, opening)
    if check_code(x, "answered code") in opening.codes:
        raise FalseStatement("a code of the password matches")
    witnesses = [(c if c < x else c - 1, r) for c, r in zip(opening.codes, opening.blinds, strict=True)]
    return _prove(KIND_NO_MATCH, context, cs, x, _no_match_groups(cs, x), witnesses, _secret(opening), entropy)


def verify_no_match(cs: Commitments, x: int, proof: bytes, context: ProofContext) -> None:
    _verify(KIND_NO_MATCH, context, cs, x, proof, "no-match")


def prove_answer(
    cs: Commitments, opening: PasswordOpening, x: int, context: ProofContext, *, entropy: bytes | None = None
) -> tuple[bool, bytes]:
    """The true answer for a handed card of code ``x`` and its proof: (True, match proof) or (False, no-match)."""
    if check_code(x, "answered code") in opening.codes:
        return True, prove_match(cs, opening, x, context, entropy=entropy)
    return False, prove_no_match(cs, opening, x, context, entropy=entropy)


def verify_answer(
    cs: Commitments, x: int, matched: bool, proof: bytes, context: ProofContext, opening: PasswordOpening | None = None
) -> None:
    """Check an answer ``matched`` about code ``x`` with its proof; InvalidProof if it is not proved. ``opening``: the
    password's opening as the audit knows it (revealed): where it opens the commitments, each branch takes one
    multiplication by ``H`` and one by ``G`` instead of two variable-base ones — the same points, the same verdict."""
    if type(matched) is not bool:
        raise MalformedEncoding("answer: expected a bool")
    _verify(KIND_MATCH if matched else KIND_NO_MATCH, context, cs, x, proof, "match" if matched else "no-match",
            opening)
