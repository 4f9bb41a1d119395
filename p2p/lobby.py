"""What a joiner checks in a genesis before it sits down (docs/protocol.md, "Roster and seats"): the game it
describes must be the one this player asked for (table, game, rules, goal, round limit, stalemate rounds, number of
players), and it may seat only players this peer met in the lobby. A genesis that fails is refused with one line
naming the difference; the peer keeps the last few refused ones and checks them again when another player sits down.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from adp2p.p2p.game import DEFAULT_GAME
from adp2p.p2p.notices import notice
from adp2p.p2p.protocol import PROTOCOL_VERSION, Genesis


def settings_mismatch(
    g: Genesis,
    *,
    table: str,
    profile: str,
    goal: int | None,
    round_limit: int | None,
    want: int,
    stalemate: int | None = None,
    lang: str = "en",
    game: str = DEFAULT_GAME,
) -> str | None:
    """The first difference between the genesis's game and the joiner's own settings (None: the same game), in
    the player's language. A genesis of another protocol version (an old log's) is never a table to join."""
    if g.version != PROTOCOL_VERSION:
        return f"it is of protocol version {g.version}, ours is {PROTOCOL_VERSION}"
    for what, theirs, ours in (
        ("table", g.table, table),
        ("game", g.game, game),
        ("rules", g.profile, profile),
        ("players", g.n, want),
        ("goal", g.goal, goal),
        ("round_limit", g.round_limit, round_limit),
        ("stalemate", g.stalemate, stalemate),
    ):
        if theirs != ours:
            what_words = notice(f"setting_{what}", lang)
            return notice("genesis_differs", lang, what=what_words, theirs=_show(theirs, lang), ours=_show(ours, lang))
    return None


def roster_mismatch(g: Genesis, met: Collection[bytes], lang: str = "en") -> str | None:
    """Every seat of the genesis must be a player we met at this table (a bundle it sent us, signed, over an
    authenticated connection, at any time in this lobby). Not more: the roster is its first player's view of who
    is there, and a connection that flapped a moment ago must not make two honest views refuse each other."""
    if not set(g.roster) <= set(met):
        return notice("genesis_strangers", lang)
    return None


def _show(v: Any, lang: str) -> str:
    return notice("setting_default", lang) if v is None else repr(v) if isinstance(v, str) else str(v)
