"""What a player at an Access Denied table is told about cards, in its language: the standings and every password at
the end, and the faces it has just been shown privately (its new cards, the cards handed to it as controller,
password codes shown to it). Public faces are in the account and on the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adp2p.engine.access_denied.api import result
from adp2p.engine.access_denied.catalog import CODES, card, sectors
from adp2p.engine.access_denied.state import GameState
from adp2p.p2p.notices import notice

# what a clean audit checked, in the players' words (the end's "Audit: ... checks out" line; brief: the end screen's)
CHECKED = {"en": "every shuffle, card, password commitment and move",
           "de": "jedes Mischen, jede Karte, jede Passwort-Festlegung und jeder Zug"}
CHECKED_BRIEF = {**CHECKED, "de": "jedes Mischen, jede Karte, jedes Passwort und jeder Zug"}
# and for `ad-p2p audit`'s "checked:" line, beside the core's checks
AUDIT_CHECKS = (
    "every password commitment opened against its card",
    "strict replay of every move with every face known (answers, passwords, plays, obligations, promises, random "
    "picks from the beacon)",
)


def end_lines(st: GameState, faces: Mapping[int, int], names: Sequence[str], lang: str) -> list[str]:
    """Standings (Roots, Opers, Users of every player) and, once the audit has every face, every password."""
    res = result(st)
    lines = [notice("standings", lang, players="; ".join(
        notice("standing", lang, who=names[p], r=r, o=o, u=u) for p, (r, o, u) in enumerate(res.standings)
    ))]
    for s in range(6 if faces else 0):
        owner, hs = st.controller[s], st.passwords.get(s, [])
        if owner is None or not hs or any(h not in faces for h in hs):
            continue
        labels = [f"{card(faces[h]).display_title(lang)} [{CODES[card(faces[h]).code]}]" for h in hs]
        sector = sectors()[s].display_name(lang)
        lines.append(notice("password_was", lang, sector=sector, who=names[owner], cards=", ".join(labels)))
    return lines


def learned_lines(st: GameState, handles: Sequence[int], seat: int | None, lang: str) -> list[str]:
    """One line per kind of place for the faces of `handles` just shown to `seat` alone (public ones skipped)."""
    groups: dict[str, list[str]] = {}
    for h in handles:
        if st.known.get(h, 0) == st.all_mask:
            continue
        where = st.loc.get(h, ("gone",))
        c = card(st.faces[h])
        label = f"{c.display_title(lang)} [{CODES[c.code]}]"
        if where == ("hand", seat):
            groups.setdefault("learned_hand", []).append(label)
        elif where[0] == "att":
            groups.setdefault("learned_attempt", []).append(label)
        elif where[0] == "pw":
            sector = sectors()[where[1]].display_name(lang)
            groups.setdefault("learned_password", []).append(f"{label} ({sector})")
        else:
            groups.setdefault("learned", []).append(label)
    return [notice(what, lang, cards=", ".join(labels)) for what, labels in groups.items()]
