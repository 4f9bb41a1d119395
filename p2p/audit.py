"""The post-game audit of one game log, offline, from the log file alone.

`audit_log(path)` reads the records (``u32 length ‖ raw entry``, see `p2p/logstore.py`), verifies every
signature and the hash chain (an entry edited, removed or reordered after the game breaks it: the report
says at which seq), rebuilds an observer `Machine(genesis, None)`, folds every entry through it (every
proof, every move as far as public faces allow, evidence entries) and, once the SECRETS entries are in,
runs the machine's full audit (shuffles and every card, every share sealed or public, the game's own secrets
against their commitments, a strict replay of every move with every face known, the winners: what was checked is
listed, the game's part in its own words, `Game.audit_checks`). `AuditResult` is the
outcome: per seat "honest" or its violations with the entry (seq) and the evidence; `text()` and `to_json()`.
"""

from __future__ import annotations

import json
import struct
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.entries import Entry, decode_entry
from adp2p.crypto.errors import CryptoError, InvalidSignature, MalformedEncoding
from adp2p.crypto.identity import PublicIdentity
from adp2p.p2p.audit_pool import PooledMachine, claimed_secrets, proof_pool
from adp2p.p2p.logstore import _chain_problem
from adp2p.p2p.machine import Machine, ProtocolError, Verdict
from adp2p.p2p.pipeline import Arrival, frame, schema
from adp2p.p2p.protocol import AUDITABLE_VERSIONS, BodyError, Genesis, Kind, decode_body

_LEN = struct.Struct(">I")


@dataclass
class Finding:
    seat: int | None
    rule: str
    seq: int | None
    evidence: str

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "rule": self.rule, "seq": self.seq, "evidence": self.evidence}


@dataclass
class AuditResult:
    path: str
    names: list[str] = field(default_factory=list)
    entries: int = 0
    game_id: str = ""
    profile: str = ""
    tampered: Finding | None = None  # the log itself is not the signed chain the players wrote
    findings: list[Finding] = field(default_factory=list)
    complete: bool = False
    abandoned_by: int | None = None
    winners: list[int] = field(default_factory=list)  # the result that stands (results are final)
    void: list[int] = field(default_factory=list)  # winners of the game named for cheating: their share is void
    checks: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.tampered is None and not self.findings and self.complete

    def seat_status(self, seat: int) -> list[Finding]:
        return [f for f in self.findings if f.seat == seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "log": self.path,
            "game_id": self.game_id,
            "profile": self.profile,
            "entries": self.entries,
            "ok": self.ok,
            "complete": self.complete,
            "tampered": self.tampered.as_dict() if self.tampered else None,
            "seat_base": 0,  # every seat in this JSON is an index from 0 (seat 1 of the text is 0 here)
            "abandoned_by": self.abandoned_by,
            "winners": self.winners,
            "void": self.void,
            "players": [
                {
                    "seat": s,
                    "name": n,
                    "honest": not self.seat_status(s),
                    "violations": [f.as_dict() for f in self.seat_status(s)],
                }
                for s, n in enumerate(self.names)
            ],
            "unattributed": [f.as_dict() for f in self.findings if f.seat is None],
            "checks": self.checks,
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        out = [f"Audit of {self.path}: game {self.game_id[:16]} ({self.profile}), {self.entries} entries"]
        if self.tampered is not None:
            t = self.tampered
            out.append(f"THE LOG WAS TAMPERED WITH at seq {t.seq}: {t.evidence}")
            out.append("  (entries before it verify; nothing after it can be trusted)")
        for s, n in enumerate(self.names):
            found = self.seat_status(s)
            if not found:
                out.append(f"  seat {s + 1} {n}: honest")
            for f in found:
                where = f"entry {f.seq}" if f.seq is not None else "no single entry"
                out.append(f"  seat {s + 1} {n}: VIOLATION {f.rule} ({where}): {f.evidence}")
        for f in self.findings:
            if f.seat is None:
                out.append(f"  (no single seat) {f.rule} at entry {f.seq}: {f.evidence}")
        if self.abandoned_by is not None:
            out.append(f"  the game was abandoned: seat {self.abandoned_by + 1} stopped answering")
        if self.winners or self.void:  # a result reached stands, however the log goes on (results are final)
            head = "  winner: " if len(self.names) == 2 and len(self.winners) <= 1 else "  winner(s): "
            out.append(head + (", ".join(self.names[w] for w in self.winners) or "none"))
        if self.void:
            out.append(
                "  void: the result of "
                + ", ".join(f"seat {w + 1} {self.names[w]}" for w in self.void)
                + " (named above for cheating)"
            )
        if self.checks:
            out.append("  checked: " + "; ".join(self.checks))
        out.append(f"Result: {'no violations' if self.ok else 'VIOLATIONS FOUND'} ({self.seconds:.2f} s)")
        return "\n".join(out)


def read_records(path: Path) -> tuple[list[bytes], str | None]:
    """The raw entries of a log file, and what is wrong with its framing (None: nothing)."""
    data = path.read_bytes()
    raws: list[bytes] = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < _LEN.size:
            return raws, f"{len(data) - pos} stray bytes at the end of the file"
        (n,) = _LEN.unpack_from(data, pos)
        if pos + _LEN.size + n > len(data):
            return raws, f"record {len(raws)} runs past the end of the file"
        raws.append(data[pos + _LEN.size : pos + _LEN.size + n])
        pos += _LEN.size + n
    return raws, None


def audit_log(path: str | Path) -> AuditResult:
    """The audit of one log file; never raises: a file that cannot be read, or anything unexpected, is a finding.

    Where there are cores to use, the worker processes start first (they fork while the log is read), check every
    entry's signature and every proof while the fold goes on, and the fold streams through the log as its links are
    checked. A worker's "no" (a bad signature or proof) makes the audit run again with every check in line, which
    then finds exactly where the log breaks."""
    t0 = time.perf_counter()
    res = AuditResult(str(path))
    try:
        pool = proof_pool()
        if pool is None or not _audit(Path(path), res, pool):
            res = AuditResult(str(path))
            _audit(Path(path), res, None)
    except OSError as exc:
        res.tampered = Finding(None, "unreadable", None, f"the log cannot be read: {exc.strerror or exc}")
    except Exception as exc:  # a defect of ours must not hide behind a traceback: report it, name nobody
        res.findings.append(Finding(None, "audit_error", None, f"the audit could not finish ({type(exc).__name__})"))
    res.seconds = time.perf_counter() - t0
    return res


def _signatures_hold(signed: list[tuple[int, bytes, bytes]], ids: list[PublicIdentity]) -> bool:
    """A worker's check of the signatures of some entries, each as (author, header bytes, signature) from the
    auditor's own strict decoding (their links are checked by the caller; `verify_entry`'s check, not decoded twice)."""
    for author, header, signature in signed:
        try:
            ids[author].verify(domains.ENTRY, header, signature)
        except InvalidSignature:
            return False
    return True


def _link_problem(e: Entry, seq: int, prev: bytes, game_id: bytes, n: int) -> str | None:
    """`_chain_problem` but the signature (checked by a worker meanwhile)."""
    if e.game_id != game_id:
        return f"entry belongs to game {e.game_id.hex()}, expected {game_id.hex()}"
    if e.seq != seq:
        return f"entry carries seq {e.seq}"
    if e.prev_hash != prev:
        return "prev_hash does not link to the previous entry" if seq else "genesis prev_hash is not zero"
    if not 0 <= e.author < n:
        return f"unknown author seat {e.author}"
    return None


SIGNATURE_CHUNK = 256  # entries per worker task


def _audit(p: Path, res: AuditResult, pool: ProcessPoolExecutor | None) -> bool:
    """Fill `res`; with a pool, False if a worker found a signature or proof bad (the caller runs it in line)."""
    try:
        return _audit_with(p, res, pool)
    finally:
        if pool is not None:
            PooledMachine.stop(pool)


def _audit_with(p: Path, res: AuditResult, pool: ProcessPoolExecutor | None) -> bool:
    raws, framing = read_records(p)
    res.entries = len(raws)
    try:
        g0 = decode_entry(raws[0])
        genesis = Genesis.from_body(decode_body(g0.body), versions=AUDITABLE_VERSIONS)
        ids = genesis.identities()
    except (IndexError, MalformedEncoding, BodyError, CryptoError) as exc:
        res.tampered = Finding(None, "genesis", 0, f"no valid genesis entry: {exc}")
        return True
    res.names, res.game_id, res.profile = genesis.names(), genesis.game_id.hex(), genesis.profile
    # the chain: signatures, seq, links
    entries: list[Arrival] = []  # frame → schema here; the signature and the chain checked below; the fold after
    prev = bytes(32)
    signed: list[Future[bool]] = []  # the signatures by the workers, a chunk as soon as it is decoded here
    chunk: list[tuple[int, bytes, bytes]] = []
    for seq, raw in enumerate(raws):
        try:
            a = schema(frame(raw))
        except MalformedEncoding as exc:
            res.tampered = Finding(None, "tampered", seq, f"entry does not decode: {exc}")
            break
        e = a.entry
        if pool is not None:
            problem = _link_problem(e, seq, prev, genesis.game_id, len(ids))
        else:
            problem = _chain_problem(e, seq, prev, genesis.game_id, ids)
        if problem is not None:
            if e.seq != seq and prev != bytes(32) and e.prev_hash != prev:
                problem += " (an entry was removed, inserted or moved here)"
            res.tampered = Finding(None, "tampered", seq, problem)
            break
        entries.append(a)
        prev = e.id
        if pool is not None:
            chunk.append((e.author, e.header_bytes, e.signature))
            if len(chunk) == SIGNATURE_CHUNK:
                signed.append(pool.submit(_signatures_hold, chunk, ids))
                chunk = []
    if pool is not None and chunk:
        signed.append(pool.submit(_signatures_hold, chunk, ids))
    cut = framing is not None and res.tampered is None  # a record cut short at the end: incomplete, not forged
    if res.tampered is None:
        res.checks.append(f"{len(entries)} signatures and hash links")
    # the fold: the proofs of shuffle checked by worker processes meanwhile; if one fails, again with every check in
    # line (it then rejects that entry as the table did)
    try:
        Machine(genesis, None)
    except ProtocolError as exc:
        # a game this auditor does not have names nobody (exc.seat None): its genesis may be sound
        res.findings.append(Finding(exc.seat, "genesis", 0, f"a genesis no game can start from: {exc.msg}"))
        return True
    if pool is not None:
        # the end-of-game secrets the log claims, read ahead: with them a worker checks a pile's proofs of shuffle with
        # fewer multiplications (crypto/shuffle_audit.py; the same verdict, and a false claim only costs that saving)
        claimed = claimed_secrets([(a.author, a.body) for a in entries if a.kind == Kind.SECRETS], len(ids))
        pooled = PooledMachine(genesis, pool, claimed)
        try:
            m, rejected = _fold(pooled, entries)
        except Exception:  # a point left to a worker's proof that broke the fold first: in line, the proof decides
            return False
        if not (pooled.all_proofs_hold(signed) and pooled.all_proofs_hold()):
            return False  # a bad signature or proof: the caller audits again in line, which finds where
    else:
        m, rejected = _fold(Machine(genesis, None), entries)
    if rejected is not None:
        res.findings.append(rejected)
    if m.abandoned is not None and m.left_at is None:  # (a seat that had left is not silent: nobody is named)
        res.abandoned_by = m.abandoned
    for seq, accuser, v in m.evidence_seen:
        res.findings.append(_finding(v, f"evidence posted by seat {accuser + 1} in entry {seq}: "))
    if m.verdict is not None and not m.evidence_seen:
        res.findings.append(_finding(m.verdict, "seen by every peer: "))
    res.checks.append("every proof on arrival (deck keys, beacon links, shuffle shapes, public shares)")
    res.complete = m.complete and m.abandoned is None
    if m.finished and res.tampered is None:
        rep = m.audit_report if m.audit_report is not None else m.audit()
        if isinstance(m, PooledMachine) and not m.all_proofs_hold():
            return False  # a check the audit handed to a worker failed: the caller audits again in line
        due = res.abandoned_by if res.abandoned_by is not None else (m.duty().seat if m.duty() else None)
        for v in rep.violations:
            if v.rule == "secrets_missing":
                if res.abandoned_by is None or v.seat != due:
                    continue  # a log that just ends names nobody; later seats never had their turn to reveal
                v = Verdict(v.seat, "unchecked", v.msg.replace("did not reveal", "stopped before revealing"), v.seq)
            res.findings.append(_finding(v))
        if rep.faces:
            res.checks += [
                "every shuffle against its witness; each pile held its cards once each",
                "every decryption share, sealed ones opened with the revealed box secrets",
                *m.game.audit_checks,  # the game's own: its secrets against their commitments, the strict replay
            ]
    if m.state.over:  # results are final: whatever happened after the game was won, the result is reported, but
        # for the seats named for cheating (a verdict, a violation the audit found): their own share is void
        cheats = {f.seat for f in res.findings if f.seat is not None and f.rule not in ("unchecked", "abandoned")}
        res.winners = [w for w in m.state.winners if w not in cheats]
        res.void = [w for w in m.state.winners if w in cheats]
    if res.abandoned_by is not None:
        res.findings.append(
            Finding(res.abandoned_by, "abandoned", len(entries) - 1, "stopped answering: the game ended there")
        )
    elif m.left_at is not None and m.abandoned is not None:
        res.findings.append(
            Finding(
                None,
                "left",
                len(entries) - 1,
                f"seat {m.abandoned + 1} had left after its abandon at seq {m.left_at} stood, which the seat it named "
                "set aside by answering after all: the game ended there, nobody named",
            )
        )
    elif not m.complete and res.tampered is None:
        d = m.duty()
        who = f"seat {d.seat + 1}'s {d.kind.name.lower()}" if d is not None else "?"
        why = f"; {framing}" if cut else ""
        res.findings.append(
            Finding(
                None,
                "incomplete",
                len(entries),
                f"incomplete at seq {len(entries)}: the log ends there (next: {who}{why})",
            )
        )
    return True


def _fold(m: Machine, entries: list[Arrival]) -> tuple[Machine, Finding | None]:
    """Fold every entry after the genesis through `m` (the pipeline's last step), up to the first one it rejects
    (that entry's finding) or an abandonment."""
    for a in entries[1:]:
        try:
            m.fold(a)  # abandon entries too: the machine checks them
        except (ProtocolError, BodyError) as exc:
            seat = getattr(exc, "seat", a.author)
            return m, Finding(seat, "rejected", a.seq, f"an entry every peer must reject: {exc}")
        if m.abandoned is not None:
            break
    return m, None


def _finding(v: Verdict, prefix: str = "") -> Finding:
    return Finding(v.seat, v.rule, v.seq, prefix + v.msg)


def history(path: str | Path) -> tuple[list[str], list[int]]:
    """The game's history lines (an observer's fold of the log) and the index of each turn's first line."""
    p = Path(path)
    raws, _ = read_records(p)
    try:
        e0 = decode_entry(raws[0])
        g = Genesis.from_body(decode_body(e0.body), versions=AUDITABLE_VERSIONS)
        m = Machine(g, None)
    except (IndexError, CryptoError, BodyError, ProtocolError):
        return [], []
    for raw in raws[1:]:
        try:
            e = decode_entry(raw)
            m.apply_entry(e)
        except (CryptoError, ProtocolError, BodyError):
            break
        if m.abandoned is not None:
            break
    names = g.names()
    lines = [m.game.narrate(h, names=names) for h in m.state.history]
    turns = [i for i, h in enumerate(m.state.history) if m.game.is_turn_start(h)]
    return lines, turns


def dumps(res: AuditResult) -> str:
    return json.dumps(res.to_json(), indent=2)
