"""Link proof (primitive): a Pedersen code commitment is the code of the password card its controller holds.

Owns the proof that binds one commitment ``C = code·G + r·H`` (crypto/code_proofs.py) to one hidden card, without
saying which card it is; the table uses it in p2p/machine/links.py. Exact bytes: docs/protocol.md, "Proved answers
(primitive)", link proof.

The card ``(c1, c2)`` is first made ElGamal under the holder's key alone: every other seat publishes its proven
decryption share, and ``c2' = c2 − Σ_{others} d_i = M + x·c1`` (:func:`adp2p.crypto.deck.combine`), where
``X = x·G`` is the holder's deck key. Only the holder can still open it. Over the candidate faces ``f`` (point
``M_f``, code ``code_f``) the holder proves one Cramer–Damgård–Schoenmakers OR of the AND of two relations:

    DLEQ:     log_G X = log_c1 (c2' − M_f)          (witness x: the card is M_f)
    Pedersen: C − code_f·G = r·H                    (witness r: the commitment holds code_f)

A branch's commitments are ``A = k·G``, ``B = k·c1``, ``R = j·H`` (true) or ``A = s·G − e·X``,
``B = s·c1 − e·(c2' − M_f)``, ``R = t·H − e·(C − code_f·G)`` (simulated, random ``e, s, t``), with one challenge
``E = H2S(CODE_PROOF, u8(4), context, H, X, c1, c2', C, faces, A_0, B_0, R_0, …)`` and ``Σ e_f = E``.
Wire: ``e_f ‖ s_f ‖ t_f`` for every face in table order (96 bytes each).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence

from . import domains
from .code_proofs import KIND_LINK, H, ProofContext, check_code, minus_code, pedersen_commit, proof_scalars
from .errors import CommitmentMismatch, FalseStatement, InvalidPoint, InvalidProof, MalformedEncoding
from .group import (
    IDENTITY,
    SCALAR_LEN,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_mul,
    scalar_sub,
    sub,
)
from .hashing import hash32, u8, u32

LINK_BRANCH_LEN = 3 * SCALAR_LEN
MAX_FACES = 1024

Faces = Sequence[tuple[bytes, int]]  # (card point M_f, code of that card) for every candidate face


def _faces(faces: Faces) -> bytes:
    """Check the candidate faces (valid distinct points, codes 0..5) and encode them for the challenge."""
    if not 1 <= len(faces) <= MAX_FACES:
        raise MalformedEncoding(f"link proof: 1..{MAX_FACES} candidate faces")
    seen = set()
    out = []
    for i, (point, code) in enumerate(faces):
        check_point(point, f"candidate face {i}")
        out.append(point + u8(check_code(code, f"code of candidate face {i}")))
        seen.add(point)
    if len(seen) != len(faces):
        raise MalformedEncoding("link proof: candidate faces repeat a card point")
    return b"".join(out)


def _branch_points(c2p: bytes, commitment: bytes, faces: Faces) -> list[tuple[bytes, bytes]]:
    """(c2' − M_f, C − code_f·G) for every face; InvalidProof if one is the identity (no such honest statement)."""
    out = []
    for point, code in faces:
        v, y = sub(c2p, point), minus_code(commitment, code)
        if v == IDENTITY or y == IDENTITY:
            raise InvalidProof("link proof: a branch point is the identity (card or commitment without mask)")
        out.append((v, y))
    return out


def _challenge(ctx: bytes, statement: tuple[bytes, bytes, bytes, bytes], faces: bytes, rs: list[bytes]) -> bytes:
    """``statement = (X, c1, c2', C)``."""
    return hash_to_scalar(domains.CODE_PROOF, u8(KIND_LINK), ctx, H, *statement, faces, *rs)


def prove_link(
    c1: bytes,
    c2p: bytes,
    secret: bytes,
    commitment: bytes,
    code: int,
    blind: bytes,
    face: int,
    faces: Faces,
    context: ProofContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Prove ``commitment`` holds the code of the card ``(c1, c2')`` opens to under the holder's key ``secret``
    (``face`` is its index in ``faces``). FalseStatement if it does not; CommitmentMismatch for a wrong opening."""
    public = base_mul(check_nonzero_scalar(secret, "holder deck key"))
    for p, what in ((c1, "c1"), (c2p, "c2'"), (commitment, "code commitment")):
        check_point(p, what)
    faces_b = _faces(faces)
    if type(face) is not int or not 0 <= face < len(faces):
        raise MalformedEncoding("link proof: face index out of range")
    if pedersen_commit(code, blind) != commitment:
        raise CommitmentMismatch("code commitment does not open to the prover's code")
    if add(faces[face][0], mul(secret, c1)) != c2p:
        raise FalseStatement("the card is not the claimed face under the holder's key")
    if faces[face][1] != code:
        raise FalseStatement("the committed code is not the code of the card")
    seed = secrets.token_bytes(32) if entropy is None else entropy
    if type(seed) is not bytes or len(seed) != 32:
        raise MalformedEncoding("proof entropy: expected 32 bytes")
    ctx = context.to_bytes()
    points = _branch_points(c2p, commitment, faces)
    statement = (public, c1, c2p, commitment)
    for attempt in range(16):

        def derive(i: int, label: bytes, attempt: int = attempt) -> bytes:
            return hash_to_scalar(
                domains.NONCE, secret + blind, seed, u8(KIND_LINK), ctx, *statement, u32(attempt), u32(i), label
            )

        rs: list[bytes] = []
        rows: list[tuple[bytes, bytes, bytes]] = []
        for i, (v, y) in enumerate(points):
            if i == face:
                kx, kr = derive(i, b"k"), derive(i, b"j")
                rows.append((b"", kx, kr))
                rs += [base_mul(kx), mul(kx, c1), mul(kr, H)]
            else:
                e, s, t = derive(i, b"e"), derive(i, b"s"), derive(i, b"t")
                rows.append((e, s, t))
                rs += [sub(base_mul(s), mul(e, public)), sub(mul(s, c1), mul(e, v)), sub(mul(t, H), mul(e, y))]
        e_t = _challenge(ctx, statement, faces_b, rs)
        for i, (e, _s, _t) in enumerate(rows):
            if i != face:
                e_t = scalar_sub(e_t, e)
        _, kx, kr = rows[face]
        s_t, t_t = scalar_add(kx, scalar_mul(e_t, secret)), scalar_add(kr, scalar_mul(e_t, blind))
        rows[face] = (e_t, s_t, t_t)
        if all(bytes(32) not in row for row in rows):  # a zero scalar: 2^-252, start over
            return b"".join(e + s + t for e, s, t in rows)
    raise InvalidProof("could not make a link proof (16 zero scalars in a row)")  # pragma: no cover


def verify_link(
    c1: bytes, c2p: bytes, public: bytes, commitment: bytes, faces: Faces, proof: bytes, context: ProofContext
) -> None:
    """Raise InvalidProof unless ``commitment`` is proved to hold the code of the card ``(c1, c2')`` under the
    holder's deck key ``public`` (InvalidPoint / MalformedEncoding for bad points, faces or context)."""
    ctx = context.to_bytes()
    for p, what in ((c1, "c1"), (c2p, "c2'"), (public, "holder deck key"), (commitment, "code commitment")):
        check_point(p, what)
    faces_b = _faces(faces)
    n = len(faces)
    scalars = proof_scalars(proof, n * LINK_BRANCH_LEN, "link")
    rs: list[bytes] = []
    total: bytes | None = None
    for i, (v, y) in enumerate(_branch_points(c2p, commitment, faces)):
        e, s, t = scalars[3 * i : 3 * i + 3]
        try:
            rs += [sub(base_mul(s), mul(e, public)), sub(mul(s, c1), mul(e, v)), sub(mul(t, H), mul(e, y))]
        except InvalidPoint:
            raise InvalidProof("link proof does not verify") from None
        total = e if total is None else scalar_add(total, e)
    assert total is not None
    if not hmac.compare_digest(_challenge(ctx, (public, c1, c2p, commitment), faces_b, rs), total):
        raise InvalidProof("link proof does not verify (wrong card, key, commitment, faces, context or proof)")


_verified: dict[bytes, None] = {}  # keys of link proofs that verified in this process, oldest first
MAX_REMEMBERED = 4096


def verify_link_once(
    c1: bytes, c2p: bytes, public: bytes, commitment: bytes, faces: Faces, proof: bytes, context: ProofContext
) -> None:
    """:func:`verify_link`, remembering a proof that verified by a hash of everything checked (at most 4096;
    failures never), so that folding a log again (a refold, a trial fold judging evidence, a resume, the audit after
    the peers of one process) checks each link once, as for proofs of shuffle and of distinct codes."""
    parts = (c1, c2p, public, commitment, proof)
    key = None
    if all(type(p) is bytes for p in parts):
        key = hash32(domains.CODE_VERIFIED, u8(KIND_LINK), context.to_bytes(), *parts[:4], _faces(faces), proof)
        if key in _verified:
            return
    verify_link(c1, c2p, public, commitment, faces, proof, context)
    if key is None:
        return
    if len(_verified) >= MAX_REMEMBERED:
        del _verified[next(iter(_verified))]
    _verified[key] = None


def forget_verified() -> None:
    """Forget every link proof remembered as verified (benchmarks and tests measure the check itself)."""
    _verified.clear()
