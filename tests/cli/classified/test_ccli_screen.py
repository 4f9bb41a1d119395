"""Classified Information's screen at 80x24 in English and German, from positions built with the engine's scenario
API: the hand, the Suitcase and its Code, the Guard spots (a face-down one of the opponent's with the numbers it may
be), the Cypher Wheel after answers, the piles, the staged menu (card, how, target), the true answer taken without
asking, and the end screen with the Big Reveal."""

from __future__ import annotations

import io

import pytest
from adp2p.cli.classified import screen
from adp2p.cli.classified.human import Human, compose
from adp2p.cli.classified.menu import Menu, every_choice
from adp2p.cli.classified.words import card_name
from adp2p.engine.classified.api import legal, pending, view
from adp2p.engine.classified.scenario import Scene

SIZE = (80, 24)


def page(s: Scene, me: int, lang: str) -> list[str]:
    v = view(s.st, me)
    d = pending(v)
    stage = Menu(v, me, d.kind, d.info, legal(v, me), lang).stage() if d and d.actor == me else None
    lines = compose(v, me, lang, stage, *SIZE, [])
    assert len(lines) == SIZE[1] - 1 and all(len(x) <= SIZE[0] - 1 for x in lines), lines
    return lines


def at_action() -> Scene:
    # P1 holds 1 Fortune Teller, 5 Scavenge, draws 7; Suitcase 6. P2's Suitcase 2.
    return Scene(hands={0: [1, 5], 1: [3, 8]}, suitcases={0: 6, 1: 2}, encrypted=[9, 9], deck=[7, 4, 4, 8], start=0)


@pytest.mark.parametrize("lang, words", [
    ("en", ["Your hand: 1 Fortune Teller, 5 Scavenge, 7 Wheel of Fate", "Your Suitcase 6 (Code 5 6 7)",
            "Your action: choose a card", "Encrypted pile: 2", "Deck 9"]),
    ("de", ["Deine Hand: 1 Wahrsagerin, 5 Plündern, 7 Schicksalsrad", "Dein Koffer 6 (Code 5 6 7)",
            "Deine Aktion: wähle eine Karte", "Verschlüsselt: 2", "Stapel 9"]),
])
def test_the_action_page_shows_hand_suitcase_piles_and_the_cards_to_choose(lang: str, words: list[str]) -> None:
    text = "\n".join(page(at_action(), 0, lang))
    for w in words:
        assert w in text, (w, text)
    assert "2 (Code" not in text and "Koffer 2" not in text  # the opponent's Suitcase is not on P1's page


def test_the_menu_is_staged_card_then_how_then_target() -> None:
    s = at_action()
    v = view(s.st, 0)
    d = pending(v)
    m = Menu(v, 0, d.kind, d.info, legal(v, 0), "en")
    assert [c[0] for c in m.choices()] == ["1 Fortune Teller", "5 Scavenge", "7 Wheel of Fate"]
    assert m.pick("1") is None  # the card
    hows = [c[0] for c in m.choices()]
    assert hows[0].startswith("Encrypt") and any(h.startswith("Deploy") for h in hows)
    assert m.pick(str(next(i for i, h in enumerate(hows, 1) if h.startswith("Deploy")))) is None  # how
    assert [c[0] for c in m.choices()] == [f"number {n}" for n in range(1, 10)]  # the target
    ev = m.pick("4")
    assert ev == {"t": "deploy", "p": 0, "h": s.h(0, 1), "card": 1, "n": 4}
    m2 = Menu(v, 0, d.kind, d.info, legal(v, 0), "en")
    m2.pick("1")
    m2.pick("0")
    assert m2.choices()[0][0] == "1 Fortune Teller"  # back one stage
    assert m2.pick("12") is None and "no choice" in m2.error
    # every legal event is reachable through the stages, each once
    got = [e for _, e in every_choice(Menu(v, 0, d.kind, d.info, legal(v, 0), "en"))]
    assert sorted(map(str, got)) == sorted(map(str, legal(v, 0)))


def test_a_card_whose_only_play_is_encrypt_shows_that_play_before_it_is_made() -> None:
    """Found by playing: typing the number of Shine Spotlights (no opposing Guard: it can only be Encrypted) encrypted
    it at once. Choosing a card shows its plays, even a single one; only a play's single target is taken at once."""
    s = Scene(hands={0: [9, 5], 1: [3, 8]}, suitcases={0: 6, 1: 2}, encrypted=[1, 1], deck=[7, 4, 4, 8], start=0)
    v = view(s.st, 0)
    d = pending(v)
    m = Menu(v, 0, d.kind, d.info, legal(v, 0), "en")
    assert m.choices()[0][0] == "9 Shine Spotlights"
    assert m.pick("1") is None  # the card: its plays shown, nothing done yet
    assert [c[0] for c in m.choices()] == ["Encrypt (face down onto the Encrypted pile)"]
    assert m.pick("1") == {"t": "encrypt", "p": 0, "h": s.h(0, 9)}
    got = [e for _, e in every_choice(Menu(v, 0, d.kind, d.info, legal(v, 0), "en"))]
    assert sorted(map(str, got)) == sorted(map(str, legal(v, 0)))


def test_the_wheel_narrows_with_each_answer_and_shows_what_you_have_shown() -> None:
    s = at_action()
    s.deploy(0, 1, n=4)  # Fortune Teller 4: is 4 within 2 of P2's Suitcase 2? yes
    s.answer()
    lines = page(s, 0, "en")
    wheel = next(x for x in lines if x.startswith("Their Suitcase:"))
    # within 2 of 4: 2 3 4 5 6; but Fortune Teller's PEEK 2 showed P1 both 4s (the deck's next two): 4 is out;
    # 6 (P1's own Suitcase, one copy seen) stays possible
    assert wheel.split(":", 1)[1].split()[:9] == ["·", "2", "3", "·", "5", "6", "·", "·", "·"]
    assert "4 possible" in wheel
    theirs = page(s, 1, "de")
    shown = next(x for x in theirs if x.startswith("Er kann über deinen wissen:"))
    assert "9 möglich" not in shown  # P2 has said something about its Suitcase: P2's page shows what P1 may know
    assert any("Du antwortest ja" in x for x in theirs)  # the own act in the second person


def test_a_face_down_guard_of_the_opponent_shows_the_numbers_it_may_be() -> None:
    s = Scene(hands={0: [5, 3], 1: [8, 2]}, suitcases={0: 6, 1: 7}, deck=[4, 1, 9, 9], start=0)
    s.guard(0, 5)  # P1's face-down Guard (a 5)
    lines = page(s, 1, "en")
    them = lines[lines.index(next(x for x in lines if x.startswith("Opponent:"))) + 1]
    assert "1:?v(124578)" in them, them  # Guards and Sentinels: 1 2 4 5 7 8
    mine = page(s, 0, "en")
    assert any("Guards: 1:5v" in x for x in mine)  # its owner sees its face


def test_the_true_answer_is_taken_without_asking_and_said() -> None:
    s = at_action()
    s.deploy(0, 1, n=9)  # P2 (Suitcase 2) must answer whether 9 is within 2: yes (9 1 2 3 4)
    v = view(s.st, 1)
    d = pending(v)
    opts = legal(v, 1)
    assert opts == [{"t": "answer", "p": 1, "yes": True}]  # the engine offers only the truth
    h = Human("en", io.StringIO(""), io.StringIO(), size=SIZE)
    assert h.choose(v, 1, d, opts) == opts[0]  # no line read: nothing typed
    assert h.notes and "done for you" in h.notes[0] and "yes" in h.notes[0]


@pytest.mark.parametrize("lang, words", [
    ("en", ["=== The Big Reveal ===", "You: Suitcase 6 (Code 5 6 7)", "The opponent: Suitcase 2 (Code 1 2 3)",
            "an Unguarded Match", "You win (by an Unguarded Match)"]),
    ("de", ["=== Die große Enthüllung ===", "Du: Koffer 6 (Code 5 6 7)", "Der Gegner: Koffer 2 (Code 1 2 3)",
            "ungeschützter", "Du gewinnst (durch einen ungeschützten Treffer)"]),
])
def test_the_end_screen_explains_the_unguarded_match(lang: str, words: list[str]) -> None:
    s = Scene(hands={0: [1, 5], 1: [8, 9]}, suitcases={0: 6, 1: 2}, deck=[4, 7, 7, 4, 3, 9, 8, 5, 6, 3])
    s.play_out(keep={0: 1, 1: 8})  # P1 keeps 1 (in P2's Code 1 2 3, unguarded); P2 keeps 8 (not in 5 6 7)
    assert s.st.over and s.st.winners == [0]
    out = io.StringIO()
    Human(lang, io.StringIO("\n"), out, size=SIZE).finish(view(s.st, 0), 0, wait=False)
    text = out.getvalue()
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 24 and all(len(x) <= 79 for x in lines)
    for w in words:
        assert w in text, (w, text)
    assert screen.end_lines(view(s.st, 1), 1, lang)[-1].startswith("The opponent wins" if lang == "en" else
                                                                    "Der Gegner gewinnt")


def test_a_react_window_offers_extra_protection_and_a_failed_attempt_shows_the_attacker_a_card() -> None:
    s = Scene(hands={0: [4, 6], 1: [1, 5]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9], start=0)
    s.guard(0, 4)  # P1: a face-down 4 (Code 3 4 5); keeps 6 Extra Protection and draws 2
    g = s.h(0, 4, "guard")
    s.assassin(1, 1, g)  # P2: Fortune Teller (Code 9 1 2) against it
    v = view(s.st, 0)
    d = pending(v)
    assert d.kind == "window" and d.actor == 0
    m = Menu(v, 0, d.kind, d.info, legal(v, 0), "de")
    assert m.title == "1 Wahrsagerin greift Wächter 1 bei dir (4 Plätze tauschen) an: REAKTION?"
    assert [c[0] for c in m.choices()] == ["Nein, geschehen lassen", "REAKTION mit 6 Extraschutz"]
    s.pass_()
    s.answer()  # 9 1 2 and 3 4 5 do not touch: the attempt fails
    s.show(0)
    attacker = "\n".join(page(s, 1, "en"))
    shown = s.st.hands[0][0]
    assert f"They show you a random card: {s.st.faces[shown]} " in attacker, attacker
    assert "the attempt on their Guard 1 (face down) failed" in attacker
    defender = "\n".join(page(s, 0, "en"))
    # the defender is told which of its cards the attacker saw (found by playing: it said only "a random card")
    assert f"You show them a random card: {s.st.faces[shown]} " in defender, defender


def test_the_account_speaks_to_you_and_of_the_others_in_the_right_person() -> None:
    s = at_action()
    s.deploy(0, 1, n=4)
    s.answer()
    de_own = page(s, 1, "de")
    assert any("Du antwortest ja" in x for x in de_own) and not any("Du: antwortet" in x for x in de_own)
    de_other = page(s, 0, "de")
    assert any("Gegner: antwortet ja" in x for x in de_other)
    en_own = page(s, 1, "en")
    assert any("You answer yes" in x for x in en_own)


def test_an_answer_in_the_account_says_whose_suitcase_or_code() -> None:
    """Found by playing: "Du antwortest nein: ist 6 in dem Code?" — the one who answered reads "your"/"deinem", the
    opponent "their"/"seinem", a watcher "the"."""
    s = at_action()
    s.deploy(0, 1, n=4)  # Fortune Teller: is 4 within 2 of P2's Suitcase Number?
    s.answer()
    assert any("Du antwortest ja: liegt 4 höchstens 2 von deiner Koffernummer?" in x for x in page(s, 1, "de"))
    assert any("Gegner: antwortet ja: liegt 4 höchstens 2 von seiner Koffernummer?" in x for x in page(s, 0, "de"))
    assert any("You answer yes: is 4 within 2 of your Suitcase Number?" in x for x in page(s, 1, "en"))
    assert any("They answer yes: is 4 within 2 of their Suitcase Number?" in x for x in page(s, 0, "en"))


def test_a_face_down_guard_is_not_the_number_of_a_suitcase_already_certain() -> None:
    """Found by playing: P1's Suitcase is certain for P2 (only 1 is left on the wheel) and P2 has seen the other 1,
    so P1's face-down Guard cannot be a 1 — the screen said "?v(1…)" all the same (the wheel's Suitcase was not
    counted as a copy)."""
    s = Scene(hands={0: [5, 3], 1: [1, 8]}, suitcases={0: 1, 1: 7}, deck=[4, 9, 6, 8, 2, 9, 2, 3], start=0)
    s.guard(0, 5)
    s.deploy(1, 1, n=1).answer()  # within 2 of 1: yes -> 8 9 1 2 3 (and P2 has seen a 1: its Fortune Teller)
    s.encrypt(0, 3)
    s.deploy(1, 8, n=9).answer()  # 9 in the Code: yes -> 8 9 1
    s.encrypt(0, 4)
    s.deploy(1, 8, n=2).answer()  # 2 in the Code: yes -> 1
    v = view(s.st, 1)
    assert screen.weights(v, 0, 1) == {1: 1}
    g = s.h(0, 5, "guard")
    # not 1 (one is discarded, the other is the Suitcase), not 8 (both Deployed)
    assert screen.guard_options(v, 0, 1, g) == [2, 4, 5, 7]
    them = page(s, 1, "en")
    assert any("1:?v(2457)" in x for x in them), them


@pytest.mark.parametrize("board", ["terminal", "page"])
def test_after_the_big_reveal_the_opponents_guards_and_suitcase_show_what_was_revealed(board: str) -> None:
    """Once the opponent has revealed its hidden cards, its face-down Guard shows the number it was proved to be
    (not the numbers it could have been) and the Cypher Wheel its Suitcase Number alone."""
    from adp2p.cli.classified import web

    s = Scene(hands={0: [5, 3], 1: [8, 2]}, suitcases={0: 6, 1: 7}, deck=[4, 1, 9, 9], start=0)
    s.guard(0, 5)  # P1's face-down Guard (a 5), unknown to P2
    before = view(s.st, 1)
    assert screen.known(before, before.guards[0][0], 1) is None and len(screen.wheel(before, 0, 1)) > 1
    s.play_out()
    v = view(s.st, 1)
    assert v.over
    if board == "terminal":
        lines = screen.lines(v, 1, "en")
        them = lines[lines.index(next(x for x in lines if x.startswith("Opponent:"))) + 1]
        assert "1:5v" in them, them
        assert any(x.startswith("Their Suitcase") and "1 possible" in x for x in lines), lines
    else:
        b = web.board(v, 1, ["A", "B"], "en")
        assert [g["face"] for g in b["them"]["guards"]] == [5] and b["them"]["guards"][0]["maybe"] == ""
        assert b["wheel"]["theirs"] == [n == 6 for n in range(1, 10)]


def test_the_peeker_reads_the_peeked_cards_in_the_account_and_the_opponent_does_not() -> None:
    """Found by playing (German, PEEK with one card left): the card peeked was drawn by the opponent at once, so the
    deck line never showed it and "Du SPÄHST 1" said nothing of it."""
    s = at_action()
    s.deploy(0, 1, n=4)
    s.answer()
    top = [s.st.faces[h] for h in next(x for x in reversed(s.st.history) if x["k"] == "peek")["hs"]]
    assert len(top) == 2
    for lang, mine, theirs in (("de", "Du SPÄHST 2", "Gegner: SPÄHT 2"), ("en", "You PEEK 2", "They PEEK 2")):
        said = ", ".join(card_name(f, lang) for f in top)
        own = [x for x in page(s, 0, lang) if mine in x]
        assert own == [f"· {mine}: {said}"], (own, said)
        other = [x for x in page(s, 1, lang) if theirs in x]
        assert other == [f"· {theirs}"], other


def test_a_card_seen_in_the_opponents_hand_is_remembered_after_the_mix() -> None:
    """Found playing in German: "gesehen: 1 Wahrsagerin, 5 Plündern" vanished from the opponent's hand line once the
    hand was mixed, and 5 came back on the wheel though both 5s were still in sight. The hand line keeps the card as
    seen, then mixed in, and the wheel keeps counting it (engine/classified/memory.py)."""
    from adp2p.cli.classified import web

    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)  # a failed attempt: P2 is shown a card of P1's
    shown = s.st.faces[s.st.hands[0][0]]
    s._settle()  # P1's draw, then the mix
    v = view(s.st, 1)
    assert all(v.face(h, 1) is None for h in v.hands[0])
    line = next(x for x in page(s, 1, "de") if x.startswith("Gegner: Karten auf der Hand"))
    assert f"(gesehen, dann eingemischt: {card_name(shown, 'de')})" in line, line
    assert shown in screen.wheel(v, 0, 1) and screen.wheel(v, 0, 1)[shown] == 1  # one copy is not the Suitcase
    assert web.board(v, 1, None, "en")["them"]["mixed"] == [card_name(shown, "en")]
