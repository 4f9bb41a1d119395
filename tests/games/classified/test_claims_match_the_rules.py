"""The claims the table proves are the rules' own answers: for every question the rules engine asks about a hidden
card (engine/classified/questions.py), every public number and both answers, the set `claim_of` derives from the
engine's truth is the set crypto/number_answers.py names for that question, so the proofs and the referee can never
disagree about what an answer means. (Skipped until the rules engine is on this branch: it lands from its own.)"""

from __future__ import annotations

from typing import Any

import pytest
from adp2p.crypto import number_answers as na
from adp2p.games.classified.hidden_numbers import answer_claim, claim_of

questions = pytest.importorskip("adp2p.engine.classified.questions")
catalog = pytest.importorskip("adp2p.engine.classified.catalog")

SUIT, SHOWN, GUARD = 100, 101, 102  # handles: the answerer's Suitcase, a card shown, a face-down Guard


def _engine_claim(kind: str, x: int, said: bool) -> Any:
    """The claim of answer `said` to the engine's question of kind `kind` about `x`, from the engine's truth."""
    q: dict[str, Any] = {
        "near": {"q": "near", "n": x, "s": SUIT},
        "in_code": {"q": "in_code", "n": x, "s": SUIT},
        "equal": {"q": "equal", "h": SHOWN, "s": SUIT},
        "touch": {"q": "touch", "a": x, "g": GUARD},
        "not_suitcase": {"q": "not_suitcase", "n": x, "s": SUIT},
    }[kind]

    def holds(n: int) -> bool:
        faces = {SUIT: n, GUARD: n, SHOWN: x}
        got = questions.truth(q, faces.get)
        assert got is not None
        return bool(got)

    return claim_of(kind.encode(), holds, said)


@pytest.mark.parametrize("q", list(na.Question), ids=lambda q: q.name.lower())
def test_every_question_means_the_same_set_to_the_rules_and_to_the_proofs(q: na.Question) -> None:
    for x in na.CARD_NUMBERS:
        for said in (True, False):
            assert _engine_claim(q.value.decode(), x, said) == answer_claim(q, x, said)


def test_the_guild_claim_is_the_rules_card_data() -> None:
    def holds(n: int) -> bool:
        got = questions.truth({"q": "guard_guild", "h": GUARD}, {GUARD: n}.get)
        assert got is not None
        return bool(got)

    guards = claim_of(b"guard_guild", holds, True)
    assert guards.members == tuple(n for n in na.CARD_NUMBERS if catalog.card(n).can_guard)
    assert 0 < len(guards.members) < 9  # a proper subset: an Assassin cannot be enlisted face down


def test_a_big_reveal_claim_is_the_one_number_claimed() -> None:
    for x in na.CARD_NUMBERS:
        def holds(n: int, x: int = x) -> bool:
            got = questions.truth({"q": "claim", "h": GUARD, "n": x}, {GUARD: n}.get)
            assert got is not None
            return bool(got)

        assert claim_of(b"claim", holds, True).members == (x,)
        assert claim_of(b"claim", holds, False).members == answer_claim(na.Question.NOT_NUMBER, x, True).members
