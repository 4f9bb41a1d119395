"""Where a peer's fresh secrets come from: a new game's id (when it signs the genesis) and its seat's secrets (its
deck key, its beacon seed). `Draws` draws them from the OS; a test gives the peer draws from a table seed instead
(tests/support/seeds.py), so a seeded game repeats byte for byte."""

from __future__ import annotations

import secrets

from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.machine import SeatSecrets


class Draws:
    """Fresh secrets from the OS."""

    def game_id(self) -> bytes:
        return secrets.token_bytes(16)

    def seat_secrets(self, seat: int, identity: SecretIdentity, game_id: bytes) -> SeatSecrets:
        return SeatSecrets.generate(seat, identity, game_id)
