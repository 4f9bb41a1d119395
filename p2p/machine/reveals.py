"""Reveal rounds: the decryption shares every seat owes for the faces the rules show, sealed or public, checked per
item; card certificates (a game's openings shown with a card: its part, p2p/machine/game_part.py).

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from collections.abc import Callable
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
from adp2p.p2p.piles import bits
from adp2p.p2p.protocol import ProtocolError, need


class RevealsPart:
    """Reveal rounds."""

    def _start_round(self, reveals: list[tuple[int, int]]) -> None:
        learners: dict[int, int] = {}
        for h, mask in reveals:
            learners[h] = learners.get(h, 0) | mask
        if not learners:
            self.round = None
            return
        duties: dict[int, list[tuple[int, int, str]]] = {}
        public = set()
        for h, new in sorted(learners.items()):
            old = self.state.known.get(h, 0) & ~new
            if old | new == self.state.all_mask:
                public.add(h)
            if old:
                supplier = bits(old)[0]
                duties.setdefault(supplier, []).append((h, new, "cert"))
            else:
                for s in range(self.n):
                    if new & ~(1 << s):
                        duties.setdefault(s, []).append((h, new, "own"))
        self.round = Round(duties, public, learners)

    def _shares(self, seat: int, body: dict[str, Any]) -> None:
        rnd = self.round
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
            h, shares, opened[h] = self._decode_item(seat, item)
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
            self._check_item(seat, h, shares, modes[h])
            self.part.check_opening(self, seat, h, opened[h])
        for q, box in sorted(boxes.items()):
            due_q = {h: m for h, new, m in due if h not in rnd.public and new >> q & 1}
            self.sealed_log.append((self.entries, seat, q, box, due_q))
        mine: dict[int, dict[int, Share]] = {}
        viewer = self._box_viewer()
        if viewer is not None and viewer in boxes:
            ctx = self.box_context(seat, viewer)
            try:
                payload = self._open_box(seat, viewer, ctx, boxes[viewer])
            except CryptoError as exc:
                del self.sealed_log[-len(boxes) :]
                raise ProtocolError(seat, f"sealed shares for me do not open: {exc}") from None
            try:
                items = unpack_canonical(payload, "sealed shares")
                if not isinstance(items, list):
                    raise ProtocolError(seat, "sealed shares are a list")
                for item in items:
                    h, shares, opened[h] = self._decode_item(seat, item)
                    mine[h] = shares
                want_mine = {h for h, new, _ in due if h not in rnd.public and new >> viewer & 1}
                if set(mine) != want_mine:
                    raise ProtocolError(seat, f"sealed shares for handles {sorted(mine)}, due {sorted(want_mine)}")
                for h, shares in mine.items():
                    self._check_item(seat, h, shares, modes[h])
                    self.part.check_opening(self, seat, h, opened[h])
            except (ProtocolError, CryptoError) as exc:
                del self.sealed_log[-len(boxes) :]
                if isinstance(exc, ProtocolError):
                    raise
                raise ProtocolError(seat, f"sealed shares for me: {exc}") from None
        # all checks passed: keep what we received
        for src in (got, mine):
            for h, shares in src.items():
                self.shares.setdefault(h, {}).update(shares)
        for h, op in opened.items():
            if op is not None:
                self.openings_shown[h] = op
        del rnd.duties[seat]
        rnd.order.remove(seat)
        if not rnd.order:
            self.round = None
            self._finish_round(rnd)

    def _open_box(self, sender: int, viewer: int, ctx: bytes, box: bytes) -> bytes:
        """Open a box `sender` sealed to `viewer` (`_box_viewer`): with our own key, or in a copy judging evidence
        with the accuser's box secret it carries (CryptoError if it does not open)."""
        if self._opener is not None:
            return audit_open_private(self._opener[1], self.ids[sender], self.ids[viewer], ctx, box)
        assert self.me is not None
        return open_private(self.me.identity, self.ids[sender], ctx, box)

    def _box_viewer(self) -> int | None:
        """The seat whose sealed boxes this fold opens: its own, with its own key; in a copy judging evidence only
        the accuser's, with the box secret the evidence carries (`_opener`), never the judging peer's own key, so
        that every peer judges evidence alike, from what it shows (else a box sealed to one peer would make that
        peer alone take another seat's evidence, and the table split). None: no box is opened."""
        if self._opener is not None:
            return self._opener[0]
        return self.seat if self.me is not None and self._depth == 0 else None

    def _decode_item(self, seat: int, item: Any) -> tuple[int, dict[int, Share], tuple[int, bytes] | None]:
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

    def _check_item(self, seat: int, h: int, shares: dict[int, Share], mode: str) -> None:
        want = set(range(self.n)) if mode == "cert" else {seat}
        if set(shares) != want:
            raise ProtocolError(seat, f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
        todo = []
        for s, share in shares.items():
            if self.shares.get(h, {}).get(s) == share:
                continue  # the very share (proof included) we verified before
            key = self.keys[s]
            assert key is not None
            todo.append((key[0], share))  # our own share too: its proof counts
        self._check_shares(seat, h, self.hmap[h], todo)

    def _check_shares(self, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
        """Each (deck key, share) of handle h supplied by `seat` must carry a valid proof (the offline audit checks
        them in a worker process meanwhile)."""
        for public, share in todo:
            published.share(self.game_id, public, h, ct, share, seat)

    @staticmethod
    def _proof_check(fn: Callable[..., None], *args: Any) -> None:
        """A costly, pure proof check of a game's (`fn(*args)` raises CryptoError if the proof fails), in line here;
        the offline audit hands it to a worker process and folds on (p2p/audit_pool.py), so `fn` must be a
        module-level function and its arguments plain values."""
        fn(*args)

    def _finish_round(self, rnd: Round) -> None:
        """Every share of the round is in: open what this seat must learn; check claimed faces."""
        faces: dict[int, int] = {}
        for h, mask in sorted(rnd.learners.items()):
            if h in rnd.public or (self.seat is not None and mask >> self.seat & 1):
                try:
                    faces[h] = self._open(h)
                except ProtocolError:  # every share checked out, the card is no card: a corrupt shuffle
                    if self._opener is not None:
                        return
                    if h in rnd.public:  # every peer sees it at once: stop, reveal, audit
                        self.verdict = _no_card(h, self.sources[-1][0] if self.sources else None)
                    elif self._evidence is None and self._cert(h):  # only the learners: post the proof
                        self._evidence = {"what": "nocard", "certs": [self._cert(h)]}
                    return
        if self._opener is not None:
            return  # a copy verifying evidence: it only needed the checks of the shares entry
        for h, f in faces.items():
            claim = self.claims.pop(h, None)
            if claim is not None and not self.game.same_card(claim[0], f):
                self.verdict = Verdict(
                    claim[1],
                    "face_claim",
                    f"seat {claim[1] + 1} played handle {h} as "
                    f"{self.game.face_title(claim[0])}, but its shares open to {self.game.face_title(f)}",
                    self.sources[-1][0] if self.sources else None,
                )
                return
        shown = self.part.check_shown(self, rnd, faces)  # the openings shown with the cards, against them
        if shown.evidence is not None and self._evidence is None:
            self._evidence = shown.evidence
        if shown.verdict is not None:
            self.verdict = shown.verdict
            return
        known = {h: f for h, f in faces.items() if self.state.faces.get(h) is None}
        if known:
            self.state = self.game.learn(self.state, known)
        if self.seat is not None and self._evidence is None:
            self._immediate_checks(set(faces))

    def _cert(self, h: int) -> list[Any] | None:
        """A transferable certificate of handle h's face: every seat's proven share (None if not held)."""
        have = dict(self.shares.get(h, {}))
        if self.deck_key is not None and self.seat is not None and h in self.hmap:
            have[self.seat] = make_share(self.game_id, self.deck_key, h, self.hmap[h])
        if set(have) != set(range(self.n)):
            return None
        return [h, [have[s].to_bytes() for s in range(self.n)]]

    def _check_cert(self, accuser: int, item: Any) -> tuple[int, int | None]:
        """Verify a certificate [handle, [one proven share per seat]]; return (handle, face), the face None when
        the verified shares combine to no card (a corrupt shuffle)."""
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], list)):
            raise ProtocolError(accuser, "a certificate is [handle, [share...]]")
        h = item[0]
        if h not in self.hmap:
            raise ProtocolError(accuser, f"certificate for unknown handle {h}")
        ct = self.hmap[h]
        try:
            shares = {sh.seat: sh for sh in (Share.from_bytes(b) for b in item[1])}
            if len(item[1]) != self.n or set(shares) != set(range(self.n)):
                raise CryptoError("not one share per seat")
            for sh in shares.values():
                verify_share(self.game_id, self.keys[sh.seat][0], h, ct, sh)  # type: ignore[index]
        except (CryptoError, TypeError, ValueError) as exc:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} does not verify: {exc}") from None
        try:
            return h, self.table.face(combine(ct, (shares[s].d for s in range(self.n))))
        except CryptoError:
            return h, None

    def _cert_faces(self, accuser: int, certs: list[Any]) -> dict[int, int]:
        """The faces evidence shows: each handle's first certificate is checked, a later one of the same handle is not
        (one handle has one face; and evidence that repeats a card's valid certificate thousands of times does not
        make every peer check every copy)."""
        faces: dict[int, int] = {}
        for c in certs:
            if isinstance(c, list) and c and type(c[0]) is int and c[0] in faces:
                continue
            h, f = self._cert_face(accuser, c)
            faces[h] = f
        return faces

    def _cert_face(self, accuser: int, item: Any) -> tuple[int, int]:
        """A certificate of a card: (handle, face)."""
        h, face = self._check_cert(accuser, item)
        if face is None:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} opens to no card")
        return h, face
