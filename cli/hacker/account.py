"""The public account of a Hacker game in words: one line per history entry (`view.history`), from the templates
in cli/hacker/words.py. Only public facts are in the history, so every seat may read every line."""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker.words import WORDS, card_name, place_name, say, seat_name, what_name

Entry = dict[str, Any]


def _target(e: Entry, me: int | None, lang: str, names: list[str] | None) -> str:
    bits = []
    if "who" in e:
        bits.append(seat_name(e["who"], me, lang, names))
    if "d" in e:
        bits.append(place_name(e["d"], lang))
    return (" → " + " ".join(bits)) if bits else ""


def line(e: Entry, me: int | None, lang: str, names: list[str] | None = None) -> str:
    k = e.get("k", "?")
    key = f"h.{k}"
    if key not in WORDS:
        return say("h.other", lang, k=k)
    f: dict[str, Any] = {}
    for name, v in e.items():
        if name in ("p", "ctrl", "attacker"):
            f[name] = seat_name(v, me, lang, names)
        elif name in ("d", "to", "at"):
            f[name] = place_name(v, lang)
        elif name == "card":
            f[name] = card_name(v, lang)
        elif name == "ps":
            f[name] = ", ".join(seat_name(q, me, lang, names) for q in v)
        elif name in ("dice", "roll"):
            f[name] = "+".join(str(x) for x in v)
        elif name == "checks":
            f[name] = " ".join(v) if v else "-"
        elif name == "what":
            f[name] = what_name(v, lang)
        elif name == "pairs":
            f[name] = " ".join("/".join(str(x + 1) for x in pair) for pair in v)
        else:
            f[name] = v
    if k == "play":
        f["target"] = _target(e, me, lang, names)
    if k == "face_down":
        f["who"] = seat_name(e["who"], me, lang, names)
    try:
        return say(key, lang, **f)
    except (KeyError, IndexError):
        return say("h.other", lang, k=k)


def lines(history: list[Entry], me: int | None, lang: str, names: list[str] | None = None, last: int = 3) -> list[str]:
    return [line(e, me, lang, names) for e in history[-last:]] if last > 0 else []
