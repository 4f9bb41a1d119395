"""The offline audit is total and fair (issue: the referee cannot be turned against an honest player): it never
raises on any file (hypothesis mutations of a real signed log), a log cut short is "incomplete" and names nobody,
and a game won before a seat stalled keeps its winners."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
from _zoo import Table
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.audit import AuditResult, audit_log, history
from adp2p.p2p.protocol import Kind, encode_body


@pytest.fixture(scope="module")
def game() -> tuple[Table, list[bytes]]:
    t = Table(3, round_limit=3, seed=3).run()
    return t, list(t.raws)


def _write(path: Path, raws: list[bytes], tail: bytes = b"") -> Path:
    path.write_bytes(b"".join(struct.pack(">I", len(r)) + r for r in raws) + tail)
    return path


MUTATIONS = st.one_of(
    st.tuples(st.just("cut"), st.integers(1, 10**6)),
    st.tuples(st.just("flip"), st.integers(0, 10**7)),
    st.tuples(st.just("drop"), st.integers(0, 10**4)),
    st.tuples(st.just("dup"), st.integers(0, 10**4)),
    st.tuples(st.just("garbage"), st.binary(max_size=64)),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))  # ~0.2 s each
@given(muts=st.lists(MUTATIONS, min_size=1, max_size=3))
def test_the_audit_never_raises_on_a_damaged_log(
    game: tuple[Table, list[bytes]], tmp_path_factory: pytest.TempPathFactory, muts: list[tuple[str, object]]
) -> None:
    _, raws = game
    data = bytearray(_write(tmp_path_factory.mktemp("m") / "log", raws).read_bytes())
    records = list(raws)
    for what, arg in muts:
        if what == "cut":
            data = data[: len(data) - 1 - arg % len(data)]  # type: ignore[operator]
        elif what == "flip":
            data[arg % len(data)] ^= 1 << (arg % 8)  # type: ignore[operator]
        elif what in ("drop", "dup"):
            i = arg % len(records)  # type: ignore[operator]
            records = records[:i] + records[i + 1 :] if what == "drop" else records[: i + 1] + records[i:]
            data = bytearray(b"".join(struct.pack(">I", len(r)) + r for r in records))
        else:
            data += arg  # type: ignore[operator]
    path = tmp_path_factory.mktemp("d") / "log"
    path.write_bytes(bytes(data))
    res = audit_log(path)
    assert isinstance(res, AuditResult)
    res.text()
    res.to_json()
    history(path)


def test_a_log_cut_short_is_incomplete_and_names_nobody(game: tuple[Table, list[bytes]], tmp_path: Path) -> None:
    """(before: the next seat on duty was named)"""
    _, raws = game
    for n in (5, len(raws) // 2, len(raws) - 1):
        res = audit_log(_write(tmp_path / f"log{n}", raws[:n]))
        assert not res.ok and not res.complete
        assert [f.rule for f in res.findings] == ["incomplete"], res.text()
        assert all(f.seat is None for f in res.findings)
        assert f"incomplete at seq {n}" in res.text()
    cut = audit_log(_write(tmp_path / "torn", raws[:-1], tail=struct.pack(">I", 500) + b"xx"))
    assert {f.seat for f in cut.findings} == {None} and cut.tampered is None, cut.text()


def test_a_win_stands_when_a_seat_stalls_before_revealing(game: tuple[Table, list[bytes]], tmp_path: Path) -> None:
    """The game was won; the first seat due to reveal its secrets stalls and is abandoned: the audit names it,
    reports its checks as unchecked, and keeps the winners (before: no winners, the result was voided)."""
    t, raws = game
    first_secrets = next(i for i, r in enumerate(raws) if decode_entry(r).kind == Kind.SECRETS)
    silent = decode_entry(raws[first_secrets]).author
    author = (silent + 1) % 3
    prev = decode_entry(raws[first_secrets - 1]).id
    body = encode_body({"silent": silent, "seq": first_secrets})
    abandon = encode_entry(t.ids[author], t.genesis.game_id, first_secrets, prev, author, int(Kind.ABANDON), body)
    res = audit_log(_write(tmp_path / "log", [*raws[:first_secrets], abandon]))
    assert res.winners == t.ms[0].state.winners and res.winners, res.text()
    assert res.abandoned_by == silent
    assert {f.seat for f in res.findings} == {silent}, res.text()
    assert {f.rule for f in res.findings} == {"abandoned", "unchecked"}, res.text()


@pytest.mark.parametrize("content", [None, b"", b"\x00\x00\x00\x05abc", b"garbage" * 100])
def test_audit_and_replay_commands_say_one_line_on_a_bad_file(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "log"
    if content is not None:
        path.write_bytes(content)
    for cmd in ("audit", "replay"):
        out = subprocess.run(
            [sys.executable, "-m", "adp2p.cli", cmd, str(path)], capture_output=True, text=True, timeout=60
        )
        assert out.returncode != 0, (cmd, out.stdout, out.stderr)
        assert "Traceback" not in out.stdout + out.stderr, (cmd, out.stderr)
