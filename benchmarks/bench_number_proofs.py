"""Classified Information's proved answers: size and CPU of every answer about a hidden Card Number (a script, not a
test).

Run: ./dev bench number_proofs   (or .venv/bin/python benchmarks/bench_number_proofs.py [--repeat 25])

For each question (Fortune Teller's ±2, Test Access Codes' equal, Wheel of Fate's in-Code, an Assassination Attempt's
Codes touching, Picking Petals' not-my-number) and each answer (yes / no), at its largest set over 1..9: the proof's
bytes and the median and best CPU time (process time: this machine is shared) to prove and to verify; then the card
link that ties the Suitcase's commitment to its dealt card (once per Suitcase or face-down Guard), a hand mixed after
a show (a proof of shuffle of two or three cards), and a whole game's answers as a peer checks them. Before EVERY
verify the process forgets every point it validated (`forget_valid_points`) and every proof of shuffle it verified, so
each figure is what a fresh peer or auditor pays. The load average is printed beside every line.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import time
from collections.abc import Callable

from adp2p.crypto import card_link, deck, group, shuffle_proof
from adp2p.crypto import number_answers as na
from adp2p.crypto import set_proofs as sp
from adp2p.games.classified import mixing


def cpu(fn: Callable[[], object], repeat: int, *, fresh: bool) -> tuple[float, float]:
    """(median, best) process time of fn in ms; `fresh`: the valid-point and verified-link memories forgotten before
    each run."""
    times = []
    for _ in range(repeat):
        if fresh:
            group.forget_valid_points()
            card_link.forget_verified()
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3, min(times) * 1e3


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def row(name: str, size: int, prove: Callable[[], object], verify: Callable[[], object], repeat: int) -> None:
    pm, pb = cpu(prove, repeat, fresh=False)
    vm, vb = cpu(verify, repeat, fresh=True)
    print(f"{name:<40} {size:>5} {pm:>7.2f} {pb:>6.2f} {vm:>7.2f} {vb:>6.2f}   {load()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=25, help="runs per figure (median and best printed)")
    repeat = ap.parse_args().repeat
    gid = secrets.token_bytes(16)
    print(f"CPU ms (process time), {repeat} runs each, valid points forgotten before each verify")
    print(f"{'answer (largest set over 1..9)':<40} {'bytes':>5} {'prove':>7} {'best':>6} {'verify':>7} {'best':>6}")
    blind = group.random_scalar()
    for q in na.Question:
        for yes in (True, False):
            # the asked number and hidden number giving this answer its largest set
            x, n = max(((x, n) for x in na.CARD_NUMBERS for n in na.CARD_NUMBERS if na.holds(q, n, x) == yes),
                       key=lambda xn: len(na.answer_set(q, xn[0], yes)))
            c = sp.commit_number(n, blind)
            ctx = na.context(q, gid, 1, 5, 40)
            p = na.prove_claim(c, n, blind, q, x, yes, ctx)
            row(f"{q.name.lower()} {'yes' if yes else 'no'} ({len(na.answer_set(q, x, yes))} numbers)", len(p),
                lambda c=c, n=n, q=q, x=x, yes=yes, ctx=ctx: na.prove_claim(c, n, blind, q, x, yes, ctx),
                lambda c=c, q=q, x=x, yes=yes, p=p, ctx=ctx: na.verify_answer(c, q, x, yes, p, ctx), repeat)

    keys = [deck.DeckKey.generate(gid, s) for s in range(2)]
    pk = deck.joint_key(gid, [(k.public, k.proof) for k in keys])
    table = group.CardTable.linear(gid, [i // 2 + 1 for i in range(18)])
    pile, _ = deck.shuffle(deck.initial_deck(gid, pk, table), pk)
    ct = pile[4]
    share = deck.make_share(gid, keys[0], 4, ct)
    c2p = deck.combine(ct, [share.d])
    holder = keys[1]
    face = table.face(group.sub(c2p, group.mul(holder.secret, ct.c1)))
    number = face // 2 + 1
    c = sp.commit_number(number, blind)
    lctx = sp.NumberContext(gid, 1, 4, b"link", 3)
    j = table.id_base
    assert j is not None
    lp = card_link.prove_card_link(j, ct.c1, c2p, holder.secret, c, number, blind, face, lctx)
    row("card link of a Suitcase (18-card deck)", len(lp),
        lambda: card_link.prove_card_link(j, ct.c1, c2p, holder.secret, c, number, blind, face, lctx),
        lambda: card_link.verify_card_link(j, ct.c1, c2p, holder.public, c, lp, lctx), repeat)

    # a hand mixed after a show (ruling C-MIX): a one-step shuffle of the hand's ciphertexts with its proof, in the
    # table's context (games/classified/mixing.py); bytes: the entry's `mix` field, the output and the proof
    for size in (1, 2, 3):
        hand = pile[6 : 6 + size]
        mixed, w = deck.shuffle(hand, pk)
        sctx = mixing.context(gid, 7, 1)
        mp = shuffle_proof.prove_shuffle(sctx, pk, hand, mixed, w.perm, w.rs)

        def check_mix(hand: list = hand, mixed: list = mixed, mp: bytes = mp, sctx: object = sctx) -> None:
            shuffle_proof.forget_verified()
            shuffle_proof.verify_shuffle_proof(sctx, pk, hand, mixed, mp)  # type: ignore[arg-type]

        row(f"hand mix of {size} (output + proof of shuffle)", len(mp) + len(deck.encode_deck(mixed)),
            lambda hand=hand, mixed=mixed, w=w, sctx=sctx: shuffle_proof.prove_shuffle(sctx, pk, hand, mixed, w.perm,
                                                                                       w.rs),
            check_mix, repeat)

    # a game's answers as a peer checks them: two Suitcases and six face-down Guards linked, 30 answers of the
    # largest kind (8 numbers), every point validated afresh once (a fresh auditor)
    answers = []
    for i in range(30):
        ctx = na.context(na.Question.NOT_NUMBER, gid, 1, 4, 100 + i)
        x = na.wheel(number + 1 + i % 8)
        answers.append((x, ctx, na.prove_claim(c, number, blind, na.Question.NOT_NUMBER, x, True, ctx)))

    def a_game() -> None:
        for _ in range(8):
            card_link.verify_card_link(j, ct.c1, c2p, holder.public, c, lp, lctx)
        for x, ctx, p in answers:
            na.verify_answer(c, na.Question.NOT_NUMBER, x, True, p, ctx)

    gm, gb = cpu(a_game, max(3, repeat // 5), fresh=True)
    size = 8 * len(lp) + sum(len(p) for _x, _c, p in answers)
    print(f"a game's checks: 8 links + 30 answers of 8 numbers: {size} bytes, verify {gm:.1f} ms (best {gb:.1f})"
          f"   {load()}", flush=True)


if __name__ == "__main__":
    main()
