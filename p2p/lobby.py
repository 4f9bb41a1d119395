"""What a joiner checks in a genesis before it sits down (docs/protocol.md, "Roster and seats"): the game it
describes must be the one this player asked for (table, rules, goal, round limit, number of players), and it
must seat exactly the players this peer gathered in the lobby. A genesis that fails is refused with one line
naming the difference; nothing about it is kept.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from adp2p.crypto.identity import open_bundle
from adp2p.p2p.protocol import Genesis


def settings_mismatch(
    g: Genesis, *, table: str, profile: str, goal: int | None, round_limit: int | None, want: int
) -> str | None:
    """The first difference between the genesis's game and the joiner's own settings (None: the same game)."""
    for what, theirs, ours in (
        ("table", g.table, table),
        ("rules", g.profile, profile),
        ("players", g.n, want),
        ("goal", g.goal, goal),
        ("round limit", g.round_limit, round_limit),
    ):
        if theirs != ours:
            return f"it says {what} {_show(theirs)}, you asked for {_show(ours)}"
    return None


def roster_mismatch(g: Genesis, gathered: Collection[bytes], want: int) -> str | None:
    """The genesis must seat exactly the first `want` players we gathered (sorted by signing key), when we have
    gathered that many; with fewer, every seat must be one we met."""
    ours = sorted(gathered, key=lambda b: open_bundle(b)[0].sign_pk)
    if len(ours) >= want:
        if list(g.roster) != ours[:want]:
            return "it does not seat the players gathered at this table"
    elif not set(g.roster) <= set(ours):
        return "it seats players who never came to this table"
    return None


def _show(v: Any) -> str:
    return "(the rules' own)" if v is None else repr(v) if isinstance(v, str) else str(v)
