"""Shared helpers for the crypto tests: deterministic identities and a fixed game id."""

from __future__ import annotations

from adp2p.crypto.identity import SecretIdentity

GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")


def fixed_identity(i: int) -> SecretIdentity:
    """Deterministic identity number i (seeds are fixed byte patterns)."""
    return SecretIdentity.from_seeds(
        bytes((i * 64 + j) % 256 for j in range(32)), bytes((i * 64 + 32 + j) % 256 for j in range(32))
    )
