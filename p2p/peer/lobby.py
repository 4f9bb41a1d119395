"""The lobby and the genesis: gather the table's players, sign or check the genesis that seats them.

`Lobby` is an object of its own: it holds who is here and who we met, whom each says it is connected to, the genesis
taken and the geneses refused; it is given the peer's config and files, the roster agreement
(p2p/peer/agreeing.py), the seat's log state (p2p/peer/seat_log.py), the addresses we know and dial (dialing.py: a
lobby message's addresses are learned there, mDNS finds peers there), and the calls it makes through the peer (its
identity, the mesh and the wire, telling the player, news, seating us at a genesis, ...). The peer wires it
(p2p/peer/table_peer.py) and answers for it to the tests' seams (`TablePeer.accepts_genesis`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry, verify_entry
from adp2p.crypto.identity import open_bundle
from adp2p.p2p.lobby import roster_mismatch, settings_mismatch
from adp2p.p2p.machine import Machine
from adp2p.p2p.messages import MAX_HERE, MessageError, address
from adp2p.p2p.notices import notice
from adp2p.p2p.peer.agreeing import Agreeing
from adp2p.p2p.peer.common import (
    MAX_LOBBY_ADDRESSES,
    MAX_MET,
    MAX_REFUSED,
    ZERO,
    PeerConfig,
    TableError,
)
from adp2p.p2p.peer.dialing import Dialing
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import PROTOCOL_VERSION, Genesis, decode_body
from adp2p.p2p.transport import Mesh, TablePlaying


class Lobby:
    """The lobby and the genesis."""

    def __init__(
        self,
        cfg: PeerConfig,
        files: GameFiles,
        agreeing: Agreeing,
        seat: SeatLog,
        dialing: Dialing,
        *,
        me: Callable[[], tuple[str, bytes]],
        mesh: Callable[[], Mesh | None],
        wire: Callable[[], Wire | None],
        tell: Callable[..., None],
        detail: Callable[[object], str],
        news: Callable[[], None],
        wait: Callable[[], Awaitable[None]],
        start: Callable[[bytes], None],
        accepts: Callable[[bytes, str], bool],
        heard_from: Callable[[str], bool],
        first_refusal: Callable[[str, str], bool],
        send: Callable[[str, dict[str, Any]], Awaitable[None]],
    ) -> None:
        """`me()`: our fingerprint and bundle (a resume takes the seat's); `mesh()`, `wire()`: once up; `news()`: wake
        the loops waiting for progress, `wait()` for it; `start(genesis)`: seat us; `accepts(genesis, sender)`: the
        peer's seam over `check_genesis`; `heard_from(fp)`: that seat told us a head; `first_refusal(what, who)`: tell
        the player of a refused peer once; `send(fp, msg)`: to one peer, never failing."""
        self.cfg, self.files, self.agreeing, self.seat, self.dialing = cfg, files, agreeing, seat, dialing
        self._me, self._mesh, self._wire = me, mesh, wire
        self.tell, self._detail, self._news, self._wait_progress = tell, detail, news, wait
        self._start, self._accepts, self._heard_from = start, accepts, heard_from
        self._first_refusal, self._safe_send = first_refusal, send
        fp, bundle = me()
        self.bundles: dict[str, bytes] = {fp: bundle}  # fingerprint -> bundle of a player here now
        self.met: dict[str, bytes] = {fp: bundle}  # every player who sat down in this lobby (bounded)
        self.here: dict[str, set[str]] = {}  # fingerprint -> the players it last told us it is connected to
        self.news = False  # a player left the lobby since we last told the others who is here
        self.genesis_raw: bytes | None = None
        self.playing: TablePlaying | None = None  # a peer at our table answered from inside a game
        self._refused_geneses: set[tuple[bytes, str]] = set()  # (genesis id, why): each refusal said once
        self._refused_raws: dict[bytes, tuple[bytes, str]] = {}  # the last few refused: id -> (raw, sender)

    @property
    def fp(self) -> str:
        return self._me()[0]

    @property
    def bundle(self) -> bytes:
        return self._me()[1]

    @property
    def mesh(self) -> Mesh | None:
        return self._mesh()

    @property
    def wire(self) -> Wire | None:
        return self._wire()

    @property
    def port(self) -> int:
        mesh = self._mesh()
        assert mesh is not None
        return mesh.port

    @property
    def machine(self) -> Machine | None:
        return self.seat.machine

    @property
    def gdir(self) -> Path | None:
        return self.seat.gdir

    def message(self) -> dict[str, Any]:
        """Our lobby message: who we are, where we listen, whom we know and are connected to."""
        host = self.cfg.advertise_host or self.cfg.host
        return {
            "k": "lobby",
            "v": PROTOCOL_VERSION,
            "bundle": self.bundle,
            "addr": [host, self.port],
            "peers": sorted([h, p] for h, p in self.dialing.known),
            "want": self.cfg.want,
            "rules": self.cfg.profile,
            "here": sorted(fp for fp in self.bundles if fp != self.fp)[:MAX_HERE],
        }

    def roster(self) -> list[bytes]:
        """The players a genesis of ours would seat, in seat order: by signing key, the first `want` players here
        now of whom each has told us it is connected to every other one (its `here`), so that no seat of the genesis
        can refuse it for a player it never met, nor wait for one that left before it met it. A player whose view
        we have not heard yet is passed over until we have."""
        def linked(a: str, b: str) -> bool:
            return (a == self.fp and b in self.bundles) or b in self.here.get(a, ())

        roster: list[str] = []
        here = [f for f in self.bundles if f not in self.agreeing.left_out]  # (a seat passed over: p2p/roster.py)
        for fp in sorted(here, key=lambda f: open_bundle(self.bundles[f])[0].sign_pk):
            if all(linked(fp, c) and linked(c, fp) for c in roster):
                roster.append(fp)
                if len(roster) == self.cfg.want:
                    break
        return [self.bundles[fp] for fp in roster]

    async def gather(self) -> None:
        """Gather `want` live players, then take the genesis (ours if we sort first, else the first one's), all
        within `lobby_timeout`: a player who leaves the lobby is dropped from the roster, so a dead peer never
        hangs the table."""
        from adp2p.p2p.discovery import local_addresses  # (imported here, as in _discover: not at start-up)

        host = self.cfg.advertise_host or self.cfg.host
        hosts = local_addresses() if host in ("0.0.0.0", "") else [host]  # where others reach us, not "0.0.0.0"
        self.tell(
            "waiting", table=self.cfg.table, want=self.cfg.want, name=self.cfg.name, key=self.fp,
            where=", ".join(f"{h}:{self.port}" for h in hosts),
        )
        deadline = trio.current_time() + self.cfg.lobby_timeout
        while self.genesis_raw is None:
            raw = await self.agreeing.step()  # the roster agreement (p2p/roster.py): ours, then the genesis
            if raw is not None:
                self.genesis_raw = raw
                await self.wire.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
                break
            if self.agreeing.declined:
                raise TableError(notice("roster_declined", self.cfg.lang, table=self.cfg.table))
            if self.agreeing.passed_now:  # the table goes on without a seat that held it up: the wait starts again
                self.agreeing.passed_now = False
                deadline = max(deadline, trio.current_time() + self.cfg.lobby_timeout / 2)
            if trio.current_time() >= deadline:
                raise TableError(self.timeout_line())
            if self.playing is not None and len(self.met) > 1 and len(self.bundles) == 1:
                # every player we met has gone, and the table says it plays: it began a game without us (we were
                # passed over, or another roster was complete first): one line now, not a wait for the lobby's end
                raise TableError(notice("went_on_without_you", self.cfg.lang, table=self.cfg.table))
            if self.playing is not None and len(self.met) == 1:  # nobody waits with us: we would wait in vain
                raise TableError(
                    f"table {self.cfg.table!r} is playing a game (the player at {self.playing.address} says so); "
                    "spectating is not supported yet: choose another --table, or join when that game is over"
                )
            # the genesis can be lost (sent on a connection that closed as a duplicate) and nobody sends it again
            # while the others wait for our first entry: ask for the log from its start now and then
            with trio.move_on_at(min(deadline, trio.current_time() + 1.0)) as waited:
                await self._wait_progress()
            if self.news and not waited.cancelled_caught:  # a player left: who is here changed
                self.news = False
                await self.wire.broadcast(self.message())  # type: ignore[union-attr]
            if waited.cancelled_caught:
                await self.agreeing.resend()  # our agreement, like our lobby message, may have been lost
                # our lobby message too: one queued on a connection that closed as a duplicate is lost, and nothing
                # else would tell that player we are here (it would refuse a genesis that seats us, and wait)
                await self.wire.broadcast(self.message())  # type: ignore[union-attr]
                if len(self.met) >= self.cfg.want:
                    await self.wire.broadcast({"k": "get", "from": 0})  # type: ignore[union-attr]
        self._start(self.genesis_raw)
        self.dialing.save()
        # entries that came before the genesis were dropped: fetch them (no reply if there are none yet)
        await self.wire.broadcast({"k": "get", "from": 1})  # type: ignore[union-attr]

    def timeout_line(self) -> str:
        if self.agreeing.left_out and len(self.roster()) < self.cfg.want:
            return notice(
                "lobby_short", self.cfg.lang, table=self.cfg.table, have=len(self.roster()), want=self.cfg.want,
                secs=f"{self.cfg.lobby_timeout:.0f}",
            )
        if len(self.bundles) < self.cfg.want:
            return (
                f"only {len(self.bundles)} of {self.cfg.want} players arrived at table {self.cfg.table!r} within "
                f"{self.cfg.lobby_timeout:.0f} s"
            )
        roster = self.roster()
        if len(roster) < self.cfg.want:
            return (
                f"{len(self.bundles)} players came to table {self.cfg.table!r}, but within "
                f"{self.cfg.lobby_timeout:.0f} s no {self.cfg.want} of them had all met each other (can they reach "
                "each other's addresses?)"
            )
        first = roster[0]
        return (
            f"{open_bundle(first)[1]}, who starts the game at table {self.cfg.table!r}, sent no genesis we could "
            f"accept within {self.cfg.lobby_timeout:.0f} s"
        )

    def check_genesis(self, raw: bytes, label: str) -> bool:
        """A genesis must be signed by its seat 0, seat us, describe the game we asked for and seat only
        players we met (p2p/lobby.py). Otherwise it is refused with one line (once per genesis) and False."""
        e = decode_entry(raw)
        g = Genesis.from_body(decode_body(e.body))
        if e.author != 0 or e.prev_hash != ZERO or e.seq != 0:
            raise ValueError(f"malformed genesis from {label}")
        verify_entry(e, g.identities()[0])
        why = (
            ("it does not seat us" if self.bundle not in g.roster else None)
            or settings_mismatch(
                g,
                table=self.cfg.table,
                profile=self.cfg.profile,
                goal=self.cfg.goal,
                round_limit=self.cfg.round_limit,
                want=self.cfg.want,
                stalemate=self.cfg.stalemate,
                lang=self.cfg.lang,
                game=self.cfg.game,
            )
            or roster_mismatch(g, self.met.values(), self.cfg.lang)
            or self.agreeing.genesis_mismatch(g)
            or self.files.played_here(g)
        )
        if why is None:
            return True
        self._refused_raws[e.id] = (raw, label)
        while len(self._refused_raws) > MAX_REFUSED:
            del self._refused_raws[next(iter(self._refused_raws))]
        if (e.id, why) not in self._refused_geneses and len(self._refused_geneses) < 64:
            self._refused_geneses.add((e.id, why))
            self.tell("refused_genesis", who=label, why=why)
        return False

    def recheck_refused(self) -> None:
        """A genesis refused because it seated a player we had not met yet is taken once that player sits down
        (views of the lobby differ for a moment when a connection flaps)."""
        if self.genesis_raw is not None:
            return
        for eid, (raw, label) in list(self._refused_raws.items()):
            del self._refused_raws[eid]
            if self._accepts(raw, label):
                self.genesis_raw = raw
                self._news()
                return

    async def heard(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """A `lobby` message from the peer `fp` (it fits its schema: p2p/messages.py)."""
        b = msg["bundle"]
        ident, _name, _ = open_bundle(b)
        if ident.fingerprint() != fp:
            raise ValueError("lobby bundle is not the connected peer's")
        if msg["v"] != PROTOCOL_VERSION:  # one line per peer, not one per lobby message it repeats
            if self._first_refusal("version", label):
                self.tell("old_protocol", who=label, theirs=msg["v"], ours=PROTOCOL_VERSION)
            return
        addrs, bad = [address(msg["addr"])], []
        for a in msg["peers"][:MAX_LOBBY_ADDRESSES]:  # checked before anything dials them
            try:
                addrs.append(address(a))
            except MessageError as exc:
                bad.append(str(exc))
        if bad:
            self.tell("ignored_addresses", n=len(bad), who=label, why=self._detail("; ".join(bad)))
        if fp not in self.met and len(self.met) < MAX_MET:
            self.met[fp] = b
        if self.mesh is not None and fp not in self.mesh.peers:
            return  # it left while its message waited (the PeerDown came first): met, but not here now
        new = fp not in self.bundles
        self.bundles[fp] = b
        self.agreeing.heard_lobby(fp, label, msg)  # another game than ours: left out (p2p/peer/agreeing.py)
        here = set(msg["here"])
        if self.here.get(fp) != here and (fp in self.here or len(self.here) < MAX_MET):
            self.here[fp] = here
            self._news()  # a genesis of ours may seat it now
        learned = self.dialing.learn(addrs)  # (dialed, and the game's address book saved)
        if learned or (new and self.genesis_raw is None and self.mesh is not None):
            # tell everyone: so a peer that only knew us meets the others (full mesh), and each knows whom we
            # are connected to now (`here`: a genesis seats only players who all met)
            await self.wire.broadcast(self.message())  # type: ignore[union-attr]
        elif (
            self.genesis_raw is not None
            and self.machine is not None
            and not self._heard_from(fp)
            and any(i.fingerprint() == fp for i in self.machine.ids)
        ):
            # a seated player still in the lobby (it never told us a head; it re-sends every second) may have
            # missed our lobby message or the genesis: answer with both, or it never meets us and never begins
            await self._safe_send(fp, self.message())
            await self._safe_send(fp, {"k": "entry", "raw": self.genesis_raw})
        if new:
            if self.machine is None:
                self.tell(
                    "sat_down", name=_name, key=fp, table=self.cfg.table,
                    have=min(len(self.bundles), self.cfg.want), want=self.cfg.want,
                )
                self.recheck_refused()
            self._news()

    def left(self, fp: str, label: str) -> None:
        """The peer `fp` went down: while no genesis is taken it leaves the lobby."""
        if self.genesis_raw is None and fp in self.bundles and fp != self.fp:
            # the genesis we build seats players alive now (a lobby message brings them back); one we receive may
            # still seat them: they stay met
            del self.bundles[fp]
            self.here.pop(fp, None)
            self.tell("left_lobby", who=label)
            self._news()
            self.news = True  # the others hear whom we are connected to now (`gather` sends it)
