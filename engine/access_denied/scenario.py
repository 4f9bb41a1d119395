"""The scenario API: build a game position for a test, a puzzle or a bug report through real events only.

`build()` plays the real setup events (sectors, shuffle, the round-robin deal, passwords, first player) of a
scenario game with a stacked deck: it learns every face in the order that deals the named cards where they
should go ("deal these cards, these passwords"). Cards are named by key ("firewall") or by a code letter
("A": some otherwise unused, harmless card with that code).

What a few real moves cannot reach is staged with the two staging events of `engine/access_denied/stage.py` (an access
level; a card moved into a hand, onto the discard pile, to the bottom of the deck). They are events: a
scenario's log, replayed with `replay(..., faces=..., scenario=True)`, gives the same state. They are legal
only in a scenario game (`GameState.scenario`), which only `build` and `new_game(..., scenario=True)` create;
a live table never does, so no peer can append one.

Helpers: `grant`, `give`, `give_code`, `to_discard_top`, `empty_hand`, `move` (each applies staging events
and returns the new state), `handle` (card key -> the handle of that card), and the event constructors
`access_event`, `move_event`.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.api import Event, apply, handles_of, learn, new_game
from adp2p.engine.access_denied.catalog import CODES, card, card_by_key, cards
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.state import GameState

# Cards with no side effect when merely held: fillers and "code letter" picks come from these first.
PLAIN = [c.id for c in cards() if not c.is_harmful and c.key != "backdoor"]


# -- building a position ----------------------------------------------------------------------------------


def build(n: int = 3, profile: str = "classic", *, perm: list[int] | None = None,
          pw: dict[int, Any] | None = None, hands: dict[int, list[str]] | None = None,
          deck: list[str] | None = None, first: int = 0, log: list[Event] | None = None,
          **prof_kw: Any) -> GameState:
    """A scenario game at the first player's first decision, reached through real setup events.

    perm: the sector deal (default 0..5: player i controls sector i; two-player: 0,1 / 2,3).
    pw: per player, 3 card specs (two-player: a list of two such lists, one per controlled sector in
    order); default A/B/C for everyone. hands: what each player holds after setting the password (at most
    deal - 3 specs, the rest is filler). deck: the top of the draw pile after the deal. Harmful cards named
    nowhere go to the bottom of the deck. prof_kw: profile options (goal, round_limit, ...).
    log: if given, every event applied is appended to it (the faces are the state's `faces`).
    """
    prof = get_profile(profile, **prof_kw)
    perm = list(range(6)) if perm is None else perm
    st = _play(new_game(prof, n, scenario=True), {"t": "sectors", "perm": perm}, log)
    pw_faces, order = _stack(n, prof.sectors_per_player, prof.deal, pw or {}, hands or {}, deck or [])
    st = learn(_play(st, {"t": "shuffle"}, log), dict(enumerate(order)))
    for p in range(n):
        for s, lst in zip(st.sectors_of(p), pw_faces[p], strict=True):
            hs = [x for x in st.hands[p] if st.faces[x] in lst]
            st = _play(st, {"t": "password", "p": p, "s": s, "cards": hs}, log)
    return _play(st, {"t": "first", "p": first}, log)


def _play(st: GameState, ev: Event, log: list[Event] | None) -> GameState:
    if log is not None:
        log.append(ev)
    return apply(st, ev)


def _stack(n: int, k: int, deal: int, pw: dict[int, Any], hands: dict[int, list[str]],
           deck: list[str]) -> tuple[dict[int, list[list[int]]], list[int]]:
    """(each player's password faces per controlled sector, the deck's faces top first)."""
    named = [x for v in pw.values() for lst in _pw_lists(v) for x in lst]
    named += [x for v in hands.values() for x in v] + list(deck)
    reserved = {_cid(x) for x in named if not _is_letter(x)}
    used: set[int] = set()
    pw_faces = {p: [_resolve(lst, used, reserved) for lst in (_pw_lists(pw.get(p)) or [["A", "B", "C"]] * k)]
                for p in range(n)}
    hand_faces = {p: _resolve(hands.get(p, []), used, reserved) for p in range(n)}
    top = _resolve(deck, used, reserved)
    fill = [f for f in PLAIN if f not in used and f not in reserved]
    dealt: dict[int, list[int]] = {}
    for p in range(n):
        mine = [f for lst in pw_faces[p] for f in lst] + hand_faces[p]
        if len(mine) > deal:
            raise ValueError(f"player {p}: {len(mine)} cards named, the deal is {deal}")
        dealt[p] = mine + [fill.pop() for _ in range(deal - len(mine))]
    order = [dealt[p][i] for i in range(deal) for p in range(n)] + top
    rest = sorted((f for f in range(63) if f not in order), key=lambda f: card(f).is_harmful)
    return pw_faces, order + rest


def _pw_lists(spec: Any) -> list[list[str]]:
    """A player's password spec as one list of 3 specs per controlled sector ([] if none given)."""
    if not spec:
        return []
    return spec if isinstance(spec[0], list) else [spec]


def _is_letter(spec: str) -> bool:
    return len(spec) == 1 and spec in CODES


def _cid(key: str) -> int:
    return card_by_key(key).id


def _resolve(specs: list[str], used: set[int], reserved: set[int]) -> list[int]:
    """Card specs -> faces: a key names its card, a code letter the last unused plain card of that code."""
    out = []
    for s in specs:
        if _is_letter(s):
            code = CODES.index(s)
            f = next((i for i in reversed(PLAIN) if card(i).code == code and i not in used and i not in reserved),
                     None)
            if f is None:
                raise ValueError(f"no unused plain card of code {s} is left")
        else:
            f = _cid(s)
            if f in used:
                raise ValueError(f"card {s} named twice")
        used.add(f)
        out.append(f)
    return out


# -- finding cards ----------------------------------------------------------------------------------------


def handle(st: GameState, key: str) -> int:
    """The handle of the card with this key (its one copy still in the game; `api.handles_of` lists all)."""
    live = [x for x in handles_of(st, key) if st.loc.get(x, ("gone",))[0] != "gone"]
    if not live:
        raise LookupError(f"this state knows no handle of {key!r} in the game")
    return live[0]


# -- staging events ---------------------------------------------------------------------------------------


def access_event(p: int, s: int, level: int) -> Event:
    """The staging event: p's access level in sector s becomes `level` (no win check, no side effect)."""
    return {"t": "stage", "what": "access", "p": p, "s": s, "level": level}


def move_event(h: int, to: str, p: int | None = None) -> Event:
    """The staging event: handle h moves to "hand" (of p), "discard" (its top) or "deck_bottom"."""
    ev: Event = {"t": "stage", "what": "move", "h": h, "to": to}
    if p is not None:
        ev["p"] = p
    return ev


def grant(st: GameState, p: int, s: int, level: int) -> GameState:
    """p has this access level in sector s (no win check, no status side effect)."""
    return apply(st, access_event(p, s, level))


def move(st: GameState, handles: list[int], to: str, p: int | None = None) -> GameState:
    """These handles move, one after another, to "hand" (of p), "discard" (its top) or "deck_bottom"."""
    for x in handles:
        st = apply(st, move_event(x, to, p))
    return st


def give(st: GameState, p: int, *keys: str) -> GameState:
    """These cards move (from a hand, the deck or the discard pile) into p's hand."""
    return move(st, [handle(st, k) for k in keys], "hand", p)


def give_code(st: GameState, p: int, letter: str, n: int = 1) -> GameState:
    """The first n harmless deck cards of this code (never Backdoor) move into p's hand."""
    code = CODES.index(letter)
    pick = [x for x in st.deck if st.faces.get(x) in PLAIN and card(st.faces[x]).code == code][:n]
    if len(pick) < n:
        raise LookupError(f"the deck holds {len(pick)} plain cards of code {letter}, not {n}")
    return move(st, pick, "hand", p)


def to_discard_top(st: GameState, key: str) -> GameState:
    """This card goes onto the top of the discard pile (its face public)."""
    return move(st, [handle(st, key)], "discard")


def empty_hand(st: GameState, p: int) -> GameState:
    """p's hand goes to the bottom of the deck, in hand order (who knows the faces is unchanged)."""
    return move(st, list(st.hands[p]), "deck_bottom")
