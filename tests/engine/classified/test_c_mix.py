"""Ruling C-MIX (docs/rules-classified.md): a hand is mixed after a show — the opponent shown a card of a hand knows
that the hand holds that number, not which of its cards it is, so a card it was shown and that is then enlisted face
down (or encrypted, or kept as the Final Card) is not told by the card it was shown (engine/classified/mixing.py;
the table's proof of shuffle over the hand: games/classified/mixing.py)."""

from __future__ import annotations

from collections import Counter

from adp2p.engine.classified import api
from adp2p.engine.classified.api import view
from adp2p.engine.classified.scenario import Scene


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


def test_the_mix_is_the_owners_decision_after_its_next_draw_and_renames_the_whole_hand() -> None:
    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)
    d = s.pending
    assert d is not None and (d.actor, d.kind, d.info) == (0, "mix", {"n": len(s.st.hands[0])})
    assert api.legal(s.st, 0) == [{"t": "mix", "p": 0}] and api.legal(s.st, 1) == []
    old, first = list(s.st.hands[0]), s.st.next_handle
    faces = Counter(s.st.faces[h] for h in old)
    s.mix()
    new = s.st.hands[0]
    assert new == list(range(first, first + len(old))) and s.st.next_handle == first + len(old)
    assert not set(old) & set(s.st.loc) and all(s.st.loc[h] == ("hand", 0) for h in new)
    assert view(s.st, 1).faces.get(old[0]) == s.st.faces[old[0]]  # a record at the old handle (account, answers)
    assert all(s.st.known[h] == 1 for h in new)  # shown to its owner alone: a private draw at the table
    assert Counter(s.st.faces[h] for h in new) == faces
    assert {"k": "mix", "p": 0, "n": len(old), "first": first, "old": old} in s.st.history
    assert s.pending.kind == "action" and s.pending.actor == 0  # then P1's action, as before
    assert s.st.hands[0] == new  # the card drawn this turn is mixed in with the others
    assert api.replay(s.profile, 2, s.log, s.faces, strict=True).hands == s.st.hands


def test_a_hand_shown_by_test_access_codes_is_mixed_at_its_owners_next_action() -> None:
    s = Scene(hands={0: [2, 1], 1: [7, 4]}, suitcases={1: 7})
    s.deploy(0, 2)
    s.pick(s.h(1, 7))  # the pick names the handles it was shown: no mix before it
    s.answer()
    d = s.pending
    assert d.kind == "mix" and d.actor == 1 and s.st.turn == 1  # P2's turn, after its draw
    s.mix()
    assert all(view(s.st, 0).faces.get(h) is None for h in s.st.hands[1])


def test_a_card_the_opponent_peeked_is_mixed_into_the_hand_that_draws_it() -> None:
    s = Scene(hands={0: [1, 2], 1: [3, 4]}, suitcases={0: 5, 1: 9}, deck=[6, 7, 8, 2])
    s.deploy(0, 1, n=1).answer()  # Fortune Teller: P1 PEEKs the top two; P2 draws the first of them
    d = s.pending
    assert d.kind == "mix" and d.actor == 1  # after P2's draw, before its action
    s.mix()
    assert s.pending.kind == "action" and s.pending.actor == 1
    assert all(view(s.st, 0).faces.get(h) is None for h in s.st.hands[1])


def test_a_hand_nobody_was_shown_is_never_mixed() -> None:
    s = Scene(hands={0: [1, 2], 1: [3, 4]}, suitcases={0: 5, 1: 9}, deck=[6, 7, 8, 2])
    s.play_out()
    assert not [x for x in s.st.history if x["k"] == "mix"]


def test_the_opponents_screen_does_not_follow_the_shown_card_to_the_guard_spot() -> None:
    """The client (terminal and page) draws from the view: after the show and the mix, P2's Guard spot for the card
    it was shown says only what may be under it, and the true number is among them."""
    from adp2p.cli.classified import screen, web

    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)
    number = s.st.faces[s.st.hands[0][0]]
    s.guard(0, number)
    spot = s.st.guards[0][-1]
    v = view(s.st, 1)
    options = screen.guard_options(v, 0, 1, spot)
    assert number in options and len(options) > 1
    (cell,) = [g for g in web.board(v, 1, None, "en")["them"]["guards"] if g["key"] == f"g{spot}"]
    assert cell["face"] is None and str(number) in cell["maybe"]  # the page
    cells = screen.guard_cells(v, 0, 1, "en").split()  # the terminal: "2:?v(...)", what may be under it
    assert cells[-1].startswith(f"{len(cells)}:?v(") and str(number) in cells[-1], cells


def test_a_hand_of_one_card_is_not_mixed() -> None:
    """Nothing to mix it with: the opponent knows the one card whatever its handle (a final turn draws nothing)."""
    from adp2p.engine.classified.mixing import ask_mix

    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    st = s.st.clone()
    st.hands[0] = st.hands[0][:1]
    st.known[st.hands[0][0]] = 3
    depth = len(st.stack)
    ask_mix(st, 0)
    assert len(st.stack) == depth
    st.hands[0] = s.st.hands[0][:2]
    ask_mix(st, 0)
    assert st.stack[-1] == {"op": "mix", "actor": 0}


def test_a_card_seen_before_a_mix_and_again_after_it_is_counted_once() -> None:
    """The Cypher Wheel counts the cards seen among the handles in play: the card P2 was shown, mixed into P1's hand
    and seen again under its new handle is one card, not both copies of its number (else the wheel would rule out a
    Suitcase Number that is still possible)."""
    from adp2p.engine.classified.wheel import weights

    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)
    shown = s.st.hands[0][0]
    number = s.st.faces[shown]
    s._settle()
    new = s.h(0, number)
    st = s.st.clone()
    st.known[new] = 3  # the same card, seen again under its new handle (as a face-up play would show it)
    assert weights(st, 0, 1).get(number) == 1  # one copy seen: the other may be P1's Suitcase
