"""Benchmark of adp2p.crypto: primitive costs and full game setups (a script, not a test).

Run: .venv/bin/python benchmarks/bench_crypto.py

Prints the cost of each primitive, then for 3..6 players the wall time of the whole setup in one
process (keys with Schnorr proofs, the joint key, the public initial deck, every player's shuffle
with the on-line checks of its output, the initial deal of 6 cards each with every share proved
and checked), next to the sum of the costs of the libsodium operations that setup performs
(counted by wrapping them), so the overhead ratio is visible.
"""

from __future__ import annotations

import collections
import secrets
import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

import nacl.bindings as nb
from adp2p.crypto import deck, domains, group, proofs
from adp2p.crypto.identity import SecretIdentity

GAME_ID = secrets.token_bytes(16)
HAND = 6

# libsodium-level operations and the names under which adp2p.crypto.group calls them
GROUP_OPS = {
    "_mul": "scalar mult",
    "_base": "base mult",
    "_add": "point add",
    "_sub": "point sub",
    "_is_valid": "point check",
    "_reduce": "hash/reduce to scalar",
}
NB_OPS = {
    "crypto_core_ed25519_from_uniform": "from_uniform",
    "crypto_core_ed25519_scalar_add": "scalar add",
    "crypto_core_ed25519_scalar_mul": "scalar mul",
}


def per_call(fn: Callable[[], Any], number: int = 300, repeat: int = 5) -> float:
    """Best-of-`repeat` seconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def unit_costs() -> dict[str, float]:
    x, y = group.random_scalar(), group.random_scalar()
    p, q = group.base_mul(x), group.base_mul(y)
    u = secrets.token_bytes(32)
    parts = [secrets.token_bytes(32) for _ in range(6)]
    return {
        "scalar mult": per_call(lambda: group.mul(x, p)),
        "base mult": per_call(lambda: group.base_mul(x)),
        "point add": per_call(lambda: group.add(p, q), 2000),
        "point sub": per_call(lambda: group.sub(p, q), 2000),
        "point check": per_call(lambda: group.check_point(p), 2000),
        "hash/reduce to scalar": per_call(lambda: group.hash_to_scalar(domains.DLEQ, *parts), 2000),
        "from_uniform": per_call(lambda: nb.crypto_core_ed25519_from_uniform(u), 2000),
        "scalar add": per_call(lambda: group.scalar_add(x, y), 5000),
        "scalar mul": per_call(lambda: group.scalar_mul(x, y), 5000),
    }


def proof_costs() -> dict[str, float]:
    x = group.random_scalar()
    pub = group.base_mul(x)
    c = group.base_mul(group.random_scalar())
    d = group.mul(x, c)
    sp = proofs.schnorr_prove(x, pub, b"ctx")
    dp = proofs.dleq_prove(x, pub, c, d, b"ctx")
    ident = SecretIdentity.generate()
    msg = secrets.token_bytes(200)
    sig = ident.sign(domains.ENTRY, msg)
    return {
        "Schnorr prove": per_call(lambda: proofs.schnorr_prove(x, pub, b"ctx")),
        "Schnorr verify": per_call(lambda: proofs.schnorr_verify(pub, sp, b"ctx")),
        "DLEQ prove": per_call(lambda: proofs.dleq_prove(x, pub, c, d, b"ctx")),
        "DLEQ verify (points trusted)": per_call(
            lambda: proofs.dleq_verify(pub, c, d, dp, b"ctx", trusted=True)
        ),
        "DLEQ verify (all points checked)": per_call(lambda: proofs.dleq_verify(pub, c, d, dp, b"ctx")),
        "Ed25519 sign (200 B)": per_call(lambda: ident.sign(domains.ENTRY, msg), 2000),
        "Ed25519 verify (200 B)": per_call(lambda: ident.public.verify(domains.ENTRY, msg, sig), 2000),
    }


def setup(n: int) -> list[int]:
    """One whole setup for n players in one process; returns the dealt faces."""
    table = group.CardTable(GAME_ID)
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(n)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    cur = deck.initial_deck(GAME_ID, pk, table)
    for s in range(n):
        out, _witness = deck.shuffle(cur, pk)
        cur = deck.receive_shuffle(cur, deck.encode_deck(out), s, s)
    publics = [k.public for k in keys]
    faces = []
    for handle in range(n * HAND):
        ct = cur[handle]
        shares = [deck.make_share(GAME_ID, k, handle, ct) for k in keys]
        deck.forget_made_shares()  # (the learner checks every other seat's share: each process makes its own)
        faces.append(deck.open_card(GAME_ID, handle, ct, shares, publics, table))
    assert len(set(faces)) == n * HAND
    return faces


def audit_time(n: int) -> float:
    table = group.CardTable(GAME_ID)
    keys = [deck.DeckKey.generate(GAME_ID, s) for s in range(n)]
    pk = deck.joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    start = cur = deck.initial_deck(GAME_ID, pk, table)
    steps, witnesses = [], []
    for s in range(n):
        cur, w = deck.shuffle(cur, pk)
        steps.append((s, cur))
        witnesses.append(w)
    t0 = time.perf_counter()
    deck.verify_shuffles(
        GAME_ID, [k.public for k in keys], [k.secret for k in keys], start, steps, witnesses, table
    )
    return time.perf_counter() - t0


def count_ops(fn: Callable[[], Any]) -> collections.Counter[str]:
    """Run fn with every libsodium group operation wrapped by a counter."""
    counts: collections.Counter[str] = collections.Counter()
    saved: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, attr: str, label: str) -> None:
        orig = getattr(owner, attr)

        def counted(*args: Any) -> Any:
            counts[label] += 1
            return orig(*args)

        saved.append((owner, attr, orig))
        setattr(owner, attr, counted)

    for attr, label in GROUP_OPS.items():
        wrap(group, attr, label)
    for attr, label in NB_OPS.items():
        wrap(nb, attr, label)
    try:
        fn()
    finally:
        for owner, attr, orig in reversed(saved):
            setattr(owner, attr, orig)
    return counts


def main() -> None:
    print("adp2p.crypto benchmark (one process, times in microseconds unless stated)\n")
    units = unit_costs()
    print("Group primitives (libsodium via PyNaCl):")
    for name, t in units.items():
        print(f"  {name:<34} {t * 1e6:9.1f} us")
    print("\nProofs and signatures:")
    for name, t in proof_costs().items():
        print(f"  {name:<34} {t * 1e6:9.1f} us")

    print(
        f"\nFull setup ({group.NUM_CARDS} cards, keys+proofs, every shuffle, "
        f"deal of {HAND} cards each with every share proved and checked):"
    )
    print(f"  {'players':>7} {'setup ms':>9} {'sum of primitives ms':>21} {'ratio':>6}   operation counts")
    for n in (3, 4, 5, 6):
        setup(n)  # warm-up
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            setup(n)
            runs.append(time.perf_counter() - t0)
        wall = statistics.median(runs)
        counts = count_ops(lambda n=n: setup(n))
        prim = sum(units[label] * c for label, c in counts.items())
        detail = ", ".join(f"{label} {c}" for label, c in sorted(counts.items(), key=lambda kv: -kv[1]))
        print(f"  {n:>7} {wall * 1e3:9.1f} {prim * 1e3:21.1f} {wall / prim:6.2f}   {detail}")
    print("\nTarget: 6-player setup under 1000 ms and within 2x the sum of its primitive costs.")
    for n in (3, 6):
        print(
            f"End-of-game shuffle audit, {n} players (verify_shuffles of the 63-card deck): "
            f"{audit_time(n) * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
