"""Per-game identities, signatures, fingerprints and bundles."""

from __future__ import annotations

import pytest
from adp2p.crypto import domains
from adp2p.crypto.encoding import pack
from adp2p.crypto.errors import InvalidPoint, InvalidSignature, MalformedEncoding
from adp2p.crypto.identity import PublicIdentity, SecretIdentity, make_bundle, open_bundle
from crypto_helpers import fixed_identity
from hypothesis import given, settings
from hypothesis import strategies as st

SEED_A = bytes(range(32))
SEED_B = bytes(range(32, 64))


def test_known_answer_keys() -> None:
    sid = SecretIdentity.from_seeds(SEED_A, SEED_B)
    assert sid.public.sign_pk.hex() == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    assert sid.public.box_pk.hex() == "358072d6365880d1aeea329adf9121383851ed21a28e3b75e965d0d2cd166254"
    assert sid.public.fingerprint() == "d840-3403-234f-39e8"


def test_sign_verify_and_domain_separation() -> None:
    sid = fixed_identity(0)
    sig = sid.sign(domains.ENTRY, b"msg")
    assert len(sig) == 64
    sid.public.verify(domains.ENTRY, b"msg", sig)
    with pytest.raises(InvalidSignature):
        sid.public.verify(domains.IDENTITY, b"msg", sig)  # other domain
    with pytest.raises(InvalidSignature):
        sid.public.verify(domains.ENTRY, b"msh", sig)
    with pytest.raises(InvalidSignature):
        fixed_identity(1).public.verify(domains.ENTRY, b"msg", sig)  # wrong key
    with pytest.raises(InvalidSignature):
        sid.public.verify(domains.ENTRY, b"msg", sig[:63])


def test_secret_roundtrip_and_repr_hides_secret() -> None:
    sid = SecretIdentity.generate()
    again = SecretIdentity.from_bytes(sid.to_bytes())
    assert again.public == sid.public
    assert sid.to_bytes()[1:33].hex() not in repr(sid)
    assert sid.public.fingerprint() in repr(sid)
    with pytest.raises(MalformedEncoding):
        SecretIdentity.from_bytes(b"\x02" + sid.to_bytes()[1:])


def test_public_roundtrip_and_validation() -> None:
    pub = fixed_identity(2).public
    assert PublicIdentity.from_bytes(pub.to_bytes()) == pub
    with pytest.raises(MalformedEncoding):
        PublicIdentity.from_bytes(pub.to_bytes()[:-1])
    with pytest.raises(InvalidPoint):
        PublicIdentity(bytes([1]) + bytes(31), pub.box_pk)  # Ed25519 identity point
    with pytest.raises(InvalidPoint):
        PublicIdentity(pub.sign_pk, bytes(32))  # low-order X25519 key


def test_bundle_roundtrip() -> None:
    sid = fixed_identity(0)
    pub, name, extra = open_bundle(make_bundle(sid, "Ada Lovelace", b"\x01\x02"))
    assert (pub, name, extra) == (sid.public, "Ada Lovelace", b"\x01\x02")


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=16).filter(lambda s: s.isprintable()), st.binary(max_size=64))
def test_bundle_roundtrip_property(name: str, extra: bytes) -> None:
    sid = fixed_identity(1)
    assert open_bundle(make_bundle(sid, name, extra)) == (sid.public, name, extra)


def test_bundle_forged_or_malformed() -> None:
    a, b = fixed_identity(0), fixed_identity(1)
    body = pack([1, b"Eve", a.public.sign_pk, a.public.box_pk, b""])
    with pytest.raises(InvalidSignature):  # signed by someone else
        open_bundle(pack([body, b.sign(domains.IDENTITY, body)]))
    with pytest.raises(MalformedEncoding):
        open_bundle(make_bundle(a, "x") + b"\0")
    with pytest.raises(MalformedEncoding):
        make_bundle(a, "")
    with pytest.raises(MalformedEncoding):
        make_bundle(a, "bad\nname")
    body2 = pack([1, "Eve", a.public.sign_pk, a.public.box_pk, b""])  # name as str, not bin
    with pytest.raises(MalformedEncoding):
        open_bundle(pack([body2, a.sign(domains.IDENTITY, body2)]))
