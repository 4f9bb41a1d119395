"""Access Denied's password commitments, opened: the records of who committed which password card's code (and its
Pedersen commitment), the opening that travels with a committed card when its committer shows it, the openings every
seat reveals at the end and the audit of each against the card; the verdict on an opening that matches its
commitment but not the card. The commitments themselves are the core's commit/open facility (crypto/commit_open.py,
via crypto/commitments.py's `commit_code`).

Access Denied's part of `Machine` (p2p/machine/machine.py, `Game.machine_parts`): its methods work on the machine's
shared state."""

from __future__ import annotations

import hmac
from typing import Any

from adp2p.crypto.code_proofs import code_blinding, pedersen_commit
from adp2p.crypto.commitments import verify_code_opening
from adp2p.crypto.errors import CryptoError
from adp2p.engine.access_denied.catalog import card
from adp2p.p2p.machine.common import AuditReport, Round, Verdict, _is_int
from adp2p.p2p.protocol import BodyError, ProtocolError, need

MAX_OPENINGS = 1024  # password code openings one seat reveals (one per password card it ever committed)
OPENING_BYTES = 85  # one [handle, code, salt] at most: array 1, two ints of at most 9, bin 2 + 64


def code_opening(
    game_id: bytes, h: int, commitment: bytes, code: int, salt: bytes, supplier: int, pedersen: bytes | None = None
) -> None:
    """Check before blame (p2p/published.py): `(code, salt)` must open password card h's published code commitment,
    and its Pedersen commitment too when the password entry published one (`pedersen`: `code·G + r·H` with `r`
    derived from the salt); else `ProtocolError(supplier)`."""
    try:
        verify_code_opening(game_id, h, commitment, code, salt)
    except (CryptoError, TypeError, ValueError):
        raise ProtocolError(supplier, f"password card {h}: the opening does not match its commitment") from None
    if pedersen is None:
        return
    try:
        same = hmac.compare_digest(pedersen_commit(code, code_blinding(game_id, h, salt)), pedersen)
    except (CryptoError, TypeError, ValueError):
        same = False
    if not same:
        raise ProtocolError(
            supplier, f"password card {h}: the opening does not match its Pedersen commitment", rule="commitment"
        )


class OpeningsPart:
    """Password commitments, opened."""

    def _init_part(self) -> None:
        self.commitments: dict[int, bytes] = {}  # password handle -> code commitment
        self.pedersen: dict[int, bytes] = {}  # password handle -> Pedersen commitment to its code
        self.committed: dict[int, tuple[int, int]] = {}  # password handle -> (seat, seq of the commitment)
        self.answers: dict[int, tuple[int, int, tuple[int, ...], list[int], list[bool]]] = {}
        self.promises: list[tuple[int, int, int, int]] = []  # (seq, handle, promised code, promiser)
        self.answer_boxes: list[tuple[int, int, int, bytes]] = []  # (seq, controller, attempter, sealed answer proofs)

    def _opening_due(self, seat: int, h: int) -> bool:
        """Whether `seat`, showing handle h, must open h's code commitment: h is a password card it committed."""
        return h in self.commitments and self.committed.get(h, (None,))[0] == seat

    def _check_opening(self, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        if not self._opening_due(seat, h):
            if opening is not None:
                raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")
            return
        if opening is None:
            raise ProtocolError(seat, f"password card {h} shown without opening its code commitment")
        code_opening(self.game_id, h, self.commitments[h], opening[0], opening[1], seat, self.pedersen.get(h))

    def _check_shown(self, rnd: Round, faces: dict[int, int]) -> bool:
        """Each opening shown with a card this round against the card: a public lie stops the game at once, a
        private one is evidence to post."""
        for h, f in sorted(faces.items()):
            op = self.openings_shown.get(h)
            if op is None or card(f).code == op[0]:
                continue
            v = self._false_commitment(h, op[0], f, self.sources[-1][0])
            if h in rnd.public:  # every peer sees it at once
                self.verdict = v
                return True
            if self._evidence is None and self._cert(h):  # only the learners: post the proof
                self._evidence = {"what": "opening", "h": h, "code": op[0], "salt": op[1], "certs": [self._cert(h)]}
        return False

    def _false_commitment(self, h: int, code: int, face: int, seq: int | None) -> Verdict:
        """The verdict on an opening that matches password card h's commitment but not the card."""
        guilty, at = self.committed[h]
        return Verdict(
            guilty,
            "commitment",
            f"seat {guilty + 1} committed code {'ABCDEF'[code]} for password card {h} (entry {at}), but the card "
            f"is {card(face).title}",
            seq,
        )

    def _secret_fields(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """A secrets entry's openings: [handle, code, salt] each, one per handle."""
        openings: list[tuple[int, int, bytes]] = []
        # (an honest seat may hold openings of a password entry that evidence set aside: they are ignored)
        for item in need(body, "openings", list, max_len=MAX_OPENINGS):
            if not (_is_int(item, 3, ints=2) and isinstance(item[2], bytes) and len(item[2]) <= 64):
                raise BodyError("an opening is [handle, code, salt]")
            if item[0] in {h for h, _, _ in openings}:
                raise BodyError(f"two openings for handle {item[0]}")
            openings.append((item[0], item[1], item[2]))
        return {"openings": openings}

    def _secrets_game_bytes(self) -> int:
        """The field `openings` at most (its key and header, MAX_OPENINGS of them): p2p/secrets_size.py."""
        return 16 + MAX_OPENINGS * OPENING_BYTES

    def _author_secret_fields(self) -> dict[str, Any]:
        assert self.me is not None
        return {"openings": sorted([h, c, s] for h, (c, s) in self.me.openings.items())}

    def _audit_secrets(self, rep: AuditReport, full: dict[int, int]) -> None:
        """Every password commitment opened by its committer, to the code of the card it is."""
        for seat in range(self.n):
            for h, code, salt in self.revealed[seat]["openings"]:
                c = self.commitments.get(h)
                if c is None or self.committed.get(h, (seat,))[0] != seat:
                    continue
                at = self.committed[h][1]
                try:
                    code_opening(self.game_id, h, c, code, salt, seat, self.pedersen.get(h))
                except ProtocolError as exc:
                    rep.violation(seat, "commitment", exc.msg, at)
                    continue
                if card(full[h]).code != code:
                    rep.violation(
                        seat,
                        "commitment",
                        f"password handle {h} committed code {'ABCDEF'[code]}, the card is {card(full[h]).title}",
                        at,
                    )
        self._audit_answer_boxes(rep, full)  # type: ignore[attr-defined]  (answers.py)
        opened = {h for seat in range(self.n) for h, _, _ in self.revealed[seat]["openings"]}
        for h, (seat, at) in sorted(self.committed.items()):
            if h not in opened:
                rep.violation(seat, "commitment", f"password handle {h}: the commitment was never opened", at)
