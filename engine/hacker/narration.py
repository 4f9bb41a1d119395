"""The public account of a Hacker game in words, English and German, as data: one template per kind of history
entry (`HState.history`, dicts with a kind `k`), the names of seats, places and what was learned, the reasons a game
ends and the standings at its end. `line(entry, me, lang, names)` says one entry. The table (games/hacker/words.py)
and a person's page (cli/hacker/) read the same words, so a German table reads German from the first move to the
end. Only public facts are in the history, so every seat may read every line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adp2p.engine import words
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.catalog import card, card_by_key

Entry = dict[str, Any]

WORDS: dict[str, dict[str, str]] = {
    # names
    "seat": {"en": "P{n}", "de": "S{n}"},
    "dummy": {"en": "dummy", "de": "Dummy"},
    "dept": {"en": "Dep{n}", "de": "Abt{n}"},  # never a hack pad square's name (A1..E5)
    "dept_long": {"en": "department {n}", "de": "Abteilung {n}"},
    "cafe": {"en": "cafeteria", "de": "Kantine"},
    "h.place": {"en": "{p} goes to {to}", "de": "{p} geht nach {to}"},
    "h.place.cafe": {"en": "{p} goes to the cafeteria", "de": "{p} geht in die Kantine"},
    "h.laid": {"en": "{p} lays cards: {chance} chance, {term} terminal",
               "de": "{p} legt Karten: {chance} Zufall, {term} Terminal"},
    "h.start": {"en": "{p} is start player", "de": "{p} ist Startspieler"},
    "h.cafeteria": {"en": "{p} exchanges {exchanged} cards in the cafeteria",
                    "de": "{p} tauscht {exchanged} Karten in der Kantine"},
    "h.cafeteria.1": {"en": "{p} exchanges 1 card in the cafeteria", "de": "{p} tauscht 1 Karte in der Kantine"},
    "h.lock": {"en": "{p} puts a LOCK on {d} ({locks} there now)",
               "de": "{p} sperrt {d} mit einem SCHLOSS (jetzt {locks})"},
    "h.unlock": {"en": "{p}'s QUERY opens a LOCK of {d} ({left} left)",
                 "de": "ABFRAGE von {p} öffnet ein SCHLOSS von {d} (noch {left})"},
    "h.security": {"en": "SECURITY: the password of {d} is changed", "de": "SICHERHEIT: das Paßwort von {d} ist neu"},
    "h.blackout": {"en": "BLACKOUT at {d}", "de": "STROMAUSFALL in {d}"},
    "h.malfunction": {"en": "MALFUNCTION for {p}: die {die}, {what}",
                      "de": "FEHLFUNKTION für {p}: Würfel {die}, {what}"},
    "h.dummies": {"en": "dummy users: dice {dice}", "de": "Dummy-User: Würfel {dice}"},
    "h.boss": {"en": "the Boss comes to {at}", "de": "der Boss kommt nach {at}"},
    "h.boss.cafe": {"en": "the Boss comes to the cafeteria", "de": "der Boss kommt in die Kantine"},
    "h.round": {"en": "--- round {no} ---", "de": "--- Runde {no} ---"},
    "h.unplayable": {"en": "{p} discards {card} (cannot be played)", "de": "{p} wirft {card} ab (nicht spielbar)"},
    "h.play": {"en": "{p} plays {card}{target}", "de": "{p} spielt {card}{target}"},
    "h.protected": {"en": "{p} stops {card} of {attacker} with SUPERSPY PROTECTION",
                    "de": "{p} verhindert {card} von {attacker} mit SUPERSPIONSCHUTZ"},  # p: who played it (004:227)
    "h.exchange": {"en": "INFORMATION EXCHANGE: place cards dealt", "de": "INFORMATIONSAUSTAUSCH: Ortskarten verteilt"},
    "h.partner": {"en": "PARTNER: pairs {pairs}", "de": "PARTNER: Paare {pairs}"},
    "h.duel_dummy": {"en": "{p} duels a dummy user: dice {dice}", "de": "{p} gegen einen Dummy-User: Würfel {dice}"},
    "h.duel_dummy.won": {"en": "{p} duels a dummy user: dice {dice}, {p} wins",
                         "de": "{p} gegen einen Dummy-User: Würfel {dice}, {p} gewinnt"},
    "h.duel_dummy.lost": {"en": "{p} duels a dummy user: dice {dice}, the dummy wins",
                          "de": "{p} gegen einen Dummy-User: Würfel {dice}, der Dummy gewinnt"},
    "h.duel": {"en": "duel {ps}: dice {dice}, {ahead} first", "de": "Duell {ps}: Würfel {dice}, {ahead} vorn"},
    "h.duel.tie": {"en": "duel {ps}: dice {dice}, a tie: again",
                   "de": "Duell {ps}: Würfel {dice}, Gleichstand: noch einmal"},
    "h.positions": {"en": "positions taken", "de": "Positionen bezogen"},
    "h.face_down": {"en": "{p} lays a card face down before {who}", "de": "{p} legt eine Karte verdeckt vor {who}"},
    "h.face_down_removed": {"en": "a face-down card before {p} is removed",
                            "de": "eine verdeckte Karte vor {p} entfernt"},
    "h.hack": {"en": "{p} hacks {d} (controller {ctrl})", "de": "{p} hackt {d} (Kontrolle {ctrl})"},
    "h.probe": {"en": "{p} tries {sq}: clear", "de": "{p} versucht {sq}: frei"},
    "h.probe.check": {"en": "{p} tries {sq}: CHECK", "de": "{p} versucht {sq}: CHECK"},
    "h.use_hack": {"en": "{p} turns over a HACK card and passes the check at {sq}",
                   "de": "{p} deckt eine HACK-Karte auf und kommt am Check auf {sq} vorbei"},
    "h.abandon": {"en": "{p} abandons the attempt at {d}", "de": "{p} bricht den Versuch in {d} ab"},
    "h.hack_success": {"en": "{p} got through at {d}! pad {checks}, roll {roll}",
                       "de": "{p} ist durch in {d}! Pad {checks}, Wurf {roll}"},
    "h.hack_ejected": {"en": "{p} is ejected at {d}; pad {checks}, roll {roll}",
                       "de": "{p} fliegt raus in {d}; Pad {checks}, Wurf {roll}"},
    "h.learn": {"en": "{p} learns the {what} of {d}", "de": "{p} erfährt {what} von {d}"},
    "h.win": {"en": "{ps} win with {codes} codes", "de": "{ps} gewinnen mit {codes} Codes"},
    "h.win.1": {"en": "{ps} wins with {codes} codes", "de": "{ps} gewinnt mit {codes} Codes"},
    "h.other": {"en": "{k}", "de": "{k}"},
    # what a seat learns ("learn")
    "what.pw": {"en": "password", "de": "das Paßwort"},
    "what.pwx": {"en": "additional password", "de": "das Zusatzpaßwort"},
    "what.code": {"en": "code", "de": "den Code"},
    # what a MALFUNCTION's die did (004:213-221)
    "mf.password": {"en": "gives the password", "de": "gibt das Paßwort preis"},
    "mf.code": {"en": "gives the code", "de": "gibt den Code preis"},
    "mf.time+3": {"en": "TIME +3", "de": "ZEIT +3"},
    "mf.time+2": {"en": "TIME +2", "de": "ZEIT +2"},
    "mf.security": {"en": "acts as SECURITY", "de": "wirkt wie SICHERHEIT"},
    "mf.defect": {"en": "terminal defect", "de": "Terminaldefekt"},

    # the end
    "why_codes": {"en": "codes", "de": "Codes"},
    "why_round_limit": {"en": "round limit", "de": "Rundengrenze"},
    "reason.codes": {"en": "a hacker has enough codes", "de": "ein Hacker hat genug Codes"},
    "reason.round_limit": {"en": "the round limit is reached", "de": "das Rundenlimit ist erreicht"},
    "end.codes": {"en": "{who}: {k} codes", "de": "{who}: {k} Codes"},
    "end.code": {"en": "{who}: 1 code", "de": "{who}: 1 Code"},
}


def say(key: str, lang: str, **fields: Any) -> str:
    return words.say(WORDS, key, lang, **fields)


def card_name(face: int | str | None, lang: str) -> str:
    """A card's name (by id or key); `?` for a face this player does not know."""
    if face is None:
        return "?"
    c = card_by_key(face) if isinstance(face, str) else card(face)
    return c.name(lang)


def seat_name(p: int | None, me: int | None, lang: str, names: Sequence[str] | None = None) -> str:
    if p is None:
        return "-"
    if p < 0:
        return say("dummy", lang)
    return (names[p] if names else say("seat", lang, n=p + 1)) + ("*" if p == me else "")  # * = the reader


def place_name(d: int | None, lang: str, long: bool = False) -> str:
    if d is None:
        return "-"
    if d == CAFE:
        return say("cafe", lang)
    return say("dept_long" if long else "dept", lang, n=d + 1)


def what_name(what: str, lang: str) -> str:
    return say(f"what.{what}", lang) if f"what.{what}" in WORDS else what


def _target(e: Entry, me: int | None, lang: str, names: Sequence[str] | None) -> str:
    bits = []
    if "who" in e:
        bits.append(seat_name(e["who"], me, lang, names))
        if isinstance(e.get("card"), str) and card_by_key(e["card"]).target in ("time", "prio"):  # +1 own, -1 other
            bits[-1] += " +1" if e["who"] == e.get("p") else " -1"
    if "d" in e:
        bits.append(place_name(e["d"], lang))
    return (" → " + " ".join(bits)) if bits else ""


def line(e: Entry, me: int | None, lang: str, names: Sequence[str] | None = None) -> str:
    """One history entry in words (`me`: the seat reading it, marked `*` where seats have no names)."""
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
        elif name in ("ps", "ahead"):
            f[name] = ", ".join(seat_name(q, me, lang, names) for q in v)
        elif name in ("dice", "roll"):
            f[name] = "+".join(str(x) for x in v)
        elif name == "checks":
            f[name] = " ".join(v) if v else "-"
        elif name == "what":
            f[name] = say(f"mf.{v}", lang) if k == "malfunction" and f"mf.{v}" in WORDS else what_name(v, lang)
        elif name == "pairs":
            f[name] = " ".join("/".join(str(x + 1) for x in pair) for pair in v)
        else:
            f[name] = v
    if k == "play":
        f["target"] = _target(e, me, lang, names)
    if k == "face_down":
        f["who"] = seat_name(e["who"], me, lang, names)
    if CAFE in (e.get("to"), e.get("at")) and f"{key}.cafe" in WORDS:  # "goes to the cafeteria", "in die Kantine"
        key += ".cafe"
    if k == "probe" and e.get("check"):  # the controller said CHECK
        key += ".check"
    if k == "duel" and not e.get("ahead"):  # a tie (or an entry from before "ahead" was kept)
        key += ".tie"
    if k == "duel_dummy" and len(e.get("dice", ())) == 2:  # the player adds 1 and must beat the dummy (004:86)
        key += ".won" if e["dice"][0] + 1 > e["dice"][1] else ".lost"
    if (e.get("exchanged") == 1 or len(e.get("ps", ())) == 1) and f"{key}.1" in WORDS:  # "1 card", "Ana wins"
        key += ".1"
    try:
        return say(key, lang, **f)
    except (KeyError, IndexError):
        return say("h.other", lang, k=k)


def reason(why: str, lang: str) -> str:
    """Why the game ended (`Result.reason`), as a sentence; an unknown reason as it is."""
    return say(f"reason.{why}", lang) if f"reason.{why}" in WORDS else why


def standing(who: str, codes: int, lang: str) -> str:
    """A player's codes at the end: "Ana: 3 codes"."""
    return say("end.code", lang, who=who) if codes == 1 else say("end.codes", lang, who=who, k=codes)
