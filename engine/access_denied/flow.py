"""The turn machine: setup, the four turn steps, reaction windows, access attempts and the play pipeline.

Work is a stack of small dict tasks. Automatic tasks run at once (`advance`); a decision task waits for
one event from the one player it names (or from CHANCE). `apply_event` validates an event against the
decision on top, mutates a fresh clone, then advances to the next decision.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adp2p.engine.access_denied import effects, stage
from adp2p.engine.access_denied.catalog import NONE, ROOT, USER, card
from adp2p.engine.access_denied.narration import Happening
from adp2p.engine.access_denied.rules import (
    action_loss_immune,
    attempt_size,
    base_actions,
    base_draws,
    hand_limit,
    has_bonus,
    limit_ignored,
    max_draw,
    meets_access,
    meets_password_code,
    requirement_of,
    upgrades_of,
)
from adp2p.engine.access_denied.state import GameState, Turn
from adp2p.engine.access_denied.targets import reaction_fits, target_of, target_ok, window_order
from adp2p.engine.access_denied.tasks import (
    check,
    end_game,
    faces_of,
    fresh_handles,
    grant,
    grant_public,
    learn_claim,
    new_ctx,
    pname,
    push,
    say,
    set_password,
    sname,
    standings_key,
    to_discard,
    to_hand,
    to_limbo,
)
from adp2p.engine.errors import IllegalEvent

CHANCE_EVENTS = {"sectors", "shuffle", "first", "random"}
STEP_OPS = ("turn_start", "free", "actions", "discard", "draw")

# ======================================================================================================
# setup


def initial_stack() -> list[dict[str, Any]]:
    return [
        {"op": "turn_begin"},
        {"op": "chance", "what": "first"},
        {"op": "setup_passwords"},
        {"op": "setup_deal"},
        {"op": "chance", "what": "shuffle"},
        {"op": "chance", "what": "sectors"},
    ]


def _auto_setup_deal(st: GameState, task: dict[str, Any]) -> None:
    order = [p for _ in range(st.profile.deal) for p in range(st.n)]
    push(st, *({"op": "draw_cards", "p": p, "n": 1} for p in order))


def _auto_setup_passwords(st: GameState, task: dict[str, Any]) -> None:
    push(st, *({"op": "password", "p": p, "s": s} for p in range(st.n) for s in st.sectors_of(p)))


def _can_form_password(st: GameState, p: int, viewer: int | None) -> bool | None:
    fs = faces_of(st, st.hands[p], viewer)
    if fs is None:
        return None
    return len({card(f).code for f in fs}) >= 3


def _dec_password(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    p = task["p"]
    t = ev["t"]
    if t == "password_draw":
        can = _can_form_password(st, p, None)
        check(
            st,
            None if can is None else not can,
            "password_draw",
            f"{pname(p)} could form a password",
            p=p,
            handles=list(st.hands[p]),
        )
        push(st, {"op": "draw_cards", "p": p, "n": 1})  # runs first; the decision below stays open
        say(st, "password_draw", p=p)
        return
    _expect(t, "password")
    set_password(st, p, task["s"], ev.get("cards"))
    st.stack.pop()


# ======================================================================================================
# chance


def _dec_chance(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    what = task["what"]
    t = ev["t"]
    if what == "sectors":
        _expect(t, "sectors")
        perm = ev.get("perm")
        if not isinstance(perm, list) or sorted(perm) != list(range(6)):
            raise IllegalEvent("chance_sectors", "the sector deal must be a permutation of the six sectors")
        k = st.profile.sectors_per_player
        for p in range(st.n):
            for s in perm[p * k : (p + 1) * k]:
                st.controller[s] = p
                st.access[p][s] = ROOT
        say(st, "sectors_dealt", controls=[(p, st.sectors_of(p)) for p in range(st.n)])
    elif what == "shuffle":
        _expect(t, "shuffle")
        if st.next_handle == 0:
            hs = fresh_handles(st, 63)
            say(st, "deck_shuffled")
        else:
            old = list(st.discard)
            for h in old:
                st.loc[h] = ("gone",)
            st.discard.clear()
            hs = fresh_handles(st, len(old))
            say(st, "discard_shuffled", n=len(old))
        for h in hs:
            st.loc[h] = ("deck",)
            st.known[h] = 0
        st.deck.extend(hs)
    elif what == "first":
        _expect(t, "first")
        p = ev.get("p")
        if not isinstance(p, int) or not 0 <= p < st.n:
            raise IllegalEvent("chance_first", "the first player must be a seat index")
        st.first = p
        st.active = p
        say(st, "first", p=p)
    elif what == "pick":
        _expect(t, "random")
        picks = ev.get("picks")
        pool = task["from"]
        if (
            not isinstance(picks, list)
            or len(picks) != task["k"]
            or len(set(picks)) != len(picks)
            or any(h not in pool for h in picks)
        ):
            raise IllegalEvent("chance_pick", f"a random pick must be {task['k']} distinct handles of {pool}")
        st.stack.pop()
        effects.after_pick(st, task, picks)
        return
    st.stack.pop()


# ======================================================================================================
# drawing


def _auto_draw_cards(st: GameState, task: dict[str, Any]) -> None:
    p, n = task["p"], task["n"]
    if st.turn is not None and st.turn.player == p and st.turn.no_draw_any and n > 0:
        say(st, "no_draw_direct_deposit", p=p)
        return
    for i in range(n):
        if not st.deck:
            if st.discard:
                push(st, {"op": "chance", "what": "shuffle"}, {"op": "draw_cards", "p": p, "n": n - i})
            else:
                say(st, "deck_empty")
            return
        h = st.deck.pop(0)
        st.hands[p].append(h)
        st.loc[h] = ("hand", p)
        grant(st, h, 1 << p)
        if st.turn is not None and st.turn.player == p and task.get("step"):
            st.turn.drawn += 1


# ======================================================================================================
# turns


def _auto_turn_begin(st: GameState, task: dict[str, Any]) -> None:
    p = st.active
    assert p is not None
    prof = st.profile
    if prof.round_limit is not None and st.round_no >= prof.round_limit:
        _end_by_standings(st, Happening("round_limit", {"n": prof.round_limit}))
        return
    if prof.stalemate_rounds is not None and st.round_no - st.changed_round >= prof.stalemate_rounds:
        _end_by_standings(st, Happening("stalemate", {"n": prof.stalemate_rounds}))
        return
    stt = st.status[p]
    t = Turn(player=p, start_hand=tuple(st.hands[p]))
    fs = faces_of(st, t.start_hand)
    t.harmful = None if fs is None else frozenset(card(f).param for f in fs if card(f).is_harmful)
    harm = t.harmful or frozenset()
    t.no_attempts = stt.no_attempts_next or "no_attempts" in harm
    t.no_draw_any = stt.no_draw_next  # Direct Deposit: "may not draw any cards" (Worm: the draw step only)
    t.no_draw = t.no_draw_any or "no_draw" in harm
    t.ignore_limit = stt.etaxes_next > 0
    t.extra_draws = 2 * stt.etaxes_next
    t.loss, t.no_actions, t.winzap = stt.lose_actions_next, stt.no_actions_next, stt.extra_actions_next
    t.free_left = 1 + upgrades_of(st, p, "extra_free_attempt")
    stt.no_attempts_next = stt.no_draw_next = stt.no_actions_next = False
    stt.etaxes_next = stt.lose_actions_next = stt.extra_actions_next = 0
    stt.ignore_limit = False
    st.turn = t
    st.turn_no += 1
    say(st, "turn", n=st.turn_no, p=p)
    push(
        st,
        {"op": "turn_start"},
        {"op": "free"},
        {"op": "action_begin"},
        {"op": "actions"},
        {"op": "discard"},
        {"op": "draw"},
        {"op": "end_window"},
        {"op": "turn_end"},
    )


def _end_by_standings(st: GameState, why: Happening) -> None:
    """The round limit or a stalemate: most Roots, then Opers, then Users wins; a remaining tie is shared."""
    keys = [standings_key(st, q) for q in range(st.n)]
    best = max(keys)
    winners = [q for q in range(st.n) if keys[q] == best]
    # a tie-break decided it (others level on Roots, or on Roots and Opers): the account says so
    level = [q for q in range(st.n) if q not in winners and keys[q][0] == best[0]]
    if level:
        fields = {"players": winners, "others": level, "roots": best[0], "opers": best[1], "users": best[2]}
        if all(keys[q][1] < best[1] for q in level):
            say(st, "tie_break_oper", **fields)
        else:
            say(st, "tie_break_user", **fields)
    elif len(winners) > 1:
        say(st, "tie_shared", players=winners, roots=best[0], opers=best[1], users=best[2])
    end_game(st, winners, why)


def turn_start_options(st: GameState) -> list[str]:
    t = st.turn
    assert t is not None
    p = t.player
    out: list[str] = []
    if t.no_draw_any:
        return out  # both bonuses draw cards (R31)
    if st.discard and not t.gov_taken and has_bonus(st, p, "take_top_discard"):
        out.append("gov_draw")
    if has_bonus(st, p, "skip_draw_up_to_6") or has_bonus(st, p, "skip_draw_6"):
        out.append("news_skip")
    return out


def _dec_turn_start(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    kind = ev["t"]
    if kind == "begin":
        st.stack.pop()
        return
    if kind not in turn_start_options(st):
        raise IllegalEvent("turn_start", f"{kind!r} is not possible at the start of {pname(p)}'s turn")
    if kind == "gov_draw":
        h = st.discard[-1]
        to_hand(st, h, p)
        t.gov_taken = True
        say(st, "government_bonus", p=p)
        return
    # NewsMedia: skip the turn and draw (classic: up to 6 cards in hand; 2013: 6 cards)
    n = 6 if has_bonus(st, p, "skip_draw_6") else max(0, 6 - len(st.hands[p]))
    t.ended = True
    st.stack.pop()
    say(st, "newsmedia_bonus", p=p, n=n)
    push(st, {"op": "draw_cards", "p": p, "n": n})


def _auto_action_begin(st: GameState, task: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    if t.ended:
        return
    p = t.player
    if (t.loss or t.no_actions) and action_loss_immune(st, p):
        t.protected = True
    if (t.loss or t.no_actions) and not t.protected:
        cid = new_ctx(st, kind="lose_actions", victim=p)
        push(
            st,
            {"op": "window", "kind": "lose_actions", "ctx": cid, "order": [p], "i": 0},
            {"op": "action_count", "ctx": cid},
        )
    else:
        push(st, {"op": "action_count", "ctx": None})


def _auto_action_count(st: GameState, task: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    if task["ctx"] is not None:
        t.protected = t.protected or bool(st.ctx.pop(task["ctx"]).get("protected"))
    n = base_actions(st, p) + t.winzap
    if not t.protected:
        n -= t.loss
        if t.no_actions:
            n = 0
    t.max_actions = 1 if st.status[p].sol else None  # S.O.L. is public
    t.bug = bool(t.harmful and "one_action" in t.harmful)  # known only where the hand is known
    t.actions_left = max(0, n)


def actions_available(st: GameState, *, public: bool = False) -> int:
    """Actions the active player may still take. public=True leaves out what hidden cards (Bug) impose:
    automatic steps must depend on public facts only, or peers with different knowledge would diverge;
    the holder's own engine and the strict audit still enforce the hidden cap."""
    t = st.turn
    assert t is not None
    cap = t.max_actions
    if t.bug and not public:
        cap = 1 if cap is None else min(cap, 1)
    if cap is not None:
        return max(0, min(t.actions_left, cap - t.actions_taken))
    return t.actions_left


def tele_bonus_open(st: GameState) -> bool:
    """The retro2013 TeleComm bonus (discard 2 for 1 additional action) can be used now: once a turn, and not by a
    player who "may not take any actions" this turn (Fifteen Minutes, Line Spike, Burnout, unless protected), for
    whom an additional action is still no action (R32)."""
    t = st.turn
    assert t is not None
    return (
        not t.tele_used
        and not (t.no_actions and not t.protected)
        and len(st.hands[t.player]) >= 2
        and has_bonus(st, t.player, "discard2_for_action")
    )


def spend_action(st: GameState) -> None:
    t = st.turn
    assert t is not None
    if actions_available(st) < 1:
        raise IllegalEvent("no_actions", f"{pname(t.player)} has no action left")
    t.actions_left -= 1
    t.actions_taken += 1


def discard_needed(st: GameState, p: int) -> int:
    if limit_ignored(st, p):
        return 0
    return max(0, len(st.hands[p]) - hand_limit(st, p))


def _dec_discard(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    if ev["t"] == "play":
        play_card(st, p, ev, step="discard")
        return
    _expect(ev["t"], "discard")
    hs = ev.get("cards")
    if not isinstance(hs, list) or len(set(hs)) != len(hs) or any(st.loc.get(h) != ("hand", p) for h in hs):
        raise IllegalEvent("discard_from_hand", "discards must be different cards from your hand")
    need = discard_needed(st, p) if not task.get("down_to") else max(0, len(st.hands[p]) - hand_limit(st, p))
    if len(hs) < need:
        raise IllegalEvent(
            "hand_limit", f"{pname(p)} must discard at least {need} card(s) (hand limit {hand_limit(st, p)})"
        )
    for h in hs:
        to_discard(st, h)
    if hs:
        say(st, "discards", p=p, n=len(hs))
    st.stack.pop()


def draw_options(st: GameState) -> list[dict[str, Any]]:
    t = st.turn
    assert t is not None
    p = t.player
    out = [{"t": "draw", "p": p, "n": k} for k in range(max_draw(st, p) + 1)]
    if _bank_draw_open(st):
        out.append({"t": "draw", "p": p, "n": 2, "bank": True})
    return out


def _bank_draw_open(st: GameState) -> bool:
    """The Banking bonus's draw (2, the limit ignored, then discard down) may be chosen now."""
    t = st.turn
    assert t is not None
    return has_bonus(st, t.player, "draw2_ignore_limit_then_discard") and not t.no_draw and t.draw_mode == "normal"


def _draw_allowed(st: GameState, n: Any, bank: bool) -> bool:
    """Is drawing n (with the Banking bonus: bank) one of `draw_options`? (without building them)"""
    t = st.turn
    assert t is not None
    if bank:
        return n == 2 and _bank_draw_open(st)
    return n in range(max_draw(st, t.player) + 1)


def _dec_draw(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    if ev["t"] == "play":
        play_card(st, p, ev, step="draw")
        return
    _expect(ev["t"], "draw")
    n = ev.get("n")
    if not _draw_allowed(st, n, bool(ev.get("bank"))) or set(ev) - {"t", "p", "n", "bank"}:
        raise IllegalEvent("draw_count", f"{pname(p)} may draw 0..{max_draw(st, p)} cards now, not {n!r}")
    st.stack.pop()
    # nothing drawn: say why where public facts alone tell it (the account is the same at every seat, and a
    # seat's engine may not know all it holds: a Worm blocks the step unseen)
    if n == 0 and not limit_ignored(st, p) and len(st.hands[p]) >= hand_limit(st, p):
        say(st, "draws_none_full", p=p)
    elif n == 0 and base_draws(st, p) + t.extra_draws + t.draw_bonus == 0:
        say(st, "draws_none_access", p=p)
    else:
        say(st, "draws", p=p, n=n)
    if ev.get("bank"):
        push(st, {"op": "draw_cards", "p": p, "n": 2, "step": True}, {"op": "discard", "down_to": True})
    else:
        push(st, {"op": "draw_cards", "p": p, "n": n, "step": True})


def _auto_turn_end(st: GameState, task: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    if t.harmful is None and t.start_hand:
        st.obligations.append(
            {
                "rule": "harmful_at_turn_start",
                "seq": st.seq,
                "p": p,
                "handles": list(t.start_hand),
                "attempts": t.attempts_made,
                "actions": t.actions_taken,
                "drawn": t.drawn,
                "what": f"{pname(p)} obeyed any Trojan Horse / Bug / Worm held at the start of turn "
                f"{st.turn_no}",
            }
        )
    st.turn = None
    nxt = (p + 1) % st.n
    if nxt == st.first:
        st.round_no += 1
    st.active = nxt
    push(st, {"op": "turn_begin"})


def _auto_end_window(st: GameState, task: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    cid = new_ctx(st, kind="end")
    push(
        st,
        {"op": "window", "kind": "end", "ctx": cid, "order": window_order(st, "end", cid, t.player), "i": 0},
        {"op": "drop_ctx", "ctx": cid},
    )


def _auto_drop_ctx(st: GameState, task: dict[str, Any]) -> None:
    st.ctx.pop(task["ctx"], None)


# ======================================================================================================
# free access attempt and actions


def _dec_free(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    kind = ev["t"]
    if kind == "done":
        st.stack.pop()
        return
    if kind == "play":
        play_card(st, p, ev, step="free")
        return
    if kind == "univ":
        s = ev.get("s")
        if not (
            has_bonus(st, p, "auto_user")
            and not t.used_univ
            and isinstance(s, int)
            and 0 <= s < 6
            and st.access[p][s] == NONE
        ):
            raise IllegalEvent(
                "univ_bonus",
                "the Universities bonus gives User access to a sector you have no "
                "access to, once per turn, as your free attempt",
            )
        t.used_univ = True
        t.free_left -= 1
        say(st, "universities_bonus", p=p, s=s)
        effects.improve(st, p, s, USER)  # an improvement like any other: a Retro-Virus there strikes (R30)
        return
    _expect(kind, "attempt")
    t.free_left -= 1
    start_attempt(st, p, ev)


def _dec_actions(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    p = t.player
    kind = ev["t"]
    if kind == "done":
        st.stack.pop()
        return
    if kind == "play":
        play_card(st, p, ev, step="actions")
        return
    if kind == "attempt":
        spend_action(st)
        start_attempt(st, p, ev)
        return
    if kind == "trade":
        spend_action(st)
        effects.start_trade(st, p, ev)
        return
    if kind == "tele_action":
        hs = ev.get("cards")
        if not (
            tele_bonus_open(st)
            and isinstance(hs, list)
            and len(hs) == 2
            and len(set(hs)) == 2
            and all(st.loc.get(h) == ("hand", p) for h in hs)
        ):
            raise IllegalEvent(
                "tele_bonus",
                "the TeleComm bonus: once per turn, discard 2 cards for 1 action (not on a turn without actions)",
            )
        for h in hs:
            to_discard(st, h)
        t.tele_used = True
        t.actions_left += 1
        if t.max_actions is not None:
            t.max_actions += 1
        say(st, "telecomm_bonus", p=p)
        return
    raise IllegalEvent("unexpected_event", f"{kind!r} is not an action")


def attempt_cards_ok(st: GameState, p: int, s: Any, hs: Any) -> int:
    """Validate an access attempt's public shape; return the level it would gain."""
    if not isinstance(s, int) or not 0 <= s < 6:
        raise IllegalEvent("malformed", "an access attempt names a sector 0..5")
    if st.controller[s] == p:
        raise IllegalEvent("attempt_own", "you already have Root access to your own sector")
    if st.access[p][s] >= ROOT:
        raise IllegalEvent("attempt_root", f"{pname(p)} already has Root access to {sname(s)}")
    level = st.access[p][s] + 1
    need = attempt_size(st, s, level)
    if not isinstance(hs, list) or len(hs) != need or len(set(hs)) != need:
        raise IllegalEvent(
            "attempt_count",
            f"gaining {('User', 'Oper', 'Root')[level - 1]} access to "
            f"{sname(s)} takes exactly {need} different cards",
        )
    for h in hs:
        if st.loc.get(h) != ("hand", p):
            raise IllegalEvent("attempt_from_hand", f"handle {h} is not in {pname(p)}'s hand")
    return level


def start_attempt(st: GameState, p: int, ev: dict[str, Any]) -> None:
    t = st.turn
    assert t is not None
    if t.no_attempts:
        raise IllegalEvent("no_attempts", f"{pname(p)} may not attempt to improve access this turn")
    s, hs = ev.get("s"), ev.get("cards")
    level = attempt_cards_ok(st, p, s, hs)
    if st.profile.distinct_attempt_codes:
        fs = faces_of(st, hs)
        check(
            st,
            None if fs is None else len({card(f).code for f in fs}) == len(fs),
            "attempt_distinct",
            f"{pname(p)}'s attempt repeats a code",
            p=p,
            handles=list(hs),
        )
    t.attempts_made += 1
    controlled = st.controller[s] is not None
    cid = new_ctx(st, kind="attempt", p=p, s=s, level=level, cards=list(hs), controlled=controlled)
    for h in hs:
        to_limbo(st, h, "att")
        if controlled:
            grant(st, h, 1 << st.controller[s])
        else:
            grant_public(st, h)
    if controlled:
        say(st, "attempt", p=p, level=level, s=s, n=len(hs))
    else:  # no controller to answer: the cards are simply paid (shown to all, then discarded)
        say(st, "buys_access", p=p, level=level, s=s, n=len(hs))
    push(
        st,
        {"op": "window", "kind": "attempt", "ctx": cid, "order": window_order(st, "attempt", cid, p), "i": 0},
        {"op": "attempt_resolve", "ctx": cid},
    )
    if "retro_virus_on_try" in st.profile.variants:  # 001: it strikes whoever tries, after the attempt
        st.stack.insert(len(st.stack) - 2, {"op": "attempt_after", "p": p, "s": s})


def _auto_attempt_after(st: GameState, task: dict[str, Any]) -> None:
    effects.retro_virus_strike(st, task["p"], task["s"])


def _auto_attempt_resolve(st: GameState, task: dict[str, Any]) -> None:
    cid = task["ctx"]
    ctx = st.ctx[cid]
    p, s, hs = ctx["p"], ctx["s"], ctx["cards"]
    if ctx.get("traced"):
        for h in hs:
            to_hand(st, h, p)
        st.ctx.pop(cid)
        if "route_trace_keeps_turn" in st.profile.variants:  # 001: the attempt fails, the turn goes on
            say(st, "route_trace", p=p)
        else:
            _end_turn_of(st, p)
            say(st, "route_trace_ends_turn", p=p)
        return
    if not ctx["controlled"]:
        for h in hs:
            to_discard(st, h)
        st.ctx.pop(cid)
        effects.improve(st, p, s, ctx["level"])
        return
    ctrl = st.controller[s]
    if ctx.get("firewalled"):
        for h in hs:
            to_hand(st, h, ctrl)
        st.ctx.pop(cid)
        say(st, "firewall", p=ctrl, n=len(hs))
        return
    push(st, {"op": "answer", "ctx": cid})


def _dec_answer(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    _expect(ev["t"], "answer")
    cid = task["ctx"]
    ctx = st.ctx[cid]
    p, s, hs = ctx["p"], ctx["s"], ctx["cards"]
    ctrl = st.controller[s]
    match = ev.get("match")
    if (
        not isinstance(match, list)
        or len(match) != len(hs)
        or any(m not in (0, 1, True, False) for m in match)
    ):
        raise IllegalEvent("malformed", f"the answer lists match/no match for each of the {len(hs)} card(s)")
    truth = answer_truth(st, s, hs, None)
    if truth is None or truth != [bool(m) for m in match]:  # else nothing to check (the words cost more than it)
        check(
            st,
            None if truth is None else False,
            "controller_answer",
            f"{pname(ctrl)}'s answer to {pname(p)}'s attempt on {sname(s)} does not match the password",
            p=ctrl,
            s=s,
            handles=list(hs),
            match=[bool(m) for m in match],
        )
    st.stack.pop()
    st.ctx.pop(cid)
    for h, m in zip(hs, match, strict=True):
        to_hand(st, h, p if m else ctrl)
    for w in ctx.get("wiretaps", []):
        for h in hs:
            grant(st, h, 1 << w)
    if all(match):
        say(st, "grants", p=ctrl)
        effects.improve(st, p, s, ctx["level"])
    else:
        say(st, "denied", p=ctrl, n=sum(1 for m in match if not m))


def answer_truth(st: GameState, s: int, hs: list[int], viewer: int | None) -> list[bool] | None:
    pw = faces_of(st, st.passwords.get(s, []), viewer)
    given = faces_of(st, hs, viewer)
    if pw is None or given is None:
        return None
    codes = {card(f).code for f in pw}
    return [card(f).code in codes for f in given]


def _end_turn_of(st: GameState, p: int) -> None:
    effects.end_turn_of(st, p)


# ======================================================================================================
# playing a card: play -> reaction window -> traps -> effect -> settle


def play_card(
    st: GameState,
    p: int,
    ev: dict[str, Any],
    *,
    step: str | None = None,
    window: dict[str, Any] | None = None,
) -> None:
    h = ev.get("card")
    if st.loc.get(h) != ("hand", p):
        raise IllegalEvent("play_from_hand", f"handle {h!r} is not in {pname(p)}'s hand")
    face = learn_claim(st, h, ev.get("face"))
    c = card(face)
    bd = ev.get("backdoor")
    if bd is not None:
        if bd == h or st.loc.get(bd) != ("hand", p):
            raise IllegalEvent("play_from_hand", f"Backdoor handle {bd!r} is not in {pname(p)}'s hand")
        bdc = card(learn_claim(st, bd, ev.get("backdoor_face")))
        if not bdc.is_companion:
            raise IllegalEvent("backdoor", f"{bdc.title} is not Backdoor")
        if c.is_upgrade:
            raise IllegalEvent("backdoor_upgrade", "Backdoor may not be played along with an upgrade")
        if requirement_of(c, st) is None:
            raise IllegalEvent("backdoor_pointless", f"{c.title} has no access requirement to ignore")
    if c.is_companion:
        raise IllegalEvent("backdoor_alone", "Backdoor is played along with another card")
    t = st.turn
    active = t is not None and t.player == p and window is None
    if c.is_reaction:
        if not reaction_fits(st, p, c, window, step if active else None):
            raise IllegalEvent("reaction_timing", f"{c.title} cannot be played now")
    else:
        if not (active and step == "actions"):
            raise IllegalEvent("action_timing", f"{c.title} is played as an action in your Take Actions step")
        spend_action(st)
    if bd is None and not meets_access(st, p, c):
        raise IllegalEvent("requirement", f"{pname(p)} does not meet {c.title}'s access requirement")
    ok = meets_password_code(st, p, c, None)
    check(
        st, ok, "requirement_code", f"{pname(p)}'s password lacks the code {c.title} requires", p=p, card=face
    )
    tgt = target_of(ev)
    if not target_ok(st, p, c, tgt, h):
        raise IllegalEvent("target", f"{c.title} cannot be played against {tgt or 'nothing'}")
    if c.effect == "copybot" and (not st.discard or st.discard[-1] == st.last_played.get(p)):
        raise IllegalEvent("copybot", "CopyBot needs a top discard that is not the card you just played")
    if c.effect == "scramble_password":
        fs = faces_of(st, tgt["new"])
        check(
            st,
            None if fs is None else len({card(f).code for f in fs}) == 3,
            "password_distinct",
            f"{pname(p)}'s new password repeats a code",
            p=p,
            handles=list(tgt["new"]),
        )
    to_limbo(st, h, "play")
    grant_public(st, h)
    if bd is not None:
        to_discard(st, bd)
    st.last_played[p] = h
    parent = window["ctx"] if window is not None else None
    cid = new_ctx(st, kind="play", p=p, card=h, face=face, parent=parent, backdoor=bd is not None, **tgt)
    say(st, "plays", p=p, card=face, backdoor=bd is not None, **{k: tgt[k] for k in ("q", "s") if k in tgt})
    tasks: list[dict[str, Any]] = []
    order = window_order(st, "card", cid, p)
    if order:
        tasks.append({"op": "window", "kind": "card", "ctx": cid, "order": order, "i": 0})
    tasks += [
        {"op": "card_traps", "ctx": cid},
        {"op": "card_resolve", "ctx": cid},
        {"op": "card_settle", "ctx": cid},
    ]
    push(st, *tasks)


def _auto_card_traps(st: GameState, task: dict[str, Any]) -> None:
    ctx = st.ctx[task["ctx"]]
    req = requirement_of(card(ctx["face"]), st)
    if req is None:
        return
    s, p = req[0], ctx["p"]
    fired: set[str] = set()
    for h in list(st.sector_cards.get(s, [])):
        eff = card(st.faces[h]).effect
        if eff in ("logic_bomb", "packet_sniffer") and eff not in fired and st.card_owner.get(h) != p:
            fired.add(eff)
            owner = st.card_owner[h]
            to_discard(st, h)
            if eff == "logic_bomb":
                say(st, "logic_bomb", s=s, p=p)
                effects.push_lose_cards(st, p, "all", reason="logic_bomb")
            else:
                say(st, "packet_sniffer", s=s, p=p, q=owner)
                effects.push_show_code(st, p, owner, reason="packet_sniffer")


def _auto_card_resolve(st: GameState, task: dict[str, Any]) -> None:
    ctx = st.ctx[task["ctx"]]
    if ctx.get("cancelled"):
        return
    effects.resolve(st, task["ctx"])


def _auto_card_settle(st: GameState, task: dict[str, Any]) -> None:
    cid = task["ctx"]
    ctx = st.ctx.pop(cid)
    h = ctx["card"]
    dest = None if ctx.get("cancelled") else ctx.get("dest")
    if st.loc.get(h) != ("play",):
        return  # the effect already moved it
    if dest is None:
        to_discard(st, h)
    elif dest[0] == "upg":
        st.upgrades[dest[1]].append(h)
        st.loc[h] = dest
    elif dest[0] == "sec":
        st.sector_cards.setdefault(dest[1], []).append(h)
        st.card_owner[h] = ctx["p"]
        st.loc[h] = dest
    elif dest[0] == "hand":
        st.hands[dest[1]].append(h)
        st.loc[h] = dest


# ======================================================================================================
# reaction windows


def _window_skip(st: GameState, task: dict[str, Any]) -> bool:
    if task["i"] >= len(task["order"]):
        return True
    ctx = st.ctx.get(task["ctx"])
    return ctx is None or bool(ctx.get("cancelled") or ctx.get("closed"))


def _dec_window(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev["t"] == "pass":
        st.stack[-1] = {**task, "i": task["i"] + 1}  # replace_top, inline: the most frequent event
        return
    p = task["order"][task["i"]]
    _expect(ev["t"], "play")
    play_card(st, p, ev, window=task)


# ======================================================================================================
# dispatch

AUTO = {
    "setup_deal": _auto_setup_deal,
    "setup_passwords": _auto_setup_passwords,
    "draw_cards": _auto_draw_cards,
    "turn_begin": _auto_turn_begin,
    "action_begin": _auto_action_begin,
    "action_count": _auto_action_count,
    "turn_end": _auto_turn_end,
    "end_window": _auto_end_window,
    "drop_ctx": _auto_drop_ctx,
    "attempt_resolve": _auto_attempt_resolve,
    "attempt_after": _auto_attempt_after,
    "card_traps": _auto_card_traps,
    "card_resolve": _auto_card_resolve,
    "card_settle": _auto_card_settle,
    **effects.AUTO,
}

DECISIONS = {
    "chance": _dec_chance,
    "password": _dec_password,
    "turn_start": _dec_turn_start,
    "free": _dec_free,
    "actions": _dec_actions,
    "discard": _dec_discard,
    "draw": _dec_draw,
    "window": _dec_window,
    "answer": _dec_answer,
    **effects.DECISIONS,
}


def actor(st: GameState, task: dict[str, Any]) -> int | None:
    op = task["op"]
    if op == "window":  # the most frequent decision (a reaction window passes by every other player)
        return task["order"][task["i"]]
    if op == "chance":
        return None
    if op in STEP_OPS:
        return st.active
    if op == "answer":
        return st.controller[st.ctx[task["ctx"]]["s"]]
    return task["p"] if "p" in task else effects.actor(st, task)


def _skip_decision(st: GameState, task: dict[str, Any]) -> bool:
    op = task["op"]
    t = st.turn
    if op == "window":
        return _window_skip(st, task)
    if op in STEP_OPS:
        assert t is not None
        if t.ended:
            return True
        if op == "turn_start":
            return not turn_start_options(st)
        if op == "free":
            return t.free_left <= 0
        if op == "actions":
            return actions_available(st, public=True) <= 0 and not tele_bonus_open(st)
    return effects.skip_decision(st, task)


def advance(st: GameState) -> None:
    stack = st.stack  # (the list is changed in place, never replaced, while the game runs)
    while stack and not st.over:
        task = stack[-1]
        op = task["op"]
        if op == "window":  # _skip_decision's first case (_window_skip), inline: a window waits for most events
            if task["i"] < len(task["order"]):
                ctx = st.ctx.get(task["ctx"])
                if ctx is not None and not (ctx.get("cancelled") or ctx.get("closed")):
                    return
            stack.pop()
            continue
        fn = AUTO.get(op)
        if fn is not None:
            stack.pop()
            fn(st, task)
            continue
        if _skip_decision(st, task):
            stack.pop()
            continue
        return


def apply_event(st: GameState, ev: dict[str, Any]) -> None:
    """Apply ev to st in place (st must be a fresh clone). Raises IllegalEvent."""
    if st.over:
        raise IllegalEvent("game_over", "the game is over")
    t = ev.get("t") if isinstance(ev, dict) else None
    if not isinstance(t, str):
        raise IllegalEvent("malformed", "an event is a map with a string field 't'")
    if t == "stage":  # scenario games only (engine/access_denied/stage.py): no decision consumed, nothing advanced
        stage.apply_stage(st, ev)
        st.seq += 1
        return
    task = st.stack[-1]
    op = task["op"]
    who = task["order"][task["i"]] if op == "window" else actor(st, task)  # (a window: actor's first case, inline)
    if who is None:
        if t not in CHANCE_EVENTS or ("p" in ev and t != "first"):
            raise IllegalEvent(
                "chance_expected", f"the next step is chance ({task.get('what')}), not {t!r}"
            )
    elif ev.get("p") != who:
        raise IllegalEvent(
            "not_your_turn",
            f"it is {pname(who)}'s decision ({task['op']}), not "
            f"{pname(ev['p']) if isinstance(ev.get('p'), int) else repr(ev.get('p'))}'s",
        )
    DECISIONS[op](st, task, ev)
    st.seq += 1
    advance(st)


def _expect(got: str, want: str) -> None:
    if got != want:
        raise IllegalEvent("unexpected_event", f"expected {want!r} here, got {got!r}")


def attempt_combos(st: GameState, p: int, s: int) -> list[list[int]]:
    level = st.access[p][s] + 1
    return [list(c) for c in combinations(sorted(st.hands[p]), attempt_size(st, s, level))]
