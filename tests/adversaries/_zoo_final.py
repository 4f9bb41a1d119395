"""Cheaters against "results are final" (issue 34, docs/protocol.md "Precedence at one seq" and "Results are final"),
reusable levers for a coalition test: a late lie in `secrets` then a stall, a `secrets` body one byte over its bound
then a stall, a `secrets` body padded with a witness for a pile no pile uses, and the evidence bodies a seat can post
against itself or hold back (`self_accusation`, `junk_entry`). Machine subclasses for the in-process zoo table
(tests/adversaries/_zoo.py); the evidence builders are plain functions a networked attacker uses too."""

from __future__ import annotations

from typing import Any

from _zoo import BadShare, Blind, SeesOwnFaces, ad_part
from adp2p.crypto.entries import encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.games.access_denied.answers import Answers
from adp2p.p2p.protocol import Kind, encode_body


class LateLieThenStall(SeesOwnFaces):
    """Honest in play; once the game is over it reveals a box secret that is not the one it published (named at once
    by every peer), then reveals nothing more and is abandoned (attack 2 of issue 34). It sees its own faces
    (`SeesOwnFaces`): it plays the very game an honest seat would up to the result it attacks (as a plain `Blind`, its
    bot played a Hacker hand blind and reached another result)."""

    class Author(SeesOwnFaces.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.kind == Kind.SECRETS and d.seat == fold.seat:
                if fold.cheat_seq is not None:
                    return None  # the stall
                out = super().author_next(fold, choose)
                fold.cheated()
                return out[0], {**out[1], "box_secret": bytes(32)}
            return super().author_next(fold, choose)

    author = Author()


class OversizedSecretsThenStall(LateLieThenStall):
    """Its `secrets` body is exactly one byte over the bound for its log (a witness padded), then it stalls (attack
    7): malformed, named at once, then abandoned."""

    class Author(LateLieThenStall.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is None or d.kind != Kind.SECRETS or d.seat != fold.seat or fold.cheat_seq is not None:
                return super().author_next(fold, choose)
            kind, body = Blind.Author.author_next(self, fold, choose)
            fold.cheated()
            return kind, pad_to(body, fold.ending.secrets_bound(fold) + 1)

    author = Author()


class PadsWitness(SeesOwnFaces):
    """Its `secrets` body carries, besides its true witnesses, a witness for a pile index that no pile of the log uses,
    padding the body up to exactly its bound (attack 9): the body must be refused, naming it. Honest in play, seeing
    its own faces (`SeesOwnFaces`)."""

    class Author(SeesOwnFaces.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            out = super().author_next(fold, choose)
            if out is None or d is None or d.kind != Kind.SECRETS or fold.cheat_seq is not None:
                return out
            fold.cheated()
            kind, body = out
            spare = len(fold.hmap.piles)  # the one index a verdict may leave a witness for: there is no verdict
            body = {**body, "witnesses": [*body["witnesses"], [spare, b""]]}
            return kind, pad_to(body, fold.ending.secrets_bound(fold), item=-1)

    author = Author()


def pad_to(body: dict[str, Any], size: int, item: int = 0) -> dict[str, Any]:
    """`body` with witness `item`'s bytes padded so that the body's encoding is exactly `size` bytes."""
    ws = [list(w) for w in body["witnesses"]]
    for _ in range(4):  # msgpack's length headers may grow with the padding: settle in a few steps
        out = {**body, "witnesses": ws}
        n = len(encode_body(out))
        if n == size:
            return out
        ws[item][1] = ws[item][1] + bytes(size - n) if n < size else ws[item][1][: size - n]
    raise AssertionError("could not pad the body to its size")


def junk_entry(ident: SecretIdentity, game_id: bytes, seq: int, prev: bytes, seat: int) -> bytes:
    """An entry signed by `seat` for `seq` that no rule lets it write (an event out of turn, with a made-up move): the
    raw a seat's evidence against itself carries."""
    body = {"ev": {"t": "nonsense", "p": seat}}
    return encode_entry(ident, game_id, seq, prev, seat, int(Kind.EVENT), encode_body(body))


def self_accusation(ident: SecretIdentity, game_id: bytes, seq: int, prev: bytes, seat: int) -> dict[str, Any]:
    """The body of evidence by `seat` against its own junk entry at `seq` (attack 3: posted at the seq of the winning
    entry, it used to set the win aside)."""
    return {"what": "entry", "raw": junk_entry(ident, game_id, seq, prev, seat), "reason": "my own lie"}


class Accomplice(Blind):
    """The attempter of a controller that seals a broken answer proof to it (its partner, attack 1 of issue 34): its
    machine accepts the answer and plays on, keeping what it found (`held`: the seq and the fault) for a late post."""

    held: tuple[int, str] | None = None  # (seq, what was wrong)

    class Pieces(Answers):
        def answer_proof(self, fold: Any, ctrl: int, before: Any, ev: Any, box: bytes) -> None:
            from adp2p.p2p.protocol import ProtocolError

            try:
                super().answer_proof(fold, ctrl, before, ev, box)
            except ProtocolError as exc:
                if fold.held is None:
                    fold.held = (fold.entries, str(exc))  # (a snapshot deep-copies it: no exception object)
                    fold.cheated()

    part_factory = ad_part(answers=Pieces)


class BadShareTo(BadShare):
    """`_zoo.BadShare` aimed at one learner (`victim`): a wrong decryption share in the first item of its own it seals
    to that seat, which that seat alone can prove (with its box secret)."""

    victim = 2

    def wanted(self, h: int) -> bool:
        return self.round is not None and bool(self.round.learners.get(h, 0) >> self.victim & 1)


class SelfAccuser(Blind):
    """Marks the seat whose peer posts evidence against itself (the peer does it: `_zoo_final.self_accusation`)."""


class KeepsBackMustLay(SeesOwnFaces):
    """Hacker, `advanced-superspy`: at its first laying while it holds a card it must lay (SUPERSPY PROTECTION under
    the face-down option, BLACKOUT, SUPER SPY) whose face no other seat knows, it seals a laying of nothing, then plays
    on honestly (attack 8 of issue 34). Only its own faces show the cheat: every other peer records the obligation and
    the audit's strict replay names it (`must_lay_card`). Its own engine judges blind, so it lets the laying pass; it
    and its bot choose knowing its faces (`SeesOwnFaces`).

    (As a plain `Blind` its view held no private face: `lie` never fired, and its random bot, blind to its own hand,
    sometimes left a must-lay card out by accident: an audit-only cheat where nobody else knew that card's face, one
    that a peer knowing the face proved at once where one did.)"""

    def lie(self, seen: Any, p: int, options: list[Any], what: str) -> Any:
        from adp2p.engine.hacker.catalog import card
        from adp2p.engine.hacker.facedown import must_lay

        if what != "seal" or not options or options[0].get("what") != "lay":
            return None
        st = seen.eng
        kept = [h for h in st.hands[p] if h in st.faces and must_lay(st, card(st.faces[h]))]
        if kept and all(self.state.known.get(h, 0) == 1 << p for h in kept):  # its faces alone: no peer sees it
            return {**options[0], "secret": {"chance": [], "term": []}}
        return None
