"""Every proof's prove and verify cost, measured without caches (a script, not a test).

Run: ./dev bench proofs   (or .venv/bin/python benchmarks/bench_proofs.py [--repeat 15])

For each proof the table makes — a deck key (Schnorr), a decryption share (DLEQ), a proof of shuffle of 63 cards
(as a peer checks it: the decks validated on receipt, then `trusted`), a password's distinct codes, an answer's
match and no match, the version-5 card link (constant size) and the version-4 OR link over 63 faces (old logs), and the
offline audit's check of a pile of 63 shuffled by 6 seats, generic and with every secret known (shuffle_audit.py) —
the median and best CPU time (process time: this machine is shared, wall time is not the figure) of a prove and of a
verify. Before EVERY verify the process forgets every proof it verified and every point it validated, so each
figure is the whole check a fresh process pays. The load average is printed beside every line.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import time
from collections.abc import Callable

from adp2p.crypto import card_link, code_link, code_proofs, deck, domains, group, shuffle_audit, shuffle_proof
from adp2p.crypto.hashing import u32
from adp2p.crypto.proofs import dleq_prove, dleq_verify
from adp2p.engine.access_denied.catalog import card


def forget() -> None:
    """No memory of earlier checks: proofs of shuffle, distinct proofs, card links (both versions), valid points."""
    shuffle_proof.forget_verified()
    code_proofs.forget_verified()
    code_link._verified.clear()
    card_link.forget_verified()
    deck.forget_made_shares()
    group.forget_valid_points()


def cpu(fn: Callable[[], object], repeat: int, *, fresh: bool) -> tuple[float, float]:
    """(median, best) process time of fn in ms; `fresh`: every cache forgotten before each run (not timed)."""
    times = []
    for _ in range(repeat):
        if fresh:
            forget()
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3, min(times) * 1e3


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def row(name: str, size: int, prove: Callable[[], object], verify: Callable[[], object], repeat: int) -> None:
    pm, pb = cpu(prove, repeat, fresh=False)
    vm, vb = cpu(verify, repeat, fresh=True)
    print(f"{name:<34} {size:>6} {pm:>8.2f} {pb:>7.2f} {vm:>8.2f} {vb:>7.2f}   {load()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15, help="runs per figure (median and best printed)")
    repeat = ap.parse_args().repeat
    gid = secrets.token_bytes(16)
    x = group.random_scalar()
    p = group.base_mul(x)
    mul_m, mul_b = cpu(lambda: group.mul(x, p), 200, fresh=False)
    chk_m, _ = cpu(lambda: group.check_point(p), 200, fresh=True)
    print(f"scalar multiplication {mul_m * 1e3:.0f} us (best {mul_b * 1e3:.0f}); point validity check "
          f"{chk_m * 1e3:.0f} us   {load()}")
    print(f"CPU ms (process time), {repeat} runs each, every cache forgotten before each verify")
    print(f"{'proof':<34} {'bytes':>6} {'prove':>8} {'best':>7} {'verify':>8} {'best':>7}")

    keys = [deck.DeckKey.generate(gid, s) for s in range(6)]
    k0 = keys[0]
    row("deck key (Schnorr)", 64, lambda: deck.DeckKey.generate(gid, 0),
        lambda: deck.verify_deck_key(gid, 0, k0.public, k0.proof), repeat)
    pk = deck.joint_key(gid, [(k.public, k.proof) for k in keys])
    table = group.CardTable.linear(gid, [card(i).code for i in range(63)])
    j0 = table.id_base
    assert j0 is not None
    pile = deck.initial_deck(gid, pk, table)
    ct = pile[5]
    share = deck.make_share(gid, k0, 5, ct)
    row("decryption share (DLEQ)", 97, lambda: deck.make_share(gid, k0, 5, ct),
        lambda: deck.verify_share(gid, k0.public, 5, ct, share), repeat)
    d = group.mul(x, ct.c1)
    dp = dleq_prove(x, p, ct.c1, d, b"ctx")
    row("DLEQ (every point checked)", 64, lambda: dleq_prove(x, p, ct.c1, d, b"ctx"),
        lambda: dleq_verify(p, ct.c1, d, dp, b"ctx"), repeat)

    out, w = deck.shuffle(pile, pk)
    sctx = shuffle_proof.ShuffleContext(gid, b"initial", 1, 1)
    sproof = shuffle_proof.prove_shuffle(sctx, pk, pile, out, w.perm, w.rs)
    raw = deck.encode_deck(out)

    def check_shuffle() -> None:  # as a peer: the output decoded on receipt, then the proof (which validates it)
        received = deck.receive_shuffle(pile, raw, 1, 1, validate=False)  # (the proof checks every point)
        shuffle_proof.verify_shuffle_proof(sctx, pk, pile, received, sproof, trusted=True)

    row("shuffle of 63 (output + proof)", len(sproof),
        lambda: shuffle_proof.prove_shuffle(sctx, pk, pile, out, w.perm, w.rs), check_shuffle, max(3, repeat // 3))

    # the offline audit, every secret revealed: one pile of 63 shuffled by 6 seats, each step's proof checked
    # generically (as a peer) and by crypto/shuffle_audit.py (the claimed secrets checked against the points first)
    xs = [k.secret for k in keys]
    x_total = xs[0]
    for v in xs[1:]:
        x_total = group.scalar_add(x_total, v)
    steps, cur = [], pile
    for seat in range(6):
        o, wit = deck.shuffle(cur, pk)
        c = shuffle_proof.ShuffleContext(gid, b"initial", seat, seat)
        steps.append((c, o, shuffle_proof.prove_shuffle(c, pk, cur, o, wit.perm, wit.rs), wit.to_bytes()))
        cur = o
    rho = [group.scalar_to_int(group.hash_to_scalar(domains.INITIAL_MASK, gid, b"initial", u32(i))) for i in range(63)]
    known = shuffle_audit.KnownPile(x_total, table.points, table.attributes or (), j0, rho, list(range(63)))

    def generic_pile() -> None:
        prev = pile
        for c, o, pr, _w in steps:
            shuffle_proof.verify_shuffle_proof(c, pk, prev, o, pr, trusted=True)
            prev = o

    row("audit: pile of 63, 6 steps, generic", len(steps[0][2]) * 6, lambda: None, generic_pile, max(3, repeat // 5))
    row("audit: same pile, secrets known", len(steps[0][2]) * 6, lambda: None,
        lambda: shuffle_audit.verify_pile(pk, known, pile, steps), max(3, repeat // 5))

    cs, op = code_proofs.commit_codes((0, 2, 5))
    cctx = code_proofs.ProofContext(gid, 1, (3, 17, 40), b"answer", 77)
    dist = code_proofs.prove_distinct(cs, op, cctx)
    row("password: distinct codes", len(dist), lambda: code_proofs.prove_distinct(cs, op, cctx),
        lambda: code_proofs.verify_distinct(cs, dist, cctx), repeat)
    mt = code_proofs.prove_match(cs, op, 2, cctx)
    row("answer: match", len(mt), lambda: code_proofs.prove_match(cs, op, 2, cctx),
        lambda: code_proofs.verify_match(cs, 2, mt, cctx), repeat)
    nm = code_proofs.prove_no_match(cs, op, 3, cctx)
    row("answer: no match", len(nm), lambda: code_proofs.prove_no_match(cs, op, 3, cctx),
        lambda: code_proofs.verify_no_match(cs, 3, nm, cctx), repeat)

    def audit_no_match() -> None:  # the audit: the password's opening revealed (its check not remembered)
        code_proofs._opens.cache_clear()
        code_proofs.verify_answer(cs, 3, False, nm, cctx, op)

    row("audit: no match, opening known", len(nm), lambda: None, audit_no_match, repeat)

    f = 30
    code = card(f).code
    lcs, lop = code_proofs.commit_codes((code, (code + 1) % 6, (code + 2) % 6))
    c1 = group.base_mul(group.random_scalar())
    c2p = group.add(table.point(f), group.mul(x, c1))
    lctx = code_proofs.ProofContext(gid, 1, (3, 17, 40), b"link", 3)
    j = table.id_base
    assert j is not None
    lp = card_link.prove_card_link(j, c1, c2p, x, lcs[0], code, lop.blinds[0], f, lctx)
    row("card link (v5, constant size)", len(lp),
        lambda: card_link.prove_card_link(j, c1, c2p, x, lcs[0], code, lop.blinds[0], f, lctx),
        lambda: card_link.verify_card_link(j, c1, c2p, p, lcs[0], lp, lctx), repeat)
    row("card link (v5), points trusted", len(lp),
        lambda: card_link.prove_card_link(j, c1, c2p, x, lcs[0], code, lop.blinds[0], f, lctx),
        lambda: card_link.verify_card_link(j, c1, c2p, p, lcs[0], lp, lctx, True), repeat)
    old = group.CardTable(gid)
    faces = [(q, card(i).code) for i, q in enumerate(old.points)]
    oc2p = group.add(old.point(f), group.mul(x, c1))
    op4 = code_link.prove_link(c1, oc2p, x, lcs[0], code, lop.blinds[0], f, faces, lctx)
    row("link v4 (OR over 63 faces)", len(op4),
        lambda: code_link.prove_link(c1, oc2p, x, lcs[0], code, lop.blinds[0], f, faces, lctx),
        lambda: code_link.verify_link(c1, oc2p, p, lcs[0], faces, op4, lctx), max(3, repeat // 3))


if __name__ == "__main__":
    main()
