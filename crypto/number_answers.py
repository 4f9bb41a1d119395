"""Proved answers about a hidden Card Number (Classified Information): each answer is a public set.

Owns the statement every answer makes about a number ``n`` on the Cypher Wheel 1..9 (hidden: a Suitcase, a
face-down Guard, held as a Pedersen commitment linked to the dealt card by crypto/card_link.py) and its proof, one
set membership proof of crypto/set_proofs.py. When a question is asked and who answers is the rules engine's
business (engine/classified); this module says only what "yes" and "no" mean and proves them. Exact bytes:
docs/protocol.md, "Proved answers (primitive)", answers about a hidden Card Number.

A question is ``(kind, x)`` with ``x`` a public number 1..9; its "yes" set is ``{n ∈ 1..9 : holds(kind, n, x)}``
and its "no" set the rest of 1..9:

- ``NEAR`` (Fortune Teller): ``n`` is within ±2 of ``x`` counting around the wheel (9 and 1 are neighbours).
- ``EQUAL`` (Test Access Codes): ``n == x``.
- ``IN_CODE`` (Wheel of Fate): ``x`` is in ``n``'s Code ``{n−1, n, n+1}`` (wrapping 9 → 1).
- ``CODES_TOUCH`` (an Assassination Attempt on a face-down Guard ``n`` by an Assassin of Card Number ``x``): the
  two Codes share a number.
- ``NOT_NUMBER`` (Picking Petals: "``x`` is not my Suitcase Number"): ``n != x``. That ``x`` is not 3 either is a
  public fact about ``x`` the engine checks; there is nothing hidden to prove.

Every "yes" and every "no" set is a non-empty proper subset of 1..9, so every answer has a proof of 1..8 branches
(64..512 bytes), and a proof of "yes" says nothing the answer does not.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from .errors import FalseStatement, MalformedEncoding
from .set_proofs import (
    NumberContext,
    NumberSet,
    check_value,
    number_set,
    prove_in_set,
    verify_in_set,
)

WHEEL = 9  # Card Numbers 1..9, around a wheel
CARD_NUMBERS: NumberSet = tuple(range(1, WHEEL + 1))


def wheel(n: int) -> int:
    """The number ``n`` lands on around the wheel (…, 0 → 9, 10 → 1, …)."""
    return (n - 1) % WHEEL + 1


def code_of(n: int) -> NumberSet:
    """A Card Number's Code: one less, itself, one more, around the wheel (9: 8-9-1, 1: 9-1-2)."""
    return number_set(wheel(n + d) for d in (-1, 0, 1))


def within(n: int, x: int, radius: int = 2) -> bool:
    """Whether ``n`` is within ±radius of ``x`` counting around the wheel."""
    d = (n - x) % WHEEL
    return min(d, WHEEL - d) <= radius


class Question(Enum):
    """The kinds of question asked about a hidden Card Number; the value is the proof context's purpose."""

    NEAR = b"near"
    EQUAL = b"equal"
    IN_CODE = b"in_code"
    CODES_TOUCH = b"touch"
    NOT_NUMBER = b"not_suitcase"


_HOLDS: dict[Question, Callable[[int, int], bool]] = {
    Question.NEAR: lambda n, x: within(n, x),
    Question.EQUAL: lambda n, x: n == x,
    Question.IN_CODE: lambda n, x: x in code_of(n),
    Question.CODES_TOUCH: lambda n, x: bool(set(code_of(n)) & set(code_of(x))),
    Question.NOT_NUMBER: lambda n, x: n != x,
}


def _check_number(x: object, what: str) -> int:
    if check_value(x, what) not in CARD_NUMBERS:
        raise MalformedEncoding(f"{what}: expected a Card Number 1..{WHEEL}")
    assert type(x) is int
    return x


def _check_question(q: object) -> Question:
    if not isinstance(q, Question):
        raise MalformedEncoding("question: expected a Question")
    return q


def holds(question: Question, n: int, x: int) -> bool:
    """The true answer about the hidden number ``n`` to ``question`` about ``x``."""
    q = _check_question(question)
    return _HOLDS[q](_check_number(n, "hidden number"), _check_number(x, "asked number"))


def answer_set(question: Question, x: int, yes: bool) -> NumberSet:
    """The public set the hidden number lies in if the answer ``yes`` is true."""
    if type(yes) is not bool:
        raise MalformedEncoding("answer: expected a bool")
    return number_set(n for n in CARD_NUMBERS if holds(question, n, x) == yes)


def context(question: Question, game_id: bytes, seat: int, handle: int, seq: int) -> NumberContext:
    """The proof context of an answer: the answering seat, the card's handle, the question, the entry's seq."""
    return NumberContext(game_id, seat, handle, _check_question(question).value, seq)


def prove_claim(
    commitment: bytes,
    number: int,
    blind: bytes,
    question: Question,
    x: int,
    yes: bool,
    ctx: NumberContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """The proof of the answer ``yes`` (FalseStatement if it is false: an honest prover never proves a lie;
    CommitmentMismatch if ``commitment`` does not open to ``(number, blind)``)."""
    members = answer_set(question, x, yes)
    if _check_number(number, "hidden number") not in members:
        raise FalseStatement(f"the answer {'yes' if yes else 'no'} is false")
    return prove_in_set(commitment, number, blind, members, ctx, entropy=entropy)


def prove_answer(
    commitment: bytes,
    number: int,
    blind: bytes,
    question: Question,
    x: int,
    ctx: NumberContext,
    *,
    entropy: bytes | None = None,
) -> tuple[bool, bytes]:
    """The true answer and its proof."""
    yes = holds(question, number, x)
    return yes, prove_claim(commitment, number, blind, question, x, yes, ctx, entropy=entropy)


def verify_answer(commitment: bytes, question: Question, x: int, yes: bool, proof: bytes, ctx: NumberContext) -> None:
    """Raise InvalidProof unless ``proof`` shows the answer ``yes`` to ``question`` about ``x`` is true of the number
    ``commitment`` holds (MalformedEncoding for a malformed question, number, answer or context; InvalidPoint for a
    commitment that is no point)."""
    if not isinstance(ctx, NumberContext) or ctx.purpose != _check_question(question).value:
        raise MalformedEncoding("answer proof: the context's purpose is not the question")
    verify_in_set(commitment, answer_set(question, x, yes), proof, ctx)
