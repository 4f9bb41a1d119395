"""Pass tokens: a seat's signed "I pass" for one reaction-window decision, carried by a later entry.

A token is an Ed25519 signature by the seat's identity key over
``PASS ‖ game_id ‖ u64(seq) ‖ prev_hash(32) ‖ u16(j)``: "if, after the entry ``prev_hash`` and before the
entry at ``seq``, the j-th decision (counted from 0) is a reaction window of mine, I pass". It names one
point of one branch of one game, so it cannot be replayed anywhere else; the seat it is checked against is
the one the rules put at that point (the verifier knows it from the log), so the token itself carries no
seat. See docs/protocol.md, "Implied passes".

A token that verified is remembered (a bounded set of the exact bytes checked: key, token, message), so the tokens a
peer checked on receipt are not checked again when the entry that carries them arrives (issue 29: a proof checked
once per peer); a signature's validity is a pure function of those bytes, so the memory cannot change a verdict.
`forget_verified` is for benchmarks.
"""

from __future__ import annotations

import struct

from . import domains
from .errors import InvalidSignature, MalformedEncoding
from .identity import PublicIdentity, SecretIdentity

TOKEN_LEN = 64
MAX_POSITION = 0xFFFF
MAX_REMEMBERED = 4096  # tokens remembered as verified (the oldest forgotten first)
_verified: dict[tuple[bytes, bytes, bytes], None] = {}  # (signing key, token, message) that verified here


def _message(game_id: bytes, seq: int, prev_hash: bytes, j: int) -> bytes:
    if type(prev_hash) is not bytes or len(prev_hash) != 32:
        raise MalformedEncoding("pass token: prev_hash must be 32 bytes")
    if type(seq) is not int or not 0 <= seq < 2**63 or type(j) is not int or not 0 <= j <= MAX_POSITION:
        raise MalformedEncoding("pass token: seq or position out of range")
    return game_id + struct.pack(">Q", seq) + prev_hash + struct.pack(">H", j)


def sign_pass(secret: SecretIdentity, game_id: bytes, seq: int, prev_hash: bytes, j: int) -> bytes:
    """The token by which `secret`'s seat passes at decision `j` after `prev_hash` (deterministic)."""
    return secret.sign(domains.PASS, _message(game_id, seq, prev_hash, j))


def verify_pass(public: PublicIdentity, token: object, game_id: bytes, seq: int, prev_hash: bytes, j: int) -> None:
    """Raise :class:`InvalidSignature` unless `token` is `public`'s pass at that point."""
    if type(token) is not bytes or len(token) != TOKEN_LEN:
        raise InvalidSignature("a pass token is a 64-byte signature")
    msg = _message(game_id, seq, prev_hash, j)
    key = (public.sign_pk, token, msg)
    if key in _verified:
        return
    public.verify(domains.PASS, msg, token)
    if len(_verified) >= MAX_REMEMBERED:
        del _verified[next(iter(_verified))]
    _verified[key] = None


def forget_verified() -> None:
    """Forget every token remembered as verified (benchmarks measure the checks themselves)."""
    _verified.clear()
