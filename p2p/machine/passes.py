"""Pass tokens (implied passes, docs/protocol.md): the reaction window due now, a pass applied with no token (a peer's
look-ahead on a fork), and the pass tokens an event or abandon entry carries, each checked against the seat it is due
from.

An object the fold (`Machine`, p2p/machine/machine.py) holds, stateless: called with the fold, whose engine steps it
runs and whose record of the entry being applied (`_tokens_now`: the seats whose tokens it carries) it extends."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.errors import CryptoError
from adp2p.crypto.passes import verify_pass
from adp2p.p2p.protocol import ProtocolError

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Passes:
    """Reaction windows and pass tokens."""

    def window_actor(self, fold: Fold) -> int | None:
        """The seat whose reaction-window decision is due now, or None if what is due is anything else."""
        if fold.abandoned is not None or fold.finished or fold.round is not None or any(k is None for k in fold.keys):
            return None
        d = fold.game.pending(fold.state)
        return d.actor if d is not None and d.kind == fold.game.window_kind else None

    def pass_window(self, fold: Fold) -> int:
        """Apply a pass by the seat whose window decision is due, with no token: a peer's look-ahead on a copy of
        its fold (what the rules would ask next if that seat passed), never its fold itself."""
        who = self.window_actor(fold)
        if who is None:
            raise ProtocolError(None, "no reaction window is due")
        fold._engine(who, fold.game.pass_event(who))
        return who

    def apply_passes(
        self, fold: Fold, carrier: int, tokens: list[Any], *, trusted: bool = False, start: int = 0
    ) -> None:
        """Apply pass tokens 0..k-1 carried by `carrier`'s entry at this seq: each one must be due (a window
        decision) and signed by the seat it is due from. A token that is not is the carrier's fault: it supplied
        it. `trusted`: tokens this peer checked on receipt (only the position is checked again). `start`: the
        position of the first of `tokens` (a peer extends a chain it holds one token at a time)."""
        if fold.prev is None:
            raise ProtocolError(carrier, "pass tokens without the entry they build on")
        for j, tok in enumerate(tokens, start):
            who = self.window_actor(fold)
            if who is None:
                raise ProtocolError(carrier, f"pass token {j} where no reaction window is due")
            if not trusted:
                try:
                    verify_pass(fold.ids[who], tok, fold.game_id, fold.entries, fold.prev, j)
                except CryptoError:
                    raise ProtocolError(carrier, f"pass token {j} is not seat {who + 1}'s pass there") from None
            fold._tokens_now |= 1 << who
            fold._engine(who, fold.game.pass_event(who))
