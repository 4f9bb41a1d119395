"""The addresses we know and dial: those given, those a lobby message names (checked and bounded before anything dials
them), those mDNS finds on the LAN (p2p/discovery.py); saved beside the game's log as its address book
(p2p/address_book.py), so that a resume dials them all.

`Dialing` is an object of its own, given the peer's config, the seat's log state (p2p/peer/seat_log.py: the game
directory, the roster once a game has begun) and what it reads through the peer: our fingerprint, the mesh (None before
it runs). The lobby (p2p/peer/lobby.py) learns through it; the peer runs `discover` beside the play loop."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from adp2p.p2p.address_book import save_book
from adp2p.p2p.peer.common import MAX_KNOWN_ADDRESSES, PeerConfig, log
from adp2p.p2p.peer.seat_log import SeatLog


class Dialing:
    """The addresses we know, and dial."""

    def __init__(self, cfg: PeerConfig, seat: SeatLog, *, me: Callable[[], str], mesh: Callable[[], Any]) -> None:
        """`me()`: our fingerprint (a resume takes the seat's); `mesh()`: the peer's mesh once up."""
        self.cfg, self.seat, self._me, self._mesh = cfg, seat, me, mesh
        self.known: set[tuple[str, int]] = set(cfg.peers)

    def ours(self) -> tuple[str, int]:
        """Where we listen, as the others dial it."""
        mesh = self._mesh()
        assert mesh is not None
        return (self.cfg.advertise_host or self.cfg.host, mesh.port)

    def learn(self, addrs: Iterable[tuple[str, int]]) -> bool:
        """Dial the addresses not known yet (checked by the caller; at most `MAX_KNOWN_ADDRESSES` known in all) and
        save the book. True if any was new."""
        learned = False
        for addr in addrs:
            if len(self.known) >= MAX_KNOWN_ADDRESSES:
                break
            if addr not in self.known and addr != self.ours():
                self.known.add(addr)
                self._mesh().add_peer(*addr)
                learned = True
        if learned:
            self.save()
        return learned

    def save(self) -> None:
        """The addresses we know, beside the game's log (p2p/address_book.py): a resume dials them all."""
        gdir = self.seat.gdir
        if gdir is None:
            return
        try:
            save_book(gdir, self.known)
        except OSError as exc:  # a hint only: the game goes on without it
            log.warning("cannot save the peers' addresses in %s: %s", gdir, exc)

    async def discover(self) -> None:
        """Advertise our table by mDNS and dial the peers of our table it finds (once a game has begun, its seats
        only)."""
        from adp2p.p2p.discovery import advertise, browse

        host, fp = self.cfg.advertise_host, self._me()
        async with (
            advertise(
                self.cfg.name, self.ours()[1], self.cfg.table, fp, seats=str(self.cfg.want),
                interfaces=self.cfg.interfaces, addresses=[host] if host else None,
            ),
            browse(interfaces=self.cfg.interfaces) as events,
        ):
            async for ev in events:
                addrs = getattr(ev, "addresses", None)
                if not addrs or getattr(ev, "table", None) != self.cfg.table or ev.fingerprint == fp:
                    continue
                m = self.seat.machine
                if m is not None and ev.fingerprint not in {i.fingerprint() for i in m.ids}:
                    continue  # a game has begun: only its seats are worth dialing (a resuming one finds them here)
                for a in addrs:
                    addr = (a, ev.port)
                    if addr not in self.known:
                        self.known.add(addr)
                        self._mesh().add_peer(*addr)
