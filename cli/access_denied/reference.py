"""The reference pages the prompt prints on request (`cards`, `cards all`, `rules`): a card with its code, what it
needs and its text; the table's rules and its sector bonuses. Lines of words only; the prompt says them."""

from __future__ import annotations

import textwrap

from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.screen import bonus_names
from adp2p.cli.access_denied.words import LEVEL_NAMES, sector_name
from adp2p.engine.access_denied.catalog import CODES, card, cards
from adp2p.engine.access_denied.rules import requirement_of
from adp2p.engine.access_denied.state import GameState


def card_lines(st: GameState, me: int, lang: str, everything: bool = False) -> list[str]:
    """The cards of `me`'s hand (or, `everything`, of the whole deck), each with what it needs and its text."""
    faces = [c.id for c in cards()] if everything else [f for h in st.hands[me] if (f := st.face(h, me)) is not None]
    if not faces:
        return [msg("no_cards", lang)]
    out = []
    for f in faces:
        c = card(f)
        req = requirement_of(c, st)
        line = f"[{CODES[c.code]}] {c.display_title(lang)}"
        if req is not None:
            line += "  (" + msg("requires", lang, level=LEVEL_NAMES[req[1]], sector=sector_name(req[0], lang)) + ")"
        out.append(line)
        text = c.text_de if lang == "de" else c.text
        out += ["    " + para.replace("\n", " ") for para in text.split("\n\n")]
    return out


def rules_lines(st: GameState, lang: str, width: int) -> list[str]:
    """The rules of this table (its profile and goal), wrapped at `width`, then each sector's bonus."""
    prof = st.profile
    out = [
        textwrap.fill(para, width, subsequent_indent="  ", break_long_words=False)
        for para in msg("rules_text", lang, profile=prof.name, goal=prof.goal).split("\n")
    ]
    # this table's hand limit, drawing and actions (the profile's, as `ad-p2p rules` words them)
    limit = (msg("rules.limit.accesses", lang) if prof.hand_limit == "accesses"
             else msg("rules.limit.fixed", lang, n=prof.hand_limit))
    table = [msg(f"rules.actions.{prof.actions}", lang), limit, msg(f"rules.draws.{prof.draws}", lang)]
    out = [*out[:-1], *table, *out[-1:]]  # before the sector bonuses' heading (the text's last line)
    return out + [f"  {name:<14} {bonus}" for name, bonus in bonus_names(lang, prof.bonuses)]
