"""Hacker's sealed values and private dice at the table: a piece of Hacker's table part (part.py; it reads the fold
through `Fold`, p2p/machine/game_part.py, and keeps the log's seals and rolls).

- A seal (`seal` of a place, a laying, a hack pad) is a real hash commitment (crypto/commit_open.py, bound to the
  game, the sealing seat and the slot ``"hk/" what ‖ u64(seq of the seal entry)``): the entry carries `commits`
  (one commitment; a pad: 25, one per square, slot ‖ u8(k), value 1 = a check) and the event's `c` is their tag.
  The sealing seat keeps the openings in its secrets (`SeatSecrets.openings`, slot `32·seq + k`, written before its
  entry is signed, so a resumed seat refolds them) and its own engine learns the value.
- Each opening is checked by every peer the moment it arrives, before the rules see the event (check before
  blame: an opening that does not match names the seat that sent it): an `unseal` carries `opening`, each hack-pad
  `answer` carries the opening of the square probed (an answer against the committed pad is rejected at once,
  naming the controller), `open_pad` carries all 25 `openings` and the roll's secret (`roll`).
- A private roll (crypto/dice.py): the controller's `private_roll` entry commits to a secret s for roll number
  2·seq (its `commits`); the next entry is the CHANCE `roll_beacon`, a beacon pick drawn only after it; the two dice
  are dice.face for roll numbers 2·seq and 2·seq+1 with that pick. Only the controller knows them until
  `open_pad`, where every peer checks s against the commitment and recomputes the dice from the log's pick.
"""

from __future__ import annotations

import hashlib
from typing import Any

from adp2p.crypto import dice
from adp2p.crypto.commit_open import Binding, check_opening, commit_slots, commit_value
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.hashing import u64
from adp2p.games.hacker.table_events import INDEX, SQUARES
from adp2p.p2p.machine.common import Event, _check_event_shape
from adp2p.p2p.machine.game_part import Fold
from adp2p.p2p.protocol import ProtocolError, need

DOMAIN = b"adp2p/v1/hacker/seal\0"  # the domain of Hacker's seals (seat-bound commit_open form)
OPENED_BY = {"unseal", "answer", "open_pad"}
SLOTS = 32  # a seat's openings of one entry: slots 32·seq + k (k < 25: a seal's parts; ROLL_SLOT: a roll's secret)
ROLL_SLOT = 31


def tag(commits: list[bytes]) -> str:
    """The event's `c`: a short tag of the entry's commitments (the core's event strings are at most 32 chars)."""
    return hashlib.blake2b(b"".join(commits), digest_size=16).hexdigest()


def encode(what: str, value: Any) -> bytes:
    """The committed bytes of a place (a department) or a laying (its two piles, sorted)."""
    if what == "place":
        return pack(value)
    return pack([sorted(value["chance"]), sorted(value["term"])])


def beacon32(b: str) -> bytes:
    return hashlib.blake2b(bytes.fromhex(b), digest_size=32).digest()


def _pair(x: Any) -> tuple[bytes, bytes]:
    if not (isinstance(x, list) and len(x) == 2 and isinstance(x[0], bytes) and len(x[0]) <= 64
            and isinstance(x[1], bytes) and len(x[1]) == 32):
        raise ProtocolError(None, "an opening is [value, 32-byte salt]")
    return x[0], x[1]


class Seals:
    """Sealed values and private dice (see the module docstring; a cheater of the zoo replaces this piece)."""

    def __init__(self) -> None:
        self.seals: dict[str, tuple[int, list[bytes]]] = {}  # "what:seat" -> (seq of the seal, its commitments)
        self.rolls: dict[int, dict[str, Any]] = {}  # seat -> {"r": roll number, "c": commitment, "b": beacon}

    @staticmethod
    def binding(fold: Fold, seat: int, what: str, seq: int) -> Binding:
        return Binding(DOMAIN, fold.game_id, seat, b"hk/" + what.encode() + u64(seq))

    # ------------------------------------------------------------------ this seat's secrets (SeatSecrets.openings)

    @staticmethod
    def keep(fold: Fold, seq: int, k: int, value: bytes, salt: bytes) -> None:
        """Keep an opening in this seat's secrets: slot 32·seq + k (k: a pad's square; ROLL_SLOT: a roll's secret)."""
        assert fold.me is not None
        fold.me.openings[SLOTS * seq + k] = (len(value), value + salt)

    @staticmethod
    def kept(fold: Fold, seq: int, k: int) -> tuple[bytes, bytes]:
        assert fold.me is not None
        n, raw = fold.me.openings[SLOTS * seq + k]
        return raw[:n], raw[n:]

    def my_value(self, fold: Fold, what: str, seq: int) -> Any:
        """The value this seat sealed at `seq` (read back from its openings)."""
        if what == "pad":
            return [SQUARES[k] for k in range(len(SQUARES)) if self.kept(fold, seq, k)[0] == b"\x01"]
        value = unpack_canonical(self.kept(fold, seq, 0)[0], "a sealed value")
        return value if what == "place" else {"chance": value[0], "term": value[1]}

    # ------------------------------------------------------------------ authoring (this seat's secrets)

    def event_body(self, fold: Fold, ev: Event) -> dict[str, Any]:
        t, seq, seat = ev.get("t"), fold.entries, fold.seat
        assert seat is not None
        if t == "seal":
            what, value = ev["what"], ev["secret"]
            b = self.binding(fold, seat, what, seq)
            if what == "pad":
                made = commit_slots(b, [bytes([SQUARES[k] in value]) for k in range(len(SQUARES))])
            else:
                made = [commit_value(b, encode(what, value))]
            for k, (_, o) in enumerate(made):
                self.keep(fold, seq, k, o.value, o.salt)
            commits = [c for c, _ in made]
            entry = {k: v for k, v in ev.items() if k != "secret"} | {"c": tag(commits)}
            return {"ev": entry, "commits": commits}
        if t == "private_roll":
            c, s = dice.commit_roll(fold.game_id, seat, 2 * seq, fold.draw_secret("roll", 2 * seq))
            self.keep(fold, seq, ROLL_SLOT, b"", s.secret)
            return {"ev": {"t": "private_roll", "p": seat, "c": tag([c])}, "commits": [c]}
        if t == "unseal":
            return {"opening": list(self.kept(fold, self.seals[f"{ev['what']}:{seat}"][0], 0))}
        if t == "answer":
            at = self.seals[f"pad:{seat}"][0]
            return {"opening": list(self.kept(fold, at, INDEX[fold.state.eng.stack[-1]["sq"]]))}
        if t == "open_pad":
            at = self.seals[f"pad:{seat}"][0]
            roll = self.kept(fold, self.rolls[seat]["r"] // 2, ROLL_SLOT)[1]
            return {"openings": [list(self.kept(fold, at, k)) for k in range(len(SQUARES))], "roll": roll}
        return {}

    # ------------------------------------------------------------------ every peer: commitments and openings

    def check_event(self, fold: Fold, seat: int, body: dict[str, Any]) -> Event:
        """Before the rules: the entry carries exactly the fields its event needs, its commitments are well formed,
        its opening opens the seat's commitment (else the seat is named)."""
        ev = need(body, "ev", dict)
        _check_event_shape(ev, fold.game.bool_fields)
        if fold.game.is_chance_event(ev):
            raise ProtocolError(seat, "chance events are derived, never authored")
        if "secret" in ev:
            raise ProtocolError(seat, "an event entry never carries a secret (only its commitment)")
        t = ev.get("t")
        want = {"seal": {"commits"}, "private_roll": {"commits"}, "unseal": {"opening"}, "answer": {"opening"},
                "open_pad": {"openings", "roll"}}.get(t, set())
        have = set(body) - {"ev", "passes"}
        if have != want:
            raise ProtocolError(seat, f"a {t!r} event entry carries {sorted(want)}, not {sorted(have)}")
        try:
            if t in ("seal", "private_roll"):
                self.commits(ev, body)
            elif t in OPENED_BY:
                self.check_opening_of(fold, seat, ev, body)
        except ProtocolError as exc:
            raise ProtocolError(seat, exc.args[0] if exc.args else "a bad opening") from None
        except (CryptoError, KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(seat, f"seat {seat + 1}'s {t} does not open its commitment ({type(exc).__name__})") \
                from None
        return ev

    def after_event(self, fold: Fold, seat: int, body: dict[str, Any], ev: Event, before: Any) -> Any:
        """After the rules: the seal or roll kept (and what this seat sealed, known to its own engine), an opened one
        forgotten. Returns the state that knows this seat's own sealed value, or None."""
        t, seq = ev.get("t"), fold.entries
        if t == "seal":
            self.seals[f"{ev['what']}:{seat}"] = (seq, self.commits(ev, body))
            if seat == fold.seat and fold.me is not None:
                return fold.game.learn_secret(fold.state, ev["what"], seat, self.my_value(fold, ev["what"], seq))
        elif t == "private_roll":
            self.rolls[seat] = {"r": 2 * seq, "c": self.commits(ev, body)[0], "b": None}
        elif t == "open_pad":
            self.seals.pop(f"pad:{seat}", None)
            self.rolls.pop(seat, None)
        elif t == "unseal":
            self.seals.pop(f"{ev['what']}:{seat}", None)
        return None

    @staticmethod
    def commits(ev: Event, body: dict[str, Any]) -> list[bytes]:
        commits = need(body, "commits", list, max_len=len(SQUARES))
        size = len(SQUARES) if ev.get("what") == "pad" else 1
        if len(commits) != size or any(not isinstance(c, bytes) or len(c) != 32 for c in commits):
            raise ProtocolError(None, f"a {ev.get('what', 'roll')} seal carries {size} 32-byte commitment(s)")
        if ev.get("c") != tag(commits):
            raise ProtocolError(None, "the event's c is not the tag of its commitments")
        return commits

    def check_opening_of(self, fold: Fold, seat: int, ev: Event, body: dict[str, Any]) -> None:
        """Every peer, before the rules: the opening against the seat's commitment (ProtocolError naming it)."""
        t = ev["t"]
        if t == "unseal":
            what = ev.get("what")
            seq, commits = self.seals[f"{what}:{seat}"]
            got = check_opening(self.binding(fold, seat, what, seq), commits[0], _pair(body["opening"]))
            if got != encode(what, ev["to"] if what == "place" else ev):
                raise ProtocolError(seat, f"seat {seat + 1} opened a {what} other than the one it sealed")
            return
        seq, commits = self.seals[f"pad:{seat}"]
        b = self.binding(fold, seat, "pad", seq)
        if t == "answer":
            k = INDEX[fold.state.eng.stack[-1]["sq"]]
            got = check_opening(b._replace(slot=b.slot + bytes([k])), commits[k], _pair(body["opening"]))
            if got != bytes([ev.get("check") is True]):
                raise ProtocolError(seat, f"seat {seat + 1} (controller) answered {SQUARES[k]} against its pad")
            return
        openings = need(body, "openings", list, size=len(SQUARES))
        checks = {k for k in range(len(SQUARES))
                  if check_opening(b._replace(slot=b.slot + bytes([k])), commits[k], _pair(openings[k])) == b"\x01"}
        if checks != set(ev.get("checks") or []):
            raise ProtocolError(seat, f"seat {seat + 1} (controller) opened another pad than it sealed")
        roll = self.rolls[seat]
        s = need(body, "roll", bytes, size=dice.SECRET_LEN)
        faces = [dice.open_roll(fold.game_id, seat, roll["r"], roll["c"], s, roll["b"], 6),
                 dice.face(fold.game_id, seat, roll["r"] + 1, s, roll["b"], 6)]
        if ev.get("roll") != faces:
            raise ProtocolError(seat, f"seat {seat + 1} (controller) opened a roll other than its private roll")

    def note(self, fold: Fold, before: Any, ev: Event) -> Any:
        """The beacon pick of a private roll: its seat now knows its dice (the state that knows them, or None)."""
        if ev.get("t") != "roll_beacon":
            return None
        p = ev["p"]
        roll = self.rolls.get(p)
        if roll is None:
            return None
        roll["b"] = beacon32(ev["b"])
        if p == fold.seat and fold.me is not None:
            s = self.kept(fold, roll["r"] // 2, ROLL_SLOT)[1]
            faces = [dice.face(fold.game_id, p, roll["r"] + i, s, roll["b"], 6) for i in range(2)]
            return fold.game.learn_secret(fold.state, "roll", p, faces)
        return None
