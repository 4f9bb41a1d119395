"""Set membership proofs (primitive): a Pedersen-committed small number lies in a public set, or outside it.

Owns the general building block of every answer about a hidden card's number (Classified Information's Suitcase
and face-down Guards: crypto/wheel_answers.py turns each answer into a public set). Exact bytes: docs/protocol.md,
"Proved answers (primitive)", set membership proof.

The commitment is ``C = v·G + r·H`` (``H`` of crypto/code_proofs.py, ``r`` a secret non-zero scalar, ``v`` an int in
``[0, 2^16)``); when it is the Pedersen commitment of a dealt card's linked attribute, the card link proof
(crypto/card_link.py) ties it to that very card once, and every later answer is a proof about ``C`` alone.

"``v`` lies in ``S``" (``S`` a public, strictly increasing tuple of 1..64 distinct values) is one
Cramer–Damgård–Schoenmakers OR over the members ``s`` of ``S``: ``Y_s = C − s·G = r·H`` (knowledge of a discrete log
to base ``H``). The true member's branch is a Schnorr proof (``R = k·H``); every other branch is simulated (random
``e_s``, ``z_s``; ``R_s = z_s·H − e_s·Y_s``). One Fiat–Shamir challenge covers them all:
``E = H2S(SET_PROOF, u8(6), ctx, H, C, set, R_0, …, R_{k−1})`` with ``set = u16(s_0) ‖ … ‖ u16(s_{k−1})``, and the
``e_s`` sum to ``E`` mod L. Wire: ``e_s ‖ z_s`` per member in the set's order (64 bytes each, no header).

"``v`` lies outside ``S``" is "``v`` lies in ``U \\ S``" for a public universe ``U`` (Card Numbers 1..9): the same
proof over the complement, which also shows ``v ∈ U``. Both directions cost at most ``|U| − 1`` branches: at most
512 bytes and 16 scalar multiplications to check over 1..9 — a constant-size set proof would not pay at this size.

Soundness: special soundness of each OR (two transcripts with distinct challenges extract, for some member ``s``,
``r*`` with ``C = s·G + r*·H``); ``C`` has one opening its committer knows (the card link extracts ``(a_f, r)``),
so unless ``a_f = s`` the two openings are a discrete-log relation between ``G`` and the hashed ``H``. Zero
knowledge: every branch has the same distribution whichever is true (honest-verifier ZK, Fiat–Shamir in the random
oracle model), so the proof says which set, never which member.

Nonces and simulated scalars are hedged: ``H2S(NONCE, u16(v) ‖ r, 32 random bytes, u8(6), ctx, C, set,
u32(attempt), u32(branch), label)``; ``entropy`` fixes the random bytes for known-answer tests only.
"""

from __future__ import annotations

import hmac
import itertools
import secrets
from collections.abc import Iterable
from typing import NamedTuple

from . import domains
from .code_proofs import H
from .errors import CommitmentMismatch, FalseStatement, InvalidPoint, InvalidProof, InvalidScalar, MalformedEncoding
from .group import (
    IDENTITY,
    MAX_ATTRIBUTE,
    SCALAR_LEN,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    scalar_sub,
    sub,
)
from .hashing import frame, u8, u32, u64

KIND_IN_SET = 6  # after crypto/code_proofs.py's kinds 1..4 and crypto/card_link.py's 5
MAX_SET = 64  # the most members of a set (and of a universe)
BRANCH_LEN = 2 * SCALAR_LEN
MAX_PURPOSE = 64

NumberSet = tuple[int, ...]


class NumberContext(NamedTuple):
    """What a proof about a hidden number is about, inside its challenge: the game, the seat that answers (the
    card's holder), the handle of the card the number belongs to (a Suitcase, a face-down Guard), the purpose (the
    question, e.g. ``b"near"``; ``b"link"`` for the card link) and the seq of the entry that carries the proof."""

    game_id: bytes
    seat: int
    handle: int
    purpose: bytes
    seq: int

    def to_bytes(self) -> bytes:
        """``frame("number-proof", game_id, u8(seat), u64(handle), purpose, u64(seq))``."""
        if type(self.game_id) is not bytes or len(self.game_id) not in (16, 32):
            raise MalformedEncoding("number proof context: game id of 16 or 32 bytes")
        if type(self.seat) is not int or not 0 <= self.seat < 256:
            raise MalformedEncoding("number proof context: seat in [0, 256)")
        if any(type(v) is not int or not 0 <= v < 2**64 for v in (self.handle, self.seq)):
            raise MalformedEncoding("number proof context: handle and seq in [0, 2^64)")
        if type(self.purpose) is not bytes or not 1 <= len(self.purpose) <= MAX_PURPOSE:
            raise MalformedEncoding(f"number proof context: purpose of 1..{MAX_PURPOSE} bytes")
        return frame(domains.CTX_NUMBER_PROOF, self.game_id, u8(self.seat), u64(self.handle), self.purpose,
                     u64(self.seq))


def context_bytes(context: object) -> bytes:
    """The bytes of a number context (MalformedEncoding for anything that is not a well-formed NumberContext)."""
    if not isinstance(context, NumberContext):
        raise MalformedEncoding("number proof context: expected a NumberContext")
    return context.to_bytes()


def check_value(v: object, what: str = "value") -> int:
    if type(v) is not int or not 0 <= v < MAX_ATTRIBUTE:
        raise MalformedEncoding(f"{what}: expected an int in [0, {MAX_ATTRIBUTE})")
    return v


def check_set(members: object, what: str = "set") -> NumberSet:
    """A public set as the verifier reads it: a tuple of 1..64 values in [0, 2^16), strictly increasing."""
    if not isinstance(members, tuple) or not 1 <= len(members) <= MAX_SET:
        raise MalformedEncoding(f"{what}: a tuple of 1..{MAX_SET} values")
    out = tuple(check_value(v, f"{what} member") for v in members)
    if any(a >= b for a, b in itertools.pairwise(out)):
        raise MalformedEncoding(f"{what}: members must be strictly increasing")
    return out


def number_set(members: Iterable[int]) -> NumberSet:
    """The set of ``members`` in the canonical form (sorted, each once)."""
    return check_set(tuple(sorted(set(members))))


def complement(members: NumberSet, universe: NumberSet) -> NumberSet:
    """``universe \\ members``; MalformedEncoding if ``members`` is not inside ``universe`` or leaves nothing."""
    u, s = check_set(universe, "universe"), check_set(members)
    if not set(s) <= set(u):
        raise MalformedEncoding("set: a member outside the universe")
    rest = tuple(v for v in u if v not in s)
    if not rest:
        raise MalformedEncoding("set: its complement in the universe is empty")
    return rest


def _times_g(v: int) -> bytes | None:
    return base_mul(scalar_from_int(v)) if v else None


def commit_number(value: int, blind: bytes) -> bytes:
    """``C = value·G + blind·H`` (``blind`` a canonical non-zero scalar)."""
    rh = mul(check_nonzero_scalar(blind, "number blinding"), H)
    vg = _times_g(check_value(value))
    return rh if vg is None else add(rh, vg)


def number_blinding(game_id: bytes, handle: int, secret: bytes) -> bytes:
    """The Pedersen blinding of the number of the card at ``handle`` held by the seat whose deck secret is ``secret``:
    ``H2S(NUMBER_BLIND, game_id, u64(handle), secret)``. As secret as the deck key until the end of the game, kept
    with it in the secrets file (nothing new to store), and known to all once the deck secret is revealed, so the
    audit opens every number commitment too."""
    if type(game_id) is not bytes or len(game_id) not in (16, 32):
        raise MalformedEncoding("number blinding: game id of 16 or 32 bytes")
    if type(handle) is not int or not 0 <= handle < 2**64:
        raise MalformedEncoding("number blinding: a handle in [0, 2^64)")
    r = hash_to_scalar(domains.NUMBER_BLIND, game_id, u64(handle), check_nonzero_scalar(secret, "deck secret"))
    return check_nonzero_scalar(r, "number blinding")  # zero with probability 2^-252


def _minus(c: bytes, v: int) -> bytes:
    vg = _times_g(v)
    return c if vg is None else sub(c, vg)


def _set_bytes(members: NumberSet) -> bytes:
    return b"".join(v.to_bytes(2, "big") for v in members)


def _challenge(ctx: bytes, c: bytes, members: NumberSet, rs: list[bytes]) -> bytes:
    return hash_to_scalar(domains.SET_PROOF, u8(KIND_IN_SET), ctx, H, c, _set_bytes(members), *rs)


def prove_in_set(
    commitment: bytes,
    value: int,
    blind: bytes,
    members: NumberSet,
    context: NumberContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Prove the number ``commitment`` holds lies in ``members``. CommitmentMismatch if ``commitment`` does not open
    to ``(value, blind)``; FalseStatement if ``value`` is not a member (an honest prover refuses before proving)."""
    members = check_set(members)
    check_point(commitment, "number commitment")
    if commit_number(value, blind) != commitment:
        raise CommitmentMismatch("the number commitment does not open to the prover's number")
    if value not in members:
        raise FalseStatement("the committed number is not in the set")
    seed = secrets.token_bytes(32) if entropy is None else entropy
    if type(seed) is not bytes or len(seed) != 32:
        raise MalformedEncoding("proof entropy: expected 32 bytes")
    ctx = context_bytes(context)
    t = members.index(value)
    ys = [_minus(commitment, s) for s in members]
    for attempt in range(16):

        def derive(i: int, label: bytes, attempt: int = attempt) -> bytes:
            return hash_to_scalar(domains.NONCE, value.to_bytes(2, "big") + blind, seed, u8(KIND_IN_SET), ctx,
                                  commitment, _set_bytes(members), u32(attempt), u32(i), label)

        rs: list[bytes] = []
        rows: list[tuple[bytes, bytes]] = []
        try:
            for i, y in enumerate(ys):
                if i == t:
                    k = derive(i, b"k")
                    rows.append((b"", k))
                    rs.append(mul(k, H))
                else:
                    e, z = derive(i, b"e"), derive(i, b"s")
                    rows.append((e, z))
                    rs.append(sub(mul(z, H), mul(e, y)))
        except InvalidPoint:  # a zero scalar (2^-252): start over
            continue
        e_t = _challenge(ctx, commitment, members, rs)
        for i, (e, _z) in enumerate(rows):
            if i != t:
                e_t = scalar_sub(e_t, e)
        rows[t] = (e_t, scalar_add(rows[t][1], scalar_mul(e_t, blind)))
        if all(bytes(SCALAR_LEN) not in row for row in rows):
            return b"".join(e + z for e, z in rows)
    raise InvalidProof("could not make a set proof (16 zero scalars in a row)")  # pragma: no cover


def proof_len(members: NumberSet) -> int:
    return len(check_set(members)) * BRANCH_LEN


def verify_in_set(commitment: bytes, members: NumberSet, proof: bytes, context: NumberContext) -> None:
    """Raise InvalidProof unless ``proof`` shows the number ``commitment`` holds lies in ``members`` (InvalidPoint
    for a commitment that is no point; MalformedEncoding for a malformed set or context)."""
    members = check_set(members)
    ctx = context_bytes(context)
    check_point(commitment, "number commitment")
    size = len(members) * BRANCH_LEN
    if type(proof) is not bytes or len(proof) != size:
        raise InvalidProof(f"set proof: expected {size} bytes")
    try:
        scalars = [check_nonzero_scalar(proof[i : i + 32], "set proof scalar") for i in range(0, size, 32)]
    except InvalidScalar as exc:
        raise InvalidProof(str(exc)) from None
    rs: list[bytes] = []
    total: bytes | None = None
    for i, s in enumerate(members):
        e, z = scalars[2 * i], scalars[2 * i + 1]
        y = _minus(commitment, s)
        if y == IDENTITY:
            raise InvalidProof("set proof: the commitment has no blinding for one member")
        try:
            rs.append(sub(mul(z, H), mul(e, y)))
        except InvalidPoint:
            raise InvalidProof("set proof does not verify") from None
        total = e if total is None else scalar_add(total, e)
    assert total is not None
    if not hmac.compare_digest(_challenge(ctx, commitment, members, rs), total):
        raise InvalidProof("set proof does not verify (wrong commitment, set, context or proof)")


def prove_outside_set(
    commitment: bytes,
    value: int,
    blind: bytes,
    members: NumberSet,
    universe: NumberSet,
    context: NumberContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Prove the committed number lies in ``universe`` but not in ``members`` (the proof over the complement)."""
    if check_value(value) in check_set(members):
        raise FalseStatement("the committed number is in the set")
    return prove_in_set(commitment, value, blind, complement(members, universe), context, entropy=entropy)


def verify_outside_set(
    commitment: bytes, members: NumberSet, universe: NumberSet, proof: bytes, context: NumberContext
) -> None:
    verify_in_set(commitment, complement(members, universe), proof, context)
