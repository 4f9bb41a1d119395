"""Card link proof (primitive, protocol version 5): a Pedersen commitment holds the linked attribute of a hidden card.

Owns the constant-size proof that binds one commitment ``C = a·G + r·H`` (crypto/code_proofs.py) to one card held
under its holder's key, without saying which card it is. It replaces the 63-branch OR of crypto/code_link.py (kept
for logs of versions up to 4). Exact bytes and the soundness argument: docs/protocol.md, "Proved answers
(primitive)", card link proof.

Version-5 card points are linear in the card's attribute: card ``i`` is ``M_i = a_i·G + (i+1)·J`` (crypto/group.py,
``CardTable.linear``; ``J`` hashed to the curve, nobody knows a logarithm between ``G``, ``H`` and ``J``). The card
``(c1, c2)`` is made ElGamal under the holder's key alone (every other seat's proven decryption share removed):
``c2' = M + x·c1`` with ``X = x·G``. With ``Y = c2' − C``, an honest holder of card ``i`` whose commitment holds
``a_i`` knows ``(x, i+1, r)`` with

    X = x·G        and        Y = x·c1 + (i+1)·J − r·H

and proves exactly that (a representation proof, Schnorr-style, one Fiat–Shamir challenge):
``A = k·G``, ``B = k·c1 + m·J − n·H``, ``e = H2S(CODE_PROOF, u8(5), ctx, H, J, X, c1, c2', C, A, B)``,
``s_x = k + e·x``, ``s_i = m + e·(i+1)``, ``s_r = n + e·r``. Wire ``e ‖ s_x ‖ s_i ‖ s_r`` (128 bytes).
The verifier recomputes ``A = s_x·G − e·X``, ``B = s_x·c1 + s_i·J − s_r·H − e·Y`` and compares the challenge: six
scalar multiplications, whatever the deck's size.

Sound because the deck holds only well-formed cards: the pile is the publicly computed fresh pile of the known card
points, permuted and re-masked under proofs of shuffle, so ``c2' − x·c1 = M_f = a_f·G + (f+1)·J`` for the true
card ``f``; an extracted witness ``(x, i', r')`` then gives ``C = a_f·G + (f+1−i')·J + r'·H``, and ``C`` also opens
as ``c·G + r''·H`` (its distinct proof, its opening): unless ``c = a_f``, the two are a discrete-log relation
between ``G``, ``J`` and ``H``.

A proof that verified is remembered (a bounded set of the exact bytes checked: statement, context, proof), so one
process checks the same proof once: the controller that checks its own link right after making it ahead, while
others are on duty, does not check it again when its answer entry is folded on the critical path (issue 29). Validity
is a pure function of those bytes, so the memory cannot change a verdict; `forget_verified` is for benchmarks.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Protocol

from . import domains
from .code_proofs import H
from .errors import CommitmentMismatch, FalseStatement, InvalidPoint, InvalidProof, MalformedEncoding
from .group import (
    MAX_ATTRIBUTE,
    SCALAR_LEN,
    L,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    scalar_to_int,
    sub,
)
from .hashing import u8, u32

KIND_CARD_LINK = 5  # after crypto/code_proofs.py's kinds 1..4 (4: the version-4 OR link, crypto/code_link.py)
PROOF_LEN = 4 * SCALAR_LEN

Statement = tuple[bytes, bytes, bytes, bytes, bytes]  # (J, X, c1, c2', C)
MAX_REMEMBERED = 1024  # proofs remembered as verified (the oldest forgotten first)
_verified: dict[tuple[object, ...], None] = {}  # (ctx, J, c1, c2', X, C, proof, trusted) of proofs verified here


class Context(Protocol):
    """A proof context: Access Denied's `code_proofs.ProofContext`, Classified Information's
    `set_proofs.NumberContext` (its bytes go into the challenge as they are)."""

    def to_bytes(self) -> bytes: ...


def _challenge(ctx: bytes, statement: Statement, a: bytes, b: bytes) -> bytes:
    return hash_to_scalar(domains.CODE_PROOF, u8(KIND_CARD_LINK), ctx, H, *statement, a, b)


def _lhs(j: bytes, c1: bytes, s_x: bytes, s_i: bytes, s_r: bytes) -> bytes:
    """``s_x·c1 + s_i·J − s_r·H``."""
    return sub(add(mul(s_x, c1), mul(s_i, j)), mul(s_r, H))


def prove_card_link(
    id_base: bytes,
    c1: bytes,
    c2p: bytes,
    secret: bytes,
    commitment: bytes,
    attribute: int,
    blind: bytes,
    face: int,
    context: Context,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Prove ``commitment`` holds the attribute of the card ``(c1, c2')`` (card ``face``, attribute ``attribute``)
    under the holder's key ``secret``. FalseStatement if the card is not that card; CommitmentMismatch if the
    commitment does not open to ``(attribute, blind)``."""
    public = base_mul(check_nonzero_scalar(secret, "holder deck key"))
    for p, what in ((id_base, "card id base J"), (c1, "c1"), (c2p, "c2'"), (commitment, "commitment")):
        check_point(p, what)
    if type(face) is not int or not 0 <= face < 2**32 - 1:
        raise MalformedEncoding("card link: face index out of range")
    if type(attribute) is not int or not 0 <= attribute < MAX_ATTRIBUTE:
        raise MalformedEncoding("card link: attribute out of range")
    ident = scalar_from_int(face + 1)
    point = mul(ident, id_base) if not attribute else add(mul(ident, id_base), base_mul(scalar_from_int(attribute)))
    if add(point, mul(secret, c1)) != c2p:
        raise FalseStatement("the card is not the claimed card under the holder's key")
    rh = mul(check_nonzero_scalar(blind, "blinding"), H)
    if (add(rh, base_mul(scalar_from_int(attribute))) if attribute else rh) != commitment:
        raise CommitmentMismatch("the commitment does not open to the card's attribute")
    seed = secrets.token_bytes(32) if entropy is None else entropy
    if type(seed) is not bytes or len(seed) != 32:
        raise MalformedEncoding("proof entropy: expected 32 bytes")
    return _prove((id_base, public, c1, c2p, commitment), secret, ident, blind, context.to_bytes(), seed)


def _prove(statement: Statement, secret: bytes, ident: bytes, blind: bytes, ctx: bytes, seed: bytes) -> bytes:
    """The Σ-protocol's answer for the witness ``(secret, ident, blind)``, unchecked (the checks are the caller's)."""
    id_base, _public, c1, _c2p, _commitment = statement
    for attempt in range(16):

        def derive(label: bytes, attempt: int = attempt) -> bytes:
            return hash_to_scalar(domains.NONCE, secret + blind, seed, u8(KIND_CARD_LINK), ctx, *statement,
                                  u32(attempt), label)

        k, m, n = derive(b"k"), derive(b"m"), derive(b"n")
        try:
            a, b = base_mul(k), _lhs(id_base, c1, k, m, n)
        except InvalidPoint:  # a zero nonce (2^-252): start over
            continue
        e = _challenge(ctx, statement, a, b)
        s_x, s_i, s_r = (scalar_add(w, scalar_mul(e, v)) for w, v in ((k, secret), (m, ident), (n, blind)))
        if bytes(SCALAR_LEN) not in (e, s_x, s_i, s_r):
            return e + s_x + s_i + s_r
    raise InvalidProof("could not make a card link proof (16 zero scalars in a row)")  # pragma: no cover


def proof_scalars(proof: object) -> tuple[bytes, bytes, bytes, bytes]:
    """The four canonical non-zero scalars of a card link proof (InvalidProof for any other bytes)."""
    if type(proof) is not bytes or len(proof) != PROOF_LEN:
        raise InvalidProof(f"card link proof: expected {PROOF_LEN} bytes")
    out = [proof[i : i + SCALAR_LEN] for i in range(0, PROOF_LEN, SCALAR_LEN)]
    for s in out:
        if scalar_to_int(s) >= L or s == bytes(SCALAR_LEN):
            raise InvalidProof("card link proof: a scalar that is not canonical and non-zero")
    return out[0], out[1], out[2], out[3]


def verify_card_link(
    id_base: bytes,
    c1: bytes,
    c2p: bytes,
    public: bytes,
    commitment: bytes,
    proof: bytes,
    context: Context,
    trusted: bool = False,
) -> None:
    """Raise InvalidProof unless ``commitment`` is proved to hold the attribute of the card ``(c1, c2')`` under the
    holder's deck key ``public``. ``trusted``: ``J``, ``c1``, ``c2'`` and ``public`` are results of libsodium or
    points this peer validated before (its card table, a pile it checked, its own combination of verified shares,
    a deck key it checked), so only the commitment is validated here (no point check twice on the same bytes)."""
    ctx = context.to_bytes()
    key = (ctx, id_base, c1, c2p, public, commitment, proof, bool(trusted))
    if all(type(x) is bytes for x in key[:7]) and key in _verified:
        return
    if not trusted:
        for p, what in ((id_base, "card id base J"), (c1, "c1"), (c2p, "c2'"), (public, "holder deck key")):
            check_point(p, what)
    check_point(commitment, "commitment")
    e, s_x, s_i, s_r = proof_scalars(proof)
    try:
        a = sub(base_mul(s_x), mul(e, public))
        b = sub(_lhs(id_base, c1, s_x, s_i, s_r), mul(e, sub(c2p, commitment)))
    except InvalidPoint:
        raise InvalidProof("card link proof does not verify") from None
    if not hmac.compare_digest(_challenge(ctx, (id_base, public, c1, c2p, commitment), a, b), e):
        raise InvalidProof("card link proof does not verify (wrong card, key, commitment, context or proof)")
    if len(_verified) >= MAX_REMEMBERED:
        del _verified[next(iter(_verified))]
    _verified[key] = None


def forget_verified() -> None:
    """Forget every proof remembered as verified (benchmarks measure the checks themselves)."""
    _verified.clear()
