"""Access Denied's immediate checks and its evidence: a broken trade promise, a controller's answer against codes a
peer knows (one answer, or two that contradict), a password opening that matches its commitment but not the card;
each found as it happens from the faces this peer was shown, and re-verified from the certificates the evidence
carries before it names anyone.

A piece of Access Denied's table part (part.py): it reads the fold through `Fold` (p2p/machine/game_part.py) and the
part's `Records`."""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied.openings import Openings, code_opening
from adp2p.games.access_denied.records import Records
from adp2p.p2p.machine.common import Verdict
from adp2p.p2p.machine.game_part import Fold
from adp2p.p2p.protocol import ProtocolError, need


class Checks:
    """Immediate checks and evidence of Access Denied."""

    face_evidence = frozenset({"promise", "answer", "answers", "opening"})

    def __init__(self, records: Records, openings: Openings) -> None:
        self.records = records
        self.openings = openings

    def immediate_checks(self, fold: Fold, new: set[int]) -> dict[str, Any] | None:
        """What this peer can prove at once from the faces it knows, beyond a card in two places: the evidence to
        post, or None."""
        faces = fold.state.faces
        me = fold.seat
        # a broken trade promise: the recipient knows the face
        for seq, h, code, promiser in self.records.promises:
            f = faces.get(h)
            if f is not None and card(f).code != code and promiser != me and fold.cert(h):
                return {"what": "promise", "seq": seq, "h": h, "certs": [fold.cert(h)]}
        # a controller answer against codes this peer knows: one answer, or two that contradict
        for seq, (ctrl, _s, pw, hs, match) in self.records.answers.items():
            if ctrl == me:
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
                certs = [fold.cert(x) for x in used]
                if all(certs):
                    return {"what": "answer", "seq": seq, "h": h, "certs": certs}
        # two answers to one password (same controller, sector, cards) that contradict: one card's code answered
        # "matches" and another card of the same code "does not" (linear: each answer's cards by code)
        seen: dict[tuple[Any, ...], list[tuple[int, int]]] = {}  # (ctrl, sector, pw, code, match) -> (seq, h)
        for sb, (ctrl, sec, pw, hs, match) in sorted(self.records.answers.items()):
            if ctrl == me:
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
                    ca, cb = fold.cert(ha), fold.cert(hb)
                    if ca and cb:
                        return {"what": "answers", "a": sa, "b": sb, "ha": ha, "hb": hb, "certs": [ca, cb]}
                seen.setdefault((*key, code, mb), []).append((sb, hb))
        return None

    def verify_evidence(
        self, fold: Fold, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        def false(why: str) -> ProtocolError:
            return ProtocolError(accuser, f"false evidence ({what}): {why}")

        code = {h: card(f).code for h, f in faces.items()}
        if what == "opening":
            h, c, salt = need(body, "h", int), need(body, "code", int), need(body, "salt", bytes)
            r = self.records
            if h not in code or h not in r.commitments:
                raise false("no committed password card shown")
            try:
                code_opening(fold.game_id, h, r.commitments[h], c, salt, accuser, r.pedersen.get(h))
            except ProtocolError as exc:
                raise false(exc.msg) from None
            if code[h] == c:
                raise false("the opening agrees with the card")
            return self.openings.false_commitment(h, c, faces[h], seq)
        if what == "promise":
            ref, h = need(body, "seq", int), need(body, "h", int)
            for s, ph, c, promiser in self.records.promises:
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
            if ref not in self.records.answers or h not in code:
                raise false("no such answer")
            ctrl, _s, pw, hs, match = self.records.answers[ref]
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
        answers = self.records.answers
        if a not in answers or b not in answers or ha not in code or hb not in code:
            raise false("no such answers")
        x, y = answers[a], answers[b]
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
