"""Reveal rounds: the decryption shares every seat owes for the faces the rules show, sealed or public, checked per
item; card certificates (a game's openings shown with a card: its part, p2p/machine/game_part.py).

An object the fold (`Machine`, p2p/machine/machine.py) holds, stateless: called with the fold, whose log state it reads
and extends (the round, the verified shares, the claims, the sealed boxes, the openings shown). The share checks go
through the fold's seam (`_check_shares`: the offline audit's pool replaces it, p2p/audit_pool.py)."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.deck import (
    Share,
    combine,
    make_share,
    verify_share,
)
from adp2p.crypto.encoding import unpack_canonical
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.private import audit_open_private, open_private
from adp2p.p2p import published
from adp2p.p2p.machine.common import (
    Round,
    Verdict,
    _no_card,
)
from adp2p.p2p.machine.ending import Ending
from adp2p.p2p.piles import bits
from adp2p.p2p.protocol import ProtocolError, need

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Reveals:
    """Reveal rounds and card certificates (a card opened with every share: `ending`, p2p/machine/ending.py)."""

    def __init__(self, ending: Ending) -> None:
        self.ending = ending

    def start_round(self, fold: Fold, reveals: list[tuple[int, int]]) -> None:
        learners: dict[int, int] = {}
        for h, mask in reveals:
            learners[h] = learners.get(h, 0) | mask
        if not learners:
            fold.round = None
            return
        duties: dict[int, list[tuple[int, int, str]]] = {}
        public = set()
        for h, new in sorted(learners.items()):
            old = fold.state.known.get(h, 0) & ~new
            if old | new == fold.state.all_mask:
                public.add(h)
            if old:
                supplier = bits(old)[0]
                duties.setdefault(supplier, []).append((h, new, "cert"))
            else:
                for s in range(fold.n):
                    if new & ~(1 << s):
                        duties.setdefault(s, []).append((h, new, "own"))
        fold.round = Round(duties, public, learners)

    def shares(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        rnd = fold.round
        assert rnd is not None
        due = rnd.duties[seat]
        pub = need(body, "pub", list)
        sealed = need(body, "sealed", list)
        # what must travel in clear, and to whom sealed items must go: public facts, checked by everyone
        want_pub = {h for h, _, _ in due if h in rnd.public}
        want_to: set[int] = set()
        for h, new, _ in due:
            if h not in rnd.public:
                want_to |= {q for q in bits(new) if q != seat}
        got: dict[int, dict[int, Share]] = {}
        opened: dict[int, tuple[int, bytes] | None] = {}  # password handle -> its committer's opening
        for item in pub:
            h, shares, opened[h] = self.decode_item(fold, seat, item)
            got[h] = shares
        if set(got) != want_pub:
            raise ProtocolError(seat, f"public shares for handles {sorted(got)}, due {sorted(want_pub)}")
        boxes: dict[int, bytes] = {}
        for item in sealed:
            if not (
                isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], bytes)
            ):
                raise ProtocolError(seat, "a sealed item is [recipient seat, box]")
            boxes[item[0]] = item[1]
        if set(boxes) != want_to or len(sealed) != len(boxes):
            raise ProtocolError(seat, f"sealed shares for seats {sorted(boxes)}, due {sorted(want_to)}")
        modes = {h: m for h, _, m in due}
        for h, shares in got.items():
            self.check_item(fold, seat, h, shares, modes[h])
            fold.part.check_opening(fold, seat, h, opened[h])
        for q, box in sorted(boxes.items()):
            due_q = {h: m for h, new, m in due if h not in rnd.public and new >> q & 1}
            fold.sealed_log.append((fold.entries, seat, q, box, due_q))
            recs = {h: r for h in due_q if (r := fold.part.opening_record(fold, seat, h)) is not None}
            if recs:  # the openings due in that box, as its recipient checks them now (a `protest` judges by them)
                fold.sealed_openings[(fold.entries, seat, q)] = recs
        mine: dict[int, dict[int, Share]] = {}
        viewer = self.box_viewer(fold)
        if viewer is not None and viewer in boxes:
            ctx = fold.box_context(seat, viewer)
            try:
                payload = self.open_box(fold, seat, viewer, ctx, boxes[viewer])
            except CryptoError as exc:
                del fold.sealed_log[-len(boxes) :]
                for q in boxes:
                    fold.sealed_openings.pop((fold.entries, seat, q), None)
                raise ProtocolError(seat, f"sealed shares for me do not open: {exc}") from None
            try:
                items = unpack_canonical(payload, "sealed shares")
                if not isinstance(items, list):
                    raise ProtocolError(seat, "sealed shares are a list")
                for item in items:
                    h, shares, opened[h] = self.decode_item(fold, seat, item)
                    mine[h] = shares
                want_mine = {h for h, new, _ in due if h not in rnd.public and new >> viewer & 1}
                if set(mine) != want_mine:
                    raise ProtocolError(seat, f"sealed shares for handles {sorted(mine)}, due {sorted(want_mine)}")
                for h, shares in mine.items():
                    self.check_item(fold, seat, h, shares, modes[h])
                    fold.part.check_opening(fold, seat, h, opened[h])
            except (ProtocolError, CryptoError) as exc:
                del fold.sealed_log[-len(boxes) :]
                for q in boxes:
                    fold.sealed_openings.pop((fold.entries, seat, q), None)
                if isinstance(exc, ProtocolError):
                    raise
                raise ProtocolError(seat, f"sealed shares for me: {exc}") from None
        # all checks passed: keep what we received
        for src in (got, mine):
            for h, shares in src.items():
                fold.shares.setdefault(h, {}).update(shares)
        for h, op in opened.items():
            if op is not None:
                fold.openings_shown[h] = op
        del rnd.duties[seat]
        rnd.order.remove(seat)
        if not rnd.order:
            fold.round = None
            self.finish_round(fold, rnd)

    def open_box(self, fold: Fold, sender: int, viewer: int, ctx: bytes, box: bytes) -> bytes:
        """Open a box `sender` sealed to `viewer` (`_box_viewer`): with our own key, or in a copy judging evidence
        with the accuser's box secret it carries (CryptoError if it does not open)."""
        if fold._opener is not None:
            return audit_open_private(fold._opener[1], fold.ids[sender], fold.ids[viewer], ctx, box)
        assert fold.me is not None
        return open_private(fold.me.identity, fold.ids[sender], ctx, box)

    def box_viewer(self, fold: Fold) -> int | None:
        """The seat whose sealed boxes this fold opens: its own, with its own key; in a copy judging evidence only
        the accuser's, with the box secret the evidence carries (`_opener`), never the judging peer's own key, so
        that every peer judges evidence alike, from what it shows (else a box sealed to one peer would make that
        peer alone take another seat's evidence, and the table split). None: no box is opened."""
        if fold._opener is not None:
            return fold._opener[0]
        return fold.seat if fold.me is not None and fold._depth == 0 else None

    def decode_item(self, fold: Fold, seat: int, item: Any) -> tuple[int, dict[int, Share], tuple[int, bytes] | None]:
        """[handle, [share...]] or, for a password card shown by the seat that committed it, [handle, [share...],
        [code, salt]]: the commitment's opening travels with the card."""
        if not (
            isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], int) and isinstance(item[1], list)
        ):
            raise ProtocolError(seat, "a share item is [handle, [share...]] or [handle, [share...], [code, salt]]")
        out: dict[int, Share] = {}
        for raw in item[1]:
            try:
                s = Share.from_bytes(raw)
            except (CryptoError, TypeError, ValueError) as exc:
                raise ProtocolError(seat, f"malformed share: {exc}") from None
            out[s.seat] = s
        opening = None
        if len(item) == 3:
            op = item[2]
            if not (isinstance(op, list) and len(op) == 2 and isinstance(op[0], int) and isinstance(op[1], bytes)):
                raise ProtocolError(seat, "a commitment opening is [code, salt]")
            opening = (op[0], op[1])
        return item[0], out, opening

    def check_item(self, fold: Fold, seat: int, h: int, shares: dict[int, Share], mode: str) -> None:
        want = set(range(fold.n)) if mode == "cert" else {seat}
        if set(shares) != want:
            raise ProtocolError(seat, f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
        todo = []
        for s, share in shares.items():
            if fold.shares.get(h, {}).get(s) == share:
                continue  # the very share (proof included) we verified before
            key = fold.keys[s]
            assert key is not None
            todo.append((key[0], share))  # our own share too: its proof counts
        fold._check_shares(seat, h, fold.hmap[h], todo)

    def check_shares(self, fold: Fold, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
        """Each (deck key, share) of handle h supplied by `seat` must carry a valid proof (the offline audit checks
        them in a worker process meanwhile)."""
        for public, share in todo:
            published.share(fold.game_id, public, h, ct, share, seat)

    def finish_round(self, fold: Fold, rnd: Round) -> None:
        """Every share of the round is in: open what this seat must learn; check claimed faces."""
        faces: dict[int, int] = {}
        for h, mask in sorted(rnd.learners.items()):
            if h in rnd.public or (fold.seat is not None and mask >> fold.seat & 1):
                try:
                    faces[h] = self.ending.open(fold, h)
                except ProtocolError:  # every share checked out, the card is no card: a corrupt shuffle
                    if fold._opener is not None:
                        return
                    if h in rnd.public:  # every peer sees it at once: stop, reveal, audit
                        fold.verdict = _no_card(h, fold.sources[-1][0] if fold.sources else None)
                    elif not fold.holds_evidence() and self.cert(fold, h):  # only the learners: post the proof
                        fold.hold_evidence({"what": "nocard", "certs": [self.cert(fold, h)]})
                    return
        if fold._opener is not None:
            return  # a copy verifying evidence: it only needed the checks of the shares entry
        for h, f in faces.items():
            claim = fold.claims.pop(h, None)
            if claim is not None and not fold.game.same_card(claim[0], f):
                fold.verdict = Verdict(
                    claim[1],
                    "face_claim",
                    f"seat {claim[1] + 1} played handle {h} as "
                    f"{fold.game.face_title(claim[0])}, but its shares open to {fold.game.face_title(f)}",
                    fold.sources[-1][0] if fold.sources else None,
                )
                return
        shown = fold.part.check_shown(fold, rnd, faces)  # the openings shown with the cards, against them
        if shown.evidence is not None and not fold.holds_evidence():
            fold.hold_evidence(shown.evidence)
        if shown.verdict is not None:
            fold.verdict = shown.verdict
            return
        known = {h: f for h, f in faces.items() if fold.state.faces.get(h) is None}
        if known:
            fold.state = fold.game.learn(fold.state, known)
        if fold.seat is not None and not fold.holds_evidence():
            fold.immediate_checks(set(faces))

    def cert(self, fold: Fold, h: int) -> list[Any] | None:
        """A transferable certificate of handle h's face: every seat's proven share (None if not held)."""
        have = dict(fold.shares.get(h, {}))
        if fold.deck_key is not None and fold.seat is not None and h in fold.hmap:
            have[fold.seat] = make_share(fold.game_id, fold.deck_key, h, fold.hmap[h])
        if set(have) != set(range(fold.n)):
            return None
        return [h, [have[s].to_bytes() for s in range(fold.n)]]

    def check_cert(self, fold: Fold, accuser: int, item: Any) -> tuple[int, int | None]:
        """Verify a certificate [handle, [one proven share per seat]]; return (handle, face), the face None when
        the verified shares combine to no card (a corrupt shuffle)."""
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], list)):
            raise ProtocolError(accuser, "a certificate is [handle, [share...]]")
        h = item[0]
        if h not in fold.hmap:
            raise ProtocolError(accuser, f"certificate for unknown handle {h}")
        ct = fold.hmap[h]
        try:
            shares = {sh.seat: sh for sh in (Share.from_bytes(b) for b in item[1])}
            if len(item[1]) != fold.n or set(shares) != set(range(fold.n)):
                raise CryptoError("not one share per seat")
            for sh in shares.values():
                verify_share(fold.game_id, fold.keys[sh.seat][0], h, ct, sh)  # type: ignore[index]
        except (CryptoError, TypeError, ValueError) as exc:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} does not verify: {exc}") from None
        try:
            return h, fold.table.face(combine(ct, (shares[s].d for s in range(fold.n))))
        except CryptoError:
            return h, None

    def cert_faces(self, fold: Fold, accuser: int, certs: list[Any]) -> dict[int, int]:
        """The faces evidence shows: each handle's first certificate is checked, a later one of the same handle is not
        (one handle has one face; and evidence that repeats a card's valid certificate thousands of times does not
        make every peer check every copy)."""
        faces: dict[int, int] = {}
        for c in certs:
            if isinstance(c, list) and c and type(c[0]) is int and c[0] in faces:
                continue
            h, f = self.cert_face(fold, accuser, c)
            faces[h] = f
        return faces

    def cert_face(self, fold: Fold, accuser: int, item: Any) -> tuple[int, int]:
        """A certificate of a card: (handle, face)."""
        h, face = self.check_cert(fold, accuser, item)
        if face is None:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} opens to no card")
        return h, face
