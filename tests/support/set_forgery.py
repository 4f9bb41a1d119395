"""A liar's set membership prover (tests only): the Σ-protocol of crypto/set_proofs.py run with any witness on any
branch, so tests can show that a proof of a false answer, made the only way one could be made, is rejected."""

from __future__ import annotations

import random

from adp2p.crypto import domains
from adp2p.crypto.code_proofs import H
from adp2p.crypto.group import (
    L,
    base_mul,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    scalar_sub,
    sub,
)
from adp2p.crypto.hashing import u8
from adp2p.crypto.set_proofs import KIND_IN_SET, NumberContext


def forge_set_proof(c: bytes, members: tuple[int, ...], t: int, w: bytes, ctx: NumberContext) -> bytes:
    """A liar's prover: the Σ-protocol with the witness `w` put on branch `t` whatever the number is (the statement
    it would need if its number were members[t])."""
    rng = random.Random(7)
    ys = [c if s == 0 else sub(c, base_mul(scalar_from_int(s))) for s in members]
    rows, rs = [], []
    for i, y in enumerate(ys):
        if i == t:
            k = scalar_from_int(rng.randrange(1, L))
            rows.append((b"", k))
            rs.append(mul(k, H))
        else:
            e, z = scalar_from_int(rng.randrange(1, L)), scalar_from_int(rng.randrange(1, L))
            rows.append((e, z))
            rs.append(sub(mul(z, H), mul(e, y)))
    set_b = b"".join(s.to_bytes(2, "big") for s in members)
    e_t = hash_to_scalar(domains.SET_PROOF, u8(KIND_IN_SET), ctx.to_bytes(), H, c, set_b, *rs)
    for i, (e, _z) in enumerate(rows):
        if i != t:
            e_t = scalar_sub(e_t, e)
    rows[t] = (e_t, scalar_add(rows[t][1], scalar_mul(e_t, w)))
    return b"".join(e + z for e, z in rows)
