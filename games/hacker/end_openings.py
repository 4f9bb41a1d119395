"""Hacker's seals left unopened when the game ends (a place, a laying, a pad, a private roll the game never needed
to open: the game stopped by a verdict mid-phase), revealed in the end-of-game `secrets` entry: a piece of Hacker's
table part (part.py), over the seals and rolls `Seals` keeps (seals.py).

- Each seat reveals the openings of its own unopened seals and roll, field `seals` (absent when none is due, so an
  honest game's secrets are what they were before this field): `[[seq, k, value, salt]]`, one per part (`seq` the
  seal entry's seq, `k` the part: 0 for a place or a laying, 0..24 a pad's square, `ROLL_SLOT` a roll's secret with
  an empty value), sorted, exactly the parts due: which ones are due is public (the log's seals not opened yet), so
  a missing or extra opening is named as the revealer's.
- Every peer checks each opening against its commitment on arrival, before anything is judged by it (check before
  blame): an opening that does not open its seal names the seat that revealed it, never another.
- Settled then (the audit, `audit_secrets`): a pad left sealed in the middle of a hack attempt whose dice were
  drawn is judged against the hack table for the revealed roll and the answers given, as `open_pad` would have been
  (`controller_*` rules, naming the controller). Nothing else an unopened seal hides ever acted on the game.
"""

from __future__ import annotations

from typing import Any

from adp2p.crypto import dice
from adp2p.crypto.commit_open import Binding, check_opening
from adp2p.crypto.errors import CryptoError
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import hackpad
from adp2p.games.hacker.seals import ROLL_SLOT, Seals
from adp2p.games.hacker.table_events import SQUARES
from adp2p.p2p.machine.common import Verdict
from adp2p.p2p.machine.game_part import Fold
from adp2p.p2p.protocol import BodyError, ProtocolError, need

# A seat holds at most one unopened seal of each kind and one roll: a place (1), a laying (1), a pad (25 parts), a
# roll's secret (1).
MAX_SEAL_OPENINGS = 28
MAX_VALUE = 64  # an opening's value, as in an unseal (seals.py): a place's msgpack, a laying's, a square's u8
SALT = 32
# The wire size of one item [seq, k, value, salt] at most: array 1, seq 9, k 1, bin 2 + 64, bin 2 + 32.
ITEM_BYTES = 1 + 9 + 1 + 2 + MAX_VALUE + 2 + SALT
SECRETS_BYTES = 8 + 3 + MAX_SEAL_OPENINGS * ITEM_BYTES  # the field `seals` with its key, at most (3,196 bytes)

Due = dict[tuple[int, int], tuple[Binding | None, bytes, str]]


class EndOpenings:
    """Openings of the seals left unopened, revealed at the end (see the module docstring; a cheater of the zoo
    replaces this piece)."""

    def __init__(self, seals: Seals) -> None:
        self.seals = seals

    def due_openings(self, fold: Fold, seat: int) -> Due:
        """(seq, k) -> (its binding (None: a roll's secret), its commitment, what) of every part of `seat`'s
        seals and roll still unopened in this fold."""
        out: Due = {}
        for key, (seq, commits) in self.seals.seals.items():
            what, owner = key.split(":")
            if int(owner) != seat:
                continue
            b = self.seals.binding(fold, seat, what, seq)
            for k, c in enumerate(commits):
                out[(seq, k)] = (b._replace(slot=b.slot + bytes([k])) if what == "pad" else b, c, what)
        roll = self.seals.rolls.get(seat)
        if roll is not None:
            out[(roll["r"] // 2, ROLL_SLOT)] = (None, roll["c"], "roll")
        return out

    @staticmethod
    def secrets_game_bytes() -> int:
        return SECRETS_BYTES

    def author_secret_fields(self, fold: Fold) -> dict[str, Any]:
        assert fold.seat is not None
        due = sorted(self.due_openings(fold, fold.seat))
        return {"seals": [[seq, k, *self.seals.kept(fold, seq, k)] for seq, k in due]} if due else {}

    def secret_fields(self, fold: Fold, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """The seat's openings: exactly the parts due, each opening its commitment (else the seat is named)."""
        got: dict[tuple[int, int], tuple[bytes, bytes]] = {}
        items = need(body, "seals", list, max_len=MAX_SEAL_OPENINGS) if "seals" in body else []
        if "seals" in body and not items:
            raise BodyError("no seal left unopened is said by leaving `seals` out, not by an empty list")
        for item in items:
            if not (isinstance(item, list) and len(item) == 4 and type(item[0]) is int and type(item[1]) is int
                    and isinstance(item[2], bytes) and len(item[2]) <= MAX_VALUE
                    and isinstance(item[3], bytes) and len(item[3]) == SALT):
                raise BodyError("a seal's opening is [seq, k, value, 32-byte salt]")
            if (item[0], item[1]) in got:
                raise BodyError(f"two openings of seal part {item[0]}/{item[1]}")
            got[(item[0], item[1])] = (item[2], item[3])
        due = self.due_openings(fold, seat)
        if set(got) != set(due):
            missing, extra = sorted(set(due) - set(got)), sorted(set(got) - set(due))
            raise ProtocolError(seat, f"seat {seat + 1} revealed the openings of its seals left unopened wrongly "
                                      f"(missing {missing[:4]}, not due {extra[:4]})")
        for (seq, k), (b, c, what) in sorted(due.items()):
            value, salt = got[(seq, k)]
            try:
                if b is None:
                    ok = value == b"" and dice.commitment_of(fold.game_id, seat, 2 * seq, salt) == c
                else:
                    ok = check_opening(b, c, (value, salt)) == value
            except CryptoError:
                ok = False
            if not ok:
                raise ProtocolError(seat, f"seat {seat + 1}'s opening of its {what} sealed at entry {seq} (part {k}) "
                                          f"does not open its seal")
        return {"seals": got}

    def audit_secrets(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """A pad left sealed mid-attempt, its dice drawn: judged now against the hack table and the answers."""
        eng = fold.state.eng
        a = eng.work.get("hack")
        if a is None or f"pad:{a['ctrl']}" not in self.seals.seals:
            return []
        ctrl = a["ctrl"]
        roll = self.seals.rolls.get(ctrl)
        if roll is None or roll["b"] is None:
            return []  # no dice drawn yet: no answer was given, the pad never acted
        got = fold.revealed[ctrl]["seals"]
        seq, _ = self.seals.seals[f"pad:{ctrl}"]
        checks = [SQUARES[k] for k in range(len(SQUARES)) if got[(seq, k)][0] == b"\x01"]
        s = got[(roll["r"] // 2, ROLL_SLOT)][1]
        faces = [dice.face(fold.game_id, ctrl, roll["r"] + i, s, roll["b"], 6) for i in range(2)]
        st = eng.clone()
        st.secrets = {}  # judged from the openings alone
        try:
            hackpad.check_opening(st, ctrl, faces, checks)
        except IllegalEvent as exc:
            return [Verdict(ctrl, exc.rule, f"the pad left sealed at the end: {exc.message}", seq)]
        return []
