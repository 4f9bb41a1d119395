"""Benchmark of the proof of shuffle (adp2p.crypto.shuffle_proof): a script, not a test.

Run: ./dev bench shuffle_proof   (or .venv/bin/python benchmarks/bench_shuffle_proof.py [--players 6])

Prints, for the full 63-card deck, the best-of-5 time to prove one shuffle, to verify it (validating both
decks, and ``trusted`` as a peer that already decoded them does), the proof size, and the extra cost of the
whole setup of a 6-player game: 6 shuffles proved in turn (each by its shuffler), each proof verified by the
5 other peers (a peer verifies 5 proofs and makes 1; the table does 6 proofs and 30 verifications). Each
verification is a real one: the memory of verified proofs is cleared before each (in one process it would
otherwise check each proof once).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time
from collections.abc import Callable

from adp2p.crypto.deck import Ciphertext, DeckKey, initial_deck, joint_key, shuffle
from adp2p.crypto.group import NUM_CARDS, CardTable
from adp2p.crypto.shuffle_proof import ShuffleContext, forget_verified, prove_shuffle
from adp2p.crypto.shuffle_proof import verify_shuffle_proof as _verify


def verify_shuffle_proof(
    ctx: ShuffleContext, pk: bytes, deck_in: list[Ciphertext], deck_out: list[Ciphertext], proof: bytes, **kw: bool
) -> None:
    """Every call checks the proof (a process remembers the proofs it verified: forgotten first)."""
    forget_verified()
    _verify(ctx, pk, deck_in, deck_out, proof, **kw)


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    players = ap.parse_args().players
    game_id = secrets.token_bytes(16)
    keys = [DeckKey.generate(game_id, s) for s in range(players)]
    pk = joint_key(game_id, [(k.public, k.proof) for k in keys])
    deck = initial_deck(game_id, pk, CardTable(game_id))
    out, w = shuffle(deck, pk)
    ctx = ShuffleContext(game_id, b"initial", 0, 0)
    proof = prove_shuffle(ctx, pk, deck, out, w.perm, w.rs)
    t_prove = best(lambda: prove_shuffle(ctx, pk, deck, out, w.perm, w.rs))
    t_verify = best(lambda: verify_shuffle_proof(ctx, pk, deck, out, proof))
    t_trusted = best(lambda: verify_shuffle_proof(ctx, pk, deck, out, proof, trusted=True))
    print(f"proof of shuffle, N = {NUM_CARDS} cards")
    print(f"  prove                     {t_prove * 1e3:8.1f} ms")
    print(f"  verify (decks validated)  {t_verify * 1e3:8.1f} ms")
    print(f"  verify (trusted decks)    {t_trusted * 1e3:8.1f} ms")
    print(f"  proof size                {len(proof):8d} bytes ({len(proof) / NUM_CARDS:.0f} per card)")

    per_step_prove: list[float] = []
    per_step_verify: list[float] = []
    cur = deck
    t_all = time.perf_counter()
    for seat in range(players):
        nxt, wit = shuffle(cur, pk)
        ctx = ShuffleContext(game_id, b"initial", seat, seat)
        t0 = time.perf_counter()
        pr = prove_shuffle(ctx, pk, cur, nxt, wit.perm, wit.rs)
        per_step_prove.append(time.perf_counter() - t0)
        for _peer in range(players - 1):
            t0 = time.perf_counter()
            verify_shuffle_proof(ctx, pk, cur, nxt, pr, trusted=True)
            per_step_verify.append(time.perf_counter() - t0)
        cur = nxt
    t_all = time.perf_counter() - t_all
    prove_sum, verify_sum = sum(per_step_prove), sum(per_step_verify)
    print(f"{players}-player setup: {players} shuffles proved, each verified by {players - 1} peers (one process)")
    med_prove = statistics.median(per_step_prove) * 1e3
    print(f"  proving, all shuffles     {prove_sum * 1e3:8.1f} ms (median {med_prove:.1f})")
    print(
        f"  verifying, all peers      {verify_sum * 1e3:8.1f} ms "
        f"({len(per_step_verify)} checks, median {statistics.median(per_step_verify) * 1e3:.1f})"
    )
    print(f"  whole (with shuffling)    {t_all * 1e3:8.1f} ms")
    print(
        f"  added to one peer         {(prove_sum / players + verify_sum / players) * 1e3:8.1f} ms "
        f"(1 proof + {players - 1} verifications); critical path (each step proved, then "
        f"verified by the next shuffler before it shuffles): {(prove_sum + verify_sum / (players - 1)) * 1e3:.1f} ms"
    )
    print(f"  bytes added to the log    {players * len(proof):8d}")


if __name__ == "__main__":
    main()
