"""Tests for adp2p.p2p.logstore: verified appends, fsync, reload, torn tails, corruption, equivocation."""

from __future__ import annotations

import logging
import struct
from pathlib import Path

import pytest
from adp2p.crypto.entries import GENESIS_PREV, Equivocation, decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p import logstore as logstore_mod
from adp2p.p2p.logstore import (
    EQUIVOCATION_SUFFIX,
    ConflictingEntry,
    DuplicateEntry,
    LogCorrupt,
    LogEquivocation,
    LogLocked,
    LogRejected,
    LogStore,
)

GAME = bytes.fromhex("00112233445566778899aabbccddeeff")
OTHER_GAME = bytes(16)
SEATS = [SecretIdentity.from_seeds(bytes([i]) * 32, bytes([100 + i]) * 32) for i in range(3)]
IDS = [s.public for s in SEATS]


def chain(n: int, *, game: bytes = GAME, start_prev: bytes = GENESIS_PREV, first_seq: int = 0) -> list[bytes]:
    """n valid raw entries, authors rotating over the seats."""
    out: list[bytes] = []
    prev = start_prev
    for i in range(first_seq, first_seq + n):
        author = i % 3
        raw = encode_entry(SEATS[author], game, i, prev, author, 7, f"move {i}".encode())
        out.append(raw)
        prev = decode_entry(raw).id
    return out


def record(raw: bytes) -> bytes:
    return struct.pack(">I", len(raw)) + raw


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "game.log"


def filled(path: Path, n: int) -> list[bytes]:
    raws = chain(n)
    with LogStore.open(path, IDS, GAME) as store:
        for raw in raws:
            store.append(raw)
    return raws


def test_append_and_reload_round_trip(path: Path) -> None:
    raws = chain(5)
    with LogStore.open(path, IDS, GAME) as store:
        assert len(store) == 0 and store.head() is None and store.head_id == GENESIS_PREV
        for i, raw in enumerate(raws):
            e = store.append(raw)
            assert e.seq == i and e.raw == raw
        assert len(store) == store.next_seq == 5
        head = store.head()
        assert head is not None and head.seq == 4 and store.head_id == head.id
    assert path.read_bytes() == b"".join(record(r) for r in raws)  # exactly the received bytes
    with LogStore.open(path, IDS, GAME) as again:
        assert [e.raw for e in again.entries()] == raws
        assert [e.seq for e in again.since(3)] == [3, 4]
        assert again.since(5) == [] and again.since(9) == []
        assert again[2].raw == raws[2]
        again.append(chain(1, start_prev=again.head_id, first_seq=5)[0])
        assert len(again) == 6


def test_identities_as_mapping(path: Path) -> None:
    raws = chain(3)
    with LogStore.open(path, dict(enumerate(IDS)), GAME) as store:
        for raw in raws:
            store.append(raw)
        assert len(store) == 3


def test_append_fsyncs_before_returning(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = logstore_mod.os.fsync

    def spy(fd: int) -> None:
        synced.append(path.stat().st_size)
        real(fd)

    with LogStore.open(path, IDS, GAME) as store:
        monkeypatch.setattr(logstore_mod.os, "fsync", spy)
        raw = chain(1)[0]
        store.append(raw)
    assert synced == [len(record(raw))]


def test_an_append_that_need_not_be_durable_yet_is_flushed_by_the_next_durable_one(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another peer's entry is written at once but not fsynced; our own next entry's fsync covers the file."""
    synced: list[int] = []
    real = logstore_mod.os.fsync

    def spy(fd: int) -> None:
        synced.append(path.stat().st_size)
        real(fd)

    raws = chain(3)
    with LogStore.open(path, IDS, GAME) as store:
        monkeypatch.setattr(logstore_mod.os, "fsync", spy)
        store.append(raws[0], durable=False)
        store.append(raws[1], durable=False)
        assert synced == [] and path.stat().st_size == len(record(raws[0])) + len(record(raws[1]))
        store.append(raws[2])
    assert synced == [sum(len(record(r)) for r in raws)]
    monkeypatch.undo()
    assert len(LogStore.open(path, IDS, GAME)) == 3


def test_failed_write_leaves_file_and_log_untouched(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raws = chain(2)
    with LogStore.open(path, IDS, GAME) as store:
        store.append(raws[0])
        before = path.read_bytes()

        def boom(fd: int) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(logstore_mod.os, "fsync", boom)
        with pytest.raises(OSError):
            store.append(raws[1])
        monkeypatch.undo()
        assert path.read_bytes() == before and len(store) == 1
        store.append(raws[1])
    assert len(LogStore.open(path, IDS, GAME)) == 2


def test_tampered_byte_on_disk_names_the_seq(path: Path) -> None:
    raws = filled(path, 5)
    data = bytearray(path.read_bytes())
    offset = sum(len(record(r)) for r in raws[:2])  # start of record seq 2
    data[offset + 4 + len(raws[2]) - 70] ^= 0x01  # inside its header bytes
    path.write_bytes(bytes(data))
    with pytest.raises(LogCorrupt, match="seq 2") as info:
        LogStore.open(path, IDS, GAME)
    assert info.value.seq == 2 and info.value.offset == offset


def test_tampered_signature_on_disk(path: Path) -> None:
    raws = filled(path, 3)
    data = bytearray(path.read_bytes())
    data[len(record(raws[0])) - 1] ^= 0x80  # last byte of seq 0's signature
    path.write_bytes(bytes(data))
    with pytest.raises(LogCorrupt, match=r"seq 0 .*signature of seat 0"):
        LogStore.open(path, IDS, GAME)


def test_damaged_length_field_is_corruption_not_a_torn_tail(path: Path) -> None:
    raws = filled(path, 4)
    data = bytearray(path.read_bytes())
    offset = len(record(raws[0]))
    struct.pack_into(">I", data, offset, 100_000)  # seq 1's length now runs past the end of the file
    path.write_bytes(bytes(data))
    with pytest.raises(LogCorrupt, match="seq 1"):
        LogStore.open(path, IDS, GAME)
    assert path.read_bytes() == bytes(data)  # nothing was truncated


def test_absurd_length_is_corruption(path: Path) -> None:
    filled(path, 1)
    with path.open("ab") as f:
        f.write(struct.pack(">I", 0xFFFFFFFF) + b"x" * 10)
    with pytest.raises(LogCorrupt, match="seq 1"):
        LogStore.open(path, IDS, GAME)


@pytest.mark.parametrize("cut", [1, 3, 10, 60])
def test_torn_last_record_is_truncated_with_a_warning(path: Path, cut: int, caplog: pytest.LogCaptureFixture) -> None:
    raws = filled(path, 4)
    full = path.read_bytes()
    path.write_bytes(full[:-cut])
    with (
        caplog.at_level(logging.WARNING, logger="adp2p.p2p.logstore"),
        LogStore.open(path, IDS, GAME) as store,
    ):
        assert len(store) == 3
        assert path.read_bytes() == b"".join(record(r) for r in raws[:3])
        store.append(raws[3])  # the lost entry can be fetched again and appended
    assert "torn" in caplog.text and "seq 2" in caplog.text
    assert path.read_bytes() == full


@pytest.mark.parametrize("tail", [b"\x00\x00", b"\x00" * 4, b"\x00" * 300])
def test_torn_header_or_zero_filled_tail(path: Path, tail: bytes) -> None:
    filled(path, 2)
    with path.open("ab") as f:
        f.write(tail)
    with LogStore.open(path, IDS, GAME) as store:
        assert len(store) == 2


def test_stored_entry_of_another_game_is_corruption(path: Path) -> None:
    path.write_bytes(b"".join(record(r) for r in chain(2, game=OTHER_GAME)))
    with pytest.raises(LogCorrupt, match=r"seq 0 .*belongs to game"):
        LogStore.open(path, IDS, GAME)


def assert_rejected(store: LogStore, path: Path, raw: bytes, exc: type[Exception], match: str, **kw: int) -> None:
    before, n = path.read_bytes(), len(store)
    with pytest.raises(exc, match=match):
        store.append(raw, **kw)
    assert path.read_bytes() == before and len(store) == n


def test_out_of_order_rejected(path: Path) -> None:
    raws = chain(4)
    with LogStore.open(path, IDS, GAME) as store:
        store.append(raws[0])
        assert_rejected(store, path, raws[2], LogRejected, r"seq 2 is out of order: the log expects seq 1")
        assert_rejected(store, path, chain(1, first_seq=1)[0], LogRejected, "prev_hash does not link")


def test_genesis_must_link_to_zero(path: Path) -> None:
    raw = encode_entry(SEATS[0], GAME, 0, b"\x01" * 32, 0, 1, b"")
    with LogStore.open(path, IDS, GAME) as store:
        assert_rejected(store, path, raw, LogRejected, "genesis")


def test_replayed_entry_is_a_duplicate(path: Path) -> None:
    raws = chain(3)
    with LogStore.open(path, IDS, GAME) as store:
        for raw in raws:
            store.append(raw)
        assert_rejected(store, path, raws[1], DuplicateEntry, "seq 1 is already in the log")


def test_wrong_author_rejected(path: Path) -> None:
    with LogStore.open(path, IDS, GAME) as store:
        # claims seat 0 but is signed with seat 1's key
        forged = encode_entry(SEATS[1], GAME, 0, GENESIS_PREV, 0, 7, b"x")
        assert_rejected(store, path, forged, LogRejected, "seq 0: signature of seat 0 does not verify")
        # well signed by seat 1, but the engine says seat 0 is to move
        honest = encode_entry(SEATS[1], GAME, 0, GENESIS_PREV, 1, 7, b"x")
        assert_rejected(store, path, honest, LogRejected, "by seat 1, expected seat 0", author=0)
        unknown = encode_entry(SEATS[1], GAME, 0, GENESIS_PREV, 9, 7, b"x")
        assert_rejected(store, path, unknown, LogRejected, "unknown author seat 9")
        store.append(honest, author=1)


def test_wrong_game_rejected(path: Path) -> None:
    with LogStore.open(path, IDS, GAME) as store:
        assert_rejected(store, path, chain(1, game=OTHER_GAME)[0], LogRejected, "belongs to game 0000")


@pytest.mark.parametrize("raw", [b"", b"\xc1", b"\x92\xc4\x00\xc4\x00", b"x" * 100])
def test_garbage_rejected(path: Path, raw: bytes) -> None:
    with LogStore.open(path, IDS, GAME) as store:
        assert_rejected(store, path, raw, LogRejected, "undecodable entry")


def test_equivocation_produces_a_verifiable_persisted_proof(path: Path) -> None:
    raws = chain(3)
    with LogStore.open(path, IDS, GAME) as store:
        for raw in raws:
            store.append(raw)
        head = store.head()
        e1 = decode_entry(raws[1])
        twin = encode_entry(SEATS[1], GAME, 1, e1.prev_hash, 1, 7, b"a different move")
        assert_rejected(store, path, twin, LogEquivocation, "seat 1 signed two different entries for seq 1")
        assert store.head() == head
        with pytest.raises(Equivocation) as info:  # also a crypto Equivocation
            store.append(twin)
        proof = info.value.proof
        assert info.value.seat == 1
        assert proof.verify(IDS) == 1
        assert store.equivocations() == [proof]  # not saved twice
    side = Path(str(path) + EQUIVOCATION_SUFFIX)
    assert side.exists()
    with LogStore.open(path, IDS, GAME) as again:
        assert len(again) == 3
        [saved] = again.equivocations()
        assert saved.verify(IDS) == 1 and {saved.raw_a, saved.raw_b} == {raws[1], twin}


def test_check_does_not_save_proof(path: Path) -> None:
    raws = chain(1)
    with LogStore.open(path, IDS, GAME) as store:
        store.append(raws[0])
        twin = encode_entry(SEATS[0], GAME, 0, GENESIS_PREV, 0, 7, b"other")
        with pytest.raises(LogEquivocation):
            store.check(twin)
        assert store.equivocations() == []
        assert store.check(chain(1, start_prev=store.head_id, first_seq=1)[0]).seq == 1
        assert len(store) == 1


def test_conflicting_entry_by_another_author(path: Path) -> None:
    raws = chain(2)
    with LogStore.open(path, IDS, GAME) as store:
        for raw in raws:
            store.append(raw)
        other = encode_entry(SEATS[2], GAME, 1, decode_entry(raws[1]).prev_hash, 2, 7, b"mine")
        assert_rejected(store, path, other, ConflictingEntry, "seq 1 by seat 2 conflicts")


def test_second_open_is_locked(path: Path) -> None:
    with LogStore.open(path, IDS, GAME), pytest.raises(LogLocked):
        LogStore.open(path, IDS, GAME)
    LogStore.open(path, IDS, GAME).close()


def test_errors_do_not_leak_bodies(path: Path) -> None:
    secret_body = b"super secret salt 1234"
    raw = encode_entry(SEATS[0], OTHER_GAME, 0, GENESIS_PREV, 0, 7, secret_body)
    with LogStore.open(path, IDS, GAME) as store, pytest.raises(LogRejected) as info:
        store.append(raw)
    assert "super secret" not in str(info.value)


def test_supersede_moves_the_tail_aside_durably(path: Path) -> None:
    raws = filled(path, 5)
    evidence = encode_entry(SEATS[1], GAME, 3, decode_entry(raws[2]).id, 1, 8, b"evidence")
    with LogStore.open(path, IDS, GAME) as store:
        with pytest.raises(ConflictingEntry):
            store.check(evidence)
        gone = store.supersede(3)
        assert [e.raw for e in gone] == raws[3:]
        assert len(store) == 3 and store.head_id == decode_entry(raws[2]).id
        store.append(evidence)
        with pytest.raises(ValueError):
            store.supersede(0)  # the genesis is never set aside
        assert store.supersede(4) == []
    assert path.read_bytes() == b"".join(record(r) for r in [*raws[:3], evidence])
    side = Path(str(path) + logstore_mod.SUPERSEDED_SUFFIX)
    assert side.read_bytes() == b"".join(record(r) for r in raws[3:])
    with LogStore.open(path, IDS, GAME) as again:  # the truncated log still verifies
        assert [e.raw for e in again.entries()] == [*raws[:3], evidence]


def test_same_author_on_another_branch_is_a_conflict_not_an_equivocation(path: Path) -> None:
    filled(path, 3)
    other = encode_entry(SEATS[2], GAME, 2, bytes(range(32)), 2, 7, b"after evidence")
    with LogStore.open(path, IDS, GAME) as store:
        assert_rejected(store, path, other, ConflictingEntry, "builds on another entry 1")
        assert store.equivocations() == []


def test_an_entry_checked_once_is_appended_without_a_second_check_while_the_log_stands_still(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raws = chain(3)
    other = encode_entry(SEATS[1], GAME, 1, decode_entry(raws[0]).id, 1, 7, b"another move 1")
    with LogStore.open(path, IDS, GAME) as store:
        store.append(raws[0])
        checked = store.check(raws[1])
        stale = store.check(other)  # checked at the same position, but the log moves on before it is appended
        verified: list[int] = []
        real = logstore_mod.verify_entry
        monkeypatch.setattr(logstore_mod, "verify_entry", lambda e, i: (verified.append(e.seq), real(e, i))[1])
        store.append(raws[1], checked=checked)
        assert verified == []  # not verified twice
        with pytest.raises(LogEquivocation):  # the stale check is not trusted: checked again, and it conflicts
            store.append(other, checked=stale)
        assert verified == [1]
        assert [e.raw for e in store.entries()] == raws[:2]
