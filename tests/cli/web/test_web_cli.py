"""The page's options on the command line: `--web` and `--ui web` ask for it; it is refused, with one line and exit
2, where there is no seat of a person at a table to show (offline, watched, a bot's seat, another screen)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from adp2p.cli import web
from adp2p.cli.main import parser


@pytest.mark.parametrize(("argv", "want"), [
    (["play", "--web"], True), (["play", "--ui", "web"], True), (["join", "--ui", "web"], True),
    (["join", "--web", "--game", "hacker"], True), (["play"], False), (["play", "--ui", "lines"], False),
])
def test_web_wanted(argv: list[str], want: bool) -> None:
    assert web.wanted(parser().parse_args(argv)) is want


@pytest.mark.parametrize(("argv", "says"), [
    (["play", "--web", "--offline"], "--offline"),
    (["play", "--web", "--watch"], "--watch"),
    (["play", "--game", "hacker", "--ui", "web", "--offline"], "--offline"),
    (["join", "--web", "--bot", "random"], "--bot"),
    (["play", "--web", "--ui", "lines"], "--ui lines"),
])
def test_no_page_where_there_is_no_seat_to_show(argv: list[str], says: str) -> None:
    out = subprocess.run([sys.executable, "-m", "adp2p.cli", *argv], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in out.stderr, out.stderr
