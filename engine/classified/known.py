"""Applying an event as an all-knowing caller does (a sim's referee, a bot's play-out, the offline client, a test):
`api.apply`, and for a hand mix (ruling C-MIX) the new handles learn the old hand's faces in a shuffled order — what
the table's mixer and reveal round give the mixer. Its own module so that the bots' play-outs and the sim can both
use it without importing each other."""

from __future__ import annotations

import random
from typing import Any

from adp2p.engine.classified.api import apply, learn
from adp2p.engine.classified.state import CState


def apply_known(st: CState, ev: dict[str, Any], rng: random.Random | None = None, *,
                inplace: bool = False) -> CState:
    """`apply` for an all-knowing caller (a sim's referee, a bot's play-out, a test): a hand mix (ruling C-MIX) gives
    the new handles the old hand's faces in an order `rng` shuffles (as the table's mixer does; in hand order without
    one)."""
    p = ev.get("p") if isinstance(ev, dict) and ev.get("t") == "mix" else None
    old = list(st.hands[p]) if p in (0, 1) and type(p) is int else None
    first = st.next_handle
    st = apply(st, ev, inplace=inplace)
    if old is None:
        return st
    if rng is not None:
        rng.shuffle(old)
    return learn(st, {first + j: st.faces[h] for j, h in enumerate(old)}, inplace=inplace)
