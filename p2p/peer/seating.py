"""Taking a seat: a game begun at its genesis (its directory, log and our secrets) or resumed from its directory (the
log refolded, our secrets read back or recovered). The files themselves are `GameFiles`' (p2p/peer/game_files.py).

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

from pathlib import Path

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import make_bundle, open_bundle
from adp2p.p2p.logstore import (
    LogError,
    LogStore,
)
from adp2p.p2p.machine import ProtocolError
from adp2p.p2p.notices import notice
from adp2p.p2p.paths import game_dir
from adp2p.p2p.peer.common import (
    RESUME_RECAP,
    ZERO,
    TableError,
    _first_record,
    _short,
)
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.protocol import BodyError, Genesis, Kind, decode_body


class SeatingPart:
    """Taking a seat."""

    def _start(self, raw: bytes) -> None:
        """Accept a genesis entry: check it, create the game directory, the log, our secrets."""
        e = decode_entry(raw)
        g = Genesis.from_body(decode_body(e.body))
        ids = g.identities()
        ids[0].verify  # noqa: B018 - the signature is checked by the log store below
        mine = [i for i, b in enumerate(g.roster) if b == self.bundle]
        if not mine:
            raise TableError("the genesis of this table does not seat us")
        if e.seq != 0 or e.author != 0 or e.kind != Kind.GENESIS or e.prev_hash != ZERO:
            raise TableError("malformed genesis entry")
        seat = mine[0]
        played = self.files.played_here(g)
        if played is not None:  # (the lobby refuses such a genesis: this is the last line of defence)
            raise TableError(played)
        self.gdir = game_dir(self.cfg.data_dir, g.game_id.hex())
        self.gdir.mkdir(parents=True, exist_ok=True)
        self.book.path = self.gdir / "evidence"
        if self.cfg.on_game_dir is not None:
            self.cfg.on_game_dir(self.gdir)
        # the genesis first, then our secrets (which nothing commits to before our first entry): a crash in between
        # leaves a game that resume finds, and our key is in `<data>/seats` until the secrets file holds it
        self.store = LogStore.open(self.gdir / "log", ids, g.game_id)
        if len(self.store) == 0:
            self.store.append(raw, author=0)
            self._timing(0, int(Kind.GENESIS), 0)
        self.secrets = self.draws.seat_secrets(seat, self.identity, g.game_id)
        self._save_secrets()
        self.files.drop_seat_key(self.fp)
        self.machine = self.machine_class(g, self.secrets)
        self._open_passes(g, seat)
        self.outcome.game_id = g.game_id
        self.outcome.log_path = self.gdir / "log"
        you = notice("you_mark", self.cfg.lang)
        names = ", ".join(f"{n}{you if i == seat else ''}" for i, n in enumerate(g.names()))
        self.tell("begins", game=g.game_id.hex()[:8], rules=g.profile, players=names, log=self.gdir / "log")

    def _open_passes(self, g: Genesis, seat: int) -> None:
        """Our pass tokens: those signed before a crash are read back (we never act where we passed)."""
        assert self.gdir is not None
        self.passes = self.files.open_passes(self.gdir, g, seat, self.identity)

    def _load(self, gdir: Path) -> None:
        """Resume: reload this seat's secrets and the log, and refold it."""
        sec = None if not (gdir / "secrets").exists() else GameFiles.read_secrets(gdir)
        try:
            first = _first_record(gdir / "log")
            e = decode_entry(first)
            g = Genesis.from_body(decode_body(e.body))
        except (OSError, ValueError, CryptoError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: its genesis does not read ({exc})") from None
        if sec is None:  # a crash between the genesis and our secrets file: our key waits in <data>/seats
            try:
                sec = self.files.recover_secrets(gdir, g, self.draws)
            except OSError as exc:
                raise TableError(f"cannot write {gdir / 'secrets'} ({exc.strerror or exc})") from None
            sec = sec or GameFiles.read_secrets(gdir)  # (says why there is none)
        self.identity = sec.identity
        self.bundle = make_bundle(self.identity, self.cfg.name)
        self.fp = self.identity.public.fingerprint()
        if not 0 <= sec.seat < g.n or g.identities()[sec.seat] != sec.identity.public:
            raise TableError(f"cannot resume: {gdir / 'secrets'} is not for a seat of the game in {gdir / 'log'}")
        if g.roster[sec.seat] != self.bundle:
            # the name may differ from the one given now: take the roster's
            self.cfg.name = open_bundle(g.roster[sec.seat])[1]
            self.bundle = make_bundle(self.identity, self.cfg.name)
        self.cfg.table = g.table
        self.gdir = gdir
        self.book.path = gdir / "evidence"
        self.secrets = sec
        self.files.secrets_saved = sec.to_bytes()
        try:
            self.store, damage, aside = GameFiles.open_repaired(gdir / "log", g)
            if damage is not None:
                self.tell("log_damaged", seq=damage.seq, aside=aside, back=damage.seq - 1)
            self.machine = self._fold(len(self.store))
            self._open_passes(g, sec.seat)
        except (OSError, LogError, CryptoError, ProtocolError, BodyError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: {_short(str(exc))}") from None
        self.genesis_raw = first
        # whatever our log looks like now (torn, cut at a record boundary, repaired, intact), the disk may have lost
        # entries of ours that the table holds: sign nothing until the table's heads show we hold all it holds
        self.catching_up.begin()
        self.outcome.game_id = g.game_id
        self.outcome.log_path = gdir / "log"
        self.tell("resumed", game=g.game_id.hex()[:8], seq=len(self.store), name=self.cfg.name)
        if self.machine.abandoned is not None:  # the game ended while we were away: say so, as the others did
            self._abandoned(self.store[len(self.store) - 1])
        # the history before the crash was shown then: recap only its last lines, not the whole game again
        hist = self.machine.state.history
        self.narrator.shown = max(0, len(hist) - RESUME_RECAP)
        if self.narrator.shown:
            self.tell("recap", n=self.narrator.shown)

    def _save_secrets(self) -> None:
        """Our secrets on disk (if they changed) before the entry that commits to them is signed."""
        assert self.gdir is not None and self.secrets is not None
        self.files.save_secrets(self.gdir, self.secrets, self.cfg.game)

    def _timing(self, *fields: object) -> None:
        self.files.timing(*fields)
