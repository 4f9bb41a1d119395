"""Staging events: the two engine events a scenario may use to reach a position that a few real moves cannot.

    {"t": "stage", "what": "access", "p": player, "s": sector, "level": 0..3}
        the player's access level in the sector becomes `level`: no win check, no status side effect (S.O.L.,
        Beta Site), no history line.
    {"t": "stage", "what": "move", "h": handle, "to": "hand" | "discard" | "deck_bottom", "p": player}
        a card in a hand, the deck or the discard pile moves into player p's hand (p only for "hand"; p learns
        its face, as any card taken into a hand), onto the top of the discard pile (its face public), or to
        the bottom of the deck (who knows its face is unchanged).

They are legal only in a scenario game (`GameState.scenario`, set by `engine.scenario.build` or
`new_game(..., scenario=True)`); anywhere else `IllegalEvent("not_a_scenario")`. A live table never creates a
scenario game, so no peer can ever append one. Every field is validated: a bad body is an `IllegalEvent`,
never another exception. `flow.apply_event` dispatches here; `engine.scenario` is the public way to use them.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.state import GameState
from adp2p.engine.access_denied.tasks import take_from, to_discard, to_hand
from adp2p.engine.errors import IllegalEvent

FIELDS = {"access": {"t", "what", "p", "s", "level"}, "move": {"t", "what", "h", "to", "p"}}
DESTINATIONS = ("hand", "discard", "deck_bottom")
MOVABLE_FROM = ("hand", "deck", "discard")  # never a password, upgrade, sector card or a card being resolved


def apply_stage(st: GameState, ev: dict[str, Any]) -> None:
    """Apply a staging event to st in place (st must be a fresh clone). Raises IllegalEvent."""
    if not st.scenario:
        raise IllegalEvent("not_a_scenario", "staging events exist only in a scenario game, never at a table")
    what = ev.get("what")
    if not isinstance(what, str) or what not in FIELDS:
        raise IllegalEvent("malformed", f"a stage event stages 'access' or 'move', not {what!r}")
    extra = set(ev) - FIELDS[what]
    if extra:
        raise IllegalEvent("malformed", f"a stage {what} event has no field {sorted(extra)[0]!r}")
    if what == "access":
        _stage_access(st, ev)
    else:
        _stage_move(st, ev)


def _int_in(ev: dict[str, Any], name: str, hi: int) -> int:
    """Field `name` of ev: an int (never a bool) in 0..hi-1."""
    v = ev.get(name)
    if type(v) is not int or not 0 <= v < hi:
        raise IllegalEvent("malformed", f"field {name!r} must be an int in 0..{hi - 1}, not {v!r}")
    return v


def _stage_access(st: GameState, ev: dict[str, Any]) -> None:
    p, s, level = _int_in(ev, "p", st.n), _int_in(ev, "s", 6), _int_in(ev, "level", 4)
    st.access[p][s] = level


def _stage_move(st: GameState, ev: dict[str, Any]) -> None:
    h, to = ev.get("h"), ev.get("to")
    if type(h) is not int:
        raise IllegalEvent("malformed", f"field 'h' must be a card handle (an int), not {h!r}")
    if h not in st.loc:
        raise IllegalEvent("stage", f"no card has the handle {h}")
    if st.loc[h][0] not in MOVABLE_FROM:
        raise IllegalEvent("stage", f"handle {h} is at {st.loc[h][0]!r}: only hand, deck and discard cards move")
    if not isinstance(to, str) or to not in DESTINATIONS:
        raise IllegalEvent("malformed", f"field 'to' must be one of {', '.join(DESTINATIONS)}, not {to!r}")
    if to == "hand":
        p = _int_in(ev, "p", st.n)
        _not_there(st.loc[h] == ("hand", p), h)
        to_hand(st, h, p)
    elif "p" in ev:
        raise IllegalEvent("malformed", "field 'p' belongs only to a move into a hand")
    elif to == "discard":
        _not_there(bool(st.discard) and st.discard[-1] == h, h)
        to_discard(st, h)
    else:
        _not_there(bool(st.deck) and st.deck[-1] == h, h)
        take_from(st, h)
        st.deck.append(h)
        st.loc[h] = ("deck",)


def _not_there(already: bool, h: int) -> None:
    if already:
        raise IllegalEvent("stage", f"handle {h} is already there")
