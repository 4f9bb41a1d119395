"""A seat's files (p2p/peer/game_files.py), alone: real files in a temporary directory, no peer."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.machine import SeatSecrets
from adp2p.p2p.peer.common import TableError
from adp2p.p2p.peer.game_files import GameFiles

ME = SecretIdentity.from_seeds(bytes(32), bytes([1]) * 32)


def test_the_secrets_file_is_written_only_when_it_changes(tmp_path: Path) -> None:
    files = GameFiles(tmp_path)
    sec = SeatSecrets.generate(0, ME, bytes(16))
    assert files.save_secrets(tmp_path, sec, "access-denied")
    assert stat.S_IMODE((tmp_path / "secrets").stat().st_mode) == 0o600
    assert not files.save_secrets(tmp_path, sec, "access-denied")  # unchanged: no write
    assert GameFiles.read_secrets(tmp_path).to_bytes() == sec.to_bytes()


def test_a_secrets_file_that_cannot_be_written_is_one_line_with_the_resume_command(tmp_path: Path) -> None:
    files = GameFiles(tmp_path)
    with pytest.raises(TableError, match=r"nothing was sent.*resume with"):
        files.save_secrets(tmp_path / "no such dir", SeatSecrets.generate(0, ME, bytes(16)), "access-denied")
    assert files.secrets_saved == b""  # (written next time)


def test_the_seat_key_waits_in_the_seats_directory_until_dropped(tmp_path: Path) -> None:
    files = GameFiles(tmp_path)
    fp = ME.public.fingerprint()
    files.save_seat_key(ME)
    assert files.seat_key_path(fp).is_file()
    files.drop_seat_key(fp)
    files.drop_seat_key(fp)  # (gone already: no error)
    assert not files.seat_key_path(fp).exists()


def test_timings_are_appended_only_when_asked_for(tmp_path: Path) -> None:
    GameFiles(tmp_path).timing(1, 2, 3)
    assert list(tmp_path.iterdir()) == []
    files = GameFiles(tmp_path, timings=tmp_path / "t")
    files.timing(1, 2, 3)
    files.timing("sent")
    lines = (tmp_path / "t").read_text().splitlines()
    assert lines[0].startswith("1 2 3 ") and lines[1].startswith("sent ") and len(lines[1].split()) == 3
