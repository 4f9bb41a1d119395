"""Everything secret of one seat in one game, and its file format (kept 0600 in the game directory, revealed at
the game's end): the identity, the deck key, the beacon seed, the shuffle witnesses and the openings of the game's
own commitments (crypto/commit_open.py; Access Denied: its password codes).

File: ``payload ‖ check``, payload = canonical msgpack ``[2, seat, identity, deck_secret, beacon_seed,
[[pile, witness]...], [[handle, code, salt]...]]``, check = BLAKE2b-256 under the domain ``secrets-file`` of the
payload. `from_bytes` refuses a file whose check fails (a bit flip, a torn write) or whose fields are not of
their exact shape, with `SecretsFileError`: a damaged file is never taken for the seat's secrets (which would
make the audit blame the seat for a disk fault).
"""

from __future__ import annotations

import hmac
import secrets as pysecrets
from dataclasses import dataclass, field
from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.deck import DeckKey
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.hashing import hash32
from adp2p.crypto.identity import SecretIdentity

VERSION = 2
CHECK_LEN = 32


class SecretsFileError(ValueError):
    """A secrets file that is damaged or not of this format (the message names no secret)."""


@dataclass
class SeatSecrets:
    """Everything secret of one seat in one game (kept in a 0600 file; revealed at game end)."""

    seat: int
    identity: SecretIdentity
    deck_secret: bytes
    beacon_seed: bytes
    witnesses: dict[int, bytes] = field(default_factory=dict)  # pile index -> ShuffleWitness bytes
    openings: dict[int, tuple[int, bytes]] = field(default_factory=dict)  # slot (AD: password handle) -> (value, salt)

    @classmethod
    def generate(cls, seat: int, identity: SecretIdentity, game_id: bytes) -> SeatSecrets:
        return cls(seat, identity, DeckKey.generate(game_id, seat).secret, pysecrets.token_bytes(32))

    def to_bytes(self) -> bytes:
        payload = pack(
            [
                VERSION,
                self.seat,
                self.identity.to_bytes(),
                self.deck_secret,
                self.beacon_seed,
                sorted([k, v] for k, v in self.witnesses.items()),
                sorted([h, c, s] for h, (c, s) in self.openings.items()),
            ]
        )
        return payload + hash32(domains.SECRETS_FILE, payload)

    @classmethod
    def from_bytes(cls, raw: bytes) -> SeatSecrets:
        if type(raw) is not bytes or len(raw) <= CHECK_LEN:
            raise SecretsFileError("too short to be a secrets file")
        payload, check = raw[:-CHECK_LEN], raw[-CHECK_LEN:]
        if not hmac.compare_digest(check, hash32(domains.SECRETS_FILE, payload)):
            raise SecretsFileError("its integrity check fails (damaged or not a secrets file)")
        try:
            f = unpack_canonical(payload, "seat secrets")
            if not (isinstance(f, list) and len(f) == 7 and f[0] == VERSION):
                raise SecretsFileError(f"not a seat secrets file of version {VERSION}")
            seat, ident, deck, seed, wit, ops = f[1:]
            if type(seat) is not int or not 0 <= seat < 64:
                raise SecretsFileError("bad seat")
            if not (_bytes(deck, 32) and _bytes(seed, 32)):
                raise SecretsFileError("bad deck secret or beacon seed")
            if not isinstance(wit, list) or not all(_pair(w, 2) and _bytes(w[1]) for w in wit):
                raise SecretsFileError("bad witnesses")
            if not isinstance(ops, list) or not all(_pair(o, 3, ints=2) and _bytes(o[2]) for o in ops):
                raise SecretsFileError("bad openings")
            return cls(
                seat,
                SecretIdentity.from_bytes(ident),
                deck,
                seed,
                {k: v for k, v in wit},
                {h: (c, s) for h, c, s in ops},
            )
        except SecretsFileError:
            raise
        except (CryptoError, TypeError, ValueError) as exc:
            raise SecretsFileError(f"its fields are not of their shape ({type(exc).__name__})") from None


def _bytes(v: Any, size: int | None = None) -> bool:
    return type(v) is bytes and (size is None or len(v) == size)


def _pair(v: Any, size: int, *, ints: int = 1) -> bool:
    return isinstance(v, list) and len(v) == size and all(type(x) is int for x in v[:ints])


SEAT_KEY_VERSION = 1


def seat_key_to_bytes(identity: SecretIdentity) -> bytes:
    """A seat's key kept before any game seats it (`<data>/seats/<fingerprint>`, 0600): ``payload ‖ check``,
    payload = canonical msgpack ``[1, identity]``, check as for the secrets file (the shapes differ: neither file
    reads as the other). A crash between the genesis and the game's secrets file leaves the key here, and resume
    makes the seat's secrets from it (nothing of that seat committed to any secret yet)."""
    payload = pack([SEAT_KEY_VERSION, identity.to_bytes()])
    return payload + hash32(domains.SECRETS_FILE, payload)


def seat_key_from_bytes(raw: bytes) -> SecretIdentity:
    """The identity in a seat key file; `SecretsFileError` if it is damaged or not one."""
    if type(raw) is not bytes or len(raw) <= CHECK_LEN:
        raise SecretsFileError("too short to be a seat key file")
    payload, check = raw[:-CHECK_LEN], raw[-CHECK_LEN:]
    if not hmac.compare_digest(check, hash32(domains.SECRETS_FILE, payload)):
        raise SecretsFileError("its integrity check fails (damaged or not a seat key file)")
    try:
        f = unpack_canonical(payload, "seat key")
        if not (isinstance(f, list) and len(f) == 2 and f[0] == SEAT_KEY_VERSION):
            raise SecretsFileError(f"not a seat key file of version {SEAT_KEY_VERSION}")
        return SecretIdentity.from_bytes(f[1])
    except SecretsFileError:
        raise
    except (CryptoError, TypeError, ValueError) as exc:
        raise SecretsFileError(f"its fields are not of their shape ({type(exc).__name__})") from None
