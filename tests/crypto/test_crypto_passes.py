"""Pass tokens (crypto/passes.py): a token verifies for exactly the seat, game, seq, prev and decision it was
signed for, and nothing malformed gets as far as the signature check."""

from __future__ import annotations

import pytest
from adp2p.crypto.errors import InvalidSignature, MalformedEncoding
from adp2p.crypto.identity import SecretIdentity
from adp2p.crypto.passes import sign_pass, verify_pass

GID, PREV = bytes(range(16)), bytes(range(32))


def test_a_token_verifies_only_where_it_was_signed() -> None:
    a, b = SecretIdentity.from_seeds(b"a" * 32, b"x" * 32), SecretIdentity.from_seeds(b"b" * 32, b"y" * 32)
    token = sign_pass(a, GID, 7, PREV, 2)
    assert token == sign_pass(a, GID, 7, PREV, 2)  # deterministic: a resumed seat signs the same token again
    verify_pass(a.public, token, GID, 7, PREV, 2)
    for args in (
        (b.public, GID, 7, PREV, 2),  # another seat
        (a.public, bytes(16), 7, PREV, 2),  # another game
        (a.public, GID, 8, PREV, 2),  # another seq
        (a.public, GID, 7, bytes(32), 2),  # another branch
        (a.public, GID, 7, PREV, 3),  # another decision
    ):
        with pytest.raises(InvalidSignature):
            verify_pass(args[0], token, *args[1:])
    for bad in (token[:-1], bytes(64), "x" * 64, None):
        with pytest.raises(InvalidSignature):
            verify_pass(a.public, bad, GID, 7, PREV, 2)


def test_out_of_range_fields_are_refused() -> None:
    a = SecretIdentity.generate()
    for seq, prev, j in ((-1, PREV, 0), (1, PREV[:31], 0), (1, PREV, 1 << 16), (1, PREV, -1), (True, PREV, 0)):
        with pytest.raises(MalformedEncoding):
            sign_pass(a, GID, seq, prev, j)
