"""Each legal event of a Hacker decision as a label path in the player's language: the first parts name the group
a stage of the menu offers (a card, a number of cards, a column of the pad), the last the choice itself."""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker.words import card_name, place_name, say, seat_name
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.catalog import card_by_key
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]


def _cards(v: HState, me: int, hs: list[int], lang: str) -> str:
    """Card names in a fixed order (a set of cards laid or exchanged: which copy, in which order, is no choice)."""
    return ", ".join(sorted(card_name(v.face(h, me), lang) for h in hs)) or "-"


def _count(k: int, lang: str) -> str:
    return say("cards_1", lang) if k == 1 else say("cards_n", lang, k=k)


def _lay(v: HState, me: int, chance: list[int], term: list[int], lang: str) -> str:
    bits = [say(key, lang, cards=_cards(v, me, hs, lang)) for key, hs in (("lay.chance", chance), ("lay.term", term))
            if hs]
    return " | ".join(bits) or say("lay.none", lang)


def _play(v: HState, me: int, ev: Event, lang: str, names: list[str] | None) -> tuple[str, ...]:
    name = card_name(ev["card"], lang)
    target = card_by_key(ev["card"]).target
    if "fd" in ev:
        owner = next((q for q in range(v.n) if ev["fd"] in v.front[q]), None)
        return name, say("tg.fd", lang, card=name, who=seat_name(owner, me, lang, names))
    if "who" in ev and "d" in ev:
        return name, say("tg.who_d", lang, card=name, who=seat_name(ev["who"], me, lang, names),
                         d=place_name(ev["d"], lang))
    if "who" in ev and target in ("time", "prio"):
        if ev["who"] == me:
            return name, say("tg.self", lang, card=name)
        return name, say("tg.other", lang, card=name, who=seat_name(ev["who"], me, lang, names))
    if "who" in ev:
        return name, say("tg.who", lang, card=name, who=seat_name(ev["who"], me, lang, names))
    if "d" in ev:
        key = "tg.remote_department" if target == "remote_department" else "tg.department"
        return name, say(key, lang, card=name, d=place_name(ev["d"], lang))
    return name, say("tg.none", lang, card=name)


def path(v: HState, me: int, ev: Event, lang: str, names: list[str] | None = None) -> tuple[str, ...]:
    """The label path of one legal event of `me` (from its view `v`)."""
    t = ev["t"]
    if t == "pass":
        return (say("ev.pass", lang, card=card_name(v.face(ev["h"], me), lang)),)
    if t == "seal" and ev["what"] == "place":
        to = ev["secret"]
        key = "ev.seal.stay" if to == v.where[me] else "ev.seal.cafe" if to == CAFE else "ev.seal.place"
        return (say(key, lang, to=place_name(ev["secret"], lang, long=True)),)
    if t == "seal" and ev["what"] == "lay":
        s = ev["secret"]
        return _count(len(s["chance"]) + len(s["term"]), lang), _lay(v, me, s["chance"], s["term"], lang)
    if t == "seal":
        return (say("ev.seal.pad", lang, sqs=" ".join(ev["secret"])),)
    if t == "unseal" and ev["what"] == "place":
        return (say("ev.unseal.place", lang, to=place_name(ev["to"], lang, long=True)),)
    if t == "unseal":
        return (say("ev.unseal.lay", lang, chance=_cards(v, me, ev["chance"], lang),
                    term=_cards(v, me, ev["term"], lang)),)
    if t == "play":
        return _play(v, me, ev, lang, names)
    if t == "discard":
        return (say("ev.discard", lang, card=card_name(ev["card"], lang)),)
    if t == "face_down":
        name = card_name(v.face(ev["h"], me), lang)
        return name, say("ev.face_down", lang, card=name, who=seat_name(ev["who"], me, lang, names))
    if t == "activate":
        owner = next((q for q in range(v.n) if ev["h"] in v.front[q]), None)
        return (say("ev.activate", lang, who=seat_name(owner, me, lang, names), d=place_name(ev["d"], lang)),)
    if t == "give":
        return (say(f"ev.give.{ev['what']}", lang, d=place_name(ev["d"], lang)),)
    if t == "probe" and ev["sq"] == "abandon":
        return (say("ev.abandon", lang),)
    if t == "probe":
        return say("col", lang, c=ev["sq"][0]), ev["sq"]
    if t == "answer":
        return (say(f"ev.answer.{str(ev['check']).lower()}", lang),)
    if t == "open_pad":
        return (say("ev.open_pad", lang, roll="+".join(map(str, ev["roll"])), sqs=" ".join(ev["checks"])),)
    if t == "exchange":
        if not ev["hs"]:
            return (say("ev.exchange.none", lang),)
        return _count(len(ev["hs"]), lang), say("ev.exchange", lang, cards=_cards(v, me, ev["hs"], lang))
    return (say(f"ev.{t}", lang),)


def question(v: HState, me: int, kind: str, info: dict[str, Any], lang: str, names: list[str] | None = None) -> str:
    """The question over the menu of a decision."""
    f: dict[str, Any] = {}
    key = f"ask.{kind}"
    if kind == "pass":
        f["left"] = seat_name((me + 1) % v.n, me, lang, names)
    elif kind == "seal":
        key = f"ask.seal.{info.get('what')}"
        if info.get("what") == "lay" and v.terminal_of(me) is None:  # H-LAYTERM: only chance cards
            key += ".cafe" if v.where[me] == CAFE else ".queue"
    elif kind == "play":
        f["pile"] = say("chance_pile" if info.get("pile") == "chance" else "term_pile", lang)
    elif kind == "give":
        f["to"] = seat_name(info.get("to"), me, lang, names)
    elif kind == "hack_choice":
        f["d"] = place_name(v.terminal_of(me), lang)
    elif kind == "answer":
        f["sq"] = info.get("sq", "?")
    elif kind == "protect":  # anyone may stop a SPY or SUPER SPY (004:227): the attack is the account's last play
        last = next((e for e in reversed(v.history) if e.get("k") == "play"), {})
        f |= {"attacker": seat_name(last.get("p"), me, lang, names), "card": card_name(last.get("card"), lang),
              "who": seat_name(last.get("who"), me, lang, names)}
    try:
        return say(key, lang, **f)
    except KeyError:
        return kind
