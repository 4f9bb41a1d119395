"""The offline audit checks proofs of shuffle in worker processes (p2p/audit_pool.py): it must reach exactly the
findings of the audit with every check in line, on honest logs, on a log with evidence against a shuffler, and on a
log whose peers took a shuffle with a bad proof (a worker's failed check makes the audit fold again in line, which
rejects that very entry naming its author)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
from _zoo import (
    BadShare,
    FalseCommitment,
    ProvingSubstituter,
    RepeatedCodePassword,
    Table,
    WrongLink,
    first_chance,
)
from adp2p.crypto.entries import decode_entry
from adp2p.p2p import audit, audit_pool
from adp2p.p2p.audit import AuditResult, audit_log
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine
from adp2p.p2p.machine.authoring import Author as HonestAuthor
from adp2p.p2p.protocol import Kind, decode_body
from seeds import draw, seeded


def both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[AuditResult, AuditResult]:
    """The audit of `path` with the pool, then with every check in line."""
    pooled = audit_log(path)
    with monkeypatch.context() as mp:
        mp.setattr(audit, "proof_pool", lambda: None)
        inline = audit_log(path)
    return pooled, inline


def same(a: AuditResult, b: AuditResult) -> None:
    assert [f.as_dict() for f in a.findings] == [f.as_dict() for f in b.findings]
    assert (a.ok, a.winners, a.complete, a.abandoned_by, a.tampered) == (
        b.ok,
        b.winners,
        b.complete,
        b.abandoned_by,
        b.tampered,
    )


def test_the_pool_is_used_here_and_checks_every_proof(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    t = Table(4, seed=5, round_limit=6).run()
    log = t.write_log(tmp_path / "log")
    handed: list[int] = []
    real = audit_pool.PooledMachine._check_shuffle_proof

    def count(self: audit_pool.PooledMachine, *a: object) -> None:
        handed.append(self._pool is not None)
        real(self, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(audit_pool.PooledMachine, "_check_shuffle_proof", count)
    pooled, inline = both(log, monkeypatch)
    assert pooled.ok and inline.ok
    same(pooled, inline)
    shuffles = sum(1 for r in t.raws if decode_entry(r).kind == Kind.SHUFFLE)
    assert handed == [True] * shuffles  # every proof went to a worker (none of them in line)


@pytest.mark.parametrize("cls,seat", [(ProvingSubstituter, 2), (BadShare, 1), (WrongLink, 1)])
def test_evidence_against_a_cheater_is_judged_the_same(
    cls: type[Machine], seat: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _, t = first_chance(cls, seat, 3)
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    same(pooled, inline)
    assert {f.seat for f in pooled.findings} == {seat}


def test_a_shuffle_whose_bad_proof_the_peers_took_is_rejected_naming_its_author(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Peers that skipped the check (a modified client) took seat 2's shuffle with the proof of seat 1's: the worker's
    check fails, the audit folds again in line and rejects that entry, naming seat 2."""

    class SwapsProof(Machine):
        class Author(HonestAuthor):
            last: bytes = b""

            def author_next(self, fold: Any, choose: Any = None) -> Any:
                out = super().author_next(fold, choose)
                if out is not None and out[0] == Kind.SHUFFLE and fold.seat == 1:
                    out[1]["proof"] = self.last
                elif out is not None and out[0] == Kind.SHUFFLE:
                    type(self).last = out[1]["proof"]
                return out

        author = Author()

    with monkeypatch.context() as mp:
        mp.setattr(Machine, "_check_shuffle_proof", lambda *a: None)  # the table's peers check nothing
        s = draw(3, 5)
        swaps = seeded(SwapsProof, s.rng)
        t = LocalTable(3, seed=5, secrets=s.secrets, game_id=s.game_id, machine=swaps, round_limit=2)
        t.run()
    raws = t.raws
    bad = next(i for i, r in enumerate(raws) if decode_entry(r).kind == Kind.SHUFFLE and decode_entry(r).author == 1)
    assert decode_body(decode_entry(raws[bad]).body)["proof"] == decode_body(decode_entry(raws[bad - 1]).body)["proof"]
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    same(pooled, inline)
    assert [(f.seat, f.rule, f.seq) for f in pooled.findings][:1] == [(1, "rejected", bad)]


def test_workers_that_do_not_answer_in_time_cost_a_fold_in_line_not_a_wrong_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    t = Table(3, seed=5, round_limit=4).run()
    log = t.write_log(tmp_path / "log")
    folds: list[str] = []
    real = audit._fold

    def fold(m: Machine, entries: list) -> tuple:  # type: ignore[type-arg]
        folds.append(type(m).__name__)
        return real(m, entries)

    monkeypatch.setattr(audit, "_fold", fold)
    monkeypatch.setattr(audit_pool, "PATIENCE", 0.0)
    monkeypatch.setattr(audit_pool, "PATIENCE_PER_PROOF", 0.0)
    monkeypatch.setattr(audit_pool, "verify_shuffle_proof", _slow_verify)
    res = audit_log(log)
    assert folds == ["PooledMachine", "Machine"]  # no answer in time: folded again, every check in line
    assert res.ok and not res.findings


def _slow_verify(*args: object, **kw: object) -> None:
    """A worker that never answers (hung): the audit stops waiting, kills it and checks in line."""
    import time

    time.sleep(3600)


def test_share_proofs_go_to_the_workers_and_a_failed_one_folds_again_in_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    t = Table(3, seed=5, round_limit=4).run()
    log = t.write_log(tmp_path / "log")
    handed: list[int] = []
    real = audit_pool.PooledMachine._check_shares

    def count(self: audit_pool.PooledMachine, seat: int, h: int, ct: object, todo: list) -> None:  # type: ignore[type-arg]
        handed.append(len(todo) if self._pool is not None else -1)
        real(self, seat, h, ct, todo)  # type: ignore[arg-type]

    monkeypatch.setattr(audit_pool.PooledMachine, "_check_shares", count)
    pooled, inline = both(log, monkeypatch)
    same(pooled, inline)
    assert handed and -1 not in handed and sum(handed) > 0  # every share check went to a worker
    folds: list[str] = []
    real_fold = audit._fold

    def fold(m: Machine, entries: list) -> tuple:  # type: ignore[type-arg]
        folds.append(type(m).__name__)
        return real_fold(m, entries)

    monkeypatch.setattr(audit, "_fold", fold)
    monkeypatch.setattr(audit_pool, "verify_shares", _a_worker_says_no)
    res = audit_log(log)
    # a complete log: every share went the claimed secrets' way (crypto/share_audit.py), never the generic one
    assert folds == ["PooledMachine"]
    assert res.ok, res.text()
    folds.clear()
    monkeypatch.setattr(audit_pool, "verify_shares_known", _a_worker_says_no)
    res = audit_log(log)
    assert folds == ["PooledMachine", "Machine"]  # a worker's "no" costs a fold in line, which decides
    assert res.ok, res.text()


def _a_worker_says_no(*args: object) -> None:
    from adp2p.crypto.errors import CryptoError

    raise CryptoError("a worker found this share bad")


def test_link_proofs_go_to_the_workers_and_a_failed_one_folds_again_in_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The link proof with a controller's first answer about a password (games/access_denied/links.py) is the audit's
    costliest check after the shuffles: a worker checks it (`_proof_check`, the core's hook for a game's costly
    proofs); a worker's "no" costs a fold in line, which decides."""
    t = Table(3, seed=3, round_limit=40).run()
    log = t.write_log(tmp_path / "log")
    linked = sum(
        1 for r in t.raws if decode_entry(r).kind == Kind.EVENT and "code_link" in decode_body(decode_entry(r).body)
    )
    assert linked >= 1
    handed: list[bool] = []
    real = audit_pool.PooledMachine._proof_check

    def count(self: audit_pool.PooledMachine, fn: Any, *a: object) -> None:
        if fn.__name__ == "verify_card_link":  # (version 5: crypto/card_link.py; version 4: verify_link_once)
            handed.append(self._pool is not None)
        real(self, fn, *a)

    monkeypatch.setattr(audit_pool.PooledMachine, "_proof_check", count)
    pooled, inline = both(log, monkeypatch)
    assert pooled.ok and inline.ok
    same(pooled, inline)
    assert handed == [True] * (3 * linked)  # one proof per password card, every one in a worker
    folds: list[str] = []
    real_fold = audit._fold

    def fold(m: Machine, entries: list) -> tuple:  # type: ignore[type-arg]
        folds.append(type(m).__name__)
        return real_fold(m, entries)

    def says_no(self: audit_pool.PooledMachine, fn: Any, *a: object) -> None:
        real(self, _a_worker_says_no if self._pool is not None else fn, *a)

    monkeypatch.setattr(audit, "_fold", fold)
    monkeypatch.setattr(audit_pool.PooledMachine, "_proof_check", says_no)
    res = audit_log(log)
    assert folds == ["PooledMachine", "Machine"]
    assert res.ok, res.text()


def test_a_false_commitment_is_named_alike_with_and_without_workers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    t = first_chance(FalseCommitment, 0, 3, 25)[1]
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    same(pooled, inline)
    assert "password_link" in {f.rule for f in pooled.findings if f.seat == 0}, pooled.text()


def test_signatures_go_to_the_workers_and_a_bad_one_is_found_in_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The fresh audit's workers check the entries' signatures in chunks while the fold goes on; a bad signature
    makes the audit run again in line, which reports the very seq (the links alone would say the next one)."""
    t = Table(3, seed=3, round_limit=3).run()
    log = t.write_log(tmp_path / "log")
    runs: list[bool] = []
    real = audit._audit

    def audit_run(p: Path, res: AuditResult, pool: Any) -> bool:
        runs.append(pool is not None)
        return real(p, res, pool)

    monkeypatch.setattr(audit, "_audit", audit_run)
    assert audit_log(log).ok and runs == [True]  # one pooled run, signatures and proofs in the workers
    raws = log.read_bytes()
    records, _ = audit.read_records(log)
    bad = bytearray(records[20])
    bad[-1] ^= 1  # the last byte of the signature: its header and links hold (the next entry's link breaks)
    out = bytearray()
    for i, r in enumerate(records):
        r = bytes(bad) if i == 20 else r
        out += len(r).to_bytes(4, "big") + r
    (tmp_path / "bad").write_bytes(bytes(out))
    assert raws != bytes(out)
    runs.clear()
    res = audit_log(tmp_path / "bad")
    assert runs == [True, False]  # the workers said no: again in line
    assert res.tampered is not None and res.tampered.seq == 20 and not res.ok


def test_a_shuffle_output_holding_no_point_that_the_peers_took_is_rejected_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The pooled fold leaves a shuffle output's points to the worker's proof check (as a peer does), so a point that
    is none (here the identity, a small-order point) must not change the outcome: the worker's check fails, the audit
    folds again in line and rejects that very entry, naming its author, as the in-line audit does."""
    from adp2p.crypto.group import IDENTITY

    class NoPoint(Machine):
        class Author(HonestAuthor):
            def author_next(self, fold: Any, choose: Any = None) -> Any:
                out = super().author_next(fold, choose)
                if out is not None and out[0] == Kind.SHUFFLE and fold.seat == 1:
                    deck = out[1]["deck"]
                    out[1]["deck"] = deck[:-64] + IDENTITY + deck[-32:]
                return out

        author = Author()

    with monkeypatch.context() as mp:
        mp.setattr(Machine, "_check_shuffle_proof", lambda *a: None)  # the table's peers check nothing
        s = draw(3, 5)
        t = LocalTable(3, seed=5, secrets=s.secrets, game_id=s.game_id, machine=seeded(NoPoint, s.rng), round_limit=2)
        t.run()
    bad = next(i for i, r in enumerate(t.raws) if decode_entry(r).kind == Kind.SHUFFLE and decode_entry(r).author == 1)
    assert IDENTITY in decode_body(decode_entry(t.raws[bad]).body)["deck"]
    runs: list[bool] = []
    real = audit._audit

    def audit_run(p: Path, res: AuditResult, pool: Any) -> bool:
        runs.append(pool is not None)
        return real(p, res, pool)

    monkeypatch.setattr(audit, "_audit", audit_run)
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    assert runs == [True, False, False]  # pooled, its worker said no: in line; then `both`'s own in-line audit
    same(pooled, inline)
    assert [(f.seat, f.rule, f.seq) for f in pooled.findings][:1] == [(1, "rejected", bad)], pooled.text()


def test_answer_boxes_go_to_the_workers_and_a_broken_proof_is_named_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The audit opens every answer's sealed proofs (games/access_denied/answers.py, `check_answer_box`): each box is
    one check in a worker. A broken proof its attempter kept quiet makes a worker say no; the audit in line names the
    controller, exactly as the audit with every check in line does."""
    from _zoo import UnprovenAnswer
    from _zoo_final import Accomplice

    handed: list[bool] = []
    real = audit_pool.PooledMachine._proof_check

    def count(self: audit_pool.PooledMachine, fn: Any, *a: object) -> None:
        if fn.__name__ == "check_answer_box":
            handed.append(self._pool is not None)
        real(self, fn, *a)

    monkeypatch.setattr(audit_pool.PooledMachine, "_proof_check", count)
    t = Table(3, seed=3, round_limit=40).run()
    answers = sum(1 for r in t.raws if decode_entry(r).kind == Kind.EVENT
                  and decode_body(decode_entry(r).body).get("proof") is not None)
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    assert pooled.ok and inline.ok
    assert answers >= 1 and handed == [True] * answers  # every answer box, each in a worker
    seed, alone = first_chance(UnprovenAnswer, 1, 3)
    attempter = next(decode_entry(r).author for r in alone.raws if decode_entry(r).kind == Kind.EVIDENCE)
    t = Table(3, seed=seed, cheats={1: UnprovenAnswer, attempter: Accomplice}).run()
    pooled, inline = both(t.write_log(tmp_path / "quiet"), monkeypatch)
    same(pooled, inline)
    assert {(f.seat, f.rule) for f in pooled.findings} == {(1, "controller_answer")}, pooled.text()


class FalseWitness(Machine):
    """Reveals, for the first pile, a witness of another permutation than the one it shuffled with."""

    class Author(HonestAuthor):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is not None and out[0] == Kind.SECRETS and fold.seat == 1:
                from adp2p.crypto.deck import ShuffleWitness

                ws = [list(w) for w in out[1]["witnesses"]]
                w = ShuffleWitness.from_bytes(ws[0][1])
                ws[0][1] = ShuffleWitness((*w.perm[1:], w.perm[0]), w.rs).to_bytes()
                out[1]["witnesses"] = ws
            return out

    author = Author()


def test_with_every_secret_claimed_each_pile_goes_to_a_worker_and_a_false_witness_is_named_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A finished log claims every seat's secrets: the audit reads them ahead and hands each pile's steps to one worker
    (crypto/shuffle_audit.py, fewer multiplications). A false claimed witness only leaves the proofs to the generic
    check (they hold); the end-of-game audit names the seat that revealed it, with and without the workers alike."""
    piles: list[int] = []
    real = audit_pool.PooledMachine._submit_pile

    def count(self: audit_pool.PooledMachine, pile: bytes) -> None:
        piles.append(len(self._steps[pile][1]))
        real(self, pile)

    monkeypatch.setattr(audit_pool.PooledMachine, "_submit_pile", count)
    t = Table(3, seed=5, round_limit=4).run()
    pooled, inline = both(t.write_log(tmp_path / "log"), monkeypatch)
    assert pooled.ok and inline.ok
    assert piles == [3] * len(t.ms[0].hmap.piles)  # every pile, all three steps, one worker task each
    piles.clear()
    s = draw(3, 5)
    lt = LocalTable(3, seed=5, secrets=s.secrets, game_id=s.game_id, machine=seeded(FalseWitness, s.rng), round_limit=2)
    lt.run()
    pooled, inline = both(lt.write_log(tmp_path / "lie"), monkeypatch)
    same(pooled, inline)
    assert piles and {(f.seat, f.rule) for f in pooled.findings} == {(1, "shuffle")}, pooled.text()


def test_distinct_code_proofs_go_to_the_workers_and_a_false_one_is_named_as_in_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A password's proof that its three codes differ (games/access_denied/answers.py, `password_proof`) is checked by a
    worker in the offline audit; a log holding a password entry whose proof fails (the peers rejected it) gets the
    in-line audit's very findings: its author named, `password_distinct`, at that entry."""
    handed: list[bool] = []
    real = audit_pool.PooledMachine._proof_check

    def count(self: audit_pool.PooledMachine, fn: Any, *a: object) -> None:
        if fn.__name__ == "verify_distinct":
            handed.append(self._pool is not None)
        real(self, fn, *a)

    monkeypatch.setattr(audit_pool.PooledMachine, "_proof_check", count)
    t = Table(3, seed=5, round_limit=4).run()
    passwords = sum(1 for r in t.raws if decode_entry(r).kind == Kind.EVENT
                    and "distinct" in decode_body(decode_entry(r).body))
    assert passwords >= 3
    pooled, inline = both(t.write_log(tmp_path / "honest"), monkeypatch)
    assert pooled.ok and inline.ok
    assert handed == [True] * passwords  # every password's proof in a worker
    t = first_chance(RepeatedCodePassword, 1, 3)[1]
    pooled, inline = both(t.write_log(tmp_path / "cheat"), monkeypatch)
    same(pooled, inline)
    assert {(f.seat, f.rule) for f in pooled.findings} >= {(1, "password_distinct")}, pooled.text()
