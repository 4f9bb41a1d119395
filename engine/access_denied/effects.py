"""Card effects: what each effect id of `data/cards.toml` does once a played card resolves, and the
follow-up work effects create (losing cards with a Backup window, random picks, showing codes, trades,
Spam gifts, NSA / Human Services / FDIC choices).

One handler per effect id; the card table says which card has which effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.engine.access_denied.catalog import NONE, USER, card
from adp2p.engine.access_denied.rules import BANKING, MICRONOPOLY, has_virus_immunity
from adp2p.engine.access_denied.state import GameState
from adp2p.engine.access_denied.tasks import (
    check,
    ctx_set,
    faces_of,
    grant,
    new_ctx,
    pname,
    push,
    replace_top,
    say,
    set_access,
    set_password,
    to_discard,
    to_hand,
)
from adp2p.engine.errors import IllegalEvent

Handler = Callable[[GameState, int, dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def handler(*names: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn

    return deco


def resolve(st: GameState, cid: int) -> None:
    ctx = st.ctx[cid]
    HANDLERS[card(ctx["face"]).effect](st, cid, ctx)


def virus_immune(st: GameState, p: int) -> bool:
    return has_virus_immunity(st, p)


def end_turn_of(st: GameState, p: int) -> None:
    if st.turn is not None and st.turn.player == p:
        st.turn.ended = True


def improve(st: GameState, p: int, s: int, level: int) -> None:
    """p gains `level` in sector s (attempt, Guru, automatic User access); Retro-Virus strikes after."""
    set_access(st, p, s, level)
    retro_virus_strike(st, p, s)


def retro_virus_strike(st: GameState, p: int, s: int) -> None:
    """A Retro-Virus another player placed on sector s strikes p (who improved access there, or in 001 tried to):
    p discards all cards (unless immune to viruses), and the Retro-Virus is discarded."""
    if st.over:
        return
    for h in list(st.sector_cards.get(s, [])):
        c = card(st.faces[h])
        if c.effect == "retro_virus" and st.card_owner.get(h) != p:
            to_discard(st, h)
            say(st, "retro_virus", s=s, p=p)
            if not virus_immune(st, p):
                push_lose_cards(st, p, "all", reason="retro_virus")
            break


def _parent(st: GameState, ctx: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    pid = ctx["parent"]
    return pid, st.ctx[pid]


def _with_access(st: GameState, s: int, players: list[int]) -> list[int]:
    return [q for q in players if st.access[q][s] >= USER]


# -- upgrades and sector cards -------------------------------------------------------------------------


@handler("extra_draw", "hand_limit_plus2", "extra_free_attempt", "virus_immunity", "extra_action")
def _upgrade(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p = ctx["p"]
    ctx_set(st, cid, dest=("upg", p))
    c = card(ctx["face"])
    t = st.turn
    gives_action = c.effect == "extra_action" and not (c.key == "dsl" and "dsl_draws" in st.profile.variants)
    if gives_action and t is not None and t.player == p:
        t.actions_left += 1  # "the benefit goes into effect immediately"


@handler("satan", "packet_sniffer", "logic_bomb", "retro_virus")
def _sector_card(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    ctx_set(st, cid, dest=("sec", ctx["s"]))


@handler("remove_sector_card")
def _samurai(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    h = ctx["u"]
    say(st, "samurai", card=st.faces[h])
    to_discard(st, h)


# -- access --------------------------------------------------------------------------------------------


@handler("guru")
def _guru(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p, s = ctx["p"], ctx["s"]
    improve(st, p, s, st.access[p][s] + 1)


@handler("gain_user")
def _gain_user(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    s = ctx["s"] if "s" in ctx else card(ctx["face"]).param_sector
    improve(st, ctx["p"], s, USER)


@handler("remove_marker")
def _remove_marker(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    set_access(st, ctx["q"], ctx["s"], NONE)


@handler("scramble_password")
def _scramble(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p, s = ctx["p"], ctx["s"]
    for h in list(st.passwords.get(s, [])):
        to_discard(st, h)
    set_password(st, p, s, ctx["new"])


# -- reactions on a played card or an attempt ----------------------------------------------------------


@handler("cancelbot")
def _cancelbot(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, par = _parent(st, ctx)
    ctx_set(st, pid, cancelled=True)
    end_turn_of(st, par["p"])
    say(st, "cancelbot", card=par["face"])


@handler("mocking_bird")
def _mocking_bird(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, par = _parent(st, ctx)
    ctx_set(st, pid, cancelled=True)
    say(st, "mocking_bird", card=par["face"])
    push_show_code(st, par["p"], ctx["p"], reason="mocking_bird")


@handler("counter_virus")
def _counter_virus(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, par = _parent(st, ctx)
    ctx_set(st, pid, cancelled=True)
    say(st, "counter_virus", card=par["face"])
    push_lose_cards(st, par["p"], "all", reason="counter_virus")


@handler("anti_virus")
def _anti_virus(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, par = _parent(st, ctx)
    if card(par["face"]).effect == "multi_virus":
        ctx_set(st, pid, immune=[*par.get("immune", []), ctx["p"]])
        say(st, "anti_virus_protects", p=ctx["p"])
    else:
        ctx_set(st, pid, cancelled=True)
        say(st, "anti_virus", card=par["face"])


@handler("firewall")
def _firewall(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, _ = _parent(st, ctx)
    ctx_set(st, pid, firewalled=True, closed=True)


@handler("route_trace")
def _route_trace(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, _ = _parent(st, ctx)
    ctx_set(st, pid, traced=True, closed=True)


@handler("wiretap")
def _wiretap(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, par = _parent(st, ctx)
    ctx_set(st, pid, wiretaps=[*par.get("wiretaps", []), ctx["p"]])
    for h in par["cards"]:
        grant(st, h, 1 << ctx["p"])


@handler("backup", "press_pass")
def _protect(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    pid, _ = _parent(st, ctx)
    ctx_set(st, pid, protected=True, closed=True)


@handler("backdoor")
def _backdoor(st: GameState, cid: int, ctx: dict[str, Any]) -> None:  # pragma: no cover - never alone
    raise AssertionError("Backdoor never resolves alone")


# -- any-time and draw-step reactions ------------------------------------------------------------------


@handler("copybot")
def _copybot(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    if st.discard:
        to_hand(st, st.discard[-1], ctx["p"])


@handler("winzap")
def _winzap(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    for q in _with_access(st, MICRONOPOLY, list(range(st.n))):
        st.status[q].extra_actions_next += 1


@handler("no_etaxes")
def _no_etaxes(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    for q in range(st.n):
        st.status[q].etaxes_next += 1


@handler("draw_six")
def _good_day(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    assert st.turn is not None
    st.turn.draw_mode = "six"


@handler("draw_three_more")
def _easy_credit(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    assert st.turn is not None
    if "easy_credit_draws_three" in st.profile.variants:
        st.turn.draw_three = True  # 001: "3 Karten ziehen", not "3 additional" (R40)
    else:
        st.turn.draw_bonus += 3


# -- actions against players ---------------------------------------------------------------------------


@handler("bank_error")
def _bank_error(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p = ctx["p"]
    st.status[p].ignore_limit = True
    if st.turn is not None and st.turn.player == p:
        st.turn.actions_left += 1  # not max_actions: Bug / S.O.L. cap the actions taken, Bank Error lifts no cap (R44)
    push(st, {"op": "draw_cards", "p": p, "n": 3})


@handler("ignore_limit")
def _loan_default(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["p"]].ignore_limit = True


@handler("multi_virus")
def _multi_virus(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p, s = ctx["p"], ctx["s"]
    immune = set(ctx.get("immune", []))
    for q in reversed(_with_access(st, s, st.others(p))):  # stack: last pushed resolves first
        if q not in immune and not virus_immune(st, q):
            push_lose_cards(st, q, "all", reason="multi_virus")


@handler("discard_all_others")
def _major_release(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    for q in reversed(_with_access(st, MICRONOPOLY, st.others(ctx["p"]))):
        push_lose_cards(st, q, "all", reason="major_release")


@handler("discard3_others")
def _software_patch(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    for q in reversed(_with_access(st, MICRONOPOLY, st.others(ctx["p"]))):
        push_lose_cards(st, q, "random3", reason="software_patch")


@handler("discard3_all")
def _bank_run(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p = ctx["p"]
    for q in reversed(_with_access(st, BANKING, [p, *st.others(p)])):
        push_lose_cards(st, q, "random3", reason="bank_run")


@handler("discard3_target")
def _overdraft(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    push_lose_cards(st, ctx["q"], "random3", reason="overdraft")


@handler("olfactopeg")
def _olfactopeg(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p = ctx["p"]
    st.status[p].ignore_limit = True
    for q in reversed(st.others(p)):
        push_lose_cards(st, q, "give_random", to=p, reason="olfactopeg")


@handler("nsa")
def _nsa(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    push_lose_cards(st, ctx["q"], "nsa", to=ctx["p"], reason="nsa", always=True)


@handler("human_services")
def _human_services(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    push_lose_cards(st, ctx["q"], "hs", to=ctx["p"], reason="human_services")


@handler("fdic")
def _fdic(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    push_lose_cards(st, ctx["q"], "fdic", to=ctx["p"], reason="fdic")


@handler("take_upgrade")
def _fbi(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    say(st, "fbi", card=st.faces[ctx["u"]])
    to_hand(st, ctx["u"], ctx["p"])


@handler("burnout")
def _burnout(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    q = ctx["q"]
    for h in list(st.upgrades[q]):
        if card(st.faces[h]).key == "over_clock":
            to_discard(st, h)
    st.status[q].no_actions_next = True


@handler("sol")
def _sol(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["q"]].sol = True


@handler("beta_site")
def _beta(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["q"]].beta = True


@handler("no_actions_next")
def _no_actions(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["q"]].no_actions_next = True


@handler("no_attempts_next")
def _no_attempts(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["q"]].no_attempts_next = True


@handler("no_draw_next")
def _no_draw(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    st.status[ctx["q"]].no_draw_next = True


@handler("lose_action_others")
def _net_volleyball(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    for q in st.others(ctx["p"]):
        st.status[q].lose_actions_next += 1


@handler("give_harmful")
def _give_harmful(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    ctx_set(st, cid, dest=("hand", ctx["q"]))


@handler("show_random_code")
def _dumpster(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    s = ctx["s"]
    push(
        st,
        {
            "op": "chance",
            "what": "pick",
            "from": list(st.passwords[s]),
            "k": 1,
            "purpose": "show",
            "to": ctx["p"],
        },
    )


@handler("spam")
def _spam(st: GameState, cid: int, ctx: dict[str, Any]) -> None:
    p, q = ctx["p"], ctx["q"]
    order = [x for x in [p, *st.others(p)] if x != q]
    sid = new_ctx(st, kind="spam", target=q, received=0)
    push(st, {"op": "spam_give", "ctx": sid, "order": order, "i": 0}, {"op": "spam_done", "ctx": sid})


# -- follow-up work ------------------------------------------------------------------------------------


def push_lose_cards(
    st: GameState, victim: int, how: str, *, to: int | None = None, reason: str, always: bool = False
) -> None:
    """Victim is required to lose cards: a Backup window for them, then the loss."""
    if not st.hands[victim] and not always:
        return
    cid = new_ctx(st, kind="lose_cards", victim=victim, how=how, to=to, reason=reason)
    tasks = []
    if st.hands[victim]:
        tasks.append({"op": "window", "kind": "lose_cards", "ctx": cid, "order": [victim], "i": 0})
    tasks.append({"op": "lose_do", "ctx": cid})
    push(st, *tasks)


def push_show_code(st: GameState, p: int, to: int, *, reason: str) -> None:
    pool = st.password_handles(p)
    if pool:
        push(st, {"op": "chance", "what": "pick", "from": pool, "k": 1, "purpose": "show", "to": to})


def _auto_lose_do(st: GameState, task: dict[str, Any]) -> None:
    ctx = st.ctx.pop(task["ctx"])
    v, how, to = ctx["victim"], ctx["how"], ctx["to"]
    hand = list(st.hands[v])
    if how == "nsa":
        for h in hand:
            grant(st, h, 1 << to)
    if ctx.get("protected"):
        say(st, "backup", p=v)
        return
    if not hand:
        return
    if how == "all":
        say(st, "discards_all", p=v, n=len(hand), why=ctx["reason"])
        for h in hand:
            to_discard(st, h)
    elif how == "random3":
        pick = {"op": "chance", "what": "pick", "from": hand, "k": min(3, len(hand)), "purpose": "discard", "victim": v}
        push(st, pick)
    elif how == "give_random":
        push(st, {"op": "chance", "what": "pick", "from": hand, "k": 1, "purpose": "give", "to": to})
    elif how == "hs":
        push(
            st,
            {
                "op": "chance",
                "what": "pick",
                "from": hand,
                "k": min(2, len(hand)),
                "purpose": "hs",
                "to": to,
                "victim": v,
            },
        )
    elif how == "nsa":
        push(st, {"op": "nsa_take", "p": to, "victim": v})
    elif how == "fdic":
        push(st, {"op": "fdic_give", "p": v, "to": to, "k": (len(hand) + 1) // 2})


def after_pick(st: GameState, task: dict[str, Any], picks: list[int]) -> None:
    purpose = task["purpose"]
    if purpose == "discard":
        for h in picks:
            to_discard(st, h)
        say(st, "random_discards", p=task["victim"], n=len(picks))
    elif purpose == "give":
        for h in picks:
            to_hand(st, h, task["to"])
    elif purpose == "show":
        for h in picks:
            grant(st, h, 1 << task["to"])
    elif purpose == "hs":
        if len(picks) == 1:
            to_hand(st, picks[0], task["to"])
        else:
            push(st, {"op": "hs_give", "p": task["to"], "victim": task["victim"], "picks": picks})


def start_trade(st: GameState, p: int, ev: dict[str, Any]) -> None:
    q, h, promise = ev.get("q"), ev.get("card"), ev.get("promise")
    if not isinstance(q, int) or q == p or not 0 <= q < st.n:
        raise IllegalEvent("trade_partner", "trade with one other player")
    if st.loc.get(h) != ("hand", p):
        raise IllegalEvent("trade_card", f"handle {h!r} is not in {pname(p)}'s hand")
    if promise is not None and promise not in range(6):
        raise IllegalEvent("malformed", "a trade promise is a code 0..5")
    cid = new_ctx(st, kind="trade", p=p, q=q, card=h, promise=promise)
    if promise is None:
        say(st, "trade_offer", p=p, q=q)
    else:  # the promise is public (it is in the event): the partner and everyone read what is offered
        say(st, "trade_offer_code", p=p, q=q, code="ABCDEF"[promise])
    push(st, {"op": "trade_reply", "p": q, "ctx": cid})


def _dec_trade_reply(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    if ev["t"] != "trade_reply":
        raise IllegalEvent("unexpected_event", f"expected 'trade_reply', got {ev['t']!r}")
    ctx = st.ctx[task["ctx"]]
    p, q, h = ctx["p"], ctx["q"], ctx["card"]
    hs, promise = ev.get("cards", []), ev.get("promise")
    if not isinstance(hs, list) or len(set(hs)) != len(hs) or any(st.loc.get(x) != ("hand", q) for x in hs):
        raise IllegalEvent("trade_card", "trade cards must be different cards from your hand")
    if promise is not None and (not isinstance(promise, list) or len(promise) != len(hs)):
        raise IllegalEvent("malformed", "a reply's promise lists one code per card given")
    st.stack.pop()
    st.ctx.pop(task["ctx"])
    if not ev.get("accept"):
        say(st, "trade_declined", p=q)
        return
    if ctx["promise"] is not None:
        f = st.face(h)
        check(
            st,
            None if f is None else card(f).code == ctx["promise"],
            "trade_promise",
            f"{pname(p)} promised a {'ABCDEF'[ctx['promise']]} and gave another code",
            p=p,
            handles=[h],
        )
    if promise is not None:
        fs = faces_of(st, hs)
        check(
            st,
            None if fs is None else [card(f).code for f in fs] == list(promise),
            "trade_promise",
            f"{pname(q)}'s cards do not carry the promised codes",
            p=q,
            handles=list(hs),
        )
    to_hand(st, h, q)
    for x in hs:
        to_hand(st, x, p)
    say(st, "trade", p=p, q=q, n=len(hs))


def _dec_nsa_take(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    h = ev.get("card")
    if ev["t"] != "take" or st.loc.get(h) != ("hand", task["victim"]):
        raise IllegalEvent("nsa_take", f"take one card from {pname(task['victim'])}'s hand")
    st.stack.pop()
    to_hand(st, h, task["p"])


def _dec_hs_give(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    h, r = ev.get("card"), ev.get("q")
    p, v = task["p"], task["victim"]
    if (
        ev["t"] != "give"
        or h not in task["picks"]
        or not isinstance(r, int)
        or r in (p, v)
        or not 0 <= r < st.n
    ):
        raise IllegalEvent(
            "hs_give", "give one of the two taken cards to a player other than you and the victim"
        )
    st.stack.pop()
    keep = next(x for x in task["picks"] if x != h)
    to_hand(st, h, r)
    to_hand(st, keep, p)


def _dec_fdic_give(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    hs = ev.get("cards")
    v = task["p"]
    if (
        ev["t"] != "give"
        or not isinstance(hs, list)
        or len(hs) != task["k"]
        or len(set(hs)) != len(hs)
        or any(st.loc.get(h) != ("hand", v) for h in hs)
    ):
        raise IllegalEvent("fdic_give", f"give exactly {task['k']} different cards from your hand")
    st.stack.pop()
    for h in hs:
        to_hand(st, h, task["to"])


def _dec_spam_give(st: GameState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    x = task["order"][task["i"]]
    hs = ev.get("cards")
    if (
        ev["t"] != "spam_give"
        or not isinstance(hs, list)
        or len(set(hs)) != len(hs)
        or any(st.loc.get(h) != ("hand", x) for h in hs)
    ):
        raise IllegalEvent("spam_give", "give any number of different cards from your hand")
    ctx = st.ctx[task["ctx"]]
    for h in hs:
        to_hand(st, h, ctx["target"])
    ctx_set(st, task["ctx"], received=ctx["received"] + len(hs))
    replace_top(st, i=task["i"] + 1)


def _auto_spam_done(st: GameState, task: dict[str, Any]) -> None:
    ctx = st.ctx.pop(task["ctx"])
    st.status[ctx["target"]].lose_actions_next += ctx["received"]
    say(st, "spammed", p=ctx["target"], n=ctx["received"])


AUTO = {"lose_do": _auto_lose_do, "spam_done": _auto_spam_done}
DECISIONS = {
    "trade_reply": _dec_trade_reply,
    "nsa_take": _dec_nsa_take,
    "hs_give": _dec_hs_give,
    "fdic_give": _dec_fdic_give,
    "spam_give": _dec_spam_give,
}


def actor(st: GameState, task: dict[str, Any]) -> int | None:
    if task["op"] == "spam_give":
        return task["order"][task["i"]]
    raise AssertionError(task)


def skip_decision(st: GameState, task: dict[str, Any]) -> bool:
    if task["op"] == "spam_give":
        return task["i"] >= len(task["order"])
    return False
