"""The offline audit's proof checks in parallel: an observer machine that hands each proof of shuffle, each game's
costly proof (`_proof_check`) and each decryption share's proof to worker processes and folds on, so that the
slowest checks of a long log (about 60 % of its audit) use every core.

It folds exactly as `Machine` does; only where a proof is checked differs. A proof whose check fails in
a worker (or a worker that dies) makes the caller fold the log again with every check in line, which then rejects
the very entry as the table did. A copy of the machine (a trial fold judging evidence) checks in line, since its
verdict depends on the check. Used by `p2p/audit.py` only: the peers check every proof as it arrives.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, NamedTuple

from adp2p.crypto import domains
from adp2p.crypto.deck import Ciphertext, Share, ShuffleWitness, verify_share
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.group import L, hash_to_scalar, scalar_add, scalar_to_int
from adp2p.crypto.hashing import u32
from adp2p.crypto.share_audit import verify_shares_known
from adp2p.crypto.shuffle_audit import KnownPile, Step, verify_pile
from adp2p.crypto.shuffle_proof import ShuffleContext, verify_shuffle_proof
from adp2p.p2p.machine import Machine
from adp2p.p2p.piles import Pile
from adp2p.p2p.protocol import Genesis

MIN_CORES = 2  # on one core a pool only adds its start-up
PATIENCE, PATIENCE_PER_PROOF = 30.0, 1.0  # seconds before a silent worker is given up on (then: checks in line)


def _quiet_on_ctrl_c() -> None:
    """A worker leaves Ctrl-C to the auditor (one line there), never printing a traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def proof_pool() -> ProcessPoolExecutor | None:
    """Worker processes for the proofs (one per core), or None where that cannot help or cannot be had."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < MIN_CORES or "fork" not in multiprocessing.get_all_start_methods():
        return None
    try:
        return ProcessPoolExecutor(max_workers=cores, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_quiet_on_ctrl_c)
    except (OSError, ValueError):
        return None


def verify_shares(game_id: bytes, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
    """A worker's check of decryption shares of handle h (CryptoError on the first that fails)."""
    for public, share in todo:
        verify_share(game_id, public, h, ct, share)


class Claimed(NamedTuple):
    """Every seat's end-of-game secrets as the log's `secrets` entries claim them, read before the fold (nothing here
    is trusted: the worker checks each against the published points, and the fold judges the secrets as always)."""

    x: bytes  # Σ of the claimed deck secrets
    xs: tuple[bytes, ...]  # each seat's claimed deck secret
    witnesses: dict[tuple[int, int], bytes]  # (seat, pile index) -> witness bytes


def claimed_secrets(bodies: list[tuple[int, Any]], n: int) -> Claimed | None:
    """`Claimed` from the (author, body) of the log's `secrets` entries, or None unless every seat's deck secret is a
    canonical scalar there (one `secrets` entry a seat; a malformed witness item is left out)."""
    xs: dict[int, bytes] = {}
    witnesses: dict[tuple[int, int], bytes] = {}
    for seat, body in bodies:
        if not isinstance(body, dict) or seat in xs:
            return None
        x = body.get("deck_secret")
        if type(x) is not bytes or len(x) != 32 or scalar_to_int(x) >= L:
            return None
        xs[seat] = x
        items = body.get("witnesses")
        for item in items if isinstance(items, list) else []:
            if isinstance(item, list) and len(item) == 2 and type(item[0]) is int and type(item[1]) is bytes:
                witnesses[(seat, item[0])] = item[1]
    if sorted(xs) != list(range(n)):
        return None
    total = xs[0]
    for seat in range(1, n):
        total = scalar_add(total, xs[seat])
    return Claimed(total, tuple(xs[seat] for seat in range(n)), witnesses)


def _pile_index(context: bytes) -> int:
    """The index of the pile of a shuffle context (`Pile.context()`: `initial`, or `reshuffle` ‖ u32(index))."""
    return 0 if context == b"initial" else int.from_bytes(context[len(b"reshuffle"):], "big")


class PooledMachine(Machine):
    """An observer `Machine` whose proofs of shuffle are checked by `pool` while the fold goes on."""

    # A shuffle output's points are left to its proof, as at a peer (p2p/machine/setup.py): the worker's check
    # multiplies every one of them, so an invalid point fails it, and the audit then runs again in line (where the
    # proof is checked at once); whatever the fold does with such a point meanwhile is thrown away (p2p/audit.py).
    _proofs_in_line = True

    def __init__(self, genesis: Genesis, pool: ProcessPoolExecutor, claimed: Claimed | None = None) -> None:
        super().__init__(genesis, None)
        self._pool: ProcessPoolExecutor | None = pool
        self._checks: list[Future[None]] = []
        self._claimed = claimed if self.table.attributes is not None else None  # (version-5 card points only)
        self._steps: dict[bytes, tuple[list[Any], list[Step]]] = {}  # pile context -> (start, its steps so far)
        self._pile_faces: dict[bytes, list[int]] = {}
        self._masks: dict[bytes, int] = {}  # a shuffled card's c1 -> its mask ρ as the claimed witnesses give it

    def _check_shuffle_proof(
        self, seat: int, ctx: ShuffleContext, deck_in: list[Any], deck_out: list[Any], proof: bytes
    ) -> None:
        if self._pool is None:
            super()._check_shuffle_proof(seat, ctx, deck_in, deck_out, proof)
            return
        if self._claimed is None:
            args = (ctx, self.joint_pk, list(deck_in), list(deck_out), proof)
            self._checks.append(self._pool.submit(verify_shuffle_proof, *args, trusted=True))
            return
        # the auditor knows (claims) every secret: a pile's steps go to one worker together once the pile is shuffled
        self._follow_masks(seat, ctx, deck_in, deck_out)
        _start, steps = self._steps.setdefault(ctx.pile, (list(deck_in), []))
        steps.append((ctx, list(deck_out), proof, self._claimed.witnesses.get((seat, _pile_index(ctx.pile)))))
        if len(steps) == self.n:
            self._submit_pile(ctx.pile)

    def _follow_masks(
        self, seat: int, ctx: ShuffleContext, deck_in: list[Ciphertext], deck_out: list[Ciphertext]
    ) -> None:
        """Each output card's mask ρ as the shuffler's claimed witness gives it (nothing trusted: a worker checks
        ``c1 = ρ·G`` before it uses one; a claim that does not hold only leaves that card's shares to the generic
        check): the input's masks as followed so far, or the pile's public masks ``r0_j`` (crypto/deck.py)."""
        assert self._claimed is not None
        raw = self._claimed.witnesses.get((seat, _pile_index(ctx.pile)))
        try:
            w = ShuffleWitness.from_bytes(raw) if type(raw) is bytes else None
        except (CryptoError, TypeError, ValueError):
            w = None
        if w is None or len(w.perm) != len(deck_in) or len(deck_out) != len(deck_in):
            return
        rho = [self._masks.get(ct.c1) for ct in deck_in]
        for j, r in enumerate(rho):
            if r is None:
                rho[j] = scalar_to_int(hash_to_scalar(domains.INITIAL_MASK, self.game_id, ctx.pile, u32(j)))
        for out, p, r in zip(deck_out, w.perm, w.rs, strict=True):
            if type(p) is int and 0 <= p < len(rho) and type(r) is bytes:
                self._masks[out.c1] = (rho[p] + scalar_to_int(r)) % L

    def _submit_pile(self, pile: bytes) -> None:
        """Hand a pile's steps so far to a worker (crypto/shuffle_audit.py: every secret known, fewer multiplications;
        a claimed secret that does not hold leaves the generic check to decide)."""
        start, steps = self._steps.pop(pile)
        assert self._pool is not None and self._claimed is not None
        faces = self._pile_faces.get(pile, list(range(len(self.table))))  # (the pile's public faces: `_new_pile`)
        masks = (hash_to_scalar(domains.INITIAL_MASK, self.game_id, pile, u32(j)) for j in range(len(start)))
        rho = [scalar_to_int(r) for r in masks]  # the fresh pile's public masks (crypto/deck.py, `fresh_pile`)
        attrs, j = self.table.attributes, self.table.id_base
        assert attrs is not None and j is not None
        known = KnownPile(self._claimed.x, list(self.table.points), attrs, j, rho, faces)
        self._checks.append(self._pool.submit(verify_pile, self.joint_pk, known, start, steps))

    def _new_pile(self) -> Pile:
        pile = super()._new_pile()
        self._pile_faces[pile.context()] = list(pile.faces) if pile.faces is not None else list(range(len(self.table)))
        return pile

    def _proof_check(self, fn: Callable[..., None], *args: Any) -> None:
        if self._pool is None:
            super()._proof_check(fn, *args)
            return
        self._checks.append(self._pool.submit(fn, *args))

    def _check_shares(self, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
        if self._pool is None or not todo:
            super()._check_shares(seat, h, ct, todo)
            return
        rho = self._masks.get(ct.c1) if self._claimed is not None else None
        if rho is not None:  # the seats' claimed secrets and the card's mask: fixed-base checks (crypto/share_audit.py)
            assert self._claimed is not None
            args = (self.game_id, h, ct, todo, self._claimed.xs, rho)
            self._checks.append(self._pool.submit(verify_shares_known, *args))
            return
        self._checks.append(self._pool.submit(verify_shares, self.game_id, h, ct, todo))

    def snapshot(self) -> Machine:
        """A copy that checks in line (it judges evidence: its outcome depends on each check)."""
        pool, checks = self._pool, self._checks
        self._pool, self._checks = None, []
        try:
            return super().snapshot()
        finally:
            self._pool, self._checks = pool, checks

    def all_proofs_hold(self, checks: list[Future[Any]] | None = None) -> bool:
        """Wait for every check handed out (or `checks`: tasks that answer True or None when all holds); False if any
        failed or a worker could not say in time (a worker that hangs only costs the caller the wait and a fold in
        line, never a wrong result)."""
        if checks is None:
            for pile in list(self._steps):  # a pile the log left half shuffled
                self._submit_pile(pile)
        todo = self._checks if checks is None else checks
        deadline = time.monotonic() + PATIENCE + PATIENCE_PER_PROOF * len(todo)
        ok = True
        for fut in todo:
            try:
                if fut.result(timeout=max(0.0, deadline - time.monotonic())) is False:
                    ok = False
            except Exception:  # a failed proof, a broken worker, no answer in time: the caller folds again in line
                ok = False
        return ok

    def close(self) -> None:
        """Stop the workers; at once if one is still busy after the wait (it could only be hung)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            self.stop(pool)

    @staticmethod
    def stop(pool: ProcessPoolExecutor) -> None:
        """Stop a pool's workers: at once if one is still busy (after the waits it could only be hung)."""
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pending = getattr(pool, "_pending_work_items", None) or {}
        if pending:
            for proc in procs:
                proc.kill()
        pool.shutdown(wait=not pending, cancel_futures=True)
