"""Ruling C-MIX (docs/rules-classified.md): a hand is mixed after a show — the opponent shown a card of a hand knows
that the hand holds that number, not which of its cards it is, so a card it was shown and that is then enlisted face
down (or encrypted, or kept as the Final Card) is not told by the card it was shown.

NOT IMPLEMENTED YET: the table names every card by a handle (public), and the hand keeps its handles after a show,
so the attacker can follow the card it saw to the face-down Guard spot (docs/protocol.md, "Hands are mixed after a
show", is the design: a proof of shuffle over the hand's ciphertexts with fresh handles). The test below states the
ruling and fails today; it is marked xfail(strict): the day the mix lands it passes, and the mark must go."""

from __future__ import annotations

import pytest
from adp2p.engine.classified.api import view
from adp2p.engine.classified.scenario import Scene


@pytest.mark.xfail(strict=True, reason="C-MIX: the hand mix after a show is not implemented (docs/rules-classified.md)")
def test_a_card_shown_after_a_failed_attempt_is_not_followed_to_a_face_down_guard() -> None:
    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)  # P1: a face-down 4 (Code 3 4 5)
    g = s.h(0, 4, "guard")
    s.assassin(1, 1, g)  # P2: Fortune Teller (Code 9 1 2) against it: no touch, the attempt fails
    s.pass_()
    s.answer()
    s.show(0)  # P1 shows P2 the first card of its hand
    shown = s.st.hands[0][0]
    number = s.st.faces[shown]
    assert view(s.st, 1).faces.get(shown) == number  # P2 saw it (the rules: 003:38)
    s.guard(0, number)  # P1's turn: it enlists exactly that card face down
    spot = s.st.guards[0][-1]
    assert view(s.st, 1).faces.get(spot) is None, "P2 follows the card it was shown to P1's face-down Guard"
