"""Access Denied's table part (`Game.table_part()`, p2p/machine/game_part.py): its event entries through the one
engine (the password commitments an entry makes, with their proof; a controller's answer proofs, and its password's
link proof with the first), what the immediate checks remember, and the hooks of its other pieces, each an object
with one job over the part's `Records` (records.py):

- `Answers` (answers.py): the password's commitments and their proof that the codes differ; answer proofs;
- `Links` (links.py): the link proof of a password's commitments to its cards;
- `Openings` (openings.py): the openings shown with a committed card, revealed at the end, audited;
- `Checks` (checks.py): the immediate checks against the faces a peer knows, and the evidence they become.

The fold calls the hooks with explicit arguments (`Fold`: the fold's public state) and takes what they return; a
zoo cheater replaces a piece (`AccessDeniedPart(answers=...)`, tests/adversaries/_zoo.py)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.state import GameState
from adp2p.games.access_denied.answers import MAX_ANSWER_BOX, Answers, attempt_of
from adp2p.games.access_denied.checks import Checks
from adp2p.games.access_denied.links import Links
from adp2p.games.access_denied.openings import Openings
from adp2p.games.access_denied.records import Records
from adp2p.p2p.machine.common import Event, Round, Verdict, _check_event_shape
from adp2p.p2p.machine.game_part import Fold, Shown, TablePart
from adp2p.p2p.protocol import ProtocolError, need

BOOL_FIELDS = {"accept": False, "bank": False, "match": True}  # event fields that hold a bool (True: a list of bools)


class AccessDeniedPart(TablePart):
    """Access Denied's committed secrets at the table (see the module docstring)."""

    face_evidence = Checks.face_evidence

    def __init__(
        self,
        *,
        answers: type[Answers] = Answers,
        links: type[Links] = Links,
        openings: type[Openings] = Openings,
        checks: type[Checks] = Checks,
    ) -> None:
        self.records = Records()
        self.answers = answers(self.records)
        self.links = links(self.records)
        self.openings = openings(self.records)
        self.checks = checks(self.records, self.openings)

    # ------------------------------------------------------------------ an event entry, arriving

    def check_event(self, fold: Fold, seat: int, body: dict[str, Any]) -> Event:
        """The body of an event entry before the rules: the commitments a password entry must carry (and only it),
        the answer proofs a proved answer must carry (and only it)."""
        ev = need(body, "ev", dict)
        _check_event_shape(ev, BOOL_FIELDS)
        if ev.get("t") in ("sectors", "shuffle", "first", "random"):
            raise ProtocolError(seat, "chance events are derived, never authored")
        commit = body.get("commit")
        new_pw = new_password_handles(ev)
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
        box = need(body, "proof", bytes, max_len=MAX_ANSWER_BOX) if self.answers.proved(fold.state, ev) else None
        if box is None and ("proof" in body or "code_link" in body):
            raise ProtocolError(seat, "answer proofs on an entry that answers no attempt")
        return ev

    def after_event(self, fold: Fold, seat: int, body: dict[str, Any], ev: Event, before: GameState) -> None:
        """After the rules: a password's proof and commitments (every peer), an answer's link proof (every peer) and
        its proofs (the attempter), kept for the checks and the audit."""
        new_pw = new_password_handles(ev)
        if new_pw:
            self.answers.password_proof(fold, seat, body, new_pw)
        r = self.records
        for h, c in zip(new_pw, body.get("commit") or [], strict=False):
            r.commitments[h] = c
            r.committed[h] = (seat, fold.sources[-1][0])
        if self.answers.proved(before, ev):
            box = body["proof"]
            att, pw, _hs = attempt_of(before)
            self.links.link_check(fold, seat, body, pw)  # public: every peer, the same
            self.answers.answer_proof(fold, seat, before, ev, box)  # sealed: the attempter
            r.answer_boxes.append((fold.entries, seat, att, box))  # the audit opens it with att's box secret
        return None

    def note(self, fold: Fold, before: GameState, ev: Event) -> None:
        """Remember what the immediate checks need: controller answers and trade promises."""
        task = before.stack[-1] if before.stack else {}
        seq = fold.entries
        op = task.get("op")
        r = self.records
        if op == "answer" and ev.get("t") == "answer":
            ctx = before.ctx[task["ctx"]]
            s = ctx["s"]
            ctrl = before.controller[s]
            pw = tuple(before.passwords.get(s, []))
            r.answers[seq] = (ctrl, s, pw, list(ctx["cards"]), [bool(m) for m in ev["match"]])
        elif op == "trade_reply" and ev.get("accept"):
            ctx = before.ctx[task["ctx"]]
            if ctx.get("promise") is not None:
                r.promises.append((seq, ctx["card"], ctx["promise"], ctx["p"]))
            for h, c in zip(ev.get("cards") or [], ev.get("promise") or [], strict=False):
                r.promises.append((seq, h, c, task["p"]))
        return None

    # ------------------------------------------------------------------ authoring (this seat)

    def event_body(self, fold: Fold, ev: Event) -> dict[str, Any]:
        """A password's commitments (with their proof) and a controller's answer proofs, with this seat's event."""
        body: dict[str, Any] = {}
        handles = new_password_handles(ev)
        if handles:
            body.update(self.answers.password_fields(fold, handles))
        if self.answers.proved(fold.state, ev):
            body.update(self.answers.answer_fields(fold, ev))
            pw = attempt_of(fold.state)[1]
            if self.links.link_due(pw):
                body.update(self.links.link_fields(fold, pw))
        return body

    def prepare_ahead(self, fold: Fold) -> bool:
        return self.links.prepare_ahead(fold)

    # ------------------------------------------------------------------ the other pieces' hooks

    def immediate_checks(self, fold: Fold, new: set[int]) -> dict[str, Any] | None:
        return self.checks.immediate_checks(fold, new)

    def verify_evidence(
        self, fold: Fold, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        return self.checks.verify_evidence(fold, accuser, what, body, faces, seq)

    def opening_due(self, seat: int, h: int) -> bool:
        return self.openings.opening_due(seat, h)

    def check_opening(self, fold: Fold, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        self.openings.check_opening(fold, seat, h, opening)

    def opening_record(self, fold: Fold, seat: int, h: int) -> Any:
        return self.openings.opening_record(seat, h)

    def check_recorded_opening(
        self, fold: Fold, seat: int, h: int, record: Any, opening: tuple[int, bytes] | None
    ) -> None:
        self.openings.check_recorded_opening(fold, seat, h, record, opening)

    def check_shown(self, fold: Fold, rnd: Round, faces: dict[int, int]) -> Shown:
        return self.openings.check_shown(fold, rnd, faces)

    def secret_fields(self, fold: Fold, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        return self.openings.secret_fields(seat, body)

    def author_secret_fields(self, fold: Fold) -> dict[str, Any]:
        return self.openings.author_secret_fields(fold)

    def secrets_game_bytes(self) -> int:
        return self.openings.secrets_game_bytes()

    def audit_secrets(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """Every password commitment opened to its card's code, every sealed answer proof, every commitment opened."""
        return [
            *self.openings.audit_openings(fold, full),
            *self.answers.audit_answer_boxes(fold, full),
            *self.openings.audit_unopened(fold),
        ]


def new_password_handles(ev: Event) -> list[int]:
    """The password cards an event sets: a password's three, or Scramble Password's new ones."""
    if ev.get("t") == "password" and isinstance(ev.get("cards"), list):
        return list(ev["cards"])
    if ev.get("t") == "play" and isinstance(ev.get("new"), list):
        return list(ev["new"])  # Scramble Password (checked by the engine to be that card)
    return []
