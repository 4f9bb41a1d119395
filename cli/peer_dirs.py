"""One data directory per running peer, so that several peers on one machine just work.

A peer that starts a new game claims its data directory for as long as it runs (an advisory lock on `<dir>/.in-use`,
released by the OS when the process ends, however it ends). With the default data directory a second peer on the same
machine takes the next free one, `<default>/peers/2`, `<default>/peers/3`, ...: two terminals running `join --table t1`
each get their own keys and logs without a flag. A `--data-dir` given by the player is used as given: if another
running peer holds it, one line says so and asks for another.

`latest_game` finds the game `join --resume` means: the most recently written game directory under the default data
directory and its peer directories (or under `--data-dir`), leaving out any whose log a running peer holds open.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Any

import platformdirs
from adp2p.cli.usage import UsageError
from adp2p.p2p.paths import APP_NAME, data_dir

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no claims (one peer per data directory is then the player's care)
    fcntl = None  # type: ignore[assignment]

LOCK = ".in-use"
MAX_PEERS = 32  # peer directories tried under the default data directory
_held: dict[Path, IO[str]] = {}  # directories this process has claimed (their lock files stay open)


def default_root() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)).absolute()


def _try_lock(root: Path) -> bool:
    """Claim `root` for this process (True), or False if another running process holds it."""
    root = root.absolute()
    if root in _held or fcntl is None:
        return True
    fh = open(root / LOCK, "a+")  # noqa: SIM115 - held open for the process's life: the claim
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.close()
        return False
    fh.seek(0)
    fh.truncate()
    fh.write(f"{os.getpid()}\n")
    fh.flush()
    _held[root] = fh
    return True


def _holder(root: Path, lang: str = "en") -> str:
    with contextlib.suppress(OSError, ValueError, IndexError):
        return f" ({'Prozess' if lang == 'de' else 'process'} {int((root / LOCK).read_text().split()[0])})"
    return ""


def claim(explicit: str | None) -> Path:
    """The data directory this peer uses (created and claimed): `explicit` (`--data-dir`), else the default or, if a
    running peer holds that, the first free `<default>/peers/N`. OSError if it cannot be created or written."""
    if explicit is not None:
        root = data_dir(explicit)
        if not _try_lock(root):
            raise UsageError(f"--data-dir {explicit} is in use by another running peer{_holder(root)}; give each peer "
                             "on this machine its own --data-dir (or leave it out: each then gets one of its own)",
                             f"--data-dir {explicit} wird von einem anderen laufenden Teilnehmer benutzt"
                             f"{_holder(root, 'de')}; gib jedem Teilnehmer auf diesem Rechner sein eigenes --data-dir "
                             "(oder lass es weg: jeder bekommt dann ein eigenes)")
        return root
    base = data_dir(None)
    if _try_lock(base):
        return base
    for n in range(2, MAX_PEERS + 1):
        root = data_dir(base / "peers" / str(n))
        if _try_lock(root):
            return root
    raise UsageError(f"{MAX_PEERS} peers already run from {base}; give this one its own --data-dir")


def claim_for(args: Any) -> Path:
    """The data directory of a `join` or `play` peer: for a resumed game, the one that holds it (claimed if no running
    peer holds it: the game's own log lock keeps two processes off one game); else `claim(--data-dir)`."""
    resume = getattr(args, "resume", None)
    if resume is not None:
        root = data_dir(Path(resume).parent.parent)
        _try_lock(root)
        return root
    return claim(getattr(args, "data_dir", None))


def unusable(exc: OSError, lang: str, given: str | None = None) -> str:
    """Why a data directory cannot be used, in one line in the player's language."""
    import errno

    where = exc.filename or given or default_root()
    if isinstance(exc, FileExistsError | NotADirectoryError):
        en, de = "cannot be made: a file is in the way", "lässt sich nicht anlegen: eine Datei ist im Weg"
    elif isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
        en = "cannot be written (no permission, or a read-only disk)"
        de = "ist nicht beschreibbar (keine Rechte oder ein schreibgeschütztes Laufwerk)"
    else:
        en = de = exc.strerror or type(exc).__name__
    if lang == "de":
        return f"das Datenverzeichnis {where} {de}; gib mit --data-dir ein anderes an"
    return f"the data directory {where} {en}; give another with --data-dir"


def release_all() -> None:
    """Give up every claim of this process (tests; a process's claims otherwise end with it)."""
    for fh in _held.values():
        fh.close()
    _held.clear()


def _in_use(log: Path) -> bool:
    """Whether a running peer holds this log open (its log store's lock)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(log, os.O_RDONLY)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # (closing releases the probe's lock)
    return False


def roots(explicit: str | None) -> list[Path]:
    """The data directories `--resume` looks in: `explicit`, or the default and its peer directories."""
    if explicit is not None:
        return [Path(explicit).expanduser().absolute()]
    base = default_root()
    peers = base / "peers"
    more = sorted(p for p in peers.iterdir() if p.is_dir()) if peers.is_dir() else []
    return [base, *more]


def latest_game(explicit: str | None) -> Path | None:
    """The most recently written game directory (with its log and secrets) that no running peer holds open."""
    cands: list[Path] = []
    for root in roots(explicit):
        games = root / "games"
        if games.is_dir():
            cands += [d for d in games.iterdir() if (d / "secrets").is_file() and (d / "log").is_file()]
    free = [d for d in cands if not _in_use(d / "log")]
    return max(free, key=lambda d: (d / "log").stat().st_mtime) if free else None
