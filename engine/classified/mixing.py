"""Ruling C-MIX: a hand is mixed after a show. A hand that holds a card the opponent knows (the random card shown
after a failed attempt, 003:38; Test Access Codes' hand; a PEEKed card then drawn, 003:52; a Scavenged card) is
mixed by its owner at the start of its next action, after its draw (`ask_mix`): the rules ask the owner for the
decision `mix`, whose one event `{"t": "mix", "p": p}` gives every card of the
hand a fresh handle, in hand order, whose face only its owner knows (the table re-masks and permutes the hand's
ciphertexts with a proof of shuffle: games/classified/mixing.py). The old handles leave play (no location); a face
a seat knew at one stays known there, a record for the account and for the answers given about that handle, but it
is no card to count: the card it names is in the hand under a new handle and may be seen again there (turned face up,
say), so the Cypher Wheel and a Guard's "may be" count the cards they have seen among the handles in play only
(`h in st.loc`), never twice. They forget that the hand holds the number shown: less than a player at the table
remembers, never something false."""

from __future__ import annotations

from typing import Any

from adp2p.engine.classified.state import CState
from adp2p.engine.classified.tasks import opponent, show


def exposed(st: CState, p: int) -> bool:
    """Whether p's hand holds a card whose face p's opponent knows."""
    o = 1 << opponent(p)
    return any(st.known.get(h, 0) & o for h in st.hands[p])


def ask_mix(st: CState, p: int) -> None:
    """At the start of p's action (after its draw): if its hand of two or more cards holds a card its opponent knows,
    p mixes it first. Every face-down use of a hand card (Enlist, Encrypt, a card dropped by Switch Places or
    Scavenge, the Final Card) is p's own action or the Big Reveal that claims every card anyway, so this is the last
    moment, and it mixes the card just drawn in as well (the opponent cannot tell it from the others: a card PEEKed
    then drawn is covered too). A hand of one card has nothing to mix it with. A profile without `mix` (a log of
    protocol version 6, written before C-MIX: games/classified/game.py) asks for none."""
    if st.profile.mix and len(st.hands[p]) >= 2 and exposed(st, p):
        st.stack.append({"op": "mix", "actor": p})


def on_mix(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    """The hand's cards take the next handles in hand order; only the owner is shown them (a private draw)."""
    p = task["actor"]
    old = list(st.hands[p])
    first = st.next_handle
    st.next_handle += len(old)
    new = list(range(first, first + len(old)))
    for h in old:  # out of play: a face known there is a record (the account, answers about it), no card to count
        del st.loc[h]
    st.hands[p] = new
    for h in new:
        st.loc[h] = ("hand", p)
        show(st, h, 1 << p)
    # the old handles (public: the hand's handles are) let a seat that saw one of them remember that the new ones
    # hold its face, not which of them (a player at the table remembers "the hand holds a 4": memory.py)
    st.history.append({"k": "mix", "p": p, "n": len(old), "first": first, "old": old})
