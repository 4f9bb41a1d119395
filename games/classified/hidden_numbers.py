"""Classified Information's hidden numbers at the table: every answer about a Suitcase or a face-down Guard is checked
against the very card when it is given (docs/protocol.md, "Classified Information at the table").

Owns the fields an answering entry carries and their checks, as two objects with explicit arguments (no reach into a
fold's attributes, so the table's Machine calls them from its hooks and a test calls them with plain values):

- `HiddenNumbers` — every peer's public record: for each hidden card its holder has made a claim about, the
  Pedersen commitment ``C_h`` its first claim linked to it; `check` takes an answering entry's body and the claims
  the rules pose and raises `ProtocolError` naming the author for a missing, surplus or false link or proof, leaving
  the record untouched unless every check passed.
- `NumberProver` — the answering seat: the body fields of its answer (`number` and `link` with the first answer about
  a card, `proofs` always). An honest prover never proves a false claim (crypto raises `FalseStatement`).

An entry carries ``hidden: [item]``, one item per hidden card its event makes claims about (`HiddenNumbers.check_entry`;
an answer: one; the Big Reveal: each card it claims), each item ``{h, proofs, number?, link?}``:
``proofs: [bin ≤ 512]`` (one set membership proof per claim, in the rules' order); with the first claim about card
``h`` only, ``number: bin(32)`` (``C_h``, blinding ``number_blinding(game_id, h, deck secret)``) and
``link: [share: bin(97), proof: bin(128)]`` (the other seat's decryption share of ``h`` as it reached the holder,
and the card link proof in the number context ``(game_id, holder, h, "link", seq)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from adp2p.crypto import number_answers as na
from adp2p.crypto.card_link import PROOF_LEN as LINK_LEN
from adp2p.crypto.card_link import prove_card_link, verify_card_link
from adp2p.crypto.deck import SHARE_LEN, Ciphertext, DeckKey, Share, combine, verify_share
from adp2p.crypto.errors import CryptoError, FalseStatement
from adp2p.crypto.group import POINT_LEN
from adp2p.crypto.set_proofs import (
    BRANCH_LEN,
    NumberContext,
    check_set,
    commit_number,
    number_blinding,
    prove_in_set,
    verify_in_set,
)
from adp2p.p2p.protocol import ProtocolError

RULE_LINK = "number_link"  # a hidden card's number commitment that is not its card's, or a link out of place
RULE_ANSWER = "classified_answer"  # an answer whose proof is missing or false
MAX_PROOF = (len(na.CARD_NUMBERS) - 1) * BRANCH_LEN  # 512: the largest set over 1..9
MAX_CLAIMS = 2  # claims about one card in one entry (Picking Petals names at most two numbers)
MAX_ITEMS = 6  # hidden cards one entry proves claims about (the Big Reveal: a Suitcase, Guards, a Final Card)
FIELDS = ("number", "link", "proofs")


class Claim(NamedTuple):
    """What an answer says about a hidden card: its number lies in `members` (a public subset of 1..9, strictly
    increasing; empty when the answer given is true of no number at all). `purpose` names the question in the proof's
    context (the rules' question kind: `near`, `equal`, `in_code`, `touch`, `not_suitcase`, `guard_guild`)."""

    purpose: bytes
    members: tuple[int, ...]


class Due(NamedTuple):
    """One hidden card an entry must prove claims about: its handle, its ciphertext (from a pile this peer checked),
    and the claims the rules make about it at this seq."""

    h: int
    card: Ciphertext
    claims: tuple[Claim, ...]


def claim_of(purpose: bytes, holds: Callable[[int], bool], said: bool) -> Claim:
    """The claim of the answer `said` to a question whose truth for a hidden number n is `holds(n)`: the rules'
    own truth (engine/classified/questions.py with the hidden face set to n), so no rule is written twice."""
    return Claim(purpose, tuple(n for n in na.CARD_NUMBERS if holds(n) == said))


def answer_claim(q: na.Question, x: int, yes: bool) -> Claim:
    """The claim of the answer `yes` to the named question `(q, x)` of crypto/number_answers.py."""
    return Claim(q.value, na.answer_set(q, x, yes))


def _check_claims(claims: Sequence[Claim]) -> None:
    if not 1 <= len(claims) <= MAX_CLAIMS:
        raise ValueError("an answer makes one or two claims")
    for purpose, members in claims:
        if type(purpose) is not bytes or not 1 <= len(purpose) <= 64:
            raise ValueError("a claim's purpose is 1..64 bytes")
        if not isinstance(members, tuple) or not set(members) <= set(na.CARD_NUMBERS):
            raise ValueError("a claim's members are a strictly increasing subset of 1..9")
        if members:
            check_set(members)  # MalformedEncoding unless strictly increasing


class HiddenNumbers:
    """Every peer's record of the hidden cards' linked number commitments, and the check of each answer."""

    def __init__(self, game_id: bytes, id_base: bytes, deck_keys: Sequence[bytes]) -> None:
        """`deck_keys`: the two seats' published deck keys (each checked with its Schnorr proof at `join`)."""
        if len(deck_keys) != 2:
            raise ValueError("Classified Information is a game of two seats")
        self.game_id, self.id_base, self.deck_keys = game_id, id_base, tuple(deck_keys)
        # (holder seat, handle) -> C_h: a holder's commitment opens with its own deck secret only, so a card that
        # changed hands hidden (none does in the Citrine deck) would be linked again by its new holder
        self.linked: dict[tuple[int, int], bytes] = {}

    def copy(self) -> HiddenNumbers:
        """A copy for a trial fold (the record is plain data)."""
        out = HiddenNumbers(self.game_id, self.id_base, self.deck_keys)
        out.linked = dict(self.linked)
        return out

    def commitment(self, h: int, seat: int) -> bytes | None:
        """The commitment `seat` linked to card `h` (None: none yet)."""
        return self.linked.get((seat, h))

    def check_entry(self, author: int, seq: int, due: Sequence[Due], body: Mapping[str, Any]) -> None:
        """Every peer, on the entry at `seq` by `author` whose event makes the claims `due` (one item per hidden card,
        in the rules' order: an answer, an Enlist face down, the Big Reveal's cards): its `hidden` field must be one
        item `{h, proofs, number?, link?}` per card, in that order, each checked as `check` does. ProtocolError
        naming `author` otherwise; the record changes only if every item passed."""
        if not 1 <= len(due) <= MAX_ITEMS or len({d.h for d in due}) != len(due):
            raise ValueError("an entry proves claims about 1..6 distinct hidden cards")  # the rules' bug
        items = body.get("hidden")
        if not (isinstance(items, list) and len(items) == len(due)):
            raise ProtocolError(author, f"its entry carries no proof item per hidden card ({len(due)} due)",
                                rule=RULE_ANSWER)
        trial = self.copy()
        for d, item in zip(due, items, strict=True):
            if not isinstance(item, dict) or type(item.get("h")) is not int or item["h"] != d.h \
                    or not set(item) <= {"h", *FIELDS}:
                raise ProtocolError(author, f"its proof item for card {d.h} is not {{h, proofs, number?, link?}}",
                                    rule=RULE_ANSWER)
            trial.check(author, seq, d.h, d.card, d.claims, item)
        self.linked = trial.linked

    def check(
        self, author: int, seq: int, h: int, card: Ciphertext, claims: Sequence[Claim], body: Mapping[str, Any]
    ) -> None:
        """Every peer, on the entry at `seq` by `author` answering `claims` about its hidden card `h` (ciphertext
        `card`, from a pile this peer checked): raise ProtocolError naming `author` unless the entry carries a true
        proof of each claim against `h`'s linked commitment (linking it now if this is the first answer about it)."""
        _check_claims(claims)  # the rules' (the caller's): a bad one is our bug, never the author's
        if author not in (0, 1):
            raise ProtocolError(author, "no seat of this game answers", rule=RULE_ANSWER)
        held = self.linked.get((author, h))
        if held is None:
            commitment = self._link(author, seq, h, card, body)
        else:
            if "number" in body or "link" in body:
                raise ProtocolError(author, f"a second number or link for card {h}, already linked", rule=RULE_LINK)
            commitment = held
        self._answers(author, seq, h, commitment, claims, body)
        if held is None:
            self.linked[(author, h)] = commitment

    def _link(self, author: int, seq: int, h: int, card: Ciphertext, body: Mapping[str, Any]) -> bytes:
        number, link = body.get("number"), body.get("link")
        if type(number) is not bytes or len(number) != POINT_LEN:
            raise ProtocolError(author, f"its first answer about card {h} carries no number commitment", rule=RULE_LINK)
        if not (isinstance(link, list) and len(link) == 2 and all(type(p) is bytes for p in link)):
            why = f"its first answer about card {h} carries no link [share, proof]"
            raise ProtocolError(author, why, rule=RULE_LINK)
        raw_share, proof = link
        if len(raw_share) != SHARE_LEN or len(proof) != LINK_LEN:
            raise ProtocolError(author, f"card {h}: a link of {len(raw_share)} + {len(proof)} bytes", rule=RULE_LINK)
        other = 1 - author
        try:
            share = Share.from_bytes(raw_share)
            if share.seat != other:
                raise ProtocolError(author, f"card {h}: its link's share is not seat {other + 1}'s", rule=RULE_LINK)
            verify_share(self.game_id, self.deck_keys[other], h, card, share)
            c2p = combine(card, [share.d])
            ctx = NumberContext(self.game_id, author, h, b"link", seq)
            verify_card_link(self.id_base, card.c1, c2p, self.deck_keys[author], number, proof, ctx)
        except CryptoError as exc:
            why = f"its proof that its number commitment is card {h}'s number does not verify: {exc}"
            raise ProtocolError(author, why, rule=RULE_LINK) from None
        return number

    def _answers(
        self, author: int, seq: int, h: int, commitment: bytes, claims: Sequence[Claim], body: Mapping[str, Any]
    ) -> None:
        proofs = body.get("proofs")
        if not (isinstance(proofs, list) and len(proofs) == len(claims)):
            raise ProtocolError(author, f"its answer carries no proof per claim ({len(claims)} due)", rule=RULE_ANSWER)
        for (purpose, members), proof in zip(claims, proofs, strict=True):
            if type(proof) is not bytes or len(proof) > MAX_PROOF:
                raise ProtocolError(author, "an answer proof that is not bytes of at most 512", rule=RULE_ANSWER)
            what = f"its {purpose.decode(errors='replace')} answer about card {h}"
            if not members:
                raise ProtocolError(author, f"{what} is true of no number", rule=RULE_ANSWER)
            try:
                verify_in_set(commitment, members, proof, NumberContext(self.game_id, author, h, purpose, seq))
            except CryptoError:
                raise ProtocolError(author, f"{what} is not proved (its number is not in {members})",
                                    rule=RULE_ANSWER) from None


class NumberProver:
    """The answering seat's side: the fields of an answer about one of its hidden cards."""

    def __init__(self, game_id: bytes, id_base: bytes, key: DeckKey) -> None:
        self.game_id, self.id_base, self.key = game_id, id_base, key

    def fields(
        self,
        seq: int,
        h: int,
        card: Ciphertext,
        face: int,
        number: int,
        claims: Sequence[Claim],
        *,
        link_share: Share | None,
        entropy: bytes | None = None,
    ) -> dict[str, Any]:
        """The body fields of the answer at `seq` about card `h` (index `face` of the table, Card Number `number`):
        `link_share` (the other seat's share of `h`, as it reached us) for the first answer about `h`, else None.
        FalseStatement for a claim its number does not satisfy (an empty claim included): never a false proof."""
        _check_claims(claims)
        if not all(number in members for _purpose, members in claims):
            raise FalseStatement("a claim its number does not satisfy")
        seat = self.key.seat
        blind = number_blinding(self.game_id, h, self.key.secret)
        c = commit_number(number, blind)
        out: dict[str, Any] = {}
        if link_share is not None:
            c2p = combine(card, [link_share.d])
            ctx = NumberContext(self.game_id, seat, h, b"link", seq)
            proof = prove_card_link(self.id_base, card.c1, c2p, self.key.secret, c, number, blind, face, ctx,
                                    entropy=entropy)
            out["number"], out["link"] = c, [link_share.to_bytes(), proof]
        out["proofs"] = [
            prove_in_set(c, number, blind, members, NumberContext(self.game_id, seat, h, purpose, seq),
                         entropy=entropy)
            for purpose, members in claims
        ]
        return out

    def item(
        self,
        seq: int,
        h: int,
        card: Ciphertext,
        face: int,
        number: int,
        claims: Sequence[Claim],
        *,
        link_share: Share | None,
        entropy: bytes | None = None,
    ) -> dict[str, Any]:
        """One item of an entry's `hidden` list: `fields` with the card's handle."""
        return {"h": h, **self.fields(seq, h, card, face, number, claims, link_share=link_share, entropy=entropy)}
