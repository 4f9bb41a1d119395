"""Evidence: the immediate checks that find a lie as it happens, the evidence body a peer posts, and every kind of
evidence re-verified before it names anyone.

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import EquivocationProof, decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.passes import verify_pass
from adp2p.engine.api import apply, new_game
from adp2p.engine.catalog import card
from adp2p.engine.errors import IllegalEvent
from adp2p.p2p import published
from adp2p.p2p.machine.common import (
    Verdict,
    _no_card,
)
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, SealedFault, decode_body, need


class EvidencePart:
    """Evidence."""

    def _immediate_checks(self, new: set[int]) -> None:
        """What this peer can prove at once from the faces it knows (sets the evidence to post)."""
        faces = self.state.faces
        # a card in two places: two live handles that open to the same face
        by_face: dict[int, int] = {}
        for h, f in faces.items():
            if self.state.loc.get(h, ("gone",))[0] == "gone" or h not in self.hmap:
                continue
            if f in by_face and (h in new or by_face[f] in new) and self._cert(h) and self._cert(by_face[f]):
                a, b = sorted((h, by_face[f]))
                self._evidence = {"what": "duplicate", "certs": [self._cert(a), self._cert(b)]}
                return
            by_face[f] = h
        # a broken trade promise: the recipient knows the face
        for seq, h, code, promiser in self.promises:
            f = faces.get(h)
            if f is not None and card(f).code != code and promiser != self.seat and self._cert(h):
                self._evidence = {"what": "promise", "seq": seq, "h": h, "certs": [self._cert(h)]}
                return
        # a controller answer against codes this peer knows: one answer, or two that contradict
        for seq, (ctrl, _s, pw, hs, match) in self.answers.items():
            if ctrl == self.seat:
                continue
            pw_codes = {card(faces[x]).code: x for x in pw if x in faces}
            for h, m in zip(hs, match, strict=True):
                f = faces.get(h)
                if f is None:
                    continue
                code = card(f).code
                if not m and code in pw_codes:
                    used = [h, pw_codes[code]]
                elif m and len(pw_codes) == len(pw) and code not in pw_codes:
                    used = [h, *pw]
                else:
                    continue
                certs = [self._cert(x) for x in used]
                if all(certs):
                    self._evidence = {"what": "answer", "seq": seq, "h": h, "certs": certs}
                    return
        # two answers to one password (same controller, sector, cards) that contradict: one card's code answered
        # "matches" and another card of the same code "does not" (linear: each answer's cards by code)
        seen: dict[tuple[Any, ...], list[tuple[int, int]]] = {}  # (ctrl, sector, pw, code, match) -> (seq, h)
        for sb, (ctrl, sec, pw, hs, match) in sorted(self.answers.items()):
            if ctrl == self.seat:
                continue
            key = (ctrl, sec, tuple(pw))
            for hb, mb in zip(hs, match, strict=True):
                fb = faces.get(hb)
                if fb is None:
                    continue
                code = card(fb).code
                for sa, ha in seen.get((*key, code, not mb), []):
                    if sa == sb:
                        continue  # one answer is judged on its own (above)
                    ca, cb = self._cert(ha), self._cert(hb)
                    if ca and cb:
                        self._evidence = {"what": "answers", "a": sa, "b": sb, "ha": ha, "hb": hb}
                        self._evidence["certs"] = [ca, cb]
                        return
                seen.setdefault((*key, code, mb), []).append((sb, hb))

    def pending_evidence(self) -> dict[str, Any] | None:
        """The evidence body this peer should post now (once), or None."""
        if self._evidence is None or self._evidence_posted or self.complete:
            return None
        return self._evidence

    def evidence_for_entry(self, raw: bytes, exc: ProtocolError | None = None) -> dict[str, Any]:
        """Evidence of an entry this peer rejected (the raw signed entry, plus this seat's box secret when
        the fault is in shares sealed to it, so that the others can open them)."""
        body: dict[str, Any] = {"what": "entry", "raw": raw, "reason": str(exc or "")[:500]}
        e = decode_entry(raw)
        if self.seat is not None:  # certificates of the hidden faces this peer judged the entry with
            public = self.state.all_mask
            certs = [self._cert(h) for h in sorted(self.state.faces) if self.state.known.get(h, 0) != public]
            body["certs"] = [c for c in certs if c]
        if self.me is not None and isinstance(exc, SealedFault):  # answer proofs sealed to me
            body["box_secret"] = bytes(self.me.identity.box_key)
        elif self.me is not None and e.kind == Kind.SHARES:
            sealed = decode_body(e.body).get("sealed")
            if isinstance(sealed, list) and any(isinstance(x, list) and x[:1] == [self.seat] for x in sealed):
                body["box_secret"] = bytes(self.me.identity.box_key)  # the others can then open my box
        return body

    def _evidence_entry(self, accuser: int, body: dict[str, Any]) -> None:
        what = need(body, "what", str, max_len=16)
        if "reason" in body:
            need(body, "reason", str, max_len=600)
        seq = self.entries
        if what == "equivocation":
            proof = EquivocationProof(need(body, "a", bytes), need(body, "b", bytes))
            try:
                guilty = proof.verify(self.ids)
                if decode_entry(proof.raw_a).game_id != self.game_id:
                    raise CryptoError("the entries are of another game")
            except CryptoError as exc:
                raise ProtocolError(accuser, f"false evidence: {exc}") from None
            v = Verdict(guilty, "equivocation", f"seat {guilty + 1} signed two different entries for one seq", seq)
        elif what == "entry":
            v = self._verify_bad_entry(accuser, body, seq)
        elif what == "pass":
            v = self._verify_pass_equivocation(accuser, body, seq)
        elif what == "nocard":
            certs = need(body, "certs", list)
            if len(certs) != 1:
                raise ProtocolError(accuser, "false evidence (nocard): one certificate")
            h, face = self._check_cert(accuser, certs[0])
            if face is not None:
                raise ProtocolError(accuser, f"false evidence (nocard): handle {h} opens to {card(face).title}")
            v = _no_card(h, seq)
        elif what in ("duplicate", "promise", "answer", "answers", "opening"):
            certs = need(body, "certs", list)
            faces = dict(self._cert_face(accuser, c) for c in certs)
            v = self._verify_face_evidence(accuser, what, body, faces, seq)
        else:
            raise ProtocolError(accuser, f"unknown evidence {what!r}")
        if accuser == self.seat:
            self._evidence_posted = True
        self.evidence_seen.append((seq, accuser, v))
        if self.verdict is None:
            self.verdict = v

    def _verify_pass_equivocation(self, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        """`raw`: an entry signed by its author (at this seq or before) that carries k pass tokens, i.e. its author
        acts at decision k after its prev; `token`: the same author's pass token for decision k at that very point.
        Both signed by one seat, so the proof stands on its own, like an equivocation: it passed and acted at one
        decision (docs/protocol.md, "Implied passes")."""
        raw = need(body, "raw", bytes)
        token = need(body, "token", bytes, size=64)
        try:
            e = decode_entry(raw)
            verify_entry(e, self.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != self.game_id or e.seq > seq:
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
        if e.kind == Kind.EVENT and isinstance(ev, dict) and ev.get("t") == "pass" and ev.get("p") == e.author:
            raise ProtocolError(accuser, "false evidence: that entry is the same pass the token says")
        try:
            verify_pass(self.ids[e.author], token, self.game_id, e.seq, e.prev_hash, len(passes))
        except CryptoError:
            raise ProtocolError(accuser, "false evidence: the token is not that seat's pass there") from None
        why = f"seat {e.author + 1} passed at decision {len(passes)} of entry {e.seq} and also acted there"
        return Verdict(e.author, "equivocation", why, seq)

    def _verify_bad_entry(self, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        raw = need(body, "raw", bytes)
        try:
            e = decode_entry(raw)
            verify_entry(e, self.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != self.game_id or e.seq != seq:
            raise ProtocolError(accuser, f"false evidence: the entry is not for seq {seq} of this game")
        if e.kind == Kind.EVIDENCE and self._depth >= 1:
            raise ProtocolError(accuser, "false evidence: evidence about evidence about evidence (nested too deep)")
        trial = self.snapshot()
        trial._evidence = None
        trial._depth = self._depth + 1
        if "box_secret" in body:  # checked against the accuser's published key before it can open anything
            secret = published.box_secret(self.ids, accuser, need(body, "box_secret", bytes, size=32), accuser)
            trial._opener = (accuser, secret)
        shown = dict(self._cert_face(accuser, c) for c in body.get("certs") or [])
        public = {h: f for h, f in self.state.faces.items() if self.state.known.get(h, 0) == self.state.all_mask}
        if shown or len(public) != len(self.state.faces):
            # refold the game with the public faces and the shown ones (rules judged earlier, at turn start, see
            # them too), never with faces only this peer knows: every peer judges the evidence alike
            st = new_game(self.profile, self.n)
            st.faces = {**public, **shown}
            for i, ev in enumerate(self.events):
                try:
                    st = apply(st, ev)
                except IllegalEvent as exc:
                    at, author = self.sources[i]
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

    def _verify_face_evidence(
        self, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        def false(why: str) -> ProtocolError:
            return ProtocolError(accuser, f"false evidence ({what}): {why}")

        code = {h: card(f).code for h, f in faces.items()}
        if what == "opening":
            h, c, salt = need(body, "h", int), need(body, "code", int), need(body, "salt", bytes)
            if h not in code or h not in self.commitments:
                raise false("no committed password card shown")
            try:
                published.code_opening(self.game_id, h, self.commitments[h], c, salt, accuser, self.pedersen.get(h))
            except ProtocolError as exc:
                raise false(exc.msg) from None
            if code[h] == c:
                raise false("the opening agrees with the card")
            return self._false_commitment(h, c, faces[h], seq)
        if what == "duplicate":
            if len(faces) != 2 or len(set(faces.values())) != 1:
                raise false("the certificates do not show one card twice")
            if any(self.state.loc.get(h, ("gone",))[0] == "gone" for h in faces):
                raise false("a handle is no longer in play")
            f = next(iter(faces.values()))
            return Verdict(
                None,
                "duplicate",
                f"{card(f).title} is in two places (handles {sorted(faces)}): "
                "a shuffle is corrupt (the audit names the shuffler)",
                seq,
            )
        if what == "promise":
            ref, h = need(body, "seq", int), need(body, "h", int)
            for s, ph, c, promiser in self.promises:
                if (s, ph) == (ref, h) and h in code and code[h] != c:
                    return Verdict(
                        promiser,
                        "trade_promise",
                        f"seat {promiser + 1} promised code {'ABCDEF'[c]} in entry {s} and gave {card(faces[h]).title}",
                        seq,
                    )
            raise false("no broken promise shown")
        if what == "answer":
            ref, h = need(body, "seq", int), need(body, "h", int)
            if ref not in self.answers or h not in code:
                raise false("no such answer")
            ctrl, _s, pw, hs, match = self.answers[ref]
            if h not in hs:
                raise false("the card was not in that attempt")
            m = match[hs.index(h)]
            pw_codes = {code[x] for x in pw if x in code}
            if (not m and code[h] in pw_codes) or (m and set(pw) <= set(code) and code[h] not in pw_codes):
                return Verdict(
                    ctrl,
                    "controller_answer",
                    f"seat {ctrl + 1} answered {'match' if m else 'no match'} "
                    f"for {card(faces[h]).title} in entry {ref} against its password",
                    seq,
                )
            raise false("the answer agrees with the certificates")
        a, b, ha, hb = need(body, "a", int), need(body, "b", int), need(body, "ha", int), need(body, "hb", int)
        if a not in self.answers or b not in self.answers or ha not in code or hb not in code:
            raise false("no such answers")
        x, y = self.answers[a], self.answers[b]
        if (x[0], x[1], x[2]) != (y[0], y[1], y[2]) or ha not in x[3] or hb not in y[3]:
            raise false("not two answers of one controller to one password")
        if code[ha] != code[hb] or x[4][x[3].index(ha)] == y[4][y[3].index(hb)]:
            raise false("the answers do not contradict")
        return Verdict(
            x[0],
            "controller_answer",
            f"seat {x[0] + 1} answered the same code {'ABCDEF'[code[ha]]} "
            f"differently in entries {a} and {b} against one password",
            seq,
        )
