"""Tests for adp2p.p2p.paths: data/game directories and 0600 secret files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs
import pytest
from adp2p.p2p import paths
from adp2p.p2p.paths import InsecureSecretFile, data_dir, game_dir, read_secret, write_secret

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


def test_override_dir_is_honoured_and_created(tmp_path: Path) -> None:
    target = tmp_path / "nested" / "data"
    got = data_dir(str(target))
    assert got == target
    assert got.is_dir()
    assert data_dir(target) == target  # PathLike too, and idempotent


def test_default_dir_uses_platformdirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def fake(appname: str) -> str:
        calls.append(appname)
        return str(tmp_path / "pd")

    monkeypatch.setattr(platformdirs, "user_data_dir", fake)
    assert data_dir(None) == tmp_path / "pd"
    assert calls == ["ad-p2p"]


@posix_only
def test_new_data_dir_is_private(tmp_path: Path) -> None:
    got = data_dir(tmp_path / "fresh")
    assert stat.S_IMODE(got.stat().st_mode) & 0o077 == 0


def test_game_dir(tmp_path: Path) -> None:
    gid = bytes(range(16)).hex()
    got = game_dir(tmp_path, gid)
    assert got == tmp_path / "games" / gid
    assert got.is_dir()
    assert game_dir(tmp_path, "ab" * 32).name == "ab" * 32


@pytest.mark.parametrize("bad", ["../etc", "", "AB" * 16, "ab" * 15, "ab" * 16 + "/x", "zz" * 16])
def test_game_dir_rejects_non_hex(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="hex"):
        game_dir(tmp_path, bad)


@posix_only
def test_write_secret_mode_0600_even_with_permissive_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        p = write_secret(tmp_path / "key", b"\x01secret")
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert read_secret(p) == b"\x01secret"


@posix_only
def test_write_secret_replaces_existing_file_and_fixes_mode(tmp_path: Path) -> None:
    p = tmp_path / "key"
    p.write_bytes(b"old")
    p.chmod(0o644)
    write_secret(p, b"new")
    assert p.read_bytes() == b"new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert [x.name for x in tmp_path.iterdir()] == ["key"]  # no temp file left behind


def test_write_secret_fsyncs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(paths.os, "fsync", spy)
    write_secret(tmp_path / "k", b"x")
    assert len(synced) >= 1


def test_write_secret_rejects_non_bytes(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        write_secret(tmp_path / "k", "text")  # type: ignore[arg-type]


@posix_only
def test_read_secret_refuses_group_readable(tmp_path: Path) -> None:
    p = write_secret(tmp_path / "k", b"topsecret")
    p.chmod(0o640)
    with pytest.raises(InsecureSecretFile, match="0640") as info:
        read_secret(p)
    assert "topsecret" not in str(info.value)


@posix_only
def test_read_secret_refuses_symlink(tmp_path: Path) -> None:
    real = write_secret(tmp_path / "k", b"x")
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(OSError):
        read_secret(link)


def test_read_secret_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_secret(tmp_path / "nope")


def test_the_resume_hint_names_the_command_the_player_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """`./dev` sets ADP2P_COMMAND: a player who started a game with ./dev play is told `/repo/dev ad-p2p join
    --resume DIR` (ad-p2p itself is on no PATH of theirs); anyone else the console script."""
    from adp2p.p2p.paths import resume_command

    monkeypatch.delenv("ADP2P_COMMAND", raising=False)
    assert resume_command("/g/x") == "ad-p2p join --resume /g/x"
    monkeypatch.setenv("ADP2P_COMMAND", "/repo/dev ad-p2p")
    assert resume_command("/g/x") == "/repo/dev ad-p2p join --resume /g/x"
    assert resume_command("/g/x", "hacker") == "/repo/dev ad-p2p join --game hacker --resume /g/x"  # its own client
