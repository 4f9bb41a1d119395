"""The secrets file (p2p/seat_secrets.py): it round-trips, and a damaged file (any bit flipped, cut short,
garbage, fields of the wrong shape under a valid check) is refused with SecretsFileError, never taken for the
seat's secrets; resuming from one stops with one line naming the file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from adp2p.crypto import domains
from adp2p.crypto.encoding import pack
from adp2p.crypto.hashing import hash32
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.paths import write_secret
from adp2p.p2p.peer import PeerConfig, TableError, TablePeer
from adp2p.p2p.seat_secrets import SeatSecrets, SecretsFileError


def _secrets() -> SeatSecrets:
    s = SeatSecrets.generate(1, SecretIdentity.generate(), bytes(16))
    s.witnesses = {0: b"w" * 100, 1: b"v" * 50}
    s.openings = {7: (3, b"s" * 32)}
    return s


def test_roundtrip() -> None:
    s = _secrets()
    again = SeatSecrets.from_bytes(s.to_bytes())
    assert again.to_bytes() == s.to_bytes()
    assert again.witnesses == s.witnesses and again.openings == s.openings and again.seat == 1


def test_every_bit_flip_is_refused() -> None:
    raw = _secrets().to_bytes()
    rng = random.Random(5)
    positions = [*sorted(rng.sample(range(len(raw) * 8), 300)), 0, len(raw) * 8 - 1]
    for bit in positions:
        bad = bytearray(raw)
        bad[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(SecretsFileError):
            SeatSecrets.from_bytes(bytes(bad))


@pytest.mark.parametrize("cut", [0, 1, 31, 32, 33, 100, -1])
def test_a_file_cut_short_is_refused(cut: int) -> None:
    raw = _secrets().to_bytes()
    with pytest.raises(SecretsFileError):
        SeatSecrets.from_bytes(raw[:cut])


@pytest.mark.parametrize(
    "fields",
    [
        [2, 1, b"x", bytes(32), bytes(32), [], []],  # an identity that is not one
        [2, True, SecretIdentity.generate().to_bytes(), bytes(32), bytes(32), [], []],
        [2, 1, SecretIdentity.generate().to_bytes(), bytes(31), bytes(32), [], []],
        [2, 1, SecretIdentity.generate().to_bytes(), bytes(32), bytes(32), [[1]], []],
        [2, 1, SecretIdentity.generate().to_bytes(), bytes(32), bytes(32), [], [["a", 1, b"s"]]],
        [1, 1, SecretIdentity.generate().to_bytes(), bytes(32), bytes(32), [], []],
        {"a": 1},
    ],
)
def test_fields_of_the_wrong_shape_under_a_valid_check_are_refused(fields: object) -> None:
    payload = pack(fields)
    with pytest.raises(SecretsFileError):
        SeatSecrets.from_bytes(payload + hash32(domains.SECRETS_FILE, payload))


def test_resume_from_a_damaged_secrets_file_says_so_in_one_line(tmp_path: Path) -> None:
    gdir = tmp_path / "games" / "g"
    gdir.mkdir(parents=True)
    raw = bytearray(_secrets().to_bytes())
    raw[10] ^= 4
    write_secret(gdir / "secrets", bytes(raw))
    (gdir / "log").write_bytes(b"")
    peer = TablePeer(PeerConfig(name="p", data_dir=tmp_path), lambda *a: {})
    with pytest.raises(TableError) as ei:
        peer.seating.load(gdir)
    msg = str(ei.value)
    assert str(gdir / "secrets") in msg and "integrity check fails" in msg and "\n" not in msg
