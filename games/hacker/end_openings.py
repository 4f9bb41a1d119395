"""Hacker's seals left unopened when the game ends (a place, a laying, a pad, a private roll the game never needed
to open: the game stopped by a verdict mid-phase), revealed in the end-of-game `secrets` entry: Hacker's part of
`Machine` after `SealsPart` (games/hacker/seals.py; its methods work on the machine's shared state).

- Each seat reveals the openings of its own unopened seals and roll, field `seals` (absent when none is due, so an
  honest game's secrets are what they were before this field): `[[seq, k, value, salt]]`, one per part (`seq` the
  seal entry's seq, `k` the part: 0 for a place or a laying, 0..24 a pad's square, `ROLL_SLOT` a roll's secret with
  an empty value), sorted, exactly the parts due: which ones are due is public (the log's seals not opened yet), so
  a missing or extra opening is named as the revealer's.
- Every peer checks each opening against its commitment on arrival, before anything is judged by it (check before
  blame): an opening that does not open its seal names the seat that revealed it, never another.
- Settled then (the audit, `_audit_secrets`): a pad left sealed in the middle of a hack attempt whose dice were
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
from adp2p.games.hacker.seals import ROLL_SLOT
from adp2p.games.hacker.table_events import SQUARES
from adp2p.p2p.machine.common import AuditReport
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


class EndOpeningsPart:
    """Openings of the seals left unopened, revealed at the end (see the module docstring)."""

    def _due_openings(self, seat: int) -> Due:
        """(seq, k) -> (its binding (None: a roll's secret), its commitment, what) of every part of `seat`'s
        seals and roll still unopened in this fold."""
        out: Due = {}
        for key, (seq, commits) in self.seals.items():
            what, owner = key.split(":")
            if int(owner) != seat:
                continue
            b = self._binding(seat, what, seq)
            for k, c in enumerate(commits):
                out[(seq, k)] = (b._replace(slot=b.slot + bytes([k])) if what == "pad" else b, c, what)
        roll = self.rolls.get(seat)
        if roll is not None:
            out[(roll["r"] // 2, ROLL_SLOT)] = (None, roll["c"], "roll")
        return out

    def _secrets_game_bytes(self) -> int:
        return SECRETS_BYTES

    def _author_secret_fields(self) -> dict[str, Any]:
        assert self.seat is not None
        due = sorted(self._due_openings(self.seat))
        return {"seals": [[seq, k, *self._kept(seq, k)] for seq, k in due]} if due else {}

    def _secret_fields(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
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
        due = self._due_openings(seat)
        if set(got) != set(due):
            missing, extra = sorted(set(due) - set(got)), sorted(set(got) - set(due))
            raise ProtocolError(seat, f"seat {seat + 1} revealed the openings of its seals left unopened wrongly "
                                      f"(missing {missing[:4]}, not due {extra[:4]})")
        for (seq, k), (b, c, what) in sorted(due.items()):
            value, salt = got[(seq, k)]
            try:
                if b is None:
                    ok = value == b"" and dice.commitment_of(self.game_id, seat, 2 * seq, salt) == c
                else:
                    ok = check_opening(b, c, (value, salt)) == value
            except CryptoError:
                ok = False
            if not ok:
                raise ProtocolError(seat, f"seat {seat + 1}'s opening of its {what} sealed at entry {seq} (part {k}) "
                                          f"does not open its seal")
        return {"seals": got}

    def _audit_secrets(self, rep: AuditReport, full: dict[int, int]) -> None:
        """A pad left sealed mid-attempt, its dice drawn: judged now against the hack table and the answers."""
        eng = self.state.eng
        a = eng.work.get("hack")
        if a is None or f"pad:{a['ctrl']}" not in self.seals:
            return
        ctrl = a["ctrl"]
        roll = self.rolls.get(ctrl)
        if roll is None or roll["b"] is None:
            return  # no dice drawn yet: no answer was given, the pad never acted
        got = self.revealed[ctrl]["seals"]
        seq, _ = self.seals[f"pad:{ctrl}"]
        checks = [SQUARES[k] for k in range(len(SQUARES)) if got[(seq, k)][0] == b"\x01"]
        s = got[(roll["r"] // 2, ROLL_SLOT)][1]
        faces = [dice.face(self.game_id, ctrl, roll["r"] + i, s, roll["b"], 6) for i in range(2)]
        st = eng.clone()
        st.secrets = {}  # judged from the openings alone
        try:
            hackpad.check_opening(st, ctrl, faces, checks)
        except IllegalEvent as exc:
            rep.violation(ctrl, exc.rule, f"the pad left sealed at the end: {exc.message}", seq)
