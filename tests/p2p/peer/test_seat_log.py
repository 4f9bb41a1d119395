"""The seat's log state alone (p2p/peer/seat_log.py): its answers about entries, with plain values for the log (a list
of entries) and the fold (its game id, seats and keys) — no network, no disk."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Kind, encode_body

GAME = bytes(range(16))
IDS = [SecretIdentity.generate() for _ in range(3)]


def entry(seq: int, prev: bytes, author: int = 0, kind: Kind = Kind.EVENT, *, by: int | None = None,
          game: bytes = GAME) -> bytes:
    signer = IDS[author if by is None else by]
    return encode_entry(signer, game, seq, prev, author, int(kind), encode_body({"n": seq}))


@pytest.fixture
def log() -> SeatLog:
    """Our log of three entries (0, 1, 2; the one at 2 is evidence), our fold's public values."""
    s = SeatLog(lambda g, secrets: SimpleNamespace(g=g))  # type: ignore[arg-type,return-value]
    entries = [decode_entry(entry(0, bytes(32)))]
    entries.append(decode_entry(entry(1, entries[0].id, 1)))
    entries.append(decode_entry(entry(2, entries[1].id, 2, Kind.EVIDENCE)))
    s.store = entries  # type: ignore[assignment]
    s.machine = SimpleNamespace(game_id=GAME, n=3, ids=[i.public for i in IDS])  # type: ignore[assignment]
    return s


def test_an_entry_is_checked_against_the_seat_it_names(log: SeatLog) -> None:
    log.check_signed(decode_entry(entry(3, bytes(32), 1)))
    with pytest.raises(CryptoError, match="another game"):
        log.check_signed(decode_entry(entry(3, bytes(32), 1, game=bytes(16))))
    with pytest.raises(CryptoError):  # signed by seat 2 in seat 1's name
        log.check_signed(decode_entry(entry(3, bytes(32), 1, by=2)))


def test_an_entry_on_another_branch_or_where_evidence_took_the_seq_is_stale(log: SeatLog) -> None:
    store = log.store
    assert store is not None
    assert not log.stale(entry(3, store[2].id, 0))  # the next entry on our head: news
    assert log.stale(entry(2, bytes(32), 0))  # it follows an entry we do not hold: another branch
    assert log.stale(entry(2, store[1].id, 0))  # evidence holds seq 2
    assert not log.stale(entry(1, store[0].id, 2))  # another entry at a seq we hold: not stale (it is weighed)
    assert not log.stale(entry(3, store[2].id, 0, by=1))  # badly signed: not a branch, a bad entry
    log.superseded.add(store[2].id)
    assert log.stale(entry(3, store[2].id, 0))  # it follows an entry set aside

