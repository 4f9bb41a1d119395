"""Evidence: the immediate checks that find a lie as it happens, the evidence body a peer posts, and every kind of
evidence re-verified before it names anyone (a game's own checks and evidence: its part, p2p/machine/game_part.py).

An object the fold (`Machine`, p2p/machine/machine.py) holds, called with the fold; it owns the evidence seen in the log
and the evidence this peer holds to post, and calls the reveal rounds (certificates) and finality (`refused`) parts
it is built with."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import EquivocationProof, decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.passes import verify_pass
from adp2p.p2p import published
from adp2p.p2p.machine import protest, second_accuser
from adp2p.p2p.machine.common import (
    Verdict,
    _no_card,
)
from adp2p.p2p.machine.finality import Finality
from adp2p.p2p.machine.reveals import Reveals
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, SealedFault, decode_body, need

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Evidence:
    """Evidence: found, held, posted, re-verified."""

    def __init__(self, reveals: Reveals, finality: Finality) -> None:
        self.reveals = reveals  # card certificates (p2p/machine/reveals.py)
        self.finality = finality  # `refused` evidence (p2p/machine/finality.py)
        self.seen: list[tuple[int, int, Verdict]] = []  # (seq, accuser, verdict) of every evidence entry that held
        self.held: dict[str, Any] | None = None  # proof this peer holds and should post
        self.posted = False

    def immediate_checks(self, fold: Fold, new: set[int]) -> None:
        """What this peer can prove at once from the faces it knows (sets the evidence to post)."""
        faces = fold.state.faces
        # a card in two places: two live handles that open to the same face
        by_face: dict[int, int] = {}
        cert = self.reveals.cert
        for h, f in faces.items():
            if not fold.game.in_play(fold.state, h) or h not in fold.hmap:
                continue
            if f in by_face and (h in new or by_face[f] in new) and cert(fold, h) and cert(fold, by_face[f]):
                a, b = sorted((h, by_face[f]))
                self.held = {"what": "duplicate", "certs": [cert(fold, a), cert(fold, b)]}
                return
            by_face[f] = h
        found = fold.part.immediate_checks(fold, new)  # the game's own
        if found is not None:
            self.held = found

    def pending_evidence(self, fold: Fold) -> dict[str, Any] | None:
        """The evidence body this peer should post now (once), or None."""
        if self.held is None or self.posted or fold.complete:
            return None
        return self.held

    def evidence_for_entry(self, fold: Fold, raw: bytes, exc: ProtocolError | None = None) -> dict[str, Any]:
        """Evidence of an entry this peer rejected (the raw signed entry, plus this seat's box secret when
        the fault is in shares sealed to it, so that the others can open them)."""
        body: dict[str, Any] = {"what": "entry", "raw": raw, "reason": str(exc or "")[:500]}
        e = decode_entry(raw)
        if fold.seat is not None:  # certificates of the hidden faces this peer judged the entry with
            public = fold.state.all_mask
            hidden = [h for h in sorted(fold.state.faces) if fold.state.known.get(h, 0) != public]
            certs = [self.reveals.cert(fold, h) for h in hidden]
            body["certs"] = [c for c in certs if c]
        if fold.me is not None and isinstance(exc, SealedFault):  # answer proofs sealed to me
            body["box_secret"] = bytes(fold.me.identity.box_key)
        elif fold.me is not None and e.kind == Kind.SHARES:
            sealed = decode_body(e.body).get("sealed")
            if isinstance(sealed, list) and any(isinstance(x, list) and x[:1] == [fold.seat] for x in sealed):
                body["box_secret"] = bytes(fold.me.identity.box_key)  # the others can then open my box
        return body

    def evidence_entry(self, fold: Fold, accuser: int, body: dict[str, Any]) -> None:
        what = need(body, "what", str, max_len=16)
        if "reason" in body:
            need(body, "reason", str, max_len=600)
        seq = fold.entries
        before = second_accuser.keep_fold_before(fold, what)  # type: ignore[arg-type]  (judges `also` here later)
        if what == "equivocation":
            proof = EquivocationProof(need(body, "a", bytes), need(body, "b", bytes))
            try:
                guilty = proof.verify(fold.ids)
                if decode_entry(proof.raw_a).game_id != fold.game_id:
                    raise CryptoError("the entries are of another game")
            except CryptoError as exc:
                raise ProtocolError(accuser, f"false evidence: {exc}") from None
            v = Verdict(guilty, "equivocation", f"seat {guilty + 1} signed two different entries for one seq", seq)
        elif what == "entry":
            v = self.verify_bad_entry(fold, accuser, body, seq)
        elif what == "pass":
            v = self.verify_pass_equivocation(fold, accuser, body, seq)
        elif what == "refused":
            v = self.finality.refused_entry(fold, accuser, body, seq)
        elif what == "protest":
            v = protest.protest_verdict(fold, accuser, body, seq)
        elif what == "also":
            v = second_accuser.also_verdict(fold, accuser, body, seq)  # type: ignore[arg-type]
        elif what == "nocard":
            certs = need(body, "certs", list)
            if len(certs) != 1:
                raise ProtocolError(accuser, "false evidence (nocard): one certificate")
            h, face = self.reveals.check_cert(fold, accuser, certs[0])
            if face is not None:
                title = fold.game.face_title(face)
                raise ProtocolError(accuser, f"false evidence (nocard): handle {h} opens to {title}")
            v = _no_card(h, seq)
        elif what == "duplicate" or what in fold.part.face_evidence:
            certs = need(body, "certs", list)
            faces = self.reveals.cert_faces(fold, accuser, certs)
            v = self.verify_face_evidence(fold, accuser, what, body, faces, seq)
        else:
            raise ProtocolError(accuser, f"unknown evidence {what!r}")
        if accuser == fold.seat:
            self.posted = True
        self.seen.append((seq, accuser, v))
        if fold.verdict is None:
            fold.verdict = v
        second_accuser.kept_now(fold, before, seq)  # type: ignore[arg-type]

    def verify_pass_equivocation(self, fold: Fold, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        """`raw`: an entry signed by its author (at this seq or before) that carries k pass tokens, i.e. its author
        acts at decision k after its prev; `token`: the same author's pass token for decision k at that very point.
        Both signed by one seat, so the proof stands on its own, like an equivocation: it passed and acted at one
        decision (docs/protocol.md, "Implied passes")."""
        raw = need(body, "raw", bytes)
        token = need(body, "token", bytes, size=64)
        try:
            e = decode_entry(raw)
            verify_entry(e, fold.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != fold.game_id or e.seq > seq:
            raise ProtocolError(accuser, f"false evidence: the entry is not of this game before seq {seq}")
        if e.kind not in (Kind.EVENT, Kind.ABANDON):
            raise ProtocolError(accuser, "false evidence: that entry is no decision")
        try:
            act = decode_body(e.body)
        except BodyError:
            act = {}
        passes, ev = act.get("passes", []), act.get("ev")
        if not isinstance(passes, list):
            raise ProtocolError(accuser, "false evidence: that entry's passes are unreadable")
        if e.kind == Kind.EVENT and fold.game.is_pass(ev, e.author):
            raise ProtocolError(accuser, "false evidence: that entry is the same pass the token says")
        try:
            verify_pass(fold.ids[e.author], token, fold.game_id, e.seq, e.prev_hash, len(passes))
        except CryptoError:
            raise ProtocolError(accuser, "false evidence: the token is not that seat's pass there") from None
        why = f"seat {e.author + 1} passed at decision {len(passes)} of entry {e.seq} and also acted there"
        return Verdict(e.author, "equivocation", why, seq)

    def verify_bad_entry(self, fold: Fold, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        raw = need(body, "raw", bytes)
        try:
            e = decode_entry(raw)
            verify_entry(e, fold.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != fold.game_id or e.seq != seq:
            raise ProtocolError(accuser, f"false evidence: the entry is not for seq {seq} of this game")
        if e.kind == Kind.EVIDENCE and fold._depth >= 1:
            # nobody's fault at this level (seat None): the evidence one level up, which asks to judge three levels,
            # is its own accuser's (never this accuser's, who may be the honest peer that proved false evidence)
            raise ProtocolError(None, "false evidence: evidence about evidence about evidence (nested too deep)")
        trial = fold.snapshot()
        trial.evidence.held = None
        trial._depth = fold._depth + 1
        if "box_secret" in body:  # checked against the accuser's published key before it can open anything
            secret = published.box_secret(fold.ids, accuser, need(body, "box_secret", bytes, size=32), accuser)
            trial._opener = (accuser, secret)
        shown = self.reveals.cert_faces(fold, accuser, body.get("certs") or [])
        public = {h: f for h, f in fold.state.faces.items() if fold.state.known.get(h, 0) == fold.state.all_mask}
        if shown or len(public) != len(fold.state.faces):
            # refold the game with the public faces and the shown ones (rules judged earlier, at turn start, see
            # them too), never with faces only this peer knows: every peer judges the evidence alike
            st = fold.game.new_game(fold.profile, fold.n)
            st.faces = {**public, **shown}
            for i, ev in enumerate(fold.events):
                try:
                    st = fold.game.apply(st, ev)
                except fold.game.illegal as exc:
                    at, author = fold.sources[i]
                    if author is None:
                        raise ProtocolError(
                            accuser, f"false evidence: the faces shown break a derived event: {exc}"
                        ) from None
                    why = f"seat {author + 1}'s entry {at} breaks the rules: {exc.message}"
                    return Verdict(author, exc.rule, why, seq)
            trial.state = st
        try:
            trial.apply(e.author, e.kind, decode_body(e.body), prev=e.prev_hash)
        except ProtocolError as exc:
            if exc.seat != e.author:
                raise ProtocolError(
                    accuser, f"false evidence: the entry is rejected but not its author's fault: {exc}"
                ) from None
            why = f"seat {e.author + 1} signed an entry that breaks the rules: {exc.msg}"
            return Verdict(e.author, exc.rule or "entry", why, seq)
        except BodyError as exc:
            return Verdict(e.author, "entry", f"seat {e.author + 1} signed a malformed entry: {exc}", seq)
        raise ProtocolError(accuser, "false evidence: the entry is valid")

    def verify_face_evidence(
        self, fold: Fold, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        """Evidence from certificates of faces: a card in two places (the core's), or the game's own kinds."""
        if what != "duplicate":
            return fold.part.verify_evidence(fold, accuser, what, body, faces, seq)
        if len(faces) != 2 or len(set(faces.values())) != 1:
            raise ProtocolError(accuser, f"false evidence ({what}): the certificates do not show one card twice")
        if any(not fold.game.in_play(fold.state, h) for h in faces):
            raise ProtocolError(accuser, f"false evidence ({what}): a handle is no longer in play")
        f = next(iter(faces.values()))
        return Verdict(
            None,
            "duplicate",
            f"{fold.game.face_title(f)} is in two places (handles {sorted(faces)}): "
            "a shuffle is corrupt (the audit names the shuffler)",
            seq,
        )
