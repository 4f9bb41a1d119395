"""A seat's files on disk: its key in `<data>/seats` until a game's secrets file holds it, the secrets file (fsynced,
0600, rewritten only when it changes), a damaged log kept aside and cut back, a game already played here, and the
benchmarks' timings file.

`GameFiles` reads and writes files and nothing else: it is given the paths, the identity and the secrets to write,
and returns what it read; what the player is told about it is the caller's."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p import lobby_note
from adp2p.p2p.logstore import LogCorrupt, LogStore
from adp2p.p2p.machine import SeatSecrets
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.paths import read_secret, resume_command, write_secret
from adp2p.p2p.peer.common import DAMAGED_SUFFIX, TableError, _remedy
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.protocol import Genesis
from adp2p.p2p.seat_secrets import seat_key_from_bytes, seat_key_to_bytes

SEATS_DIR = "seats"  # <data>/seats/<fingerprint>: a seat's key until a game's secrets file holds it


class GameFiles:
    """The seat key file, the secrets file, the damaged log, the timings file of one peer."""

    def __init__(self, data_dir: Path, timings: Path | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.timings = timings
        self.secrets_saved = b""  # what the secrets file holds (written only when it changes)

    def seat_key_path(self, fp: str, data_dir: Path | None = None) -> Path:
        return Path(data_dir or self.data_dir) / SEATS_DIR / fp

    def save_seat_key(self, identity: SecretIdentity) -> None:
        """Our key on disk before the lobby can seat us: a crash after a genesis seats us and before our secrets
        file is written loses nothing that resume needs (`recover_secrets`)."""
        path = self.seat_key_path(identity.public.fingerprint())
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_secret(path, seat_key_to_bytes(identity))
        except OSError as exc:
            raise TableError(f"cannot write {path} ({exc.strerror or exc}) — {_remedy(exc)}".rstrip(" —")) from None

    def drop_seat_key(self, fp: str, data_dir: Path | None = None) -> None:
        """Our secrets file holds our key now (or no game seated us): the seat key file goes."""
        with contextlib.suppress(OSError):
            self.seat_key_path(fp, data_dir).unlink()
        lobby_note.drop(Path(data_dir or self.data_dir), fp)  # (the note of our agreement: p2p/lobby_note.py)

    def played_here(self, g: Genesis) -> str | None:
        """Why a genesis is refused because its game was already played (or begun) in our data directory: a
        replayed genesis never reopens a game, finished or not (its secrets and log stay as they are; a game
        begun here is resumed with --resume)."""
        where = self.data_dir / "games" / g.game_id.hex()
        log_path = where / "log"
        if (where / "secrets").exists() or (log_path.exists() and log_path.stat().st_size > 0):
            return f"its game {g.game_id.hex()[:8]} was already played here ({where}): a game is never reopened"
        return None

    def recover_secrets(self, gdir: Path, g: Genesis, draws: Draws) -> SeatSecrets | None:
        """Our secrets for the game in `gdir` when its secrets file was never written (a crash right after the
        genesis): made afresh (`draws`) for the seat whose key `<data>/seats` holds. Nothing of ours was signed in
        that game (the secrets file comes before our first entry), so no secret of ours was committed to yet."""
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
                sec = draws.seat_secrets(ids.index(ident.public), ident, g.game_id)
                write_secret(gdir / "secrets", sec.to_bytes())
                with contextlib.suppress(OSError):
                    path.unlink()
                return sec
        return None

    def save_secrets(self, gdir: Path, secrets: SeatSecrets, game: str) -> bool:
        """Write `secrets` (fsynced, 0600) if they changed since the last write: always before the entry that
        commits to them is signed, so a crash or a full disk can never leave a logged entry without its secret.
        True if the file was written."""
        raw = secrets.to_bytes()
        if raw == self.secrets_saved:
            return False
        try:
            write_secret(gdir / "secrets", raw)
        except OSError as exc:
            raise TableError(
                f"cannot write {gdir / 'secrets'} ({exc.strerror or exc}); nothing was sent — {_remedy(exc)}"
                f"resume with: {resume_command(gdir, game)}"
            ) from None
        self.secrets_saved = raw
        return True

    def open_passes(self, gdir: Path, g: Genesis, seat: int, identity: SecretIdentity) -> PassPool:
        """Our pass tokens' file (each token on disk before it is sent): those signed before a crash are read back
        (we never act where we passed)."""
        pool = PassPool(g.game_id, g.identities(), seat, gdir / "passes")
        pool.load(identity)
        return pool

    @staticmethod
    def read_secrets(gdir: Path) -> SeatSecrets:
        try:
            return SeatSecrets.from_bytes(read_secret(gdir / "secrets"))
        except (OSError, ValueError) as exc:  # SecretsFileError, InsecureSecretFile, a missing file
            why = (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)
            raise TableError(f"cannot resume from {gdir / 'secrets'}: {why}") from None

    @staticmethod
    def open_repaired(path: Path, g: Genesis) -> tuple[LogStore, LogCorrupt | None, Path]:
        """Open our log; if it is damaged after the genesis (a bit flip, a zero-filled record), keep the whole
        file aside as `<log>.damaged` (never deleted) and cut the log back to its last valid entry (the catch-up
        fetches the rest from the other players; every entry is re-verified on arrival). Returns the log, the
        damage found (None if none) and where the damaged file was kept."""
        aside = path.with_name(path.name + DAMAGED_SUFFIX)
        try:
            return LogStore.open(path, g.identities(), g.game_id), None, aside
        except LogCorrupt as exc:
            if exc.seq < 1:
                raise
            data = path.read_bytes()
            with open(aside, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            with open(path, "r+b") as fh:
                fh.truncate(exc.offset)
                fh.flush()
                os.fsync(fh.fileno())
            return LogStore.open(path, g.identities(), g.game_id), exc, aside

    def timing(self, *fields: object) -> None:
        """With a timings file: one line per entry appended (seq kind author time.monotonic() time.process_time()),
        for benchmarks; time.monotonic() is one clock for every process on a machine, process_time this process's
        CPU."""
        if self.timings is not None:
            with open(self.timings, "a") as fh:
                fh.write(" ".join(map(str, fields)) + f" {time.monotonic():.6f} {time.process_time():.6f}\n")
