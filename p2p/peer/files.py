"""A game's files: create them at the genesis, the seat's secrets (fsynced before use), a damaged log repaired, a game
resumed from its directory.

One part of `TablePeer` (p2p/peer/table_peer.py): its methods work on the peer's shared state."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from adp2p.crypto.entries import decode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import make_bundle, open_bundle
from adp2p.p2p import lobby_note
from adp2p.p2p.logstore import (
    LogCorrupt,
    LogError,
    LogStore,
)
from adp2p.p2p.machine import ProtocolError, SeatSecrets
from adp2p.p2p.notices import notice
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.paths import game_dir, read_secret, resume_command, write_secret
from adp2p.p2p.peer.common import (
    DAMAGED_SUFFIX,
    RESUME_RECAP,
    ZERO,
    TableError,
    _first_record,
    _remedy,
    _short,
)
from adp2p.p2p.protocol import BodyError, Genesis, Kind, decode_body
from adp2p.p2p.seat_secrets import seat_key_from_bytes, seat_key_to_bytes

SEATS_DIR = "seats"  # <data>/seats/<fingerprint>: a seat's key until a game's secrets file holds it


class FilesPart:
    """A game's files."""

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
        played = self._played_here(g)
        if played is not None:  # (the lobby refuses such a genesis: this is the last line of defence)
            raise TableError(played)
        self.gdir = game_dir(self.cfg.data_dir, g.game_id.hex())
        self.gdir.mkdir(parents=True, exist_ok=True)
        if self.cfg.on_game_dir is not None:
            self.cfg.on_game_dir(self.gdir)
        # the genesis first, then our secrets (which nothing commits to before our first entry): a crash in between
        # leaves a game that resume finds, and our key is in `<data>/seats` until the secrets file holds it
        self.store = LogStore.open(self.gdir / "log", ids, g.game_id)
        if len(self.store) == 0:
            self.store.append(raw, author=0)
            self._timing(0, int(Kind.GENESIS), 0)
        self.secrets = self._new_secrets(seat, g)
        self._save_secrets()
        self._drop_seat_key()
        self.machine = self.machine_class(g, self.secrets)
        self._open_passes(g, seat)
        self.outcome.game_id = g.game_id
        self.outcome.log_path = self.gdir / "log"
        you = notice("you_mark", self.cfg.lang)
        names = ", ".join(f"{n}{you if i == seat else ''}" for i, n in enumerate(g.names()))
        self.tell("begins", game=g.game_id.hex()[:8], rules=g.profile, players=names, log=self.gdir / "log")

    def _played_here(self, g: Genesis) -> str | None:
        """Why a genesis is refused because its game was already played (or begun) in our data directory: a
        replayed genesis never reopens a game, finished or not (its secrets and log stay as they are; a game
        begun here is resumed with --resume)."""
        where = Path(self.cfg.data_dir) / "games" / g.game_id.hex()
        log_path = where / "log"
        if (where / "secrets").exists() or (log_path.exists() and log_path.stat().st_size > 0):
            return f"its game {g.game_id.hex()[:8]} was already played here ({where}): a game is never reopened"
        return None

    def _seat_key_path(self, data_dir: Path | None = None) -> Path:
        return Path(data_dir or self.cfg.data_dir) / SEATS_DIR / self.fp

    def _save_seat_key(self) -> None:
        """Our key on disk before the lobby can seat us: a crash after a genesis seats us and before our secrets
        file is written loses nothing that resume needs (`_recover_secrets`)."""
        path = self._seat_key_path()
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_secret(path, seat_key_to_bytes(self.identity))
        except OSError as exc:
            raise TableError(f"cannot write {path} ({exc.strerror or exc}) — {_remedy(exc)}".rstrip(" —")) from None

    def _drop_seat_key(self, data_dir: Path | None = None) -> None:
        """Our secrets file holds our key now (or no game seated us): the seat key file goes."""
        with contextlib.suppress(OSError):
            self._seat_key_path(data_dir).unlink()
        lobby_note.drop(Path(data_dir or self.cfg.data_dir), self.fp)  # (the note of our agreement: p2p/lobby_note.py)

    def _recover_secrets(self, gdir: Path, g: Genesis) -> SeatSecrets | None:
        """Our secrets for the game in `gdir` when its secrets file was never written (a crash right after the
        genesis): made afresh for the seat whose key `<data>/seats` holds. Nothing of ours was signed in that game
        (the secrets file comes before our first entry), so no secret of ours was committed to yet."""
        data = gdir.parent.parent
        ids = g.identities()
        try:
            keys = sorted((data / SEATS_DIR).iterdir())
        except OSError:
            return None
        for path in keys:
            try:
                ident = seat_key_from_bytes(read_secret(path))
            except (OSError, ValueError):
                continue
            if ident.public in ids:
                self.identity = ident
                sec = self._new_secrets(ids.index(ident.public), g)
                write_secret(gdir / "secrets", sec.to_bytes())
                with contextlib.suppress(OSError):
                    path.unlink()
                return sec
        return None

    def _open_passes(self, g: Genesis, seat: int) -> None:
        """Our pass tokens: those signed before a crash are read back (we never act where we passed)."""
        assert self.gdir is not None
        self.passes = PassPool(g.game_id, g.identities(), seat, self.gdir / "passes")
        self.passes.load(self.identity)

    def _new_secrets(self, seat: int, g: Genesis) -> SeatSecrets:
        return SeatSecrets.generate(seat, self.identity, g.game_id)

    def _save_secrets(self) -> None:
        """Write our secrets (fsynced, 0600) if they changed since the last write: always before the entry that
        commits to them is signed, so a crash or a full disk can never leave a logged entry without its secret."""
        assert self.gdir is not None and self.secrets is not None
        raw = self.secrets.to_bytes()
        if raw == self._secrets_saved:
            return
        try:
            write_secret(self.gdir / "secrets", raw)
        except OSError as exc:
            raise TableError(
                f"cannot write {self.gdir / 'secrets'} ({exc.strerror or exc}); nothing was sent — {_remedy(exc)}"
                f"resume with: {resume_command(self.gdir, self.cfg.game)}"
            ) from None
        self._secrets_saved = raw

    def _open_repaired(self, path: Path, g: Genesis) -> LogStore:
        """Open our log; if it is damaged after the genesis (a bit flip, a zero-filled record), keep the whole
        file aside as `<log>.damaged` (never deleted), cut the log back to its last valid entry, and let the
        catch-up fetch the rest from the other players (every entry is re-verified on arrival)."""
        try:
            return LogStore.open(path, g.identities(), g.game_id)
        except LogCorrupt as exc:
            if exc.seq < 1:
                raise
            aside = path.with_name(path.name + DAMAGED_SUFFIX)
            data = path.read_bytes()
            with open(aside, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            with open(path, "r+b") as fh:
                fh.truncate(exc.offset)
                fh.flush()
                os.fsync(fh.fileno())
            self.tell("log_damaged", seq=exc.seq, aside=aside, back=exc.seq - 1)
            return LogStore.open(path, g.identities(), g.game_id)

    def _load(self, gdir: Path) -> None:
        """Resume: reload this seat's secrets and the log, and refold it."""
        sec = None if not (gdir / "secrets").exists() else self._read_secrets(gdir)
        try:
            first = _first_record(gdir / "log")
            e = decode_entry(first)
            g = Genesis.from_body(decode_body(e.body))
        except (OSError, ValueError, CryptoError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: its genesis does not read ({exc})") from None
        if sec is None:  # a crash between the genesis and our secrets file: our key waits in <data>/seats
            try:
                sec = self._recover_secrets(gdir, g)
            except OSError as exc:
                raise TableError(f"cannot write {gdir / 'secrets'} ({exc.strerror or exc})") from None
            sec = sec or self._read_secrets(gdir)  # (says why there is none)
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
        self.secrets = sec
        self._secrets_saved = sec.to_bytes()
        try:
            self.store = self._open_repaired(gdir / "log", g)
            self.machine = self._fold(len(self.store))
            self._open_passes(g, sec.seat)
        except (OSError, LogError, CryptoError, ProtocolError, BodyError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: {_short(str(exc))}") from None
        self.genesis_raw = first
        # whatever our log looks like now (torn, cut at a record boundary, repaired, intact), the disk may have lost
        # entries of ours that the table holds: sign nothing until the table's heads show we hold all it holds
        self._begin_catch_up()
        self.outcome.game_id = g.game_id
        self.outcome.log_path = gdir / "log"
        self.tell("resumed", game=g.game_id.hex()[:8], seq=len(self.store), name=self.cfg.name)
        if self.machine.abandoned is not None:  # the game ended while we were away: say so, as the others did
            self._abandoned(self.store[len(self.store) - 1])
        # the history before the crash was shown then: recap only its last lines, not the whole game again
        hist = self.machine.state.history
        self.shown = max(0, len(hist) - RESUME_RECAP)
        if self.shown:
            self.tell("recap", n=self.shown)

    @staticmethod
    def _read_secrets(gdir: Path) -> SeatSecrets:
        try:
            return SeatSecrets.from_bytes(read_secret(gdir / "secrets"))
        except (OSError, ValueError) as exc:  # SecretsFileError, InsecureSecretFile, a missing file
            why = (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)
            raise TableError(f"cannot resume from {gdir / 'secrets'}: {why}") from None

    def _timing(self, *fields: object) -> None:
        """With `cfg.timings`: one line per entry appended (seq kind author time.monotonic() time.process_time()),
        for benchmarks; time.monotonic() is one clock for every process on a machine, process_time this process's
        CPU."""
        if self.cfg.timings is not None:
            with open(self.cfg.timings, "a") as fh:
                fh.write(" ".join(map(str, fields)) + f" {time.monotonic():.6f} {time.process_time():.6f}\n")
