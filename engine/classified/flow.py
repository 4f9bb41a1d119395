"""The machine: the task on top of the stack is the one decision pending (a seat's, or CHANCE's); `apply_event`
checks an event against it and runs its handler, then `advance` runs the turns (draw, a forgone turn's PEEK 1, the
last draw, the final turns without drawing, the Big Reveal) until the next decision. Handlers validate before they
change what they cannot undo; `api.apply` works on a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.classified import abilities, assassins, ending, mixing
from adp2p.engine.classified.catalog import card, deck
from adp2p.engine.classified.questions import known_truth
from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import check, claim_face, draw, move, number_arg, opponent, peek, show
from adp2p.engine.errors import IllegalEvent

# which event types answer which task, and the fields each event may carry
ANSWERS: dict[str, tuple[str, ...]] = {
    "shuffle": ("shuffle",), "start": ("start",), "choose": ("choose",), "show": ("show",),
    "action": ("encrypt", "enlist", "deploy"), "window": ("pass", "react"), "answer": ("answer",),
    "name": ("name",), "pick": ("pick",), "reveal": ("reveal",), "mix": ("mix",),
}
FIELDS: dict[str, frozenset[str]] = {
    "shuffle": frozenset(), "start": frozenset({"p"}), "show": frozenset({"i"}),
    "choose": frozenset({"p", "suitcase", "encrypt"}), "encrypt": frozenset({"p", "h"}),
    "enlist": frozenset({"p", "h", "as", "card", "target", "top"}),
    "deploy": frozenset({"p", "h", "card", "n", "mode", "mine", "theirs", "drop", "take", "guard", "guards"}),
    "pass": frozenset({"p"}), "react": frozenset({"p", "h", "card"}), "answer": frozenset({"p", "yes"}),
    "name": frozenset({"p", "n"}), "pick": frozenset({"p", "h"}), "reveal": frozenset({"p", "cards"}),
    "mix": frozenset({"p"}),
}


def initial_stack() -> list[dict[str, Any]]:
    return [{"op": "shuffle", "actor": None}]


# -- setup ----------------------------------------------------------------------------------------------------


def on_shuffle(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    """New handles for the deck (the caller's shared randomness decides their faces), then the deal: two cards to
    each hand, a third as each Suitcase, two into the Encrypted Card Pile (003 set-up 1-3); four-card variant: four
    each, and each player then chooses a Suitcase and a card to encrypt (003 "choosing your difficulty level"):
    their two choices are the Encrypted Card Pile, so the Draw Deck holds 10 cards either way (ruling C-FOUR)."""
    for i in range(len(deck())):
        st.loc[i] = ("deck",)
        st.deck.append(i)
    st.next_handle = len(deck())
    prof = st.profile
    st.suitcase = [None, None]
    if prof.choose:
        for p in range(2):
            for _ in range(prof.hand + 2):
                draw(st, p)
    else:
        for p in range(2):
            for _ in range(prof.hand):
                draw(st, p)
        for p in range(2):
            h = st.deck[0]
            move(st, h, ("suitcase", p))
            st.suitcase[p] = h
            show(st, h, 1 << p)
    for _ in range(0 if prof.choose else prof.encrypted):  # the variant: the players' two choices (C-FOUR)
        move(st, st.deck[0], ("encrypted",))
    st.history.append({"k": "dealt", "choose": prof.choose})
    st.stack.append({"op": "start", "actor": None})
    if prof.choose:
        st.phase = "choose"
        st.stack += [{"op": "choose", "actor": 1}, {"op": "choose", "actor": 0}]


def on_choose(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p = task["actor"]
    s, e = ev.get("suitcase"), ev.get("encrypt")
    if not (type(s) is int and type(e) is int and s != e and s in st.hands[p] and e in st.hands[p]):
        raise IllegalEvent("bad_choice", f"seat {p + 1} chooses two different cards of its four")
    move(st, s, ("suitcase", p))
    st.suitcase[p] = s
    move(st, e, ("encrypted",))
    st.history.append({"k": "chose", "p": p})


def on_start(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev.get("p") not in (0, 1) or type(ev.get("p")) is not int:
        raise IllegalEvent("bad_start", "the first player is seat 0 or 1")
    st.start = ev["p"]
    st.phase = "play"
    st.history.append({"k": "start", "p": ev["p"]})


# -- a turn's action ------------------------------------------------------------------------------------------


def _own_hand_card(st: CState, p: int, ev: dict[str, Any]) -> int:
    h = ev.get("h")
    if type(h) is not int or h not in st.hands[p]:
        raise IllegalEvent("not_in_hand", f"seat {p + 1} does not hold {h!r}")
    return h


def on_action(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p = task["actor"]
    h = _own_hand_card(st, p, ev)
    t = ev["t"]
    if t == "encrypt":
        move(st, h, ("encrypted",))
        st.history.append({"k": "encrypt", "p": p, "h": h})
        return
    if t == "enlist" and ev.get("as") == "guard":
        if len(st.guards[p]) >= st.profile.guard_spots:
            raise IllegalEvent("guard_spots", "a player has at most three Guards in play")
        q = {"q": "guard_guild", "h": h, "seat": p}
        check(st, known_truth(st, q), "not_a_guard", f"seat {p + 1} enlisted a card that is no Guard or Sentinel "
              "face down", **q, said=True)
        move(st, h, ("guard", p))
        st.history.append({"k": "guard", "p": p, "h": h})
        return
    number = claim_face(st, h, ev.get("card"), p)
    if t == "enlist":
        if ev.get("as") != "assassin":
            raise IllegalEvent("bad_event", "a card is enlisted as guard or as assassin")
        assassins.enlist_assassin(st, p, h, number, ev)
        return
    if not abilities.params(st, p, h, number):
        raise IllegalEvent("not_possible", f"{card(number).name_en} cannot do anything now")
    abilities.deploy(st, p, h, number, ev)


def on_window(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    o = task["actor"]
    if ev["t"] == "pass":
        assassins.proceed(st)
        return
    h = _own_hand_card(st, o, ev)
    number = claim_face(st, h, ev.get("card"), o)
    if not card(number).react:
        raise IllegalEvent("not_react", f"{card(number).name_en} has no REACT")
    assassins.react(st, o, h)


def on_answer(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    yes = ev.get("yes")
    if not isinstance(yes, bool):
        raise IllegalEvent("bad_answer", "an answer is yes (true) or no (false)")
    q = task["question"]
    t = known_truth(st, q)
    check(st, None if t is None else t == yes, "false_answer", f"seat {q['seat'] + 1}'s answer to {q['q']} is false",
          **q, said=yes)
    item = {"k": "answer", "p": q["seat"], "asker": task["asker"], "yes": yes, "question": dict(q)}
    if "n" not in q and q.get("h") in st.up:  # a face-up Guard's number (Shine Spotlights): public, told with it
        item["up"] = st.faces[q["h"]]
    st.history.append(item)
    if task.get("then") == "attempt":
        assassins.after_answer(st, yes)


def on_name(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    o = task["actor"]
    n = number_arg(ev)
    if n == 3 or n in task["named"]:
        raise IllegalEvent("bad_name", "Picking Petals: a number that is not 3 (and not one named already)")
    q = {"q": "not_suitcase", "n": n, "seat": o, "s": st.suitcase[o]}
    t = known_truth(st, q)
    check(st, t, "false_answer", f"seat {o + 1} named its Suitcase Number", **q, said=True)
    st.history.append({"k": "named", "p": o, "asker": task["asker"], "n": n, "question": q})
    if task["left"] > 1:
        st.stack.append({**task, "left": task["left"] - 1, "named": [*task["named"], n]})


def on_pick(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p, o = task["actor"], task["from"]
    h = ev.get("h")
    if type(h) is not int or h not in st.hands[o]:
        raise IllegalEvent("bad_pick", "pick one of the cards the opponent showed")
    st.history.append({"k": "pick", "p": p, "h": h})
    abilities.ask(st, p, {"q": "equal", "h": h})


Handler = Callable[[CState, dict[str, Any], dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {
    "shuffle": on_shuffle, "start": on_start, "choose": on_choose, "show": assassins.on_show,
    "action": on_action, "window": on_window, "answer": on_answer, "name": on_name, "pick": on_pick,
    "reveal": ending.on_reveal, "mix": mixing.on_mix,
}


def apply_event(st: CState, ev: dict[str, Any]) -> None:
    if st.over or not st.stack:
        raise IllegalEvent("game_over", "the game is over")
    if not isinstance(ev, dict) or not isinstance(ev.get("t"), str):
        raise IllegalEvent("bad_event", f"an event is a dict with a type t: {ev!r}")
    task = st.stack[-1]
    t = ev["t"]
    if t not in ANSWERS[task["op"]]:
        raise IllegalEvent("not_now", f"{t!r} does not answer the pending {task['op']!r}")
    extra = set(ev) - FIELDS[t] - {"t"}
    if extra:
        raise IllegalEvent("bad_event", f"{t!r} has no field(s) {sorted(extra)}")
    actor = task["actor"]
    if actor is not None and (type(ev.get("p")) is not int or ev["p"] != actor):
        raise IllegalEvent("not_your_turn", f"seat {actor + 1} decides now, not the event's p={ev.get('p')!r}")
    st.stack.pop()
    HANDLERS[task["op"]](st, task, ev)
    st.seq += 1
    advance(st)


# -- turns and the end ------------------------------------------------------------------------------------------


def begin_turn(st: CState, p: int, final: bool) -> None:
    st.turn, st.final_turn = p, final
    st.turn_no += 1
    drew = False if final else draw(st, p)
    st.history.append({"k": "turn", "p": p, "n": st.turn_no, "final": final, "drew": drew, "left": len(st.deck)})
    if st.forgo[p]:  # a REACT card was played: no Action, but the draw and PEEK 1 (003 "Card Symbols")
        st.forgo[p] = False
        peek(st, p, 1)
        st.history.append({"k": "forgo", "p": p})
        return
    st.stack.append({"op": "action", "actor": p})
    mixing.ask_mix(st, p)  # a hand that holds a card the opponent knows is mixed first (ruling C-MIX)


def next_turn(st: CState) -> tuple[int, bool] | None:
    """After the current turn: the next player, and whether it is a final turn (None: on to the Big Reveal). The
    player who draws the last card finishes the turn; then each player takes one final turn, the next first."""
    p = st.turn
    if p is None:
        return st.start, False  # type: ignore[return-value]
    if st.finals is None and not st.deck:
        st.finals = [opponent(p), p]
    if st.finals is None:
        return opponent(p), False
    if st.finals:
        return st.finals.pop(0), True
    return None


def advance(st: CState) -> None:
    while not st.over:
        if st.stack:
            return
        if st.phase == "play":
            nxt = next_turn(st)
            if nxt is not None:
                begin_turn(st, *nxt)
                continue
            st.phase = "reveal"
            st.turn = None
            first = st.start if st.start is not None else 0
            st.stack += [{"op": "reveal", "actor": opponent(first)}, {"op": "reveal", "actor": first}]
            st.history.append({"k": "big_reveal"})
            continue
        if st.phase == "reveal":
            ending.score(st)
            return
        return
