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


def test_a_verified_token_is_remembered_by_its_very_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tokens a peer checked on receipt are not checked again when the entry carrying them comes (issue 29); the
    memory holds the exact key, token and message, so a token changed in one bit, or the same token at another point
    or under another seat's key, is still checked and refused."""
    from adp2p.crypto import passes
    from adp2p.crypto.identity import PublicIdentity

    a, b = SecretIdentity.from_seeds(b"c" * 32, b"x" * 32), SecretIdentity.from_seeds(b"d" * 32, b"y" * 32)
    passes.forget_verified()
    calls = []
    real = PublicIdentity.verify
    monkeypatch.setattr(PublicIdentity, "verify", lambda self, *args: calls.append(args) or real(self, *args))
    token = sign_pass(a, GID, 9, PREV, 1)
    verify_pass(a.public, token, GID, 9, PREV, 1)
    verify_pass(a.public, token, GID, 9, PREV, 1)
    assert len(calls) == 1  # the second time: remembered
    flipped = token[:10] + bytes([token[10] ^ 1]) + token[11:]
    for pub, tok, seq in ((a.public, flipped, 9), (b.public, token, 9), (a.public, token, 10)):
        with pytest.raises(InvalidSignature):
            verify_pass(pub, tok, GID, seq, PREV, 1)
    passes.forget_verified()
    verify_pass(a.public, token, GID, 9, PREV, 1)
    assert len(calls) == 5  # forgotten: checked again
