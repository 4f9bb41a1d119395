"""The machine: the task on top of the stack is the one decision pending (a seat's, or CHANCE's); `apply_event`
checks an event against it and runs its handler, then `advance` runs automatic work and the round's steps until the
next decision. Every handler validates before it changes anything it cannot undo; `api.apply` works on a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import facedown, hackpad, playing, positioning, rounds, sealing
from adp2p.engine.hacker.effects import blackout, malfunction
from adp2p.engine.hacker.state import HState
from adp2p.engine.hacker.tasks import add_prio, check_win, discard_public, do_shuffle, move

# which event types answer which task
ANSWERS: dict[str, tuple[str, ...]] = {
    "shuffle": ("shuffle",), "roll": ("roll",), "private_roll": ("private_roll",), "start": ("start",),
    "boss": ("boss",), "deal": ("deal",), "pairs": ("pairs",), "pass": ("pass",), "seal": ("seal",),
    "unseal": ("unseal",), "play": ("play", "discard", "face_down"),
    "activate": ("activate", "no_activate"), "hack_choice": ("hack", "no_hack"), "probe": ("probe",),
    "answer": ("answer",), "pass_check": ("use_hack", "eject"), "open_pad": ("open_pad",),
    "protect": ("protect", "decline"), "give": ("give",), "exchange": ("exchange",),
}


def _dice(ev: dict[str, Any], k: int) -> list[int]:
    dice = ev.get("dice")
    if not (isinstance(dice, list) and len(dice) == k and all(isinstance(x, int) and 1 <= x <= 6 for x in dice)):
        raise IllegalEvent("bad_dice", f"expected {k} dice from 1 to 6, got {dice!r}")
    return dice


def on_roll(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    dice = _dice(ev, task["k"])
    if task["for"] == "dummies":
        rounds.add_dummies(st, dice)
    elif task["for"] == "duel":
        positioning.resolve(st, dice)
    elif task["for"] == "blackout":
        blackout(st, dice[0])
    else:
        malfunction(st, task["p"], dice[0])


def on_private_roll(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev.get("p") != task["p"] or not isinstance(ev.get("c"), str):
        raise IllegalEvent("bad_private_roll", f"a private roll for seat {task['p']} with an opaque commitment c")
    st.sealed[f"roll:{task['p']}"] = ev["c"]
    if "secret" in ev:
        st.secrets[f"roll:{task['p']}"] = list(_dice({"dice": ev["secret"]}, 2))


def on_start(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev.get("p") not in range(st.n):
        raise IllegalEvent("bad_start", "the start player is a seat (H-FIRST)")
    st.start = ev["p"]
    st.history.append({"k": "start", "p": ev["p"]})


def on_boss(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev.get("at") not in rounds.occupied(st):
        raise IllegalEvent("bad_boss", f"the Boss only stops where there are players: {rounds.occupied(st)}")
    rounds.boss(st, ev["at"])


def on_pass(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p = task["actor"]
    if ev.get("h") not in st.hands[p]:
        raise IllegalEvent("not_in_hand", f"seat {p + 1} does not hold {ev.get('h')!r}")
    move(st, ev["h"], ("passing", p))


def on_unseal(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev.get("what") != task["what"]:
        raise IllegalEvent("bad_unseal", f"seat {task['actor']} must open its {task['what']}")
    (sealing.open_place if task["what"] == "place" else sealing.open_lay)(st, task["actor"], ev)


def on_exchange(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    """004:147: cards handed in from the hand, one PRIO less per card; the cafeteria's +5 comes with it."""
    p, hs = task["actor"], ev.get("hs")
    if not (isinstance(hs, list) and all(isinstance(h, int) for h in hs) and len(set(hs)) == len(hs)
            and set(hs) <= set(st.hands[p])):
        raise IllegalEvent("bad_exchange", f"seat {p + 1} can only hand in cards it holds")
    for h in hs:
        discard_public(st, h)
    add_prio(st, p, 5 - len(hs))
    st.history.append({"k": "cafeteria", "p": p, "exchanged": len(hs)})


def on_shuffle(st: HState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    do_shuffle(st)


Handler = Callable[[HState, dict[str, Any], dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {
    "shuffle": on_shuffle, "roll": on_roll, "private_roll": on_private_roll, "start": on_start, "boss": on_boss,
    "deal": playing.on_deal, "pairs": lambda st, t, ev: playing.on_pairs(st, ev), "pass": on_pass,
    "seal": sealing.on_seal, "unseal": on_unseal, "play": playing.on_play,
    "hack_choice": lambda st, t, ev: playing.on_hack_choice(st, t["actor"], ev),
    "probe": lambda st, t, ev: hackpad.on_probe(st, ev), "answer": lambda st, t, ev: hackpad.on_answer(st, ev),
    "pass_check": lambda st, t, ev: hackpad.on_pass_check(st, ev),
    "open_pad": lambda st, t, ev: hackpad.on_open(st, ev),
    "protect": lambda st, t, ev: playing.on_protect(st, t["actor"], ev), "give": playing.on_give,
    "exchange": on_exchange, "activate": lambda st, t, ev: facedown.on_activate(st, t["actor"], ev),
}


def _has_bool(ev: dict[str, Any]) -> bool:
    """A bool anywhere but an answer's `check` (Python counts True as 1: it must not pass for seat or die 1)."""
    def walk(x: Any) -> bool:
        if isinstance(x, bool):
            return True
        if isinstance(x, dict):
            return any(walk(v) for v in x.values())
        return isinstance(x, list) and any(walk(v) for v in x)

    return any(walk(v) for k, v in ev.items() if k != "check")


def apply_event(st: HState, ev: dict[str, Any]) -> None:
    if st.over or not st.stack:
        raise IllegalEvent("game_over", "the game is over")
    if not isinstance(ev, dict) or not isinstance(ev.get("t"), str):
        raise IllegalEvent("bad_event", f"an event is a dict with a type t: {ev!r}")
    if _has_bool(ev):
        raise IllegalEvent("bad_event", "only an answer's check is true or false; seats, dice, handles are numbers")
    task = st.stack[-1]
    if ev["t"] not in ANSWERS[task["op"]]:
        raise IllegalEvent("not_now", f"{ev['t']!r} does not answer the pending {task['op']!r}")
    actor = task["actor"]
    if actor is not None and ev.get("p") != actor:
        raise IllegalEvent("not_your_turn", f"seat {actor + 1} decides now, not the event's p={ev.get('p')!r}")
    st.stack.pop()
    HANDLERS[task["op"]](st, task, ev)
    st.seq += 1
    check_win(st)
    advance(st)


def _skip_give(st: HState, task: dict[str, Any]) -> bool:
    return task["op"] == "give" and not playing.give_options(st, task["actor"], task["to"], task)


def advance(st: HState) -> None:
    """Run automatic work and the round's steps until a decision is pending or the game is over."""
    while not st.over:
        if st.stack:
            top = st.stack[-1]
            if top.get("auto"):
                st.stack.pop()
                playing.run_attack(st, top)
                check_win(st)
                continue
            if _skip_give(st, top):
                st.stack.pop()
                continue
            return
        if rounds.STEPS[st.phase](st):
            rounds.next_phase(st)
