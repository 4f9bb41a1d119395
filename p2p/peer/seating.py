"""Taking a seat: a game begun at its genesis (its directory, log and our secrets) or resumed from its directory (the
log refolded, our secrets read back or recovered). The files themselves are `GameFiles`' (p2p/peer/game_files.py).

`Seating` is an object of its own: given the peer's config, files and draws, the seat's log state (p2p/peer/seat_log.py)
and the calls it makes through the peer (who we are and taking the seat's identity on a resume, telling the player, the
genesis taken, the outcome, what the player was shown, catching up, an abandon that ended the game). The peer wires it
(p2p/peer/table_peer.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import SecretIdentity, make_bundle, open_bundle
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
    Outcome,
    PeerConfig,
    TableError,
    _first_record,
    _short,
)
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import BodyError, Genesis, Kind, decode_body


class Seating:
    """Taking a seat."""

    def __init__(
        self,
        cfg: PeerConfig,
        files: GameFiles,
        draws: Draws,
        log: SeatLog,
        book: EvidenceBook,
        narrator: Narrator,
        *,
        me: Callable[[], tuple[SecretIdentity, bytes, str]],
        take_identity: Callable[[SecretIdentity, bytes], None],
        tell: Callable[..., None],
        took_genesis: Callable[[bytes], None],
        outcome: Callable[[], Outcome],
        catch_up: Callable[[], None],
        abandoned: Callable[[Any], None],
    ) -> None:
        """`me()`: our identity, bundle and fingerprint; `take_identity(identity, bundle)`: a resume's seat is ours;
        `took_genesis(raw)`: the lobby's genesis; `outcome()`: the game's outcome as it stands; `catch_up()`: sign
        nothing until caught up; `abandoned(entry)`: an abandon in our log ended the game."""
        self.cfg, self.files, self.draws, self.log, self.book, self.narrator = cfg, files, draws, log, book, narrator
        self._me, self._take_identity, self.tell, self._took_genesis = me, take_identity, tell, took_genesis
        self._outcome, self._begin_catch_up, self._abandoned = outcome, catch_up, abandoned

    @property
    def identity(self) -> SecretIdentity:
        return self._me()[0]

    @property
    def bundle(self) -> bytes:
        return self._me()[1]

    @property
    def fp(self) -> str:
        return self._me()[2]

    @property
    def outcome(self) -> Outcome:
        return self._outcome()

    def start(self, raw: bytes) -> None:
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
        self.log.gdir = game_dir(self.cfg.data_dir, g.game_id.hex())
        self.log.gdir.mkdir(parents=True, exist_ok=True)
        self.book.path = self.log.gdir / "evidence"
        if self.cfg.on_game_dir is not None:
            self.cfg.on_game_dir(self.log.gdir)
        # the genesis first, then our secrets (which nothing commits to before our first entry): a crash in between
        # leaves a game that resume finds, and our key is in `<data>/seats` until the secrets file holds it
        self.log.store = LogStore.open(self.log.gdir / "log", ids, g.game_id)
        if len(self.log.store) == 0:
            self.log.store.append(raw, author=0)
            self.files.timing(0, int(Kind.GENESIS), 0)
        self.log.secrets = self.draws.seat_secrets(seat, self.identity, g.game_id)
        self.save_secrets()
        self.files.drop_seat_key(self.fp)
        self.log.machine = self.log.make_machine(g, self.log.secrets)
        self.open_passes(g, seat)
        self.outcome.game_id = g.game_id
        self.outcome.log_path = self.log.gdir / "log"
        you = notice("you_mark", self.cfg.lang)
        names = ", ".join(f"{n}{you if i == seat else ''}" for i, n in enumerate(g.names()))
        self.tell("begins", game=g.game_id.hex()[:8], rules=g.profile, players=names, log=self.log.gdir / "log")

    def open_passes(self, g: Genesis, seat: int) -> None:
        """Our pass tokens: those signed before a crash are read back (we never act where we passed)."""
        assert self.log.gdir is not None
        self.log.passes = self.files.open_passes(self.log.gdir, g, seat, self.identity)

    def load(self, gdir: Path) -> None:
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
        self._take_identity(sec.identity, make_bundle(sec.identity, self.cfg.name))
        if not 0 <= sec.seat < g.n or g.identities()[sec.seat] != sec.identity.public:
            raise TableError(f"cannot resume: {gdir / 'secrets'} is not for a seat of the game in {gdir / 'log'}")
        if g.roster[sec.seat] != self.bundle:
            # the name may differ from the one given now: take the roster's
            self.cfg.name = open_bundle(g.roster[sec.seat])[1]
            self._take_identity(self.identity, make_bundle(self.identity, self.cfg.name))
        self.cfg.table = g.table
        self.log.gdir = gdir
        self.book.path = gdir / "evidence"
        self.log.secrets = sec
        self.files.secrets_saved = sec.to_bytes()
        try:
            self.log.store, damage, aside = GameFiles.open_repaired(gdir / "log", g)
            if damage is not None:
                self.tell("log_damaged", seq=damage.seq, aside=aside, back=damage.seq - 1)
            self.log.machine = self.log.fold(len(self.log.store))
            self.open_passes(g, sec.seat)
        except (OSError, LogError, CryptoError, ProtocolError, BodyError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: {_short(str(exc))}") from None
        self._took_genesis(first)
        # whatever our log looks like now (torn, cut at a record boundary, repaired, intact), the disk may have lost
        # entries of ours that the table holds: sign nothing until the table's heads show we hold all it holds
        self._begin_catch_up()
        self.outcome.game_id = g.game_id
        self.outcome.log_path = gdir / "log"
        self.tell("resumed", game=g.game_id.hex()[:8], seq=len(self.log.store), name=self.cfg.name)
        if self.log.machine.abandoned is not None:  # the game ended while we were away: say so, as the others did
            self._abandoned(self.log.store[len(self.log.store) - 1])
        # the history before the crash was shown then: recap only its last lines, not the whole game again
        hist = self.log.machine.state.history
        self.narrator.shown = max(0, len(hist) - RESUME_RECAP)
        if self.narrator.shown:
            self.tell("recap", n=self.narrator.shown)

    def save_secrets(self) -> None:
        """Our secrets on disk (if they changed) before the entry that commits to them is signed."""
        assert self.log.gdir is not None and self.log.secrets is not None
        self.files.save_secrets(self.log.gdir, self.log.secrets, self.cfg.game)
