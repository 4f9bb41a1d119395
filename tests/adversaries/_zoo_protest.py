"""The honest accuser whose proof reaches the table after the game's end (docs/protocol.md, "Evidence after the end";
issue 34): a cheater seals a wrong decryption share to seat X in a reveal after which X signs nothing before the game
ends; X rejects that entry and signs its proof at once, but the proof reaches the others only once they hold the end,
which they reached without X. Every other peer refuses the proof at its seq (`displaces`: the game ended after it).

`LateProofTable` is that schedule in process: the zoo `Table`, where X is cut off from the table from the entry it
rejected until the others hold the game's end, and its proof arrives then. With `protest` (the rule), X then follows
the table's branch with that entry folded under protest (p2p/machine/protest.py) and posts its proof at the head;
without it, X stays on its own branch, as a peer did before the rule, and is named as silent at the `secrets`."""

from __future__ import annotations

from typing import Any

from _zoo import FacesBackReferee, Table
from _zoo_final import BadShareTo
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.machine.protest import follow_under_protest, protest_body
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import Kind


class BadShareBeforeEnd(BadShareTo):
    """`BadShareTo` at one seq only (`at`: the reveal after which its victim signs nothing before the end, found by the
    test in the same game played without the lie, `at = -1`); it sees its own faces (`FacesBackReferee`), so that it
    plays the very game an honest seat would up to its lie."""

    at = -1
    referee = FacesBackReferee()

    def wanted(self, h: int) -> bool:
        return self.entries == self.at and super().wanted(h)


def late_chances(m: Machine) -> list[tuple[int, int, int]]:
    """(seq, sender, recipient) of every box of shares in the log folded by `m` after which its recipient signs nothing
    up to the game's end, at or before the entry that ended it: where a wrong share sealed to that seat lets the end
    reach the others before its proof."""
    end = m.ended_at
    if end is None:
        return []
    out = []
    for seq, sender, to, _box, _due in m.sealed_log:
        after = m.signed_after(to, seq)
        if seq < end and (after is None or after > end):
            out.append((seq, sender, to))
    return out


class LateProofTable(Table):
    """The zoo table (see the module docstring); `late`: the seat whose proof is late."""

    def __init__(self, n: int, *, late: int, protest: bool = True, **kw: Any) -> None:
        super().__init__(n, **kw)
        self.late = late
        self.protest = protest
        self.cut: tuple[int, Machine, Machine] | None = None  # (seq, late's fold before it, another's fold before it)
        self.proof: bytes | None = None  # the late seat's proof, signed at once, not yet arrived
        self.refused: str | None = None  # why the others refused it at its seq
        self.behind = False  # the late seat is cut off from the table (its machine holds the log before `cut`)

    def deliver(self, raw: bytes, via: int | None = None) -> bool:
        e = frame(raw)
        if self.behind:
            return self._deliver_without_late(raw)
        if self.cut is None and e.kind == Kind.SHARES and e.author in self.cheaters and e.seq == len(self.raws):
            before = [m.snapshot() for m in self.ms]
            rejected: list[tuple[int, ProtocolError]] = []
            for seat, m in enumerate(self.ms):
                try:
                    self.fold(m, raw)
                except ProtocolError as exc:
                    rejected.append((seat, exc))
            honest = [(s, x) for s, x in rejected if s not in self.cheaters]
            if [s for s, _ in honest] == [self.late]:  # only the late seat can see the lie: the schedule
                proof = before[self.late].evidence_for_entry(raw, honest[0][1])
                self.proof = self.sign(self.late, Kind.EVIDENCE, proof)  # signed at once, for the seq it accuses
                self.ms[self.late] = before[self.late]
                self.referee = min(set(range(self.n)) - self.cheaters - {self.late})  # (not the late seat's fold)
                self.cut = (e.seq, before[self.late], before[self.referee])
                self.append(e)
                self.behind = True
                return True
            self.ms = before
        return super().deliver(raw, via)

    def _deliver_without_late(self, raw: bytes) -> bool:
        """While the late seat is cut off: the others fold the entry (it is theirs, honest)."""
        e = self.pipeline.check(raw, seq=len(self.raws), prev=self.head).entry
        for seat, m in enumerate(self.ms):
            if seat != self.late:
                self.fold(m, raw)
        self.append(e)
        return True

    def step(self) -> bool:
        if self.proof is not None and self.ms[self.referee].ended_at is not None:
            self._proof_arrives()
        return super().step()

    def _proof_arrives(self) -> None:
        """The late proof reaches the others, who hold the end: judged on the fold before its seq, it is valid and
        names the cheater, but the game ended after that seq (`displaces`). Then the late seat learns the table's
        branch: with `protest`, it follows it under protest and posts its proof at the head."""
        assert self.cut is not None and self.proof is not None
        s, late_before, other_before = self.cut
        proof, self.proof = decode_entry(self.proof), None
        trial = other_before.snapshot()
        trial.apply_entry(proof)
        verdict = trial.evidence_seen[-1][2]
        self.refused = self.ms[self.referee].displaces(proof, verdict)
        if self.refused is None:
            raise AssertionError(f"the late proof takes seq {s}: not the schedule of this table")
        if not self.protest:
            return  # the late seat stays on its branch (as before the rule): the others name it when it is due
        branch = [decode_entry(raw) for raw in self.raws[s:]]
        follows = follow_under_protest(late_before, branch)
        if follows is None:
            raise AssertionError("the late seat cannot follow the table's branch under protest")
        self.ms[self.late] = follows
        self.behind = False
        self.post_evidence(self.late, protest_body(follows, proof.raw))


def answer_chances(m: Machine, raws: list[bytes]) -> list[tuple[int, int, int]]:
    """(seq, controller, attempter) of every answer whose sealed proofs (Access Denied) are followed by an entry its
    attempter did not sign, in the log `raws` folded by `m`, short of the answer that ends the game itself: where a
    broken answer proof sealed to that seat could let the end reach the others before its proof (the race that
    `late_chances` finds for boxes of shares). The engine leaves none: an attempt is the active seat's own, and after
    its answer the turn goes on with that seat's decision (its free attempt or actions, then its discard and draw,
    never skipped while its turn lasts) unless the answer ended the game."""
    out = []
    for seq, ctrl, att, _box in m.part.records.answer_boxes:
        if m.ended_at == seq:
            continue  # the proof accuses the entry that ended the game: it takes its seq (rule 5), no protest
        if decode_entry(raws[seq + 1]).author != att:
            out.append((seq, ctrl, att))
    return out
