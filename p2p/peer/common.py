"""What every part of a table peer shares: its configuration (`PeerConfig`), its outcome (`Outcome`),
the patience that scales its timeouts, `TableError`, and the limits and small helpers its parts use."""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adp2p.crypto.entries import decode_entry
from adp2p.p2p.game import DEFAULT_GAME
from adp2p.p2p.machine import Chooser
from adp2p.p2p.protocol import BodyError, Kind, decode_body
from adp2p.p2p.secrets_size import MAX_SECRETS_ENTRY

log = logging.getLogger("adp2p.peer")
ZERO = bytes(32)


@dataclass
class PeerConfig:
    name: str
    table: str = "default"
    game: str = DEFAULT_GAME  # the game to play (p2p/game.py: a name registered under `adp2p.games`)
    want: int = 3
    profile: str = "classic"
    goal: int | None = None
    round_limit: int | None = None
    stalemate: int | None = None  # rounds without an access change that end the game (None: never)
    host: str = "127.0.0.1"
    port: int = 0
    peers: list[tuple[str, int]] = field(default_factory=list)
    mdns: bool = False
    interfaces: list[str] | None = None
    advertise_host: str | None = None
    data_dir: Path = Path(".")
    abandon_after: float = 60.0
    lobby_timeout: float = 120.0
    heartbeat: float = 1.0
    dead_after: float | None = None  # a connection silent this long is down (default: 3 heartbeats)
    think: Callable[[], float] = lambda: 0.0  # delay before each of our engine decisions (no tells)
    timings: Path | None = None  # benchmarks: append `seq kind author monotonic-time` per entry logged
    lang: str = "en"  # the language of the lines told to the player (p2p/notices.py, engine/narration.py)
    on_game_dir: Callable[[Path], None] | None = None  # called with a new game's directory once it exists (the CLI
    # writes what it needs to resume the seat there: cli/seat_file.py)
    word: str | None = None  # the table's shared word (p2p/table_word.py): never written anywhere, never sent
    confirm: Callable[[str], bool] | None = None  # asks the person to confirm the roster (p2p/roster.py); None: agree


@dataclass
class Outcome:
    game_id: bytes = b""
    log_path: Path | None = None
    winners: list[str] = field(default_factory=list)
    line: str = ""
    said: str = ""  # the line as told to the player, in its language
    summary: list[str] = field(default_factory=list)  # standings and passwords, as told to the player
    audit_ok: bool | None = None
    violations: list[str] = field(default_factory=list)
    abandoned_by: str | None = None
    left_by: str | None = None  # the game ended where this seat was due: it had left after an abandonment (unnamed)
    lost_contact: bool = False  # we left a game that goes on (or ended) without us: nothing decided here
    verdict: str | None = None
    entries: int = 0
    head: bytes = b""
    void: bool = False  # the game never began: a seat had moved on before its genesis reached it (p2p/roster.py)


def with_patience(cfg: PeerConfig, patience: float) -> PeerConfig:
    """Every timeout of a peer from one liveness setting (`--patience`, seconds a player may stay silent on its
    turn): the abandon period; the lobby waits twice that; heartbeats and the dead-connection limit scale with it,
    so a slow or lossy network gets proportionally more time everywhere."""
    cfg.abandon_after = patience
    cfg.lobby_timeout = max(30.0, 2 * patience)
    cfg.heartbeat = min(5.0, max(1.0, patience / 60))
    cfg.dead_after = max(3.0, 3 * cfg.heartbeat, patience / 8)
    return cfg


class TableError(Exception):
    """The table could not start or go on (and why, in words for the player)."""

RESUME_RECAP = 5  # history lines shown again when a game is resumed
DAMAGED_SUFFIX = ".damaged"  # a damaged log file, kept whole beside the repaired one
CUT_OFF_ROUNDS = 5  # abandon periods without a majority behind us before we leave without naming anyone
HEAD_DELAY = 0.05  # seconds: heads are sent at most this often (one for a burst of entries)
# An entry is taken from the network only if the evidence that may have to carry it (in `raw`, with certificates of
# up to 128 KiB and a reason) still fits one frame (1 MiB), and the evidence about that evidence too: else a cheater's
# frame-sized entry makes every honest peer's evidence unsendable (they split, each on its own evidence). Honest
# entries are far smaller (an answer with its link: ~20 KB at 6 players); secrets: p2p/secrets_size.py.
MAX_PLAIN_ENTRY = 256 * 1024  # an entry of any kind but evidence and secrets (MAX_SECRETS_ENTRY)
MAX_EVIDENCE_ENTRY = 640 * 1024  # evidence about an entry that is no evidence
MAX_EVIDENCE2_ENTRY = 768 * 1024  # evidence about evidence (no honest peer posts evidence three levels deep)


def entry_fits(e: Any) -> bool:
    """Whether a decoded entry from the network is within its size (`MAX_PLAIN_ENTRY` and the like); an entry that
    is not is dropped unread, as a malformed message (its author stalls the table, as by silence)."""
    size = len(e.raw)
    if e.kind == Kind.SECRETS:
        return size <= MAX_SECRETS_ENTRY
    if e.kind != Kind.EVIDENCE:
        return size <= MAX_PLAIN_ENTRY
    if size <= MAX_EVIDENCE_ENTRY:
        return True
    try:
        inner = decode_body(e.body).get("raw")
        deeper = isinstance(inner, bytes) and decode_entry(inner).kind == Kind.EVIDENCE
    except Exception:  # unreadable: judged by the machine, within the smaller bound
        deeper = False
    return deeper and size <= MAX_EVIDENCE2_ENTRY


MAX_SAID = 300  # characters of an attacker-controlled text we repeat to the player


def _plain_pass(e: Any, game: Any) -> bool:
    """An event entry whose own decision is a pass by its author (what its pass token says too) in `game`."""
    if e.kind != Kind.EVENT:
        return False
    try:
        ev = decode_body(e.body).get("ev")
    except (BodyError, AttributeError):
        return False
    return bool(game.is_pass(ev, e.author))


def _passes_of(e: Any) -> list[Any] | None:
    """The pass tokens an event or abandon entry carries ([] if none; None if its body does not read)."""
    if e.kind not in (Kind.EVENT, Kind.ABANDON):
        return None
    try:
        body = decode_body(e.body)
    except BodyError:
        return None
    passes = body.get("passes", []) if isinstance(body, dict) else None
    return passes if isinstance(passes, list) else None


def _remedy(exc: OSError) -> str:
    """What a player can do about a write error, before resuming."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free the disk and "
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return "close other programs (too many open files) and "
    return "fix that and "


def _short(text: str) -> str:
    """An attacker-influenced text cut to what a player needs (no 200 KB lines on the terminal)."""
    return text if len(text) <= MAX_SAID else text[: MAX_SAID - 1] + "…"


def _abandoners(n: int, silent: int, rounds: int) -> list[int]:
    """The seats that may end the game naming `silent` after `rounds` periods of silence: the lowest other seat
    after one, the two lowest after two, and so on."""
    return [s for s in range(n) if s != silent][: max(0, rounds)]


MAX_LOBBY_ADDRESSES = 16  # addresses taken from one lobby message
MAX_KNOWN_ADDRESSES = 64  # addresses we ever dial
MAX_MET = 256  # players remembered as met in one lobby
MAX_REFUSED = 8  # refused geneses kept to check again
MAX_REFUSALS_TOLD = 8  # peers refused at the door (a wrong table word, another protocol version) told to the player


def _fixed(ev: dict[str, Any]) -> Chooser:
    def choose(*_: Any) -> dict[str, Any]:
        return ev

    return choose


def root_cause(exc: BaseException) -> BaseException:
    """The one exception inside (nested) single-member exception groups, as trio's nurseries raise them."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _first_record(path: Path) -> bytes:
    with open(path, "rb") as fh:
        n = int.from_bytes(fh.read(4), "big")
        return fh.read(n)


def _names(line: str, names: list[str]) -> str:
    """History lines say P1..Pn; show the players' names."""
    for i in range(len(names), 0, -1):
        line = line.replace(f"P{i}", names[i - 1])
    return line


def latest_game(data_dir: Path) -> Path | None:
    """The most recently changed game directory with a log and our secrets (for --resume): a secrets file, or our
    key in `<data>/seats` when a crash came between the genesis and the secrets file (p2p/peer/game_files.py)."""
    root = data_dir / "games"
    if not root.is_dir():
        return None
    keys = (data_dir / "seats").is_dir() and any((data_dir / "seats").iterdir())
    cands = [
        d for d in root.iterdir()
        if ((d / "secrets").exists() or keys) and (d / "log").is_file() and (d / "log").stat().st_size > 0
    ]  # fmt: skip
    return max(cands, key=lambda d: os.stat(d / "log").st_mtime) if cands else None

