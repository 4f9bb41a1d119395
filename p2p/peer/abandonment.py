"""Abandonment's rulings at one peer: who may give up on a silent seat and when, by our own clock (`Patience`); the
abandons other seats sent that are not due here yet (held); whether an abandon names us where we answered; whether
an entry proves the seat an abandon names did answer (docs/protocol.md, "Abandonment and resume").

`Abandonment` decides and remembers; it never writes, sends or folds. Everything it needs from the rest of the peer
comes as arguments: the table's size, our seat, the pass tokens held (`PassPool`), the seats connected now."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.passes import verify_pass
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.peer.common import _abandoners, _passes_of
from adp2p.p2p.peer.patience import Decision, Patience
from adp2p.p2p.protocol import BodyError, Kind, decode_body


def named(e: Any) -> int:
    """The seat abandon entry `e` names (raises BodyError, KeyError, TypeError if its body does not say)."""
    return int(decode_body(e.body)["silent"])


def _for(raw: bytes, seq: int, prev: bytes | None) -> bool:
    """Whether held abandon `raw` is for `seq` (after the entry `prev`, if given)."""
    e = decode_entry(raw)
    return e.seq == seq and (prev is None or e.prev_hash == prev)


def decision_of(e: Any) -> Decision:
    """The decision an abandon (or event) entry `e` takes: its seq, the entry before it, the tokens it carries."""
    return (e.seq, e.prev_hash, len(_passes_of(e) or []))


class Abandonment:
    """Abandons held until due, and the rulings on silence."""

    def __init__(self, patience: Patience) -> None:
        self.patience = patience  # the awake clock, and when each decision became due here
        self.held: dict[int, bytes] = {}  # author -> a valid abandon for the next seq, not yet due here
        self._at_seq: int | None = None  # the seq the play loop last looked at
        self._acted: tuple[Decision, int] | None = None  # (decision, periods) we last acted on its silence
        # author -> its latest abandon that stood here (we applied it, or the table told us it had) until the seat it
        # named answered after all: if that author is due later and gone, our abandon carries it (`left`, rule 7)
        self.stood: dict[int, bytes] = {}
        # author -> (id, raw) of its latest abandon refused here because the seat it named had answered: it stood at the
        # table if a seat other than its author tells us it as its head (only a seat that applied it holds it so)
        self.refused: dict[int, tuple[bytes, bytes]] = {}

    @property
    def period(self) -> float:
        return self.patience.period

    def at(self, seq: int, prev: bytes | None = None) -> None:
        """The play loop looks at `seq` (after the entry `prev`): abandons held for another seq (or another entry) are
        moot now; one held for this very seq, received while the loop was still at the seq before, stands (clearing it
        too only delayed giving up on a truly silent seat by a period)."""
        if self._at_seq != seq:
            self._at_seq = seq
            self.held = {a: r for a, r in self.held.items() if _for(r, seq, prev)}

    def acted(self, decision: Decision) -> int:
        """The periods of silence on `decision` we already acted on (0 if none)."""
        return self._acted[1] if self._acted is not None and self._acted[0] == decision else 0

    def act(self, decision: Decision, rounds: int) -> None:
        """We act now on `rounds` periods of silence on `decision` (one last look, then give up)."""
        self._acted = (decision, rounds)

    def names(self, raw: bytes, passes: PassPool | None) -> int | None:
        """The seat a held abandon names, unless that seat passed there (we hold its token: it answered)."""
        e = decode_entry(raw)
        silent = named(e)
        if passes is not None and passes.get(*decision_of(e), silent) is not None:
            return None
        return silent

    def stood_here(self, raw: bytes) -> None:
        """An abandon that stood here (or at the table) was set aside by the seat it named, answering after all."""
        e = decode_entry(raw)
        if e.kind == Kind.ABANDON:
            self.stood[e.author] = raw

    def refused_here(self, raw: bytes, heads: Iterable[tuple[str, bytes]], fp_of: Callable[[int], str]) -> None:
        """An abandon refused here (we hold the entry of the seat it names at its seq); `heads`: the (fingerprint, head
        id) each peer last told us."""
        e = decode_entry(raw)
        if e.kind != Kind.ABANDON:
            return
        self.refused[e.author] = (e.id, raw)
        for fp, hid in heads:
            self.head_told(fp, hid, fp_of)

    def head_told(self, fp: str, hid: bytes, fp_of: Callable[[int], str]) -> None:
        """Peer `fp` told us head `hid`: an abandon we refused that a seat other than its author holds as its head
        stood at the table (that seat applied it by its own clock)."""
        for author, (aid, raw) in self.refused.items():
            if aid == hid and fp != fp_of(author):
                self.stood[author] = raw

    def left_proof(self, silent: int) -> bytes | None:
        """`silent`'s own abandon that stood here and was set aside, if we hold one (the machine checks the rest)."""
        return self.stood.get(silent)

    def held_by(self, authors: Collection[int], silent: int, passes: PassPool | None) -> list[int]:
        """The authors among `authors` of held abandons naming `silent` (lowest first)."""
        return sorted(a for a, raw in self.held.items() if a in authors and self.names(raw, passes) == silent)

    def names_me(self, seq: int, prev: bytes, j: int, me: int | None) -> bool:
        """A held abandon names us (`me`) at decision j of this point: our answer there must be an entry (which beats
        it, rule 3 of "Abandonment"), never a token (which does not)."""
        if me is None:
            return False
        for raw in self.held.values():
            e = decode_entry(raw)
            if _passes_of(e) is not None and decision_of(e) == (seq, prev, j) and named(e) == me:
                return True
        return False

    def answers(self, length: int, me: int | None) -> set[bytes]:
        """Ids of held abandons that name us (`me`) at the next seq of a log of `length` entries: a head of the table
        one past ours that ends in one of them is caught up with, since our own entry there beats it."""
        out: set[bytes] = set()
        for raw in self.held.values():
            e = decode_entry(raw)
            if e.seq == length and e.kind == Kind.ABANDON and named(e) == me:
                out.add(e.id)
        return out

    def due_by_our_clock(self, e: Any, n: int) -> bool:
        """Whether abandon `e` (valid in shape) could have been written by now by our own clock: the decision it names
        has been due here for as many periods as its author's rank among the seats that may write it."""
        decision = decision_of(e)
        try:
            rank = _abandoners(n, named(e), n).index(e.author) + 1
        except (BodyError, KeyError, TypeError, ValueError):
            return False
        if not self.patience.known(*decision):
            return False
        return self.patience.waited(*decision) >= rank * self.period

    def token_late(self, e: Any, n: int) -> bool:
        """Whether the token by which the seat abandon `e` names passed at the decision it names reached us only once
        our own clock let `e`'s author give up on that seat (that decision due here for as many periods as the
        author's rank): such a token does not stop the abandon, only an entry carrying it does (rule 3 of
        "Abandonment"). A token whose arrival we did not see counts as in time."""
        decision = decision_of(e)
        try:
            silent = named(e)
            rank = _abandoners(n, silent, n).index(e.author) + 1
        except (BodyError, KeyError, TypeError, ValueError):
            return False
        heard = self.patience.heard_at(*decision, silent)
        if heard is None or not self.patience.known(*decision):
            return False
        return heard - self.patience.due(*decision) >= rank * self.period

    def overdue(self, n: int, passes: PassPool | None, answering: Callable[[Any], bool]) -> int | None:
        """The lowest author of a held abandon whose named seat passed there, but by a token that came late
        (`token_late`), and that is due by our own clock: it is applied as if that token had not come — unless we owe
        the decision after that token (`answering(e)`: our entry carrying it answers the abandon)."""
        if passes is None:
            return None
        for author in sorted(self.held):
            e = decode_entry(self.held[author])
            try:
                silent = named(e)
            except (BodyError, KeyError, TypeError):
                continue
            passed = passes.get(*decision_of(e), silent) is not None
            if passed and self.token_late(e, n) and self.due_by_our_clock(e, n) and not answering(e):
                return author
        return None

    def no_majority(self, n: int, silent: int, me: int | None, connected: Collection[int]) -> bool:
        """At a table of 3 or more, an abandon needs a strict majority of the seats behind it: its author and the seats
        `connected` to it now, the silent one not counted. A table cut in halves by the network cannot give up on
        either half (each waits, and converges when the network heals), and a peer left alone (we may be the one the
        others gave up on) names nobody. At a table of two the other seat may always."""
        if n <= 2:
            return False
        with_us = 1 + sum(1 for s in range(n) if s not in (silent, me) and s in connected)
        return 2 * with_us <= n

    @staticmethod
    def carries_answer(abandon: Any, silent: int, e: Any, ids: Sequence[Any], game_id: bytes) -> bool:
        """Whether entry `e` (at the abandon's seq, after the same entry) carries `silent`'s pass token for the
        decision the abandon names it at: proof that the seat it names answered there."""
        took, carried = _passes_of(abandon), _passes_of(e)
        if took is None or not carried or len(carried) <= len(took) or not 0 <= silent < len(ids):
            return False
        token = carried[len(took)]
        try:
            verify_pass(ids[silent], token, game_id, e.seq, e.prev_hash, len(took))
        except (CryptoError, TypeError, ValueError):
            return False
        return True
