"""Benchmark of crypto/code_proofs.py: proved answers (a script, not a test).

Run: ./dev bench code_proofs   (or .venv/bin/python benchmarks/bench_code_proofs.py [--repeat N])

Prints, for each proof kind (distinct, match, no match), the best-of-N prove and verify times and the proof
size; then the cost of one answer to an access attempt of 1, 2 and 3 handed cards (one match or no-match proof
per card, worst case all no-match), and one scalar multiplication for scale (every branch costs two to verify).
Last, the link proof (crypto/code_link.py) for one password card over the game's 63 faces and their codes (from
engine/access_denied/catalog), and for a whole password (three cards).
"""

from __future__ import annotations

import argparse
import secrets
import time
from collections.abc import Callable
from typing import Any

from adp2p.crypto import code_link as cl
from adp2p.crypto import code_proofs as cp
from adp2p.crypto import group
from adp2p.engine.access_denied.catalog import card

CTX = cp.ProofContext(secrets.token_bytes(16), 1, (3, 17, 40), b"answer", 77)


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20, help="runs per figure (best is printed)")
    repeat = ap.parse_args().repeat
    cs, op = cp.commit_codes((0, 2, 5))
    x = group.random_scalar()
    p = group.base_mul(x)
    t_mul, _ = best(lambda: group.mul(x, p), 200)
    print(f"scalar mult: {t_mul * 1e6:.0f} us (best of 200)")
    t_commit, _ = best(lambda: cp.commit_codes((0, 2, 5)), repeat)
    print(f"commit 3 codes: {t_commit * 1e3:.2f} ms, {cp.COMMITMENTS_LEN} bytes\n")
    cases: dict[str, tuple[Callable[[], bytes], Callable[[bytes], None]]] = {
        "distinct": (lambda: cp.prove_distinct(cs, op, CTX), lambda pr: cp.verify_distinct(cs, pr, CTX)),
        "match": (lambda: cp.prove_match(cs, op, 2, CTX), lambda pr: cp.verify_match(cs, 2, pr, CTX)),
        "no match": (lambda: cp.prove_no_match(cs, op, 3, CTX), lambda pr: cp.verify_no_match(cs, 3, pr, CTX)),
    }
    print(f"{'proof':<10} {'branches':>8} {'bytes':>6} {'prove ms':>9} {'verify ms':>10}")
    figures = {}
    for name, (prove, verify) in cases.items():
        tp, proof = best(prove, repeat)
        tv, _ = best(lambda v=verify, pr=proof: v(pr), repeat)
        figures[name] = (tp, tv, len(proof))
        print(f"{name:<10} {len(proof) // cp.BRANCH_LEN:>8} {len(proof):>6} {tp * 1e3:>9.2f} {tv * 1e3:>10.2f}")
    print("\none answer (one proof per handed card; worst case: every card no match)")
    print(f"{'cards':<6} {'bytes':>6} {'prove ms':>9} {'verify ms':>10}")
    for n in (1, 2, 3):
        codes = [1, 3, 4][:n]  # none in the password (0, 2, 5)
        tp, proofs = best(lambda c=codes: [cp.prove_answer(cs, op, k, CTX) for k in c], repeat)
        def verify_all(c: list[int] = codes, ps: list[tuple[bool, bytes]] = proofs) -> None:
            for k, (m, pr) in zip(c, ps, strict=True):
                cp.verify_answer(cs, k, m, pr, CTX)

        tv, _ = best(verify_all, repeat)
        size = sum(len(pr) for _, pr in proofs)
        print(f"{n:<6} {size:>6} {tp * 1e3:>9.2f} {tv * 1e3:>10.2f}")
    tp, tv, _ = figures["match"]
    print(f"(a card that matches: {tp * 1e3:.2f} ms to prove, {tv * 1e3:.2f} ms to verify, 192 bytes)")
    link(repeat)


def link(repeat: int) -> None:
    """A card under the holder's key alone (c1, c2' = M + x·c1), linked to the commitment of its code."""
    table = group.CardTable(CTX.game_id)
    faces = [(p, card(i).code) for i, p in enumerate(table.points)]
    x = group.random_scalar()
    pub = group.base_mul(x)
    held = (5, 30, 60)
    cs, op = cp.commit_codes(tuple(card(f).code for f in held))
    cards = []
    for f in held:
        c1 = group.base_mul(group.random_scalar())
        cards.append((c1, group.add(table.point(f), group.mul(x, c1))))
    c1, c2p = cards[0]
    tp, proof = best(lambda: cl.prove_link(c1, c2p, x, cs[0], op.codes[0], op.blinds[0], held[0], faces, CTX), repeat)
    tv, _ = best(lambda: cl.verify_link(c1, c2p, pub, cs[0], faces, proof, CTX), repeat)
    print(f"\nlink proof, one password card over {len(faces)} faces: {len(proof)} bytes, prove {tp * 1e3:.1f} ms, "
          f"verify {tv * 1e3:.1f} ms")

    def whole() -> list[bytes]:
        return [
            cl.prove_link(a, b, x, cs[k], op.codes[k], op.blinds[k], held[k], faces, CTX)
            for k, (a, b) in enumerate(cards)
        ]

    tp, proofs = best(whole, max(1, repeat // 4))

    def check() -> None:
        for k, ((a, b), pr) in enumerate(zip(cards, proofs, strict=True)):
            cl.verify_link(a, b, pub, cs[k], faces, pr, CTX)

    tv, _ = best(check, max(1, repeat // 4))
    print(f"link proofs, a whole password (3 cards): {sum(map(len, proofs))} bytes, prove {tp * 1e3:.1f} ms, "
          f"verify {tv * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
