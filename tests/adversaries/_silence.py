"""The zoo's levers on *when* a seat answers (issue 34: patience per decision), reusable by any networked zoo test.

Peer levers are `_net.ZooPeer` subclasses: pass one as `net_game(peer_class=...)`; only the seats in `cheats` use the
lever (the others play honestly), so they compose with any cheating machine at those seats:

- `AheadOfLog`: a seat whose machine goes silent on its own duty (`Staller`, `LastLinkPeeker`, `SilentRoller`, ...)
  signs entries far ahead of the log instead and sends them to everyone, a new one every heartbeat. Before: a peer
  that held anything ahead of its log never gave up on the seat on duty, so nobody was ever abandoned and the table
  hung (attacks 5 and 6).
- `WithholdsToken`: in a reaction window it passes, but keeps its pass token back; once the table has waited a
  period at that seq, it sends one abandon that carries the token and names the seat due after the window. Before:
  peers measured the wait per seq, so every peer (the victim's own included) applied it at once (attack 4).

- `ReleasesTokenAtAbandon`: it keeps its token back where the seat due once it passes is the one that gives up on it
  first, and releases it to the third seat only at the very moment that seat's abandon naming it is written. Before:
  the third seat refused the abandon (the withholder passed) and waited on the abandon's author, which can never
  answer at that seq, then named it (attack 4's last race).

Machine levers: `SilentRoller` (Hacker: sees its private dice after the beacon pick, and walks away); the zoo's
`Staller` (never reveals its secrets) and `LastLinkPeeker` (walks away from a pick it dislikes) are the others.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import trio
from _net import ZooPeer, ZooWire
from _zoo import Staller
from _zoo_hacker import HBlind
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.peer import TablePeer
from adp2p.p2p.peer.common import _abandoners
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import Kind, decode_body, encode_body
from adp2p.p2p.transport import Mesh


class SilentRoller(HBlind):
    """Hacker: a controller whose private roll's beacon pick has just been drawn knows its dice (nobody else does);
    it does not like them (always) and authors nothing more: the game must end naming it."""

    class Author(HBlind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            last = fold.events[-1] if fold.events else {}
            if (
                d is not None
                and d.seat == fold.seat
                and last.get("t") == "roll_beacon"
                and last.get("p") == fold.seat
                and fold.cheat_seq is None
            ):
                fold.cheated()
            if fold.cheat_seq is not None and d is not None and d.seat == fold.seat:
                return None  # silent from then on, whatever is due from it
            return super().author_next(fold, choose)

    author = Author()


class _Lever(ZooPeer):
    def _cheats(self) -> bool:
        m = self.machine
        return m is not None and m.seat in self.seeds.cheaters  # type: ignore[attr-defined]


class AheadOfLog(_Lever):
    """Once its machine is silent on a duty of its own (the machine's `cheat_seq` is set), it sends an entry `AHEAD`
    seqs past the log every heartbeat (each at a new seq, so each is new to the others: at most `COUNT`)."""

    AHEAD = 300
    COUNT = 64
    sent: ClassVar[list[int]] = []  # the seqs it signed ahead (for the test); reset by the test

    def tasks(self) -> list[Callable[[], Awaitable[Any]]]:
        return [*super().tasks(), self._send_ahead]

    async def _send_ahead(self) -> None:
        k = 0
        while k < self.COUNT:
            await trio.sleep(self.cfg.heartbeat)
            m, store, mesh = self.machine, self.store, self.mesh
            if m is None or store is None or mesh is None or self.ended or not self._cheats():
                continue
            d = m.duty()
            if d is None or d.seat != m.seat or getattr(m, "cheat_seq", None) is None:
                continue
            seq = len(store) + self.AHEAD - k
            body = encode_body({"ev": {"t": "pass", "p": m.seat}, "pad": os.urandom(16)})
            raw = encode_entry(self.identity, m.game_id, seq, store.head_id, m.seat, int(Kind.EVENT), body)
            await mesh.broadcast({"k": "entry", "raw": raw})
            self.sent.append(seq)
            k += 1


class WithholdsToken(_Lever):
    """In the first reaction window where it passes by token and the seat due after the window (if all after it pass)
    is one it is the first to give up on (it is the lowest seat but that one), it keeps the token back (never sent,
    nor re-sent), and `DELAY` past one period after the seq began by its clock (the others have waited a period
    there, on it) it sends one abandon carrying every token of the window, its own included, naming that seat."""

    DELAY = 0.25  # seconds past the period: inside the grace an honest peer gives a seat before giving up on it
    attacks: ClassVar[list[tuple[int, int]]] = []  # (seq, victim) of each abandon it sent; reset by the test

    withheld: tuple[int, bytes, int] | None = None

    def make_wire(self, mesh: Mesh) -> Wire:
        return WithholdingWire(mesh, self)

    def tasks(self) -> list[Callable[[], Awaitable[Any]]]:
        return [*super().tasks(), self._lever]

    async def _lever(self) -> None:
        while self.machine is None:  # (the seat is known once the game begins)
            await trio.sleep(0.1)
        if self._cheats():
            await self._strike()

    def held(self, msg: dict[str, Any]) -> bool:
        """Whether `msg` is our own pass token for the decision we withhold it at (it never leaves)."""
        w, m = self.withheld, self.machine
        return (
            w is not None and m is not None and msg.get("k") == "pass" and msg.get("seat") == m.seat
            and (msg.get("seq"), msg.get("prev"), msg.get("j")) == w
        )

    async def decide_window(self, m: Any, at: Any, j: int) -> None:
        store = self.store
        assert store is not None
        seq, prev = len(store), store.head_id
        if self._cheats() and not self.attacks and self.withheld is None and self.chance(m, at):
            self.withheld = (seq, prev, j)  # before the token is signed: it never leaves
        await super().decide_window(m, at, j)
        if self.withheld == (seq, prev, j) and not (self.passes is not None and self.passes.signed(seq, prev, j)):
            self.withheld = None  # it did not pass there after all

    def chance(self, m: Any, at: Any) -> bool:
        """Whether this window decision of ours suits the lever (`at`: the fold with the passes before ours): the seat
        due after the window, if every later seat passes too, is a `victim`."""
        sim = at.fork()
        sim.pass_window()
        while sim.window_actor() is not None:
            sim.pass_window()
        d = sim.duty()
        return d is not None and d.kind == Kind.EVENT and d.seat != m.seat and self.victim(m, d.seat)

    def victim(self, m: Any, seat: int) -> bool:
        """Whether the seat due after the window suits the lever (here: we are the first that may give up on it)."""
        return bool(_abandoners(m.n, seat, 1) == [m.seat])

    def gives_up(self, silent: int) -> bool:
        if self._cheats() and (self.withheld is not None or self.attacks):
            return False  # the lever sends its own abandon, once; afterwards it plays on (never gives up on anyone)
        # (the honest seats give up as honest peers do: `attacks` is the class's, shared by every seat of the table)
        return super().gives_up(silent)

    async def _strike(self) -> None:
        due: tuple[tuple[int, bytes, int], float] | None = None  # when our withheld decision became due here
        while not self.attacks:
            await trio.sleep(0.02)
            m, store, pool, mesh = self.machine, self.store, self.passes, self.mesh
            if m is None or store is None or pool is None or mesh is None or self.ended:
                continue
            w = self.withheld
            if w is None:
                continue
            seq, prev, j = w
            if len(store) != seq or store.head_id != prev:
                self.withheld = None  # the table moved on (someone played a card in the window): try again later
                continue
            trial, toks = pool.chain(m, seq, prev)
            if len(toks) >= j and (due is None or due[0] != w):
                due = (w, trio.current_time())  # the tokens before ours are all here: the others wait on us now
            d = trial.duty()
            if len(toks) <= j or d is None or d.kind != Kind.EVENT or not self.victim(m, d.seat):
                continue  # the window's later tokens have not all come yet
            if due is None or due[0] != w or trio.current_time() - due[1] < self.cfg.abandon_after + self.DELAY:
                continue
            self.attacks.append((seq, d.seat))
            await self.strike(seq, prev, toks, d.seat)

    async def strike(self, seq: int, prev: bytes, toks: list[bytes], victim: int) -> None:
        """One abandon carrying every token of the window, ours included, naming the victim."""
        m, mesh = self.machine, self.mesh
        assert m is not None and mesh is not None
        body = encode_body({"silent": victim, "seq": seq, "passes": toks})
        raw = encode_entry(self.identity, m.game_id, seq, prev, m.seat, int(Kind.ABANDON), body)
        self.withheld = None
        await mesh.broadcast({"k": "entry", "raw": raw})


class WithholdingWire(ZooWire):
    """A `WithholdsToken` peer's wire: its withheld token goes to nobody (neither broadcast nor re-sent)."""

    peer: WithholdsToken

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        return [] if self.peer.held(msg) else await super().broadcast(msg)

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        if not self.peer.held(msg):
            await super().send(fp, msg)


class LateWithholdsToken(WithholdsToken):
    """`WithholdsToken` that waits until the others have given up on it (`DELAY` past a period) and answers the abandon
    naming it with nothing; then it sends its abandon carrying its token and naming the seat due after the window.
    Seated lowest (seat 1), its abandon is the lower one: before, it displaced the honest abandon naming it, and the
    victim was named everywhere."""

    DELAY = 2.0

    def weighs_abandon(self, raw: bytes) -> bool:
        if self.withheld is not None:
            return False  # (an honest seat that passed answers it with its pass as an entry, which would beat it)
        return super().weighs_abandon(raw)


class ReleasesTokenToOne(WithholdsToken):
    """Keeps its token back, then releases it, just before the seat that gives up on it first does so, to the seat due
    after the window only (a seat that is not that first one). The others abandon it; the victim, now due, answers
    with an entry that carries the token. Before: the peers that had written or applied the abandon refused that entry
    (neither the named seat's own, nor an abandon), and the table split (at four players and more, the victim was
    then given up on by those that left the other branch). `slow` is set when it releases (a test may make the
    victim's bot think then, as a person would). Whether the split happens is a race the victim's own relaying of the
    token usually wins (it repeats the tokens it holds every heartbeat): tests/p2p/test_peer_abandon.py holds the rule
    that settles it deterministically; this lever is for randomized coalition tests."""

    LEAD = 0.15  # seconds before the first abandoner's deadline (a period and its grace look)
    slow: ClassVar[list[bool]] = []

    def victim(self, m: Any, seat: int) -> bool:
        return seat != _abandoners(m.n, m.seat, 1)[0]

    async def _strike(self) -> None:
        grace = max(0.2, self.cfg.heartbeat)
        self.DELAY = grace - self.LEAD
        await super()._strike()

    def weighs_abandon(self, raw: bytes) -> bool:
        if self.withheld is not None or self.attacks:
            return False  # (an honest seat that passed answers it with its pass as an entry, which would beat it)
        return super().weighs_abandon(raw)

    async def strike(self, seq: int, prev: bytes, toks: list[bytes], victim: int) -> None:
        m, mesh = self.machine, self.mesh
        assert m is not None and mesh is not None and self.withheld is not None
        j = self.withheld[2]
        self.slow.append(True)  # (the token stays withheld from everyone else: never broadcast, never re-sent)
        fp = m.ids[victim].fingerprint()
        await mesh.send(fp, {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": toks[j]})


class HStaller(Staller, HBlind):
    """Hacker's `Staller`: plays honestly, then never reveals its secrets at the end."""


class ReleasesTokenAtAbandon(WithholdsToken):
    """Attack 4's last race, made on purpose. The withholder W keeps its token back in a window where the seat D due
    once W passes is W's lowest other seat (the one that gives up on W first); it writes no abandon of its own and
    never answers the one naming it. When D's abandon naming it reaches W (it has just been written), and the third
    seat P has waited a period on W by its own clock (its silence loop has acted on it), W releases its token to P
    alone. The interleaving is the one that loses: D's link to P carries that abandon only once P holds W's token
    (`RaceWire`, a slow link, made so by the event, not by a time). Before: P refused the abandon (W passed) and
    waited on D, whose entry at that seq is the abandon, then gave up on D (an honest seat named, the table split)."""

    race: ClassVar[dict[str, Any]] = {}  # the cheater's moment, shared with the honest peers' wires; reset by the test
    peers: ClassVar[dict[int, ReleasesTokenAtAbandon]] = {}  # seat -> peer (in one process); reset by the test

    def make_wire(self, mesh: Mesh) -> Wire:
        return RaceWire(mesh, self)

    async def _lever(self) -> None:
        while self.machine is None:
            await trio.sleep(0.1)
        m = self.machine
        assert m.seat is not None
        self.peers[m.seat] = self
        if self._cheats():
            await self._strike()

    def chance(self, m: Any, at: Any) -> bool:
        sim = at.fork()
        sim.pass_window()
        after = sim.window_actor()
        d = sim.duty()
        seat = after if after is not None else (d.seat if d is not None and d.kind == Kind.EVENT else None)
        return seat is not None and seat == _abandoners(m.n, m.seat, 1)[0]

    def weighs_abandon(self, raw: bytes) -> bool:
        if self._cheats():
            e = decode_entry(raw)
            w, m = self.withheld, self.machine
            if w is not None and m is not None and e.kind == Kind.ABANDON and (e.seq, e.prev_hash) == w[:2]:
                self.race.setdefault("abandon", raw)
            return False  # (an honest seat that passed answers it with its pass as an entry, which would beat it)
        return super().weighs_abandon(raw)

    def gives_up(self, silent: int) -> bool:
        return False if self._cheats() else TablePeer.gives_up(self, silent)

    async def _strike(self) -> None:
        while not self.attacks:
            await trio.sleep(0.02)
            m, store, pool, mesh, w = self.machine, self.store, self.passes, self.mesh, self.withheld
            if m is None or store is None or pool is None or mesh is None or self.ended or w is None:
                continue
            seq, prev, j = w
            if len(store) != seq or store.head_id != prev:
                self.withheld = None  # the table moved on (someone played a card in the window): try again later
                self.race.pop("abandon", None)
                continue
            raw = self.race.get("abandon")
            if raw is None:
                continue  # D has not given up on us yet
            e = decode_entry(raw)
            if (e.seq, e.prev_hash) != (seq, prev) or decode_body(e.body).get("silent") != m.seat:
                continue
            d = e.author
            third = [s for s in range(m.n) if s not in (m.seat, d)]
            p = self.peers.get(third[0]) if third else None
            if p is None or p.abandonment.acted((seq, prev, j)) < 1:
                continue  # P's own clock has not passed a period on us yet
            token = pool.get(seq, prev, j, m.seat)
            assert token is not None
            self.race.update(seq=seq, prev=prev, j=j, w=m.seat, d=d, p=third[0])
            self.attacks.append((seq, third[0]))
            await self.send_release(seq, prev, j, third[0])

    async def send_release(self, seq: int, prev: bytes, j: int, p: int) -> None:
        """Our token for decision `(seq, prev, j)` to seat `p` alone (a subclass may carry it otherwise)."""
        m, pool, mesh = self.machine, self.passes, self.mesh
        assert m is not None and pool is not None and mesh is not None
        token = pool.get(seq, prev, j, m.seat)
        await mesh.send(m.ids[p].fingerprint(), {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat,
                                                 "sig": token})


class RaceWire(WithholdingWire):
    """The wire of every seat of a `ReleasesTokenAtAbandon` table. The withholder's: its token goes nowhere (but to P,
    by the lever itself). An honest seat's: the abandon it writes in the withholder's window reaches P only once P
    holds the withholder's token (a slow link), every other message as it is."""

    peer: ReleasesTokenAtAbandon

    def _late(self, fp: str, msg: dict[str, Any]) -> bool:
        """Whether `msg` is our abandon naming the withholder at the decision it withholds, on its way to P."""
        m = self.peer.machine
        if m is None or self.peer._cheats() or msg.get("k") != "entry":
            return False
        e = decode_entry(msg["raw"])
        if e.kind != Kind.ABANDON or e.author != m.seat:
            return False
        w = ReleasesTokenAtAbandon.peers.get(decode_body(e.body).get("silent", -1))
        if w is None or not w._cheats() or w.withheld is None or w.withheld[:2] != (e.seq, e.prev_hash):
            return False
        third = [s for s in range(m.n) if s not in (m.seat, w.machine.seat)]  # type: ignore[union-attr]
        return bool(third) and m.ids[third[0]].fingerprint() == fp

    async def _later(self, fp: str, msg: dict[str, Any]) -> None:
        """`msg` to P once P holds the withholder's token for the abandon's decision (or the lever gave up there)."""
        e = decode_entry(msg["raw"])
        w = ReleasesTokenAtAbandon.peers[decode_body(e.body)["silent"]]
        m = self.peer.machine
        assert m is not None and w.machine is not None
        p = ReleasesTokenAtAbandon.peers.get(next(s for s in range(m.n) if s not in (m.seat, w.machine.seat)))
        while (
            p is not None and p.passes is not None and w.withheld is not None and w.withheld[:2] == (e.seq, e.prev_hash)
            and p.passes.get(*w.withheld, w.machine.seat) is None
        ):
            await trio.sleep(0.02)
        with contextlib.suppress(Exception):  # (a peer that dropped meanwhile: heads catch up)
            await super().send(fp, msg)

    async def broadcast(self, msg: dict[str, Any]) -> list[str]:
        m, nursery = self.peer.machine, self.peer._nursery
        if m is None or nursery is None:
            return await super().broadcast(msg)
        fps = [m.ids[s].fingerprint() for s in range(m.n) if s != m.seat]
        late = [fp for fp in fps if self._late(fp, msg)]
        if not late:
            return await super().broadcast(msg)
        for fp in fps:
            if fp in late:
                nursery.start_soon(self._later, fp, msg)
            else:
                with contextlib.suppress(Exception):
                    await super().send(fp, msg)
        return fps

    async def send(self, fp: str, msg: dict[str, Any]) -> None:
        nursery = self.peer._nursery
        if nursery is not None and self._late(fp, msg):
            nursery.start_soon(self._later, fp, msg)
            return
        await super().send(fp, msg)
