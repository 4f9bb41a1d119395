"""Access Denied's event entries: an `event` entry through the one engine (the core's `_engine`), the password
commitments it makes (with their proof), a controller's answer proofs (and its password's link proof with the
first); what the immediate checks remember.

Access Denied's part of `Machine` (p2p/machine/machine.py, `Game.machine_parts`): its methods work on the machine's
shared state."""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.state import GameState
from adp2p.games.access_denied.answers import MAX_ANSWER_BOX
from adp2p.p2p.machine.common import (
    Event,
    _check_event_shape,
)
from adp2p.p2p.protocol import ProtocolError, need

BOOL_FIELDS = {"accept": False, "bank": False, "match": True}  # event fields that hold a bool (True: a list of bools)


class EventsPart:
    """Game events."""

    def _event(self, seat: int, body: dict[str, Any]) -> None:
        ev = need(body, "ev", dict)
        _check_event_shape(ev, BOOL_FIELDS)
        if ev.get("t") in ("sectors", "shuffle", "first", "random"):
            raise ProtocolError(seat, "chance events are derived, never authored")
        commit = body.get("commit")
        new_pw = self._new_password_handles(ev)
        if commit is not None and not new_pw:
            raise ProtocolError(seat, "a commitment on an entry that sets no password")
        if new_pw and (
            not isinstance(commit, list)
            or len(commit) != 3
            or any(not isinstance(c, bytes) or len(c) != 32 for c in commit)
        ):
            raise ProtocolError(seat, "a password entry carries one 32-byte commitment per code")
        if not new_pw and ("codes" in body or "distinct" in body):
            raise ProtocolError(seat, "Pedersen commitments on an entry that sets no password")
        before = self.state
        box = need(body, "proof", bytes, max_len=MAX_ANSWER_BOX) if self._proved(before, ev) else None
        if box is None and ("proof" in body or "code_link" in body):
            raise ProtocolError(seat, "answer proofs on an entry that answers no attempt")
        self._engine(seat, ev)
        if new_pw:
            self._password_proof(seat, body, new_pw)
        for h, c in zip(new_pw, commit or [], strict=False):
            self.commitments[h] = c
            self.committed[h] = (seat, self.sources[-1][0])
        if box is not None:
            self._link_check(seat, body, self._attempt_of(before)[1])  # public: every peer, the same
            self._answer_proof(seat, before, ev, box)  # sealed: the attempter
            att = self._attempt_of(before)[0]
            self.answer_boxes.append((self.entries, seat, att, box))  # the audit opens it with att's box secret

    def _note(self, before: GameState, ev: Event) -> None:
        """Remember what the immediate checks need: controller answers and trade promises."""
        task = before.stack[-1] if before.stack else {}
        seq = self.entries
        op = task.get("op")
        if op == "answer" and ev.get("t") == "answer":
            ctx = before.ctx[task["ctx"]]
            s = ctx["s"]
            ctrl = before.controller[s]
            pw = tuple(before.passwords.get(s, []))
            self.answers[seq] = (ctrl, s, pw, list(ctx["cards"]), [bool(m) for m in ev["match"]])
        elif op == "trade_reply" and ev.get("accept"):
            ctx = before.ctx[task["ctx"]]
            if ctx.get("promise") is not None:
                self.promises.append((seq, ctx["card"], ctx["promise"], ctx["p"]))
            for h, c in zip(ev.get("cards") or [], ev.get("promise") or [], strict=False):
                self.promises.append((seq, h, c, task["p"]))

    def _event_body(self, ev: Event) -> dict[str, Any]:
        """A password's commitments (with their proof) and a controller's answer proofs, with this seat's event."""
        body: dict[str, Any] = {}
        handles = self._new_password_handles(ev)
        if handles:
            body.update(self._password_fields(handles))
        if self._proved(self.state, ev):
            body.update(self._answer_fields(ev))
            pw = self._attempt_of(self.state)[1]
            if self._link_due(pw):
                body.update(self._link_fields(pw))
        return body

    @staticmethod
    def _new_password_handles(ev: Event) -> list[int]:
        if ev.get("t") == "password" and isinstance(ev.get("cards"), list):
            return list(ev["cards"])
        if ev.get("t") == "play" and isinstance(ev.get("new"), list):
            return list(ev["new"])  # Scramble Password (checked by the engine to be that card)
        return []
