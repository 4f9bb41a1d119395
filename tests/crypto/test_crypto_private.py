"""Signed, encrypted private messages and their public digests."""

from __future__ import annotations

import pytest
from adp2p.crypto.errors import DecryptionFailed, InvalidSignature, MalformedEncoding
from adp2p.crypto.private import (
    audit_open_private,
    open_private,
    private_digest,
    seal_private,
)
from crypto_helpers import fixed_identity
from hypothesis import given, settings
from hypothesis import strategies as st

A, B, C = (fixed_identity(i) for i in range(3))


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=200), st.binary(max_size=20))
def test_roundtrip(payload: bytes, context: bytes) -> None:
    sealed = seal_private(A, B.public, context, payload)
    assert open_private(B, A.public, context, sealed) == payload


def test_only_the_recipient_opens_and_context_is_bound() -> None:
    sealed = seal_private(A, B.public, b"ctx", b"card 7")
    with pytest.raises(DecryptionFailed):
        open_private(C, A.public, b"ctx", sealed)  # not the recipient
    with pytest.raises(DecryptionFailed):
        open_private(B, C.public, b"ctx", sealed)  # not from C
    with pytest.raises(InvalidSignature):
        open_private(B, A.public, b"other ctx", sealed)  # replayed in another context
    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    with pytest.raises(DecryptionFailed):
        open_private(B, A.public, b"ctx", tampered)
    with pytest.raises(MalformedEncoding):
        open_private(B, A.public, b"ctx", sealed[:10])


def test_digest_and_audit() -> None:
    s1 = seal_private(A, B.public, b"ctx", b"payload")
    s2 = seal_private(A, B.public, b"ctx", b"payload")
    assert s1 != s2  # random nonces
    assert private_digest(s1) == private_digest(s1) and private_digest(s1) != private_digest(s2)
    assert len(private_digest(s1)) == 32
    # once a per-game box key is revealed, anyone can check what was sent
    assert audit_open_private(bytes(A.box_key), A.public, B.public, b"ctx", s1) == b"payload"
    assert audit_open_private(bytes(B.box_key), A.public, B.public, b"ctx", s1) == b"payload"
    with pytest.raises(MalformedEncoding, match="neither"):
        audit_open_private(bytes(C.box_key), A.public, B.public, b"ctx", s1)
