"""Point and scalar validation, libsodium identity handling, card points."""

from __future__ import annotations

import pytest
from adp2p.crypto import domains
from adp2p.crypto.errors import DecryptionError, InvalidPoint, InvalidScalar
from adp2p.crypto.group import (
    IDENTITY,
    CardTable,
    L,
    add,
    base_mul,
    card_point,
    check_nonzero_scalar,
    check_point,
    check_scalar,
    hash_to_scalar,
    mul,
    random_scalar,
    scalar_add,
    scalar_from_int,
    scalar_mul,
    sub,
)
from crypto_helpers import GAME_ID
from hypothesis import given, settings
from hypothesis import strategies as st

G = base_mul(scalar_from_int(1))
ORDER_2 = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # (0, -1)
ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = p


def test_scalar_checks() -> None:
    assert check_scalar((L - 1).to_bytes(32, "little")) == (L - 1).to_bytes(32, "little")
    with pytest.raises(InvalidScalar, match="not reduced"):
        check_scalar(L.to_bytes(32, "little"))
    with pytest.raises(InvalidScalar, match="not reduced"):
        check_scalar((L + 5).to_bytes(32, "little"))  # non-canonical encoding of 5
    with pytest.raises(InvalidScalar):
        check_scalar(b"\x01" * 31)
    with pytest.raises(InvalidScalar, match="zero"):
        check_nonzero_scalar(bytes(32))


@pytest.mark.parametrize("p", [IDENTITY, ORDER_2, ORDER_8, NON_CANONICAL, bytes(32), b"\x01" * 31])
def test_bad_points_rejected(p: bytes) -> None:
    with pytest.raises(InvalidPoint):
        check_point(p)


def test_point_outside_subgroup_rejected() -> None:
    mixed = add(G, ORDER_8)  # G + torsion: on the curve, not in the prime-order subgroup
    with pytest.raises(InvalidPoint):
        check_point(mixed)
    assert check_point(G) == G


def test_libsodium_identity_handling() -> None:
    x = random_scalar()
    with pytest.raises(InvalidPoint):
        mul(x, IDENTITY)
    with pytest.raises(InvalidPoint):
        mul(x, ORDER_8)
    with pytest.raises(InvalidPoint):
        base_mul(bytes(32))
    with pytest.raises(InvalidPoint):
        mul(bytes(32), G)  # identity result
    assert sub(G, G) == IDENTITY  # subtraction may produce the identity: callers must check_point


@settings(max_examples=20, deadline=None)
@given(st.integers(1, L - 1), st.integers(1, L - 1))
def test_group_laws(a: int, b: int) -> None:
    sa, sb = scalar_from_int(a), scalar_from_int(b)
    if (a + b) % L:
        assert add(base_mul(sa), base_mul(sb)) == base_mul(scalar_add(sa, sb))
    else:
        assert add(base_mul(sa), base_mul(sb)) == IDENTITY
    assert mul(sa, base_mul(sb)) == base_mul(scalar_mul(sa, sb))


def test_hash_to_scalar_known_answer() -> None:
    s = hash_to_scalar(domains.SCHNORR, b"a")
    assert s.hex() == "d1209e0bdd8f7361308ed00472d6d3f23c48607c6e0cad9d752b5bb8393bab0a"
    check_scalar(s)


def test_card_points() -> None:
    assert card_point(GAME_ID, 0).hex() == "6a2a259281eabb8b01b331495e45de497737e58d976ec9b0eb0d3003bc3bc4da"
    assert card_point(GAME_ID, 62).hex() == "de6df23da6b83c574c6c406658b01db515ef4ecd96d225288b68e92659287c4d"
    table = CardTable(GAME_ID)
    assert len(table) == 63 and len(set(table.points)) == 63
    for i, p in enumerate(table.points):
        check_point(p)
        assert table.face(p) == i
    assert card_point(bytes(16), 0) != card_point(GAME_ID, 0)  # bound to the game
    with pytest.raises(DecryptionError):
        table.face(G)
