"""The game log a command was given (`audit`, `replay`): a file that is no game log is one line, not a report.

A game log begins with a record holding the genesis (p2p/protocol.py `Genesis`); an empty file, random bytes or a
file whose first record is not a game's beginning is no game log at all (a log cut short after its genesis is one:
the audit reports it incomplete, the replay says where it ends).
"""

from __future__ import annotations

from pathlib import Path

from adp2p.cli.usage import UsageError


def game_log(arg: str) -> Path:
    """The log file `arg` names (a file, or a game directory holding `log`); UsageError (en/de) if there is none or
    it is no game log."""
    from adp2p.crypto.entries import decode_entry
    from adp2p.crypto.errors import CryptoError
    from adp2p.p2p.audit import read_records
    from adp2p.p2p.protocol import AUDITABLE_VERSIONS, BodyError, Genesis, decode_body

    p = Path(arg)
    if p.is_dir() and (p / "log").is_file():
        p = p / "log"
    if not p.is_file():
        raise UsageError(f"no game log at {arg}", f"kein Spielprotokoll unter {arg}")
    try:
        raws, _framing = read_records(p)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise UsageError(f"cannot read {arg}: {why}", f"{arg} ist nicht lesbar: {why}") from None
    if not raws:
        raise UsageError(f"{arg} is not a game log: it is empty" if p.stat().st_size == 0 else
                         f"{arg} is not a game log: its first record is cut short or it is no log at all",
                         f"{arg} ist kein Spielprotokoll: die Datei ist leer" if p.stat().st_size == 0 else
                         f"{arg} ist kein Spielprotokoll: der erste Eintrag ist abgeschnitten oder es ist gar keins")
    try:
        body = decode_body(decode_entry(raws[0]).body)
    except (ValueError, CryptoError, BodyError):
        body = None
    version = body.get("v") if isinstance(body, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version not in AUDITABLE_VERSIONS:
        known = ", ".join(map(str, AUDITABLE_VERSIONS))
        raise UsageError(f"{arg} is a game log of protocol version {version}; this version reads versions {known}",
                         f"{arg} ist ein Spielprotokoll der Protokollversion {version}; diese Version liest {known}")
    try:
        Genesis.from_body(body, versions=AUDITABLE_VERSIONS)  # type: ignore[arg-type]
    except (ValueError, CryptoError, BodyError, TypeError):
        raise UsageError(f"{arg} is not a game log: its first record is not a game's beginning",
                         f"{arg} ist kein Spielprotokoll: der erste Eintrag ist kein Spielbeginn") from None
    return p
