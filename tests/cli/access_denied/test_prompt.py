"""The prompt driven with typed lines (StringIO or a pipe): only legal choices, keys, commands, wrong keys,
confirmations, the reaction countdown, leaving."""

from __future__ import annotations

import io
import os
import re
import string
import time

import pytest
from _games import Moment, first_moment
from adp2p.cli.access_denied.messages import MESSAGES, SHARED, msg
from adp2p.cli.access_denied.prompt import Prompt, irreversible, react_worth_asking
from adp2p.cli.access_denied.words import describe, history_line
from adp2p.engine.access_denied import apply, legal, pending, scenario, view
from adp2p.engine.access_denied.catalog import CODES, card, card_by_key
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.state import GameState


def actions() -> Moment:
    return first_moment(lambda m: m.decision is not None and m.decision.kind == "actions" and len(m.options) > 30)


def ask(m: Moment, typed: str, lang: str = "en", **kw: object) -> tuple[dict, str]:
    out = io.StringIO()
    ev = Prompt(lang, out, io.StringIO(typed), width=100, **kw).ask(m.view, 0, m.options)  # type: ignore[arg-type]
    return ev, out.getvalue()


def test_d_ends_the_step() -> None:
    ev, out = ask(actions(), "d\n")
    assert ev["t"] == "done"
    assert "Your decision: take actions" in out


def test_a_number_picks_that_menu_line() -> None:
    m = actions()
    ev, out = ask(m, "a1\na2\n5\n")
    assert ev["t"] == "attempt"
    line = next(x for x in out.replace("quit): ", "quit):\n").splitlines() if x.strip().startswith("5."))
    assert line.strip() == "5. " + describe(m.view, ev, 0)


def test_wrong_keys_and_impossible_numbers_are_explained() -> None:
    ev, out = ask(actions(), "zzz\n0\n999\n-3\n\nd\n")
    assert ev["t"] == "done"
    assert out.count("is not a choice here") == 4
    assert "Traceback" not in out


def test_folded_attempts_list_by_sector_then_each_sectors_choices() -> None:
    """More attempts than a screen holds come in stages: a lists the sectors (at most six lines, a1..a6, one key
    per sector whatever the hand), a<k> that sector's attempts, each with its number in the menu."""
    m = actions()
    _, out = ask(m, "a\nd\n")
    assert "2-27: 26 choices — type a to list them" in out
    stage = re.findall(r"(a[1-6]): \S+ — (\d+) choices", out)
    assert 1 < len(stage) <= 6 and sum(int(n) for _, n in stage) == 26
    assert not [x for x in out.splitlines() if "Attempt " in x]  # not the 26 at once
    keys = [k for k, _ in stage]
    typed = "".join(f"{k}\n" for k in keys) + "d\n"
    _, out = ask(m, typed)
    lines = out.replace("quit): ", "quit):\n").splitlines()
    attempts = [x for x in lines if "Attempt " in x or "(no controller): discard " in x]
    assert len(attempts) == 26 and all(re.match(r"\s+\d+\. ", x) for x in attempts)
    assert any("(no controller): discard " in x for x in attempts)  # paying for an uncontrolled sector says so
    number = int(re.match(r"\s+(\d+)\. ", attempts[0]).group(1))
    ev, _ = ask(m, f"{keys[0]}\n{number}\n")
    assert ev["t"] in ("attempt", "univ") and ev["s"] == int(keys[0][1]) - 1


def test_an_attempt_the_checklist_dooms_is_marked() -> None:
    """An attempt with a code the checklist already shows OUT of the password must fail: the menu says so."""
    from adp2p.cli.access_denied.menu import doomed_words
    from adp2p.engine.access_denied.checklist import Checklist

    m = actions()
    st, me = m.view, 0  # (the moments are seat 0's)
    ev = next(e for e in m.options if e["t"] == "attempt" and st.controller[e["s"]] not in (None, me))
    cl = Checklist(me)
    cl.sync(st)
    assert doomed_words(st, me, cl, ev, "en") == ""
    code = card(st.face(ev["cards"][0], me)).code
    cl.note(ev["s"], code, False)
    assert doomed_words(st, me, cl, ev, "en") == f" — fails for sure: {CODES[code]} not in the password"
    assert doomed_words(st, me, cl, ev, "de") == f" — scheitert sicher: {CODES[code]} nicht im Passwort"


def test_help_cards_rules_board() -> None:
    m = actions()
    _, out = ask(m, "?\ncards\nrules\ncards all\nb\nd\n")
    assert "end this step / pass" in out
    assert "Rules classic: goal 3 Root accesses" in out and "Universities" in out
    assert "Play this card against any other player" in out  # Red Tape's text, a card in the hand
    assert "The NSA is Watching You" in out  # cards all
    assert out.count("Your decision: take actions") == 2  # b shows the board again


def test_giving_a_card_away_asks_first() -> None:
    m = actions()
    ev, out = ask(m, "28\nn\n28\ny\n")
    assert ev["t"] == "trade"
    assert "cancelled" in out and out.count("cannot be undone") == 2


def test_irreversible_choices() -> None:
    assert irreversible({"t": "trade", "p": 0, "q": 1, "card": 3})
    assert irreversible({"t": "play", "p": 0, "card": 1, "s": 2, "new": [4, 5, 6]})  # Scramble Password
    assert irreversible({"t": "trade_reply", "p": 0, "accept": True, "cards": [3]})
    assert not irreversible({"t": "trade_reply", "p": 0, "accept": False, "cards": []})
    assert not irreversible({"t": "done", "p": 0})
    assert not irreversible({"t": "spam_give", "p": 0, "cards": []})


def test_no_end_choice_is_said() -> None:
    m = first_moment(lambda m: m.decision is not None and m.decision.kind == "password")
    ev, out = ask(m, "d\n1\n")
    assert "there is no end/pass choice right now" in out
    assert ev == m.options[0]


def test_end_of_input_and_q_leave() -> None:
    with pytest.raises(KeyboardInterrupt):
        ask(actions(), "")
    with pytest.raises(KeyboardInterrupt):
        ask(actions(), "q\n")


def test_german_prompt() -> None:
    ev, out = ask(actions(), "xyz\nd\n", "de")
    assert ev["t"] == "done"
    assert "Wahl (Nummer" in out and "geht hier nicht" in out and "Zugangsversuche" in out


def window() -> Moment:
    return first_moment(lambda m: m.decision is not None and m.decision.kind == "window" and len(m.options) > 1, seed=1)


def test_reaction_zero_seconds_passes_at_once() -> None:
    ev, out = ask(window(), "", react_seconds=0)
    assert ev["t"] == "pass" and out == ""


def test_reaction_offered_with_countdown_and_taken() -> None:
    m = window()
    ev, out = ask(m, "2\n", react_seconds=15)
    assert ev["t"] == "play"
    assert "Pass" in out and "Play Route Trace" in out


def test_reaction_countdown_runs_out_and_passes() -> None:
    m = window()
    r, w = os.pipe()
    try:
        out = io.StringIO()
        with os.fdopen(r, "rb", buffering=0, closefd=False) as inp:
            t0 = time.monotonic()
            ev = Prompt("en", out, inp, react_seconds=1.2, width=100).ask(m.view, 0, m.options)
            took = time.monotonic() - t0
    finally:
        os.close(r)
        os.close(w)
    assert ev["t"] == "pass"
    assert took > 1.0  # it really waited for the countdown before passing
    text = out.getvalue()
    assert "[2 s] react?" in text and "time is up: you pass" in text
    assert "\r" not in text and text.count("react?") == 1  # never redrawn over what the player types


def test_message_table_complete_and_consistent() -> None:
    fmt = string.Formatter()
    assert not set(MESSAGES) & set(SHARED), "a key in both tables: one of them is never read"
    for key, row in {**SHARED, **MESSAGES}.items():
        assert set(row) == {"en", "de"}, key
        fields = [{f for _, f, _, _ in fmt.parse(text) if f} for text in row.values()]
        assert fields[0] == fields[1], key


def test_history_in_german() -> None:
    attempt = Happening("attempt", {"p": 1, "level": 3, "s": 0, "n": 3})
    assert history_line(attempt, "de") == "P2 versucht Root-Zugang zu Banken mit 3 Karte(n)"
    assert history_line(attempt, "de", ["Ann", "Ben"]) == "Ben versucht Root-Zugang zu Banken mit 3 Karte(n)"
    trojan = Happening("plays", {"p": 0, "card": card_by_key("trojan_horse").id, "backdoor": False, "q": 2, "s": 3})
    assert history_line(trojan, "de") == "P1 spielt Trojaner gegen P3 auf Nachrichten"
    assert history_line("Something new", "de") == "Something new"
    assert msg("ev.done", "de") == "Schritt beenden"


def _attempt_window(hands: dict[int, list[str]]) -> tuple[GameState, list[dict]]:
    """P1 attempts P3's sector (seat 2); the first reaction window, of seat 1 (who may play its cards: every other
    player has Oper everywhere), with seat 1's options. Built with the engine's scenario API."""
    st = scenario.build(3, hands=hands)
    for p in (1, 2):
        for s in range(6):
            if st.controller[s] != p:
                st = scenario.grant(st, p, s, 2)
    st = apply(st, {"t": "attempt", "p": 0, "s": 2, "cards": [st.hands[0][0]]})
    return st, legal(view(st, 1), 1)


def test_reaction_prompt_only_when_it_matters() -> None:
    """--react mine (the default): a window where only at-any-time cards fit, on a move not about us, passes
    without a countdown (asking at every move stalled the game); a card made for the moment, or a move against
    our own sector, is asked about."""
    st, options = _attempt_window({1: ["winzap"]})
    assert any(o["t"] == "play" for o in options)
    assert not react_worth_asking(view(st, 1), 1, options)
    out = io.StringIO()
    ev = Prompt("en", out, io.StringIO(""), width=100).ask(view(st, 1), 1, options)
    assert ev["t"] == "pass" and "react?" not in out.getvalue()  # no countdown, no screen
    st, options = _attempt_window({1: ["winzap", "wiretap"]})
    assert react_worth_asking(view(st, 1), 1, options)  # Wiretap is made for an attempt
    out = io.StringIO()
    Prompt("en", out, io.StringIO("\n"), width=100).ask(view(st, 1), 1, options)
    assert "  A reaction to: P1 attempts User access to Micronopoly with 1 card(s)" in out.getvalue()
    st = apply(st, {"t": "pass", "p": 1})
    d = pending(st)
    assert d is not None and d.actor == 2 and d.kind == "window"
    assert react_worth_asking(view(st, 2), 2, legal(view(st, 2), 2))  # its own sector is attacked


def test_d_discards_nothing_where_nothing_may_be_discarded() -> None:
    """At a discard step that allows keeping everything, d (end / pass) keeps everything, as everywhere."""
    m = first_moment(lambda m: m.decision is not None and m.decision.kind == "discard"
                     and {"t": "discard", "p": 0, "cards": []} in m.options)
    ev, out = ask(m, "d\n")
    assert ev == {"t": "discard", "p": 0, "cards": []}
    assert "no end/pass choice" not in out


def test_what_the_table_showed_us_privately_comes_again_by_the_next_decision() -> None:
    """The table's private notes ("> New in your hand: ...") are printed above a screen that scrolls them away:
    each screen repeats the ones that came since the last, once."""
    m = actions()
    notes = ["  > New in your hand: FBI [C]"]
    out = io.StringIO()
    p = Prompt("en", out, io.StringIO("d\nd\n"), width=100)
    p.notes = lambda: notes
    p.ask(m.view, 0, m.options)
    notes.append("  > Handed to you in an access attempt: Red Tape [E]")
    p.ask(m.view, 0, m.options)
    text = out.getvalue()
    assert text.count("New in your hand: FBI [C]") == 1 and text.count("Handed to you in an access attempt") == 1
    assert text.index("New in your hand") < text.index("Handed to you")


def test_a_password_among_many_is_picked_card_by_card() -> None:
    """More passwords than STAGE: c<k> picks a card, the stage narrows the engine's list (only passwords holding
    every card picked), then the few left are listed with their numbers in the menu; c starts again."""
    m = first_moment(lambda m: m.decision is not None and len(m.options) > 8 and m.options[0]["t"] == "password")
    order: list[int] = []  # the stage's cards, keyed c1, c2, ... in the engine's order for the whole stage
    for ev in m.options:
        order += [h for h in ev["cards"] if h not in order]
    second = next(h for ev in m.options if order[0] in ev["cards"] for h in ev["cards"] if h != order[0])
    _, out = ask(m, f"c1\nc\nc1\nc{order.index(second) + 1}\nzzz\n1\n")
    assert f"{len(m.options)} possible passwords: pick card by card" in out
    assert out.count("— picked: ") >= 1
    first = m.options[0]["cards"][0]  # c1 is the first card of the first password
    label = describe(m.view, {"t": "discard", "cards": [first]}, 0).removeprefix("Discard ")
    assert f"picked: {label}" in out
    listed = re.findall(r"^\s+(\d+)\. (.+)$", out, re.M)
    assert listed and all(label in cards for _, cards in listed)  # every password left holds the card picked
    for number, cards in listed:  # each with its number in the whole menu
        ev = m.options[int(number) - 1]
        assert cards == ", ".join(describe(m.view, {"t": "discard", "cards": [h]}, 0).removeprefix("Discard ")
                                  for h in ev["cards"])
    ev, _ = ask(m, "c1\nc9\n3\n")
    assert ev is m.options[2]  # a number still picks from the whole list; c9 is no card here


def test_d_begins_a_turn_whose_start_offers_a_bonus() -> None:
    """At the start of a turn with a bonus to take (Government, News...), d begins the turn without it, as d ends or
    passes everywhere else (it answered "there is no end/pass choice right now")."""
    m = first_moment(lambda m: m.decision is not None and len(m.options) > 1
                     and any(ev["t"] == "begin" for ev in m.options), seed=4, n=3, rounds=20)
    ev, out = ask(m, "d\n")
    assert ev["t"] == "begin" and "no end/pass choice" not in out


def test_d_at_the_draw_step_draws_as_many_as_the_step_allows() -> None:
    """A draw with a choice (No eTaxes offers 0..n): d draws the most, the fewer stay numbered choices."""
    m = actions()
    draws = [{"t": "draw", "n": n} for n in range(4)]
    ev, out = ask(Moment(m.view, m.decision, draws, m.events), "d\n")
    assert ev is draws[3] and "no end/pass choice" not in out
    ev, _ = ask(Moment(m.view, m.decision, draws, m.events), "2\n")  # the first number is the "d" choice
    assert ev is draws[0]


def test_a_discard_says_how_many_cards_it_takes_and_a_wrong_key_keeps_the_stage() -> None:
    m = first_moment(lambda m: m.decision is not None and m.decision.kind == "discard" and len(m.options) > 4
                     and all(ev.get("cards") for ev in m.options), seed=4, n=3, rounds=20)
    least = min(len(ev["cards"]) for ev in m.options)
    _, out = ask(m, "c99\n1\n")
    assert f"ways to discard, at least {least} card(s): pick card by card" in out
    after = out.split("no card to pick here")[0]
    assert after.count("ways to discard") == 2  # listed again with the answer to the wrong key


def test_a_cards_key_stays_the_same_while_cards_are_picked() -> None:
    """A key read on the screen before a pick still means the same card after it: the keys of the stage do not
    shift when a card is picked (c1 picked, the other cards keep their numbers; c1 again is no card to pick)."""
    m = first_moment(lambda m: m.decision is not None and len(m.options) > 8 and m.options[0]["t"] == "password")
    _, out = ask(m, "c1\nc1\n1\n")
    first, after = out.split("— picked: ", 1)
    keys = dict(re.findall(r"(c\d+): (.+?) \(\d+\)", first))
    later = dict(re.findall(r"(c\d+): (.+?) \(\d+\)", after))
    assert later and "c1" not in later
    assert all(keys[k] == card for k, card in later.items()), (keys, later)
    assert "no card to pick here" in after


def test_plays_with_targets_come_card_first_then_its_targets() -> None:
    """p lists the cards that can be played (p1, p2, ...) when a card has several targets; p<k> lists that card's
    plays, each with its number in the whole menu."""
    from adp2p.cli.access_denied.menu import STAGE, play_cards

    def many_targets(m: Moment) -> bool:
        plays = [i for i, ev in enumerate(m.options) if ev["t"] == "play"]
        return len(plays) > STAGE and len(play_cards(m.options, plays)) < len(plays)

    m = first_moment(many_targets, seed=1, n=3, rounds=20)
    plays = [ev for ev in m.options if ev["t"] == "play"]
    first = plays[0]["card"]
    ev, out = ask(m, "p\np1\nd\n")
    assert ev["t"] == "done"
    label = describe(m.view, {"t": "discard", "cards": [first]}, 0).removeprefix("Discard ")
    n = sum(1 for p in plays if p["card"] == first)
    assert f"p1: {label} — {n} ways to play it" in out
    listed = re.findall(r"^\s+(\d+)\. (.+)$", out.split("p1: ")[-1].replace("quit): ", "quit):\n"), re.M)
    mine = [text for _, text in listed if text.startswith("Play ")]
    assert len(mine) == n and all(label in text for text in mine)


def test_the_full_screen_follows_the_game_to_its_latest_state() -> None:
    """While nothing is asked the full screen redraws at most twice a second, and the last state of a burst is drawn
    when that half second is over (it was dropped: the hand dealt amid a burst of setup lines stayed "a hidden
    card" on the screen until another line came)."""
    from _games import moments
    from adp2p.cli.tui.follow import WATCH_EVERY

    class Screen:
        def __init__(self) -> None:
            self.reading, self.frames = False, []  # type: ignore[var-annotated]

        def update(self, frame) -> None:  # type: ignore[no-untyped-def]
            self.frames.append(frame)

    states = [m.view for m, _ in zip(moments(seed=11, n=3, rounds=2), range(3), strict=False)]
    ui = Screen()
    prompt = Prompt("en", io.StringIO(), io.StringIO(), ui=ui)  # type: ignore[arg-type]
    for st in states:  # a burst: three states within the half second
        prompt.watch(st, 0)
    assert [f.st for f in ui.frames] == [states[0]]  # at once the first, not the others yet
    deadline = time.monotonic() + 5 * WATCH_EVERY + 2
    while len(ui.frames) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [f.st for f in ui.frames] == [states[0], states[-1]]  # then the latest, once
    time.sleep(2 * WATCH_EVERY)
    assert len(ui.frames) == 2
