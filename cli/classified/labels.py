"""Names of the things on the table from one seat's view: a Guard by its spot ("your Guard 2 (5 Scavenge)", "their
Guard 1 (face down)"), a question in words, and each legal event as a menu path (card, how, target)."""

from __future__ import annotations

from typing import Any

from adp2p.cli.classified.words import ability, card_name, say
from adp2p.engine.classified.catalog import card
from adp2p.engine.classified.state import CState

Event = dict[str, Any]


def guard_label(v: CState, me: int | None, g: int, lang: str) -> str:
    """A Guard (or Extra Protection) by its owner's spot, with its face where the viewer knows it."""
    owner = next((p for p in range(2) if g in v.guards[p]), None)
    f = v.face(g, me) if me is not None else v.faces.get(g)
    if owner is None:  # Extra Protection in a Guard area
        owner = next((p for p in range(2) if g in v.protected(p)), None)
        if owner is None:  # gone (assassinated, swapped away): by its face as all saw it, or "a Guard"
            return card_name(f, lang) if f is not None else say("a_guard", lang)
        who = say("you_l" if owner == me else "them_l", lang)
        return f"{say('extra', lang)} ({who})"
    i = v.guards[owner].index(g) + 1
    if owner == me:
        return say("my_guard", lang, i=i, card=card_name(f, lang) if f else "?")
    if f is None:
        return say("their_guard_down", lang, i=i)
    return say("their_guard", lang, i=i, card=card_name(f, lang))


def question(v: CState, me: int | None, q: dict[str, Any], lang: str) -> str:
    kind = q["q"]
    if kind == "touch":
        return say("qq.touch", lang, a=q["a"], guard=guard_label(v, me, q["g"], lang))
    if kind in ("near", "in_code", "equal"):
        n = q.get("n")
        if n is None:
            n = v.face(q["h"], me) if me is not None else v.faces.get(q["h"])
        return say(f"qq.{kind}", lang, n=n if n is not None else "?")
    return say("qq.other", lang, q=kind)


def _card(v: CState, me: int, h: int, lang: str) -> str:
    return card_name(v.face(h, me), lang)


def path(v: CState, me: int, ev: Event, lang: str) -> tuple[str, ...]:
    """The menu path of a legal event: the card, how it is played, its target (each a stage)."""
    t = ev["t"]
    if t == "encrypt":
        return (_card(v, me, ev["h"], lang), say("encrypt", lang))
    if t == "enlist" and ev.get("as") == "guard":
        return (_card(v, me, ev["h"], lang), say("as_guard", lang))
    if t == "enlist":
        return (_card(v, me, ev["h"], lang), say("as_assassin", lang),
                say("against", lang, guard=guard_label(v, me, ev["target"], lang)), say(f"top.{ev['top']}", lang))
    if t == "deploy":
        head = (_card(v, me, ev["h"], lang), say("deploy", lang, ability=ability(card(ev["card"]).ability, lang)))
        return (*head, _deploy_target(v, me, ev, lang))
    if t == "pass":
        return (say("pass", lang),)
    if t == "react":
        return (say("react", lang, card=card_name(ev["card"], lang)),)
    if t == "answer":
        return (say("yes" if ev["yes"] else "no", lang),)
    if t == "name":
        return (say("name_n", lang, n=ev["n"]),)
    if t == "pick":
        return (say("their_card", lang, card=_card(v, me, ev["h"], lang)),)
    if t == "choose":
        return (_card(v, me, ev["suitcase"], lang), say("case_enc", lang, s=_card(v, me, ev["suitcase"], lang),
                                                        e=_card(v, me, ev["encrypt"], lang)))
    if t == "mix":
        return (say("mix_hand", lang),)
    if t == "reveal":
        return (say("reveal_all", lang, cards=", ".join(card_name(n, lang, short=True) for _, n in ev["cards"])),)
    return (str(ev),)


def _deploy_target(v: CState, me: int, ev: Event, lang: str) -> str:
    a = card(ev["card"]).ability
    g = lambda h: guard_label(v, me, h, lang)  # noqa: E731
    if a in ("near", "code"):
        return say("number", lang, n=ev["n"])
    if a == "equal":
        return say("ask_show", lang)
    if a == "petals":
        return say("ask_petals", lang)
    if a == "switch":
        if ev["mode"] == "swap":
            return say("swap", lang, mine=g(ev["mine"]), theirs=g(ev["theirs"]))
        if ev["mode"] == "discard":
            return say("swap_discard", lang, mine=g(ev["mine"]))
        return say("swap_self", lang, mine=g(ev["mine"]), drop=_card(v, me, ev["drop"], lang))
    if a == "scavenge":
        return say("take_drop", lang, take=_card(v, me, ev["take"], lang), drop=_card(v, me, ev["drop"], lang))
    if a == "tuck":
        return say("tuck", lang, guard=g(ev["guard"]))
    if a == "wheel":
        return say("flip", lang, guard=g(ev["guard"]))
    if a == "spotlights":
        return say("spot", lang, guards=" + ".join(g(x) for x in ev["guards"]))
    return str(ev)
