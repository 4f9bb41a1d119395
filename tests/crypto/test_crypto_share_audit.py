"""The auditor's check of decryption shares with the seats' deck secrets and the card's mask claimed
(crypto/share_audit.py): its verdict is the generic check's on honest shares, on wrong shares, on broken proofs and on
wrong claims (then the generic check decides); and it takes the fixed-base route where it can."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from adp2p.crypto import share_audit
from adp2p.crypto.deck import Ciphertext, DeckKey, Share, forget_made_shares, make_share, share_context, verify_share
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.group import L, add, base_mul, scalar_from_int, scalar_to_int
from adp2p.crypto.proofs import dleq_prove
from adp2p.crypto.share_audit import verify_shares_known

GID = bytes(range(16))
HANDLE = 7
RHO = 123456789123456789


@pytest.fixture
def generic_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Share]]:
    """Every share the fixed-base route left to the generic check."""
    calls: list[Share] = []

    def counted(game_id: bytes, public: bytes, handle: int, ct: Ciphertext, share: Share) -> None:
        calls.append(share)
        verify_share(game_id, public, handle, ct, share)

    monkeypatch.setattr(share_audit, "verify_share", counted)
    yield calls


def table() -> tuple[list[DeckKey], Ciphertext]:
    keys = [DeckKey(GID, s, scalar_from_int(1000 + 17 * s)) for s in range(3)]
    x = sum(scalar_to_int(k.secret) for k in keys) % L
    m = base_mul(scalar_from_int(4242))  # a card point
    ct = Ciphertext(base_mul(scalar_from_int(RHO)), add(m, base_mul(scalar_from_int(RHO * x))))
    return keys, ct


def shares(keys: list[DeckKey], ct: Ciphertext) -> list[tuple[bytes, Share]]:
    out = [(k.public, make_share(GID, k, HANDLE, ct)) for k in keys]
    forget_made_shares()  # the generic check must check, not remember
    return out


def generic_verdict(todo: list[tuple[bytes, Share]], ct: Ciphertext) -> bool:
    try:
        for public, sh in todo:
            verify_share(GID, public, HANDLE, ct, sh)
    except CryptoError:
        return False
    return True


def known_verdict(todo: list[tuple[bytes, Share]], ct: Ciphertext, secrets: list[bytes], rho: int) -> bool:
    try:
        verify_shares_known(GID, HANDLE, ct, todo, secrets, rho)
    except CryptoError:
        return False
    return True


def test_honest_shares_hold_by_fixed_base_multiplications_alone(generic_calls: list[Share]) -> None:
    keys, ct = table()
    todo = shares(keys, ct)
    assert known_verdict(todo, ct, [k.secret for k in keys], RHO)
    assert generic_calls == []  # no variable-base multiplication: the route the audit's workers take


def test_a_wrong_share_with_its_shuffler_made_proof_fails_as_generically(generic_calls: list[Share]) -> None:
    keys, ct = table()
    todo = shares(keys, ct)
    k = keys[1]
    wrong_d = base_mul(scalar_from_int(99))  # not x·c1; the seat proves it anyway with its own secret
    proof = dleq_prove(k.secret, k.public, ct.c1, wrong_d, share_context(GID, 1, HANDLE))
    todo[1] = (k.public, Share(1, wrong_d, proof))
    assert not generic_verdict(todo, ct)
    assert not known_verdict(todo, ct, [k.secret for k in keys], RHO)
    assert [s.seat for s in generic_calls] == [1]  # that share was left to the generic check, which said no


@pytest.mark.parametrize("part", ["challenge", "response"])
def test_a_broken_proof_fails_as_generically(part: str) -> None:
    keys, ct = table()
    todo = shares(keys, ct)
    sh = todo[2][1]
    e, s = scalar_to_int(sh.proof[:32]), scalar_to_int(sh.proof[32:])
    proof = scalar_from_int(e + 1) + sh.proof[32:] if part == "challenge" else sh.proof[:32] + scalar_from_int(s + 1)
    todo[2] = (todo[2][0], Share(2, sh.d, proof))
    assert not generic_verdict(todo, ct)
    assert not known_verdict(todo, ct, [k.secret for k in keys], RHO)


def test_a_share_of_another_card_fails_as_generically() -> None:
    keys, ct = table()
    other = Ciphertext(base_mul(scalar_from_int(RHO + 1)), ct.c2)
    todo = [(k.public, make_share(GID, k, HANDLE, other)) for k in keys]
    forget_made_shares()
    assert not generic_verdict(todo, ct)
    assert not known_verdict(todo, ct, [k.secret for k in keys], RHO)


def test_a_wrong_claimed_secret_or_mask_leaves_the_verdict_to_the_generic_check(generic_calls: list[Share]) -> None:
    keys, ct = table()
    todo = shares(keys, ct)
    secrets = [k.secret for k in keys]
    wrong = [secrets[0], scalar_from_int(5), secrets[2]]
    assert known_verdict(todo, ct, wrong, RHO)  # honest shares still hold
    assert [s.seat for s in generic_calls] == [1]
    generic_calls.clear()
    assert known_verdict(todo, ct, secrets, RHO + 1)  # a mask that does not give c1: every share generic
    assert len(generic_calls) == 3
    generic_calls.clear()
    assert known_verdict(todo, ct, [bytes(32), b"short", secrets[2]], 0)
    assert len(generic_calls) == 3
    bad = list(todo)
    bad[0] = (bad[0][0], Share(0, bad[1][1].d, bad[0][1].proof))  # seat 1's share under seat 0's proof
    assert not known_verdict(bad, ct, wrong, RHO)


def test_a_proof_whose_nonce_would_be_zero_is_left_to_the_generic_check(generic_calls: list[Share]) -> None:
    keys, ct = table()
    todo = shares(keys, ct)
    k, sh = keys[0], todo[0][1]
    e = scalar_to_int(sh.proof[:32])
    zero_k = sh.proof[:32] + scalar_from_int(e * scalar_to_int(k.secret))  # s = e·x: the generic `a` is the identity
    todo[0] = (k.public, Share(0, sh.d, zero_k))
    assert not known_verdict(todo, ct, [k.secret for k in keys], RHO)
    assert [s.seat for s in generic_calls] == [0]
