"""Proved answers at the table: a password entry's Pedersen commitments with its proof that the three codes differ
(checked by every peer on arrival), and a controller's answer with one proof per handed card, sealed to the
attempter, who checks them on arrival (docs/protocol.md, "Proved answers at the table"; docs/security.md).

Why sealed: an answer proof is about the handed card's code, which only the attempter and the controller know;
in the clear, anyone could try the six codes and learn the card. A bad, missing or unopenable proof is a
`SealedFault` at the attempter: the evidence it posts carries its box secret (checked against its published key)
and the handed cards' certificates, so every peer can open the box and re-check the proofs, and the verdict names
the controller at once. A blinding is derived from the salt of the card's hash commitment (`code_blinding`), so
the secrets file and every opening carry it and one opening checks both commitments.

A piece of Access Denied's table part (part.py): it reads the fold through `Fold` (p2p/machine/game_part.py) and
keeps what it learns in the part's `Records`."""

from __future__ import annotations

from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.code_proofs import (
    COMMITMENTS_LEN,
    KIND_DISTINCT,
    PROOF_LEN,
    Commitments,
    PasswordOpening,
    ProofContext,
    code_blinding,
    decode_commitments,
    encode_commitments,
    password_commitments,
    prove_distinct,
    prove_match,
    prove_no_match,
    verify_answer,
    verify_distinct,
)
from adp2p.crypto.commitments import commit_code
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.hashing import hash32, u64
from adp2p.crypto.identity import PublicIdentity
from adp2p.crypto.private import audit_open_private, seal_private
from adp2p.engine.access_denied.catalog import card
from adp2p.engine.access_denied.state import GameState
from adp2p.games.access_denied.records import Records
from adp2p.p2p.machine.common import Event, Verdict
from adp2p.p2p.machine.game_part import Fold
from adp2p.p2p.protocol import ProtocolError, SealedFault, need

PURPOSE_PASSWORD = b"password"  # the distinct proof's purpose; its handle is the password entry's seq
PURPOSE_ANSWER = b"answer"  # an answer proof's purpose; its handle is the handed card's
RULE = "controller_answer"  # the rule a verdict on a bad answer proof names (as the audit's replay would)
MAX_ANSWER_BOX = 8192  # a sealed box of at most 3 no-match proofs (960 bytes each) and the box's own overhead


class Answers:
    """Proved answers: the password's commitments and their proof, a controller's answer proofs (a cheater of the
    zoo replaces this piece, tests/adversaries/)."""

    def __init__(self, records: Records) -> None:
        self.records = records

    # ---------------------------------------------------------------- authoring (the committer, the controller)

    def committed_code(self, fold: Fold, h: int) -> int:
        """The code this seat commits for its password card h: the card's (a zoo cheater commits another)."""
        return card(fold.state.faces[h]).code

    def password_fields(self, fold: Fold, handles: list[int]) -> dict[str, Any]:
        """A new password's commitments: one salted hash per card (`commit`), the Pedersen commitments to the same
        codes (`codes`, blindings from the salts) and the proof that the three codes differ (`distinct`)."""
        me = fold.me
        assert me is not None
        commits = []
        for h in handles:
            c, opening = commit_code(fold.game_id, h, self.committed_code(fold, h))
            me.openings[h] = (opening.code, opening.salt)
            commits.append(c)
        cs, op = password_commitments(fold.game_id, handles, [me.openings[h] for h in handles])
        ctx = ProofContext(fold.game_id, me.seat, (handles[0], handles[1], handles[2]), PURPOSE_PASSWORD, fold.entries)
        distinct = self.prove_distinct(fold, cs, op, ctx)
        return {"commit": commits, "codes": encode_commitments(cs), "distinct": distinct}

    def prove_distinct(self, fold: Fold, cs: Commitments, op: PasswordOpening, ctx: ProofContext) -> bytes:
        return prove_distinct(cs, op, ctx, entropy=self.entropy(fold, b"distinct", ctx.handle))

    def answer_fields(self, fold: Fold, ev: Event) -> dict[str, Any]:
        """The proofs of this controller's answer `ev`, one per handed card in order, sealed to the attempter."""
        me = fold.me
        assert me is not None
        att, pw, hs = attempt_of(fold.state)
        cs, op = self.current_password(fold, pw)
        proofs = []
        for h, m in zip(hs, ev["match"], strict=True):
            ctx = ProofContext(fold.game_id, me.seat, pw, PURPOSE_ANSWER, h)
            proofs.append(self.prove_answer(fold, cs, op, card(fold.state.faces[h]).code, bool(m), ctx))
        box = seal_private(me.identity, fold.ids[att], answer_context(fold, me.seat, att), pack(proofs))
        return {"proof": box}

    def prove_answer(
        self, fold: Fold, cs: Commitments, op: PasswordOpening, x: int, matched: bool, ctx: ProofContext
    ) -> bytes:
        """The proof of "code x matches" / "does not": an honest prover refuses a false one (FalseStatement)."""
        entropy = self.entropy(fold, b"answer", ctx.handle)
        if matched:
            return prove_match(cs, op, x, ctx, entropy=entropy)
        return prove_no_match(cs, op, x, ctx, entropy=entropy)

    def current_password(self, fold: Fold, pw: tuple[int, int, int]) -> tuple[Commitments, PasswordOpening]:
        """This seat's commitments and opening of its password cards `pw` (in the engine's order)."""
        assert fold.me is not None
        return password_commitments(fold.game_id, pw, [fold.me.openings[h] for h in pw])

    @staticmethod
    def entropy(fold: Fold, label: bytes, handle: int) -> bytes | None:
        """Fresh randomness (None), or, at a seeded test table, bytes fixed by its seed (reproducible logs)."""
        if fold.proof_seed is None:
            return None
        return hash32(domains.NONCE, fold.proof_seed, label, u64(fold.entries), u64(handle))

    # ---------------------------------------------------------------- checking (every peer; the attempter)

    def password_proof(self, fold: Fold, seat: int, body: dict[str, Any], new_pw: list[int]) -> None:
        """Every peer, on a password entry (after the engine accepted its cards): the Pedersen commitments and the
        proof that their codes differ (a repeated code cannot be proved: named at once)."""
        codes = need(body, "codes", bytes, size=COMMITMENTS_LEN)
        distinct = need(body, "distinct", bytes, size=PROOF_LEN[KIND_DISTINCT])
        ctx = ProofContext(fold.game_id, seat, (new_pw[0], new_pw[1], new_pw[2]), PURPOSE_PASSWORD, fold.entries)
        try:
            cs = decode_commitments(codes)
            fold.proof_check(verify_distinct, cs, distinct, ctx)  # (the offline audit: in a worker, p2p/audit_pool.py)
        except CryptoError as exc:
            why = f"its proof that the password's three codes differ does not verify: {exc}"
            raise ProtocolError(seat, why, rule="password_distinct") from None
        for h, c in zip(new_pw, cs, strict=True):
            self.records.pedersen[h] = c

    def proved(self, st: GameState, ev: Event) -> bool:
        """Whether event `ev`, due in state `st`, is a controller's answer that must carry proofs: an answer to an
        attempt on a sector whose password cards all have Pedersen commitments (every password entry has them)."""
        task = st.stack[-1] if st.stack else {}
        if task.get("op") != "answer" or ev.get("t") != "answer":
            return False
        ctx = st.ctx.get(task.get("ctx"), {})
        pw = st.passwords.get(ctx.get("s"), [])
        return len(pw) == 3 and all(h in self.records.pedersen for h in pw)

    def answer_proof(self, fold: Fold, ctrl: int, before: GameState, ev: Event, box: bytes) -> None:
        """The attempter (or a copy verifying its evidence, which holds its box secret): open the box and check one
        proof per handed card against the controller's commitments and the card's code. Any failure is the
        controller's, found in a box sealed to us (`SealedFault`)."""
        att, pw, hs = attempt_of(before)
        viewer = fold.box_viewer()  # the attempter itself, or a copy judging its evidence with its box secret
        if viewer is None or viewer != att:
            return
        ctx_box = answer_context(fold, ctrl, att)
        try:
            proofs = unpack_canonical(fold.open_box(ctrl, att, ctx_box, box), "answer proofs")
        except CryptoError as exc:
            raise SealedFault(ctrl, f"its answer proofs for me do not open: {exc}", rule=RULE) from None
        if not isinstance(proofs, list) or len(proofs) != len(hs) or any(type(p) is not bytes for p in proofs):
            raise SealedFault(ctrl, f"its answer carries no proof for each of the {len(hs)} card(s)", rule=RULE)
        pedersen = self.records.pedersen
        cs = (pedersen[pw[0]], pedersen[pw[1]], pedersen[pw[2]])
        for h, m, proof in zip(hs, ev["match"], proofs, strict=True):
            f = before.faces.get(h)
            if f is None:
                continue  # a copy judging evidence that did not show this card: it cannot say the proof is bad
            ctx = ProofContext(fold.game_id, ctrl, pw, PURPOSE_ANSWER, h)
            try:
                verify_answer(cs, card(f).code, bool(m), proof, ctx)
            except CryptoError:
                said = "matches" if m else "does not match"
                raise SealedFault(
                    ctrl,
                    f"its proof that {card(f).title} (handle {h}) {said} its password does not verify",
                    rule=RULE,
                ) from None

    def audit_answer_boxes(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """The audit (every box secret revealed, every face known): every answer's sealed proofs, opened with its
        attempter's box secret, checked against the controller's commitments and the handed cards' true codes. During
        play only the attempter could; an attempter that kept a bad proof to itself (a partner of the controller, or
        one whose evidence came too late to set anything aside) no longer hides the controller's lie. A box that does
        not open, or a proof that fails, names the controller (`controller_answer`).

        Each box is one `proof_check` (`check_answer_box`): in line here, or in a worker process of the offline audit
        (p2p/audit_pool.py), whose "no" makes the audit run again in line, which then names the controller."""
        out: list[Verdict] = []
        pedersen = self.records.pedersen
        for seq, ctrl, att, box in self.records.answer_boxes:
            got = self.records.answers.get(seq)
            secret = fold.revealed.get(att, {}).get("box_secret")
            if got is None or secret is None:
                continue
            _ctrl, _s, pw, hs, match = got
            ctx_box = b"adp2p/answer" + fold.game_id + u64(seq) + bytes([ctrl, att])
            try:
                cs = (pedersen[pw[0]], pedersen[pw[1]], pedersen[pw[2]])
                codes = [card(full[h]).code for h in hs]
                fold.proof_check(check_answer_box, secret, fold.ids[ctrl], fold.ids[att], ctx_box, box,
                                 ProofContext(fold.game_id, ctrl, (pw[0], pw[1], pw[2]), PURPOSE_ANSWER, 0), cs,
                                 list(hs), [bool(m) for m in match], codes, _revealed_opening(fold, ctrl, pw))
            except (CryptoError, KeyError, TypeError, ValueError) as exc:
                why = f"its answer proofs sealed to seat {att + 1} do not check out: {exc}"
                out.append(Verdict(ctrl, RULE, why, seq))
        return out


def check_answer_box(
    secret: bytes,
    sender: PublicIdentity,
    recipient: PublicIdentity,
    ctx_box: bytes,
    box: bytes,
    ctx: ProofContext,
    cs: Commitments,
    hs: list[int],
    match: list[bool],
    codes: list[int],
    opening: PasswordOpening | None = None,
) -> None:
    """The audit's check of one answer box (module level, so a worker process can run it): it opens with the
    attempter's revealed box secret and holds one proof per handed card `hs[i]` that verifies for its true code
    `codes[i]` and the answer `match[i]` (context `ctx` with the card's handle). CryptoError, ValueError or TypeError
    if not. `opening`: the password's opening as its controller revealed it (each proof is then checked with fewer
    multiplications where it opens the commitments: crypto/code_proofs.py, `verify_answer`; the same verdict)."""
    proofs = unpack_canonical(audit_open_private(secret, sender, recipient, ctx_box, box), "p")
    if not isinstance(proofs, list) or len(proofs) != len(hs) or any(type(p) is not bytes for p in proofs):
        raise CryptoError(f"no proof for each of the {len(hs)} card(s)")
    for h, m, code, proof in zip(hs, match, codes, proofs, strict=True):
        verify_answer(cs, code, m, proof, ctx._replace(handle=h), opening)


def _revealed_opening(fold: Fold, ctrl: int, pw: tuple[int, ...]) -> PasswordOpening | None:
    """The opening of password `pw` from its controller's revealed `openings` (code and salt of each card, the
    blinding derived from the salt), or None if one is missing or malformed (nothing here is trusted: the proof check
    uses it only where it opens the published commitments)."""
    try:
        got = {h: (code, salt) for h, code, salt in fold.revealed[ctrl]["openings"]}
        codes = tuple(got[h][0] for h in pw)
        blinds = tuple(code_blinding(fold.game_id, h, got[h][1]) for h in pw)
    except (CryptoError, KeyError, TypeError, ValueError):
        return None
    return PasswordOpening((codes[0], codes[1], codes[2]), (blinds[0], blinds[1], blinds[2]))


def attempt_of(st: GameState) -> tuple[int, tuple[int, int, int], list[int]]:
    """The attempt being answered in `st`: (attempter, the sector's password handles, the handed cards)."""
    ctx = st.ctx[st.stack[-1]["ctx"]]
    pw = st.passwords[ctx["s"]]
    return ctx["p"], (pw[0], pw[1], pw[2]), list(ctx["cards"])


def answer_context(fold: Fold, ctrl: int, att: int) -> bytes:
    """The context an answer's box is sealed in: the game, the answer's seq, the controller and the attempter."""
    return b"adp2p/answer" + fold.game_id + u64(fold.entries) + bytes([ctrl, att])
