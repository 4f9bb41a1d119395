"""Shared mechanics the turn flow and the card effects both use: moving cards, granting knowledge,
the work stack and per-play contexts, obligations, access changes, passwords and the win check.

Tasks and contexts are plain dicts, replaced rather than mutated (states share them after `clone()`).
"""

from __future__ import annotations

from typing import Any

from adp2p.engine.access_denied.catalog import ROOT, card, sectors
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.rules import goal_counts
from adp2p.engine.access_denied.state import GameState
from adp2p.engine.errors import IllegalEvent

# -- the stack -----------------------------------------------------------------------------------------


def push(st: GameState, *tasks: dict[str, Any]) -> None:
    """Push tasks so that the first one given runs first."""
    st.stack.extend(reversed(tasks))


def replace_top(st: GameState, **changes: Any) -> dict[str, Any]:
    new = {**st.stack[-1], **changes}
    st.stack[-1] = new
    return new


def new_ctx(st: GameState, **data: Any) -> int:
    cid = st.next_ctx
    st.next_ctx += 1
    st.ctx[cid] = data
    return cid


def ctx_set(st: GameState, cid: int, **changes: Any) -> dict[str, Any]:
    new = {**st.ctx[cid], **changes}
    st.ctx[cid] = new
    return new


# -- cards ---------------------------------------------------------------------------------------------


def grant(st: GameState, h: int, mask: int) -> None:
    """Players in `mask` now know the face of handle h (the caller's crypto layer must deliver it)."""
    old = st.known.get(h, 0)
    if old | mask != old:
        st.known[h] = old | mask
        st.reveals.append((h, mask & ~old))


def grant_public(st: GameState, h: int) -> None:
    grant(st, h, st.all_mask)


def take_from(st: GameState, h: int) -> None:
    """Remove handle h from wherever it is now."""
    where = st.loc[h]
    kind = where[0]
    if kind == "hand":
        st.hands[where[1]].remove(h)
    elif kind == "deck":
        st.deck.remove(h)
    elif kind == "discard":
        st.discard.remove(h)
    elif kind == "pw":
        st.passwords[where[1]].remove(h)
    elif kind == "upg":
        st.upgrades[where[1]].remove(h)
    elif kind == "sec":
        st.sector_cards[where[1]].remove(h)
        st.card_owner.pop(h, None)


def to_hand(st: GameState, h: int, p: int) -> None:
    take_from(st, h)
    st.hands[p].append(h)
    st.loc[h] = ("hand", p)
    grant(st, h, 1 << p)


def to_discard(st: GameState, h: int) -> None:
    take_from(st, h)
    st.discard.append(h)
    st.loc[h] = ("discard",)
    grant_public(st, h)


def to_limbo(st: GameState, h: int, kind: str) -> None:
    take_from(st, h)
    st.loc[h] = (kind,)


def learn_claim(st: GameState, h: int, face: Any, rule: str = "face_mismatch") -> int:
    """A face publicly claimed for handle h (a played card): check it against what we know, then learn it."""
    if not isinstance(face, int) or not 0 <= face < 63:
        raise IllegalEvent("malformed", f"card face {face!r} is not a card id 0..62")
    known = st.faces.get(h)
    if known is not None and known != face:
        raise IllegalEvent(rule, f"handle {h} is {card(known).title}, not {card(face).title} as claimed")
    if st.strict and known is None:
        raise IllegalEvent("unknown_face", f"strict replay does not know the face of handle {h}")
    st.faces[h] = face
    return face


def fresh_handles(st: GameState, k: int) -> list[int]:
    hs = list(range(st.next_handle, st.next_handle + k))
    st.next_handle += k
    return hs


# -- obligations ---------------------------------------------------------------------------------------


def check(st: GameState, ok: bool | None, rule: str, message: str, **data: Any) -> None:
    """Enforce a rule whose truth may depend on faces this instance does not know.

    ok True/False: decided here (False raises). ok None: unknown here, so it becomes an obligation that
    the strict audit replay decides; in strict mode an unknown is itself an error.
    """
    if ok is None:
        if st.strict:
            raise IllegalEvent("unknown_face", f"strict replay cannot decide: {message}")
        st.obligations.append({"rule": rule, "seq": st.seq, "what": message, **data})
        return
    if not ok:
        raise IllegalEvent(rule, message)


def faces_of(st: GameState, hs: list[int] | tuple[int, ...], viewer: int | None = None) -> list[int] | None:
    """`st.face(h, viewer)` for each handle in hs; None if one of them is unknown."""
    if viewer is None:  # this instance's whole knowledge (a view's: its player's)
        fget = st.faces.get
        out = [fget(h) for h in hs]
    else:
        out = st.faces_seen(hs, viewer)  # type: ignore[arg-type]
    return None if None in out else out  # type: ignore[return-value]


# -- words ---------------------------------------------------------------------------------------------


def say(st: GameState, key: str, **args: Any) -> None:
    """Record a public happening (engine.narration: its words live in engine/access_denied/data/history.toml)."""
    st.history.append(Happening(key, args))


def pname(p: int) -> str:
    return f"P{p + 1}"


def sname(s: int) -> str:
    return sectors()[s].name


# -- access and winning --------------------------------------------------------------------------------


def set_password(st: GameState, p: int, s: int, hs: Any) -> None:
    """`p` sets three cards of its hand as the password of sector `s` (the setup's and a Scramble's)."""
    if not isinstance(hs, list) or len(hs) != 3 or len(set(hs)) != 3:
        raise IllegalEvent("password_three", "a password is exactly three different cards")
    for h in hs:
        if st.loc.get(h) != ("hand", p):
            raise IllegalEvent("password_from_hand", f"handle {h} is not in {pname(p)}'s hand")
    fs = faces_of(st, hs)
    check(
        st,
        None if fs is None else len({card(f).code for f in fs}) == 3,
        "password_distinct",
        f"{pname(p)}'s password for {sname(s)} repeats a code",
        p=p,
        s=s,
        handles=list(hs),
    )
    for h in hs:
        st.hands[p].remove(h)
        st.passwords.setdefault(s, []).append(h)
        st.loc[h] = ("pw", s)
    say(st, "password_set", p=p, s=s)


def set_access(st: GameState, p: int, s: int, level: int) -> None:
    if st.access[p][s] != level:
        st.changed_round = st.round_no
    st.access[p][s] = level
    status = st.status[p]
    if status.sol and s == 4 and level >= 2:
        status.sol = False
    if status.beta and s == 2 and level >= 2:
        status.beta = False
    say(st, "now_has", p=p, level=level, s=s)
    check_win(st)


def check_win(st: GameState) -> None:
    if st.over:
        return
    goal = st.profile.goal
    winners = [p for p, k in enumerate(goal_counts(st)) if k >= goal]
    if winners:
        key = "reached_goal" if len(winners) == 1 else "reached_goal_together"
        end_game(st, winners, Happening(key, {"players": winners, "n": st.profile.goal}))


def end_game(st: GameState, winners: list[int], reason: Happening) -> None:
    st.over = True
    st.winners = sorted(winners)
    st.end_reason = reason
    st.stack.clear()
    say(st, "game_over", reason=reason)


def standings_key(st: GameState, p: int) -> tuple[int, int, int]:
    a = st.access[p]
    return (sum(1 for x in a if x == ROOT), sum(1 for x in a if x == 2), sum(1 for x in a if x == 1))
