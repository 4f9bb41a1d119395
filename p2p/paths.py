"""Where a peer keeps its things on disk, and how secrets are written.

Layout (under :func:`data_dir`)::

    <data_dir>/                      default platformdirs.user_data_dir("ad-p2p"), mode 0700
    <data_dir>/games/<game_id_hex>/  one directory per game (log, keys, ...), mode 0700

Secrets (per-game secret identities, shuffle witnesses, salts) are written with
:func:`write_secret`: the file is created with mode ``0600`` from the start (``os.open`` with
``O_CREAT | O_EXCL``, never a world-readable moment), fsynced, then atomically renamed over the
destination, and the directory is fsynced.  :func:`read_secret` refuses a file that group or
others can read or write.  Error messages name paths and modes, never file contents.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Final

import platformdirs

__all__ = [
    "APP_NAME",
    "InsecureSecretFile",
    "data_dir",
    "game_dir",
    "read_secret",
    "write_secret",
]

APP_NAME: Final = "ad-p2p"
DIR_MODE: Final = 0o700
SECRET_MODE: Final = 0o600
_GAME_ID_HEX = re.compile(r"^(?:[0-9a-f]{32}|[0-9a-f]{64})$")


class InsecureSecretFile(PermissionError):
    """A secret file whose permissions let other users read or change it."""


def _ensure_dir(path: Path) -> Path:
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if not path.is_dir():
        raise NotADirectoryError(f"{path} exists and is not a directory")
    return path


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The peer's data directory (created, mode 0700 when new).

    *override* (e.g. from ``--data-dir``) wins; otherwise ``platformdirs.user_data_dir("ad-p2p")``.
    """
    base = Path(override).expanduser() if override is not None else Path(platformdirs.user_data_dir(APP_NAME))
    return _ensure_dir(base.absolute())


def game_dir(data: str | os.PathLike[str], game_id_hex: str) -> Path:
    """Directory of one game (created): ``<data>/games/<game_id_hex>``.

    *game_id_hex* must be the lowercase hex of a 16- or 32-byte game id, so it can never
    escape the data directory.
    """
    if not isinstance(game_id_hex, str) or not _GAME_ID_HEX.match(game_id_hex):
        raise ValueError(f"game id must be 32 or 64 lowercase hex digits, got {game_id_hex!r}")
    return _ensure_dir(Path(data) / "games" / game_id_hex)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_secret(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write *data* to *path* with mode 0600, durably and atomically; return the path.

    The bytes go to a fresh temporary file in the same directory created with mode 0600
    (``O_EXCL``, so never through a pre-existing file or symlink), are fsynced, and the file
    is renamed over *path*; the directory is fsynced so the rename survives a crash.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"secret data must be bytes, got {type(data).__name__}")
    dest = Path(path)
    tmp = dest.with_name(f".{dest.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, SECRET_MODE)
    try:
        with contextlib.suppress(AttributeError, OSError):  # no fchmod on Windows
            os.fchmod(fd, SECRET_MODE)  # whatever the umask did, exactly 0600
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(dest.parent)
    return dest


def read_secret(path: str | os.PathLike[str]) -> bytes:
    """Read a secret file written by :func:`write_secret`.

    Raises :class:`InsecureSecretFile` if the file is not a regular file or if group/others
    have any permission on it (on POSIX), :class:`FileNotFoundError` if it does not exist.
    """
    p = Path(path)
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InsecureSecretFile(f"secret {p} is not a regular file")
        if os.name == "posix" and st.st_mode & 0o077:
            raise InsecureSecretFile(
                f"secret {p} has mode {stat.S_IMODE(st.st_mode):04o}; other users may access it "
                f"(expected {SECRET_MODE:04o}: chmod 600 it after checking nobody tampered with it)"
            )
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def resume_command(game_dir: Path | str | None, game: str = "access-denied") -> str:
    """The command that resumes this game, as the player can type it: `ad-p2p join --resume DIR` (with `--game NAME`
    for a game other than Access Denied: the seat's client is the game's), or through the launcher that started us
    when `ad-p2p` is not on the player's PATH (`./dev` sets ADP2P_COMMAND)."""
    which = "" if game == "access-denied" else f" --game {game}"
    return f"{os.environ.get('ADP2P_COMMAND') or 'ad-p2p'} join{which} --resume {game_dir}"
