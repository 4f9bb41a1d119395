"""The public account (`view.history`) as lines from one seat's view, EN/DE: what happened, with the faces the
viewer knows (a card it was shown), never more."""

from __future__ import annotations

from typing import Any

from adp2p.cli.classified.labels import guard_label, question
from adp2p.cli.classified.words import act, card_name, say
from adp2p.engine.classified.state import CState


def _who(p: int | None, me: int | None, lang: str) -> str:
    if me is None:
        return f"P{(p or 0) + 1}"
    return say("you_s" if p == me else "them_s", lang)


def line(v: CState, e: dict[str, Any], me: int | None, lang: str) -> str:
    k = e.get("k")
    who = _who(e.get("p"), me, lang)

    def face(h: int | None) -> int | None:
        if h is None:
            return None
        return v.faces.get(h) if me is None else v.face(h, me)

    def cn(h: int | None) -> str:
        f = face(h)
        return card_name(f, lang) if f is not None else say("down", lang)

    if k in ("dealt", "big_reveal"):
        return say(f"a.{k}", lang)
    if k in ("chose", "start", "forgo", "mix"):
        return act(f"a.{k}", lang, e.get("p"), me, who)
    if k == "turn":
        fin = f" ({say('final', lang)})" if e.get("final") else ""
        return say("a.turn", lang, who=who, n=e["n"], final=fin, left=e["left"])
    if k == "encrypt":
        return act("a.encrypt", lang, e.get("p"), me, who, card=cn(e["h"]) if e["p"] == me else say("down", lang))
    if k == "guard":
        f = face(e["h"]) if e["p"] == me else None
        return act("a.guard", lang, e.get("p"), me, who, card=f" ({card_name(f, lang)})" if f else "")
    if k == "assassin":
        return act("a.assassin", lang, e.get("p"), me, who, card=card_name(e["card"], lang),
                   guard=_g(v, me, e["target"], lang))
    if k == "react":
        return act("a.react", lang, e.get("p"), me, who, guard=_g(v, me, e["guard"], lang))
    if k in ("assassinated", "attempt_failed"):
        return say(f"a.{k}", lang, guard=_g(v, me, e["guard"], lang))
    if k == "shown":
        f = face(e["h"])
        return act("a.shown", lang, e.get("p"), me, who, to=_to(e["to"], me, lang),
                   card=f": {card_name(f, lang)}" if f is not None and me in (e["to"], e.get("p")) else "")
    if k == "peek":  # the cards for the peeker alone (they may be drawn before its screen is drawn again)
        seen = [f for f in (face(h) for h in e.get("hs", ())) if f is not None] if e.get("p") == me else []
        return act("a.peek", lang, e.get("p"), me, who, n=e["n"],
                   cards=f": {', '.join(card_name(f, lang) for f in seen)}" if seen else "")
    if k == "deploy":
        more = ""
        if "n" in e:
            more = f" ({e['n']})"
        return act("a.deploy", lang, e.get("p"), me, who, card=card_name(e["card"], lang), more=more)
    if k == "answer":
        return act("a.answer", lang, e.get("p"), me, who, yes=say("yes" if e["yes"] else "no", lang),
                   q=_third(question(v, me, e["question"], lang), lang, e.get("p"), me))
    if k == "named":
        return act("a.named", lang, e.get("p"), me, who, n=e["n"])
    if k == "pick":
        return act("a.pick", lang, e.get("p"), me, who, card=cn(e["h"]))
    if k == "reveal":
        return act("a.reveal", lang, e.get("p"), me, who, cards=", ".join(str(n) for _, n in e["cards"]))
    if k == "end":
        return say("a.end", lang, result=result_words(e["winners"], e["reason"], me, lang))
    return str(e)


THIRD = {"en": (("your", "the"),), "de": (("deinem", "dem"), ("deiner", "der"), ("deine", "die"))}
THEIRS = {"en": (("your", "their"),), "de": (("deinem", "seinem"), ("deiner", "seiner"), ("deine", "seine"))}


def _third(text: str, lang: str, p: int | None = None, me: int | None = None) -> str:
    """A question put to player `p` ("your Code") as the account tells it to `me`: "your Code" to the one who
    answered, "their Code" (German "seinem Code") to the opponent, "the Code" to a watcher."""
    if me is not None and p == me:
        return text
    for a, b in (THIRD if me is None else THEIRS)["de" if lang == "de" else "en"]:
        text = text.replace(a, b)
    return text


def _to(p: int, me: int | None, lang: str) -> str:
    return say("to_you" if p == me else "to_them", lang) if me is not None else f"P{p + 1}"


def _placed(v: CState, g: int) -> bool:
    return any(g in v.guards[p] or g in v.protected(p) for p in range(2))


def _g(v: CState, me: int | None, g: int, lang: str) -> str:
    """A Guard by its spot while it is in play; once gone, by its face (as all saw it go) or "a Guard"."""
    if _placed(v, g):
        return guard_label(v, me, g, lang)
    f = v.faces.get(g) if me is None else v.face(g, me)
    return card_name(f, lang) if f is not None else say("guards", lang)


def result_words(winners: list[int], reason: str | None, me: int | None, lang: str) -> str:
    if not winners:
        res = say("res.tie", lang)
    elif me is None:
        res = f"P{winners[0] + 1}"
    else:
        res = say("res.win" if winners[0] == me else "res.lose", lang)
    return f"{res} ({say(f'reason.{reason}', lang)})" if reason else res


def lines(v: CState, me: int | None, lang: str, k: int) -> list[str]:
    """The last k lines of the account (the turns' separators are kept: they say whose turn it was)."""
    if k <= 0:
        return []
    return [line(v, e, me, lang) for e in v.history[-k:]]
