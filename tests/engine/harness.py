"""A small scenario builder for engine tests: reach a chosen position through real events.

`setup()` plays the real setup events (sectors, shuffle + learn the faces in a chosen order, the
round-robin deal, passwords, first player). Cards are named by key ("firewall") or by a code letter
("A": some otherwise unused, harmless card with that code). After setup, `give`/`set_level`/`move` edit
the state directly: they are test-fixture shortcuts, not game events.
"""

from __future__ import annotations

from typing import Any

from adp2p.engine import IllegalEvent, apply, get_profile, learn, new_game, pending
from adp2p.engine.catalog import CODES, card, card_by_key, cards
from adp2p.engine.flow import answer_truth
from adp2p.engine.state import GameState
from adp2p.engine.tasks import to_discard, to_hand

BANKING, GOVERNMENT, MICRONOPOLY, NEWSMEDIA, TELECOMM, UNIVERSITIES = range(6)
NONE, USER, OPER, ROOT = 0, 1, 2, 3

# Cards with no side effect when merely held: fillers and "code letter" picks come from these first.
_PLAIN = [c.id for c in cards() if not c.is_harmful and c.key not in ("backdoor",)]


def cid(key: str) -> int:
    return card_by_key(key).id


def _resolve_specs(specs: list[str], used: set[int], reserved: set[int]) -> list[int]:
    out = []
    for s in specs:
        if len(s) == 1 and s in CODES:
            code = CODES.index(s)
            f = next(i for i in reversed(_PLAIN)
                     if card(i).code == code and i not in used and i not in reserved)
        else:
            f = cid(s)
            assert f not in used, f"card {s} named twice"
        used.add(f)
        out.append(f)
    return out


def setup(n: int = 3, profile: str = "classic", *, perm: list[int] | None = None,
          pw: dict[int, Any] | None = None, hands: dict[int, list[str]] | None = None,
          deck: list[str] | None = None, first: int = 0, **prof_kw: Any) -> GameState:
    """A game at the first player's first decision.

    perm: the sector deal (default 0..5: player i controls sector i; two-player: 0,1 / 2,3).
    pw: per player, 3 card specs (two-player: a list of two such lists, one per controlled sector in
    order); default A/B/C for everyone. hands: what each player holds after setting the password (at most
    deal - 3 specs, the rest is filler). deck: the top of the draw pile after the deal.
    """
    prof = get_profile(profile, **prof_kw)
    st = new_game(prof, n)
    perm = perm if perm is not None else list(range(6))
    st = apply(st, {"t": "sectors", "perm": perm})
    k = prof.sectors_per_player
    named = [x for v in (pw or {}).values() for lst in (v if v and isinstance(v[0], list) else [v])
             for x in lst]
    named += [x for v in (hands or {}).values() for x in v] + list(deck or [])
    reserved = {cid(x) for x in named if not (len(x) == 1 and x in CODES)}
    used: set[int] = set()
    pw_faces: dict[int, list[list[int]]] = {}
    for p in range(n):
        spec = (pw or {}).get(p)
        lists = spec if spec and isinstance(spec[0], list) else ([spec] if spec else None)
        if lists is None:
            lists = [["A", "B", "C"] for _ in range(k)]
        pw_faces[p] = [_resolve_specs(lst, used, reserved) for lst in lists]
    hand_faces = {p: _resolve_specs((hands or {}).get(p, []), used, reserved) for p in range(n)}
    top = _resolve_specs(deck or [], used, reserved)
    fill = [f for f in _PLAIN if f not in used and f not in reserved]
    dealt: dict[int, list[int]] = {}
    for p in range(n):
        mine = [f for lst in pw_faces[p] for f in lst] + hand_faces[p]
        assert len(mine) <= prof.deal, "too many cards named for the deal"
        while len(mine) < prof.deal:
            mine.append(fill.pop())
        dealt[p] = mine
    order = [dealt[p][i] for i in range(prof.deal) for p in range(n)] + top
    rest = [f for f in range(63) if f not in order]
    # harmful cards not named anywhere go to the bottom of the deck
    rest.sort(key=lambda f: card(f).is_harmful)
    order += rest
    st = apply(st, {"t": "shuffle"})
    st = learn(st, dict(enumerate(order)))
    for p in range(n):
        for s, lst in zip(st.sectors_of(p), pw_faces[p], strict=True):
            hs = [h for h in st.hands[p] if st.faces[h] in lst]
            st = apply(st, {"t": "password", "p": p, "s": s, "cards": hs})
    return apply(st, {"t": "first", "p": first})


# -- finding cards ------------------------------------------------------------------------------------


def h(st: GameState, key: str) -> int:
    """The handle of the (unique) card with this key."""
    f = cid(key)
    return next(x for x, y in st.faces.items() if y == f and st.loc.get(x, ("gone",))[0] != "gone")


def hand_keys(st: GameState, p: int) -> list[str]:
    return sorted(card(st.faces[x]).key for x in st.hands[p])


def where(st: GameState, key: str) -> tuple:
    return st.loc[h(st, key)]


def of_code(st: GameState, p: int, letter: str) -> list[int]:
    """Handles in p's hand whose code is `letter`."""
    return [x for x in st.hands[p] if card(st.faces[x]).code == CODES.index(letter)]


# -- fixture edits (direct state changes, not game events) ---------------------------------------------


def give(st: GameState, p: int, *keys: str) -> GameState:
    """Fixture: move these cards (from wherever they are) into p's hand."""
    st = st.clone()
    for k in keys:
        to_hand(st, h(st, k), p)
    return st


def give_code(st: GameState, p: int, letter: str, n: int = 1) -> GameState:
    """Fixture: move n harmless deck cards of this code into p's hand."""
    st = st.clone()
    code = CODES.index(letter)
    pick = [x for x in st.deck if card(st.faces[x]).code == code and not card(st.faces[x]).is_harmful
            and card(st.faces[x]).key != "backdoor"][:n]
    assert len(pick) == n
    for x in pick:
        to_hand(st, x, p)
    return st


def discard_key(st: GameState, key: str) -> GameState:
    """Fixture: put this card on top of the discard pile."""
    st = st.clone()
    to_discard(st, h(st, key))
    return st


def empty_hand(st: GameState, p: int) -> GameState:
    """Fixture: p's hand goes to the bottom of the deck (unknown to all again is not modelled)."""
    st = st.clone()
    for x in list(st.hands[p]):
        st.hands[p].remove(x)
        st.deck.append(x)
        st.loc[x] = ("deck",)
    return st


def set_level(st: GameState, p: int, s: int, level: int) -> GameState:
    """Fixture: give p this access level in sector s (no win check)."""
    st = st.clone()
    st.access[p][s] = level
    return st


# -- events --------------------------------------------------------------------------------------------


def ev(st: GameState, t: str, p: int | None = None, **kw: Any) -> GameState:
    e: dict[str, Any] = {"t": t, **kw}
    if p is not None:
        e["p"] = p
    return apply(st, e)


def play(st: GameState, p: int, key: str, *, backdoor: bool = False, **target: Any) -> GameState:
    e: dict[str, Any] = {"t": "play", "p": p, "card": h(st, key), "face": cid(key), **target}
    if backdoor:
        e["backdoor"] = h(st, "backdoor")
        e["backdoor_face"] = cid("backdoor")
    return apply(st, e)


def attempt(st: GameState, p: int, s: int, handles: list[int]) -> GameState:
    return apply(st, {"t": "attempt", "p": p, "s": s, "cards": list(handles)})


def done(st: GameState) -> GameState:
    d = pending(st)
    return apply(st, {"t": "done", "p": d.actor})


def pass_all(st: GameState) -> GameState:
    """Everyone passes the open reaction windows (until the next decision is not a window)."""
    d = pending(st)
    while d is not None and d.kind == "window":
        st = apply(st, {"t": "pass", "p": d.actor})
        d = pending(st)
    return st


def answer_honestly(st: GameState) -> GameState:
    d = pending(st)
    assert d is not None and d.kind == "answer", d
    truth = answer_truth(st, d.info["s"], d.info["cards"], None)
    return apply(st, {"t": "answer", "p": d.actor, "match": truth})


def resolve_chance(st: GameState, picks: list[int] | None = None) -> GameState:
    """Resolve a pending random pick (default: the first k handles of the pool)."""
    d = pending(st)
    assert d is not None and d.kind == "chance:pick", d
    if picks is None:
        picks = list(d.info["from"])[: d.info["k"]]
    return apply(st, {"t": "random", "picks": picks})


def _default(st: GameState) -> dict[str, Any]:
    d = pending(st)
    assert d is not None
    p = d.actor
    k = d.kind
    top = st.stack[-1]
    if k == "window":
        return {"t": "pass", "p": p}
    if k in ("free", "actions"):
        return {"t": "done", "p": p}
    if k == "turn_start":
        return {"t": "begin", "p": p}
    if k == "discard":
        from adp2p.engine.flow import discard_needed
        need = discard_needed(st, p)
        # the highest card ids first: the harness's fillers, seldom the cards a test is about
        return {"t": "discard", "p": p, "cards": sorted(st.hands[p], key=lambda x: -st.faces[x])[:need]}
    if k == "draw":
        return {"t": "draw", "p": p, "n": 0}
    if k == "answer":
        return {"t": "answer", "p": p, "match": answer_truth(st, d.info["s"], d.info["cards"], None)}
    if k == "chance:pick":
        return {"t": "random", "picks": list(d.info["from"])[: d.info["k"]]}
    if k == "trade_reply":
        return {"t": "trade_reply", "p": p, "accept": False, "cards": []}
    if k == "spam_give":
        return {"t": "spam_give", "p": p, "cards": []}
    if k == "nsa_take":
        return {"t": "take", "p": p, "card": st.hands[top["victim"]][0]}
    if k == "hs_give":
        r = next(x for x in range(st.n) if x not in (p, top["victim"]))
        return {"t": "give", "p": p, "card": top["picks"][0], "q": r}
    if k == "fdic_give":
        return {"t": "give", "p": p, "cards": sorted(st.hands[p])[: top["k"]]}
    raise AssertionError(f"no default for {d}")


def matches(d: Any, kind: str, actor: int | None) -> bool:
    if d is None:
        return False
    k = d.kind if d.kind != "window" else "window:" + d.info["window"]
    return (kind == k or kind == d.kind) and (actor is None or d.actor == actor)


def advance_to(st: GameState, kind: str, actor: int | None = None, limit: int = 200) -> GameState:
    """Take default choices (pass, done, begin, minimum discard, draw 0, honest answers, first picks)
    until the pending decision is `kind` ("free", "actions", "window:attempt", ...) for `actor`."""
    for _ in range(limit):
        d = pending(st)
        if matches(d, kind, actor):
            return st
        assert d is not None, f"game ended before {kind}"
        st = apply(st, _default(st))
    raise AssertionError(f"never reached {kind} for {actor}")


def next_turn(st: GameState, p: int) -> GameState:
    """Default choices until p's next turn has begun (p's first decision of that turn after its start)."""
    start = st.turn_no
    for _ in range(300):
        d = pending(st)
        mine = st.turn is not None and st.turn.player == p and st.turn_no > start
        if mine and d is not None and d.actor == p and d.kind in ("free", "actions", "discard", "draw"):
            return st
        st = apply(st, _default(st))
    raise AssertionError("turn never came")


def illegal(st: GameState, event: dict[str, Any]) -> str:
    """Apply an event that must be refused; return the rule it broke (and check st is unchanged)."""
    snap = snapshot(st)
    try:
        apply(st, event)
    except IllegalEvent as e:
        assert snapshot(st) == snap
        return e.rule
    raise AssertionError(f"{event} was accepted")


def illegal_play(st: GameState, p: int, key: str, *, backdoor: bool = False, **target: Any) -> str:
    e: dict[str, Any] = {"t": "play", "p": p, "card": h(st, key), "face": cid(key), **target}
    if backdoor:
        e["backdoor"] = h(st, "backdoor")
        e["backdoor_face"] = cid("backdoor")
    return illegal(st, e)


def snapshot(st: GameState) -> tuple:
    return (dict(st.loc), list(st.deck), list(st.discard), [list(x) for x in st.hands],
            {k: list(v) for k, v in st.passwords.items()}, [list(u) for u in st.upgrades],
            [list(a) for a in st.access], list(st.stack), st.seq, dict(st.known), st.turn, st.over)


def can_play(st: GameState, p: int, key: str) -> bool:
    """Does legal() offer a play of this card (any target)?"""
    from adp2p.engine import legal, view
    x = h(st, key)
    return any(e["t"] == "play" and e["card"] == x for e in legal(view(st, p), p))
