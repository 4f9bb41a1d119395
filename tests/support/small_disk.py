"""A small filesystem of its own under a directory (a tmpfs), and filling it to its last byte: the full-disk
fault of the table tests and the chaos benchmark. Needs root (mount); `mount_small` says why not otherwise."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path


def mount_small(d: Path, size: str = "4m") -> str | None:
    """Mount a tmpfs of `size` on d (created if missing); None on success, else why it could not be mounted."""
    d.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(d)], capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or f"mount exited {r.returncode}")


def unmount(d: Path) -> None:
    subprocess.run(["umount", "-l", str(d)], capture_output=True)


def fill(d: Path) -> Path:
    """Fill the filesystem holding d to its last byte; returns the filler file (delete it to free the disk)."""
    filler = d / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1 << 8, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler
