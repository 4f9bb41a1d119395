"""Access Denied's password commitments, opened: the records of who committed which password card's code (and its
Pedersen commitment), the opening that travels with a committed card when its committer shows it, the openings every
seat reveals at the end and the audit of each against the card; the verdict on an opening that matches its
commitment but not the card. The commitments themselves are the core's commit/open facility (crypto/commit_open.py,
via crypto/commitments.py's `commit_code`).

A piece of Access Denied's table part (part.py): it reads the fold through `Fold` (p2p/machine/game_part.py) and the
part's `Records`."""

from __future__ import annotations

import hmac
from typing import Any

from adp2p.crypto.code_proofs import code_blinding, pedersen_commit
from adp2p.crypto.commitments import verify_code_opening
from adp2p.crypto.errors import CryptoError
from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied.records import Records
from adp2p.p2p.machine.common import Round, Verdict, _is_int
from adp2p.p2p.machine.game_part import Fold, Shown
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


class Openings:
    """Password commitments, opened."""

    def __init__(self, records: Records) -> None:
        self.records = records

    def opening_due(self, seat: int, h: int) -> bool:
        """Whether `seat`, showing handle h, must open h's code commitment: h is a password card it committed."""
        return h in self.records.commitments and self.records.committed.get(h, (None,))[0] == seat

    def check_opening(self, fold: Fold, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        if not self.opening_due(seat, h):
            if opening is not None:
                raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")
            return
        if opening is None:
            raise ProtocolError(seat, f"password card {h} shown without opening its code commitment")
        r = self.records
        code_opening(fold.game_id, h, r.commitments[h], opening[0], opening[1], seat, r.pedersen.get(h))

    def opening_record(self, seat: int, h: int) -> tuple[Any, Any] | None:
        """The commitment an opening `seat` sends with h is checked against now (None: none is due)."""
        if not self.opening_due(seat, h):
            return None
        return (self.records.commitments[h], self.records.pedersen.get(h))

    def check_recorded_opening(
        self, fold: Fold, seat: int, h: int, record: tuple[Any, Any] | None, opening: tuple[int, bytes] | None
    ) -> None:
        """`check_opening` against the commitment `opening_record` gave when the box was sealed."""
        if record is None:
            if opening is not None:
                raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")
            return
        if opening is None:
            raise ProtocolError(seat, f"password card {h} shown without opening its code commitment")
        code_opening(fold.game_id, h, record[0], opening[0], opening[1], seat, record[1])

    def check_shown(self, fold: Fold, rnd: Round, faces: dict[int, int]) -> Shown:
        """Each opening shown with a card this round against the card: a public lie stops the game at once, a
        private one is evidence to post (the first; none if this peer holds evidence already)."""
        evidence = None
        for h, f in sorted(faces.items()):
            op = fold.openings_shown.get(h)
            if op is None or card(f).code == op[0]:
                continue
            v = self.false_commitment(h, op[0], f, fold.sources[-1][0])
            if h in rnd.public:  # every peer sees it at once
                return Shown(verdict=v, evidence=evidence)
            if evidence is None and fold.cert(h):  # only the learners: post the proof
                evidence = {"what": "opening", "h": h, "code": op[0], "salt": op[1], "certs": [fold.cert(h)]}
        return Shown(evidence=evidence)

    def false_commitment(self, h: int, code: int, face: int, seq: int | None) -> Verdict:
        """The verdict on an opening that matches password card h's commitment but not the card."""
        guilty, at = self.records.committed[h]
        return Verdict(
            guilty,
            "commitment",
            f"seat {guilty + 1} committed code {'ABCDEF'[code]} for password card {h} (entry {at}), but the card "
            f"is {card(face).title}",
            seq,
        )

    @staticmethod
    def secret_fields(seat: int, body: dict[str, Any]) -> dict[str, Any]:
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

    @staticmethod
    def secrets_game_bytes() -> int:
        """The field `openings` at most (its key and header, MAX_OPENINGS of them): p2p/secrets_size.py."""
        return 16 + MAX_OPENINGS * OPENING_BYTES

    @staticmethod
    def author_secret_fields(fold: Fold) -> dict[str, Any]:
        assert fold.me is not None
        return {"openings": sorted([h, c, s] for h, (c, s) in fold.me.openings.items())}

    def audit_openings(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """Every password commitment opened by its committer, to the code of the card it is."""
        out: list[Verdict] = []
        r = self.records
        for seat in range(fold.n):
            for h, code, salt in fold.revealed[seat]["openings"]:
                c = r.commitments.get(h)
                if c is None or r.committed.get(h, (seat,))[0] != seat:
                    continue
                at = r.committed[h][1]
                try:
                    code_opening(fold.game_id, h, c, code, salt, seat, r.pedersen.get(h))
                except ProtocolError as exc:
                    out.append(Verdict(seat, "commitment", exc.msg, at))
                    continue
                if card(full[h]).code != code:
                    out.append(
                        Verdict(
                            seat,
                            "commitment",
                            f"password handle {h} committed code {'ABCDEF'[code]}, the card is {card(full[h]).title}",
                            at,
                        )
                    )
        return out

    def audit_unopened(self, fold: Fold) -> list[Verdict]:
        """Every commitment its committer opened at the end (a commitment never opened names its committer)."""
        opened = {h for seat in range(fold.n) for h, _, _ in fold.revealed[seat]["openings"]}
        return [
            Verdict(seat, "commitment", f"password handle {h}: the commitment was never opened", at)
            for h, (seat, at) in sorted(self.records.committed.items())
            if h not in opened
        ]
