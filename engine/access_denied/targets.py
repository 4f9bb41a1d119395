"""What each card may be played against, and which reactions fit which moment.

`targets(st, p, c, viewer)` lists every valid target of card c for player p (what the event's target
fields must equal); the same function checks an event and enumerates legal plays, so the rule lives once.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from adp2p.engine.access_denied.catalog import NONE, OPER, ROOT, USER, Card, card, cards
from adp2p.engine.access_denied.options import bounded_combinations
from adp2p.engine.access_denied.rules import GOVERNMENT, meets_access, requirement_of
from adp2p.engine.access_denied.state import GameState

TARGET_KEYS = ("s", "q", "u", "new")

# the reaction triggers that may fit each kind of reaction window (besides "anytime"); `reaction_fits` decides
WINDOW_TRIGGERS: dict[str, frozenset[str]] = {
    "attempt": frozenset({"attempt_controller", "attempt_oper", "attempt"}),
    "card": frozenset({"card_requires_oper", "card_root_only", "virus_access", "virus"}),
    "lose_cards": frozenset({"lose_cards"}),
    "lose_actions": frozenset({"lose_actions"}),
}
STEP_TRIGGERS: dict[str, frozenset[str]] = {"draw": frozenset({"own_draw"})}  # outside windows, in one's own step
NO_TRIGGERS: frozenset[str] = frozenset()


@cache
def fitting_reactions(window_kind: str | None, step: str | None) -> frozenset[int]:
    """The reactions that may fit this moment: a reaction window of this kind, or outside windows (window_kind
    None) the player's own step (None: not that player's turn). No other reaction ever fits it (`reaction_fits`),
    so a hand without one of these has no reaction to play then."""
    if window_kind is not None:
        trig = WINDOW_TRIGGERS.get(window_kind, NO_TRIGGERS)
    else:
        trig = STEP_TRIGGERS.get(step, NO_TRIGGERS) if step is not None else NO_TRIGGERS
    trig = trig | {"anytime"}
    return frozenset(c.id for c in cards() if c.is_reaction and c.trigger in trig)


def _combos(items: list[int], k: int) -> list[tuple[int, ...]]:
    return bounded_combinations(items, k)


def _players_other(st: GameState, p: int) -> list[int]:
    return st.others(p)


def _scramble_targets(
    st: GameState, p: int, c_handle: int | None, viewer: int | None
) -> list[dict[str, Any]]:
    hand = [h for h in st.hands[p] if h != c_handle]
    out: list[dict[str, Any]] = []
    for s in st.sectors_of(p):
        for combo in _combos(hand, 3):
            faces = [st.face(h, viewer) for h in combo]
            if None not in faces and len({card(f).code for f in faces if f is not None}) < 3:
                continue
            out.append({"s": s, "new": list(combo)})
    return out


def targets(
    st: GameState, p: int, c: Card, viewer: int | None = None, handle: int | None = None
) -> list[dict[str, Any]]:
    kind = c.target
    n = range(6)
    acc = st.access
    if kind == "none":
        return [{}]
    if kind == "sector_no_access":
        return [{"s": s} for s in n if st.controller[s] is not None and acc[p][s] == NONE]
    if kind == "sector_oper":
        return [{"s": s} for s in n if acc[p][s] >= OPER]
    if kind == "sector_access":
        return [{"s": s} for s in n if acc[p][s] >= USER]
    if kind == "sector_card":
        return [{"u": h} for s in n for h in st.sector_cards.get(s, [])]
    if kind == "own_sector":
        return _scramble_targets(st, p, handle, viewer)
    if kind == "sector_improvable":
        t = st.turn
        if t is not None and t.player == p and t.no_attempts:
            return []  # Guru "may be stopped by cards that prohibit access attempts"
        return [{"s": s} for s in n if acc[p][s] in (USER, OPER) and st.controller[s] != p]
    if kind == "marker_under_root":
        return [
            {"s": s, "q": q}
            for s in n
            if acc[p][s] == ROOT
            for q in _players_other(st, p)
            if acc[q][s] in (USER, OPER)
        ]
    if kind == "user_marker_under_oper":
        need = ROOT if "revoke_login_needs_root" in st.profile.variants else OPER
        return [
            {"s": s, "q": q}
            for s in n
            if acc[p][s] >= need
            for q in _players_other(st, p)
            if acc[q][s] == USER
        ]
    if kind == "upgrade_other":
        owners = range(st.n) if "fbi_any_upgrade" in st.profile.variants else _players_other(st, p)  # 001 (R37)
        return [{"u": h} for q in owners for h in st.upgrades[q]]
    if kind == "player_only_user":
        s = c.param_sector
        return [{"q": q} for q in _players_other(st, p) if acc[q][s] == USER]
    if kind == "player_other":
        if c.effect == "human_services" and st.n < 3:
            return []
        if c.key == "fifteen_minutes" and "fifteen_minutes_any_player" in st.profile.variants:
            return [{"q": q} for q in range(st.n)]  # 001: "einen beliebigen Spieler" (R38)
        return [{"q": q} for q in _players_other(st, p)]
    if kind == "government_controller":
        q = st.controller[GOVERNMENT]
        return [{"q": q}] if q is not None and q != p else []
    if kind == "player_overclock":
        return [
            {"q": q}
            for q in _players_other(st, p)
            if any(card(st.faces[h]).key == "over_clock" for h in st.upgrades[q])
        ]
    if kind == "sector_no_access_any":
        return [{"s": s} for s in n if acc[p][s] == NONE]
    if kind == "fixed_sector":
        return [{}] if acc[p][c.param_sector] == NONE else []
    raise AssertionError(f"unknown target kind {kind}")


def target_ok(st: GameState, p: int, c: Card, tgt: dict[str, Any], handle: int) -> bool:
    """Is tgt a valid target of card c (the handle being played) for p? Exact, never bounded."""
    if c.target == "own_sector":
        new = tgt.get("new")
        return (
            set(tgt) == {"s", "new"}
            and tgt["s"] in st.sectors_of(p)
            and isinstance(new, list)
            and len(new) == 3
            and len(set(new)) == 3
            and all(h != handle and st.loc.get(h) == ("hand", p) for h in new)
        )
    return tgt in targets(st, p, c, None, handle)


def target_of(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: ev[k] for k in TARGET_KEYS if k in ev}


# -- reactions -----------------------------------------------------------------------------------------


def reaction_fits(st: GameState, p: int, c: Card, window: dict[str, Any] | None, step: str | None) -> bool:
    """Does reaction card c fit this moment for player p (ignoring its "Requires:" section)?

    window: the open reaction window (None outside windows); step: the active player's own step.
    """
    trig = c.trigger
    if trig == "anytime":
        return True
    if trig == "own_draw":
        return window is None and step == "draw"
    if window is None:
        return False
    kind = window["kind"]
    if trig not in WINDOW_TRIGGERS.get(kind, NO_TRIGGERS):
        return False
    ctx = st.ctx[window["ctx"]]
    if kind == "attempt":
        s = ctx["s"]
        if trig == "attempt_controller":
            return ctx["controlled"] and st.controller[s] == p
        if trig == "attempt_oper":
            return st.access[p][s] >= OPER
        if trig == "attempt":
            return ctx["controlled"]
        return False
    if kind == "card":
        parent = card(ctx["face"])
        req = requirement_of(parent, st)
        if trig == "card_requires_oper":
            return req is not None and st.access[p][req[0]] >= OPER
        if trig == "card_root_only":
            return req is not None and req[1] == ROOT
        if trig == "virus_access":
            return parent.is_virus and st.access[p][ctx.get("s", -1)] >= USER if "s" in ctx else False
        if trig == "virus":
            return parent.is_virus
        return False
    if kind == "lose_cards":
        return trig == "lose_cards" and ctx["victim"] == p
    if kind == "lose_actions":
        return trig == "lose_actions" and ctx["victim"] == p
    return False


def reaction_requirements_met(st: GameState, p: int, c: Card, backdoor: bool) -> bool:
    return backdoor or meets_access(st, p, c)


def window_order(st: GameState, kind: str, cid: int, by: int) -> list[int]:
    """Who gets a say in a reaction window, in seat order from `by`'s left. Public facts only, so a
    window never tells who holds what."""
    ctx = st.ctx[cid]
    if kind == "card":
        parent = card(ctx["face"])
        req = requirement_of(parent, st)
        out = []
        for q in st.others(by):
            if (
                parent.is_virus
                or (req is not None and req[1] == ROOT)
                or (req is not None and st.access[q][req[0]] >= OPER)
            ):
                out.append(q)
        return out
    if kind == "attempt":
        if ctx["controlled"]:
            return st.others(by)
        return [q for q in st.others(by) if st.access[q][ctx["s"]] >= OPER]
    if kind in ("lose_cards", "lose_actions"):
        return [ctx["victim"]]
    if kind == "end":
        return st.others(by)
    raise AssertionError(kind)
