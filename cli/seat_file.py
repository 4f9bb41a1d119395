"""What a game directory remembers about the player's seat, so that `join --resume` needs no flags.

The genesis (the log's first entry) already names the game, the table, the seat's name, the player count and the
rules; `seat.json` beside the log adds what only this seat knew: who plays it (a person, or which bot), the network
(interface, host, peers, mDNS), the language and screen, the patience and think time, and for a `play` game the bot
peers to bring back. `resume_args` fills a `join --resume` command line from both: an option not given takes the
saved value, a preference given (language, screen, network) wins, and an option that contradicts the game (another
game, table, name, rules or seat kind) is one line.

The file holds no secret (the seat's keys are in `secrets`); it is written with mode 0600 like the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from pathlib import Path
from typing import Any

from adp2p.cli.usage import UsageError

SEAT_FILE = "seat.json"
VERSION = 1
# a `join` option's dest -> saved as is (preferences and the network: a value given again wins)
PREFERENCES = ("lang", "ui", "react", "react_seconds", "patience", "think", "interface", "host", "port", "peer",
               "no_mdns", "seed", "quiet")
# options that must agree with the game being resumed (from the genesis, or the seat file for `bot`)
FIXED = ("game", "table", "name", "players", "rules", "goal", "round_limit", "stalemate", "bot")
OPTION = {"round_limit": "--round-limit", "react_seconds": "--react-seconds", "no_mdns": "--no-mdns"}


def option(dest: str) -> str:
    return OPTION.get(dest, f"--{dest}")


def write(gdir: Path, args: argparse.Namespace, **extra: Any) -> None:
    """Save this seat's settings in its game directory (best effort: the secrets written next say it if the disk
    fails). `extra`: what a `play` game adds (its bot peers)."""
    saved: dict[str, Any] = {"v": VERSION, "bot": getattr(args, "bot", None)}
    for dest in PREFERENCES:
        if hasattr(args, dest):
            value = getattr(args, dest)
            saved[dest] = [list(p) for p in value] if dest == "peer" else value
    if getattr(args, "web", False):  # `--web` is `--ui web`: a page player resumes on a page
        saved["ui"] = "web"
    saved.update(extra)
    path = gdir / SEAT_FILE
    tmp = path.with_name(f".{SEAT_FILE}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            json.dump(saved, fh, indent=1)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def read(gdir: Path) -> dict[str, Any]:
    """The saved settings ({} for a game directory from before seat files, or one whose file does not read)."""
    try:
        data = json.loads((gdir / SEAT_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("v") == VERSION else {}


def game_dir_of(text: str) -> Path:
    """`--resume PATH`: a game directory, or the log in it."""
    p = Path(text).expanduser()
    if p.is_file() and p.name == "log":
        p = p.parent
    if not (p / "log").is_file():
        raise UsageError(f"--resume: {text} is not a game directory (it holds no log)",
                         f"--resume: {text} ist kein Spielverzeichnis (es enthält kein Protokoll)")
    if not (p / "secrets").is_file():
        raise UsageError(f"--resume: {text} holds no secrets file (this machine never sat at that game)",
                         f"--resume: {text} enthält keine Geheimnis-Datei (dieser Rechner saß nie an diesem Spiel)")
    return p.absolute()


def genesis_of(gdir: Path) -> Any:
    """The genesis of the game in `gdir` (its first entry), or one line saying why it does not read."""
    from adp2p.crypto.entries import decode_entry
    from adp2p.crypto.errors import CryptoError
    from adp2p.p2p.peer.common import _first_record
    from adp2p.p2p.protocol import BodyError, Genesis, decode_body

    try:
        return Genesis.from_body(decode_body(decode_entry(_first_record(gdir / "log")).body))
    except (OSError, ValueError, CryptoError, BodyError) as exc:
        raise UsageError(f"--resume: the log in {gdir} does not begin with a game ({exc})",
                         f"--resume: das Protokoll in {gdir} beginnt nicht mit einem Spiel ({exc})") from None


def seat_name(gdir: Path, g: Any) -> str | None:
    """This seat's name in the roster (the secrets file says which seat is ours), or None if that does not read."""
    from adp2p.crypto.identity import open_bundle
    from adp2p.p2p.machine import SeatSecrets
    from adp2p.p2p.paths import read_secret

    try:
        sec = SeatSecrets.from_bytes(read_secret(gdir / "secrets"))
        return str(open_bundle(g.roster[sec.seat])[1])
    except (OSError, ValueError, IndexError):
        return None  # the table's own resume says why, in one line


def game_values(g: Any, gdir: Path) -> dict[str, Any]:
    """The options of the game being resumed, as its genesis has them."""
    values: dict[str, Any] = {
        "game": g.game,
        "table": g.table,
        "players": g.n,
        "rules": g.profile,
        "goal": g.goal,
        "round_limit": g.round_limit,
        "stalemate": g.stalemate or 0,
    }
    name = seat_name(gdir, g)
    if name is not None:
        values["name"] = name
    return values


def _genesis_only(roots: list[Path]) -> Path | None:
    """A game whose genesis reached the log and whose secrets file did not (killed in between): the newest."""
    from adp2p.cli import peer_dirs

    found: list[Path] = []
    for root in roots:
        with contextlib.suppress(OSError):
            found += [d for d in (root / "games").iterdir() if (d / "log").is_file() and (d / "log").stat().st_size
                      and not (d / "secrets").exists() and not peer_dirs._in_use(d / "log")]
    return max(found, key=lambda d: (d / "log").stat().st_mtime) if found else None


def rejoin_args(args: argparse.Namespace, note_path: Path) -> dict[str, Any]:
    """`join --resume` of a seat that had agreed to a roster when it died, before any genesis reached its disk
    (p2p/lobby_note.py): the table's settings and our name from the note; `args.rejoin` is the note (cmd_join loads
    the seat's key and agreement from it). Nothing else is saved for such a seat."""
    from adp2p.p2p import lobby_note

    try:
        note = lobby_note.load(note_path)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--resume: {note_path} cannot be read ({exc})",
                         f"--resume: {note_path} ist nicht lesbar ({exc})") from None
    for dest, key in (("table", "table"), ("game", "game"), ("rules", "rules"), ("goal", "goal"),
                      ("round_limit", "round_limit"), ("stalemate", "stalemate"), ("players", "players"),
                      ("name", "name")):
        setattr(args, dest, note.get(key))
    args.stalemate = args.stalemate or 0
    args.data_dir = str(note_path.parent.parent)
    args.rejoin = str(note_path)
    args.resume = None
    return {}


def resume_args(args: argparse.Namespace, given: set[str]) -> dict[str, Any]:
    """Fill `args` of `join --resume` from the game directory (found here: `args.resume` is set to its path); return
    the seat file's contents (a `play` game's bot peers are in it). A given option that contradicts the game: one
    line (UsageError)."""
    from adp2p.cli import peer_dirs
    from adp2p.p2p import lobby_note

    if args.resume == "latest":
        gdir = peer_dirs.latest_game(args.data_dir) or _genesis_only(peer_dirs.roots(args.data_dir))
        if gdir is None and (note := lobby_note.latest(peer_dirs.roots(args.data_dir))) is not None:
            return rejoin_args(args, note)  # killed after it agreed, before the genesis reached its disk
        if gdir is None:
            where = args.data_dir or peer_dirs.default_root()
            raise UsageError(f"--resume: no game to resume under {where} (a game still running elsewhere is left be)",
                             f"--resume: kein Spiel zum Fortsetzen unter {where} (ein anderswo laufendes Spiel bleibt, "
                             "wie es ist)")
    else:
        gdir = game_dir_of(args.resume)
    g = genesis_of(gdir)
    saved = read(gdir)
    fixed = game_values(g, gdir)
    fixed["bot"] = saved.get("bot")
    for dest in FIXED:
        if dest not in fixed or dest not in given:
            continue
        mine, theirs = getattr(args, dest), fixed[dest]
        if dest == "stalemate":
            mine = mine or 0
        if mine != theirs:
            said = {None: "a person's seat"}.get(theirs, theirs) if dest == "bot" else theirs
            gesagt = {None: "ein Platz für einen Menschen"}.get(theirs, theirs) if dest == "bot" else theirs
            raise UsageError(f"{option(dest)} {mine}: the game in {gdir} was set up with {option(dest)} {said}; "
                             f"leave {option(dest)} out to resume it",
                             f"{option(dest)} {mine}: das Spiel in {gdir} wurde mit {option(dest)} {gesagt} "
                             f"begonnen; lass {option(dest)} weg, um es fortzusetzen")
    for dest, value in fixed.items():
        setattr(args, dest, value)
    for dest in PREFERENCES:
        if dest in saved and dest not in given:
            value = saved[dest]
            setattr(args, dest, [tuple(p) for p in value] if dest == "peer" else value)
    args.resume = str(gdir)
    return saved
