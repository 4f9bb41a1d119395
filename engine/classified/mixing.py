"""Ruling C-MIX: a hand is mixed after a show. A hand that holds a card the opponent knows (the random card shown
after a failed attempt, 003:38; Test Access Codes' hand; a PEEKed card then drawn, 003:52; a Scavenged card) is
mixed by its owner at the start of its next action, after its draw (`ask_mix`): the rules ask the owner for the
decision `mix`, whose one event `{"t": "mix", "p": p}` gives every card of the
hand a fresh handle, in hand order, whose face only its owner knows (the table re-masks and permutes the hand's
ciphertexts with a proof of shuffle: games/classified/mixing.py). The old handles leave play, and the opponent's
knowledge of their faces goes with them: a view counts the cards it has seen by handle, and the card it saw may turn
up again under its new handle (turned face up, say), which would count it twice and rule out a number wrongly. So
a view forgets that the hand holds the number it was shown (less than the physical player remembers, never wrong)."""

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
    then drawn is covered too). A hand of one card has nothing to mix it with."""
    if len(st.hands[p]) >= 2 and exposed(st, p):
        st.stack.append({"op": "mix", "actor": p})


def on_mix(st: CState, task: dict[str, Any], ev: dict[str, Any]) -> None:
    """The hand's cards take the next handles in hand order; only the owner is shown them (a private draw)."""
    p = task["actor"]
    old = list(st.hands[p])
    first = st.next_handle
    st.next_handle += len(old)
    new = list(range(first, first + len(old)))
    for h in old:  # out of play; the opponent's views forget their faces (else the card would be counted twice)
        del st.loc[h]
        st.known[h] = st.known.get(h, 0) & (1 << p)
    st.hands[p] = new
    for h in new:
        st.loc[h] = ("hand", p)
        show(st, h, 1 << p)
    st.history.append({"k": "mix", "p": p, "n": len(old), "first": first})
