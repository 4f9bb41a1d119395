"""Mental-poker deck: keys, shuffles, draws, reveals, hand-offs, re-shuffles and the audit."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest
from adp2p.crypto.deck import (
    Ciphertext,
    DeckKey,
    Share,
    ShuffleWitness,
    apply_shuffle,
    check_share_with_secret,
    combine,
    decode_deck,
    decode_shares,
    encode_deck,
    encode_shares,
    fresh_pile,
    initial_deck,
    joint_key,
    key_context,
    make_share,
    open_card,
    receive_shuffle,
    shuffle,
    verify_deck_key,
    verify_share,
    verify_shuffles,
)
from adp2p.crypto.errors import (
    DecryptionError,
    InvalidPoint,
    InvalidProof,
    InvalidScalar,
    MalformedEncoding,
    ShuffleError,
)
from adp2p.crypto.group import (
    IDENTITY,
    CardTable,
    L,
    add,
    base_mul,
    check_point,
    mul,
    random_scalar,
    scalar_add,
    scalar_from_int,
    sub,
)
from adp2p.crypto.private import open_private, seal_private
from adp2p.crypto.proofs import schnorr_prove
from crypto_helpers import GAME_ID, fixed_identity
from hypothesis import given, settings
from hypothesis import strategies as st

N = 3


@dataclass
class Game:
    table: CardTable
    keys: list[DeckKey]
    pk: bytes
    start: list[Ciphertext]
    steps: list[tuple[int, list[Ciphertext]]]
    witnesses: list[ShuffleWitness]

    @property
    def publics(self) -> list[bytes]:
        return [k.public for k in self.keys]

    @property
    def deck(self) -> list[Ciphertext]:
        return self.steps[-1][1]


def setup_game(n: int = N) -> Game:
    table = CardTable(GAME_ID)
    keys = [DeckKey.generate(GAME_ID, s) for s in range(n)]
    pk = joint_key(GAME_ID, [(k.public, k.proof) for k in keys])
    start = initial_deck(GAME_ID, pk, table)
    cur, steps, ws = start, [], []
    for s in range(n):
        out, w = shuffle(cur, pk)
        cur = receive_shuffle(cur, encode_deck(out), s, s)
        steps.append((s, cur))
        ws.append(w)
    return Game(table, keys, pk, start, steps, ws)


@functools.cache
def game() -> Game:
    return setup_game()


def deck_proof_attempt(public: bytes) -> bytes:
    """The best a rogue player can do without the discrete log: prove with a random secret."""
    return schnorr_prove(random_scalar(), public, key_context(GAME_ID, 1))


def test_keys_and_rogue_keys() -> None:
    g = game()
    for k in g.keys:
        verify_deck_key(GAME_ID, k.seat, k.public, k.proof)
        assert k.secret.hex() not in repr(k)
    with pytest.raises(InvalidProof):  # proof bound to its seat
        verify_deck_key(GAME_ID, 1, g.keys[0].public, g.keys[0].proof)
    with pytest.raises(InvalidProof):  # and to its game
        verify_deck_key(bytes(16), 0, g.keys[0].public, g.keys[0].proof)
    a = g.keys[0]
    # seat 1 picks X_1 = Y - X_0 to control the joint key; it knows no discrete log of X_1
    target = base_mul(random_scalar())
    rogue = sub(target, a.public)
    with pytest.raises(InvalidProof):
        joint_key(GAME_ID, [(a.public, a.proof), (rogue, a.proof)])
    cancel = sub(IDENTITY, a.public)  # -X_0: would make the joint key the identity
    with pytest.raises(InvalidProof):
        joint_key(GAME_ID, [(a.public, a.proof), (cancel, deck_proof_attempt(cancel))])
    with pytest.raises(InvalidProof):  # a key without a valid proof
        joint_key(GAME_ID, [(a.public, a.proof), (rogue, bytes(64))])
    with pytest.raises(InvalidProof):  # copying another seat's key and proof
        joint_key(GAME_ID, [(a.public, a.proof), (a.public, a.proof)])
    with pytest.raises(InvalidPoint):
        joint_key(GAME_ID, [(a.public, a.proof), (IDENTITY, a.proof)])
    assert joint_key(GAME_ID, [(k.public, k.proof) for k in g.keys]) == g.pk


def test_initial_deck_never_uses_identity_and_decrypts_in_order() -> None:
    g = game()
    x = functools.reduce(scalar_add, (k.secret for k in g.keys))
    assert len(g.start) == 63
    for i, (c1, c2) in enumerate(g.start):
        check_point(c1)
        check_point(c2)
        assert g.table.face(sub(c2, mul(x, c1))) == i
    assert initial_deck(GAME_ID, g.pk, g.table) == g.start  # publicly recomputable


def _open(g: Game, handle: int, shares: list[Share] | None = None) -> int:
    ct = g.deck[handle]
    shares = shares if shares is not None else [make_share(GAME_ID, k, handle, ct) for k in g.keys]
    return open_card(GAME_ID, handle, ct, shares, g.publics, g.table)


def test_private_draw_over_sealed_messages() -> None:
    g = game()
    ids = [fixed_identity(i) for i in range(N)]
    drawer, handle = 2, 0
    ct = g.deck[handle]
    received = []
    for s in range(N):
        if s == drawer:
            continue
        sealed = seal_private(
            ids[s], ids[drawer].public, b"share/0", make_share(GAME_ID, g.keys[s], handle, ct).to_bytes()
        )
        received.append(Share.from_bytes(open_private(ids[drawer], ids[s].public, b"share/0", sealed)))
    own = make_share(GAME_ID, g.keys[drawer], handle, ct)
    face = open_card(GAME_ID, handle, ct, [*received, own], g.publics, g.table, verified=[drawer])
    assert 0 <= face < 63
    with pytest.raises(DecryptionError, match="missing"):
        open_card(GAME_ID, handle, ct, received, g.publics, g.table)


def test_public_reveal_and_distinct_faces() -> None:
    g = game()
    faces = [_open(g, h) for h in range(6)]
    assert len(set(faces)) == 6


def test_wrong_shares_rejected() -> None:
    g = game()
    ct0, ct1 = g.deck[0], g.deck[1]
    s0 = make_share(GAME_ID, g.keys[0], 0, ct0)
    verify_share(GAME_ID, g.keys[0].public, 0, ct0, s0)
    s_other = make_share(GAME_ID, g.keys[0], 1, ct1)
    with pytest.raises(InvalidProof):  # share for another card
        verify_share(GAME_ID, g.keys[0].public, 0, ct0, s_other)
    with pytest.raises(InvalidProof):  # right card, proof replayed under another handle
        verify_share(GAME_ID, g.keys[0].public, 5, ct0, s0)
    with pytest.raises(InvalidProof):  # share checked against another seat's key
        verify_share(GAME_ID, g.keys[1].public, 0, ct0, s0._replace(seat=1))
    wrong = s0._replace(d=mul(random_scalar(), ct0.c1))
    with pytest.raises(InvalidProof):  # wrong share value
        verify_share(GAME_ID, g.keys[0].public, 0, ct0, wrong)
    with pytest.raises(InvalidPoint):
        verify_share(GAME_ID, g.keys[0].public, 0, ct0, s0._replace(d=IDENTITY))
    shares = [make_share(GAME_ID, k, 0, ct0) for k in g.keys]
    with pytest.raises(InvalidProof):
        open_card(GAME_ID, 0, ct0, [wrong, *shares[1:]], g.publics, g.table)
    with pytest.raises(DecryptionError, match="two different"):
        open_card(GAME_ID, 0, ct0, [*shares, wrong], g.publics, g.table)


def test_a_share_checked_with_its_revealed_secret() -> None:
    """The audit's check: with the seat's deck secret, a share is right exactly when d = x·c1."""
    g = game()
    ct0, ct1 = g.deck[0], g.deck[1]
    s0 = make_share(GAME_ID, g.keys[0], 0, ct0)
    check_share_with_secret(g.keys[0].secret, ct0, s0)
    with pytest.raises(DecryptionError):  # a wrong value
        check_share_with_secret(g.keys[0].secret, ct0, s0._replace(d=mul(random_scalar(), ct0.c1)))
    with pytest.raises(DecryptionError):  # the share of another card
        check_share_with_secret(g.keys[0].secret, ct0, make_share(GAME_ID, g.keys[0], 1, ct1))
    with pytest.raises(DecryptionError):  # another seat's share
        check_share_with_secret(g.keys[0].secret, ct0, make_share(GAME_ID, g.keys[1], 0, ct0))


def test_share_encoding() -> None:
    g = game()
    shares = [make_share(GAME_ID, k, 3, g.deck[3]) for k in reversed(g.keys)]
    raw = encode_shares(shares)
    assert len(raw) == 97 * N
    assert decode_shares(raw) == sorted(shares)
    with pytest.raises(MalformedEncoding):
        decode_shares(raw[:-1])
    with pytest.raises(MalformedEncoding):  # unsorted / duplicated seats
        decode_shares(shares[0].to_bytes() + shares[0].to_bytes())


@settings(max_examples=10, deadline=None)
@given(st.permutations(range(N)), st.integers(0, 62))
def test_shares_combine_in_any_order(order: list[int], handle: int) -> None:
    g = game()
    ct = g.deck[handle]
    shares = [make_share(GAME_ID, g.keys[s], handle, ct) for s in range(N)]
    expect = combine(ct, [s.d for s in shares])
    assert combine(ct, [shares[i].d for i in order]) == expect
    assert open_card(GAME_ID, handle, ct, [shares[i] for i in order], g.publics, g.table) == g.table.face(
        expect
    )


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 62), st.permutations(range(N)))
def test_card_handed_on_twice_opens_for_third_holder(handle: int, holders: list[int]) -> None:
    """Private draw by holders[0], handed to holders[1], then to holders[2], over sealed messages."""
    g = game()
    ids = [fixed_identity(i) for i in range(N)]
    ct = g.deck[handle]
    first, second, third = holders
    held = [make_share(GAME_ID, g.keys[s], handle, ct) for s in range(N)]
    face = open_card(GAME_ID, handle, ct, held, g.publics, g.table)
    for frm, to in ((first, second), (second, third)):
        ctx = b"handoff/%d" % handle
        sealed = seal_private(ids[frm], ids[to].public, ctx, encode_shares(held))
        held = decode_shares(open_private(ids[to], ids[frm].public, ctx, sealed))
        assert open_card(GAME_ID, handle, ct, held, g.publics, g.table) == face


def test_honest_audit_passes() -> None:
    g = game()
    faces = verify_shuffles(
        GAME_ID, g.publics, [k.secret for k in g.keys], g.start, g.steps, g.witnesses, g.table
    )
    assert sorted(faces) == list(range(63))
    assert faces[:6] == [_open(g, h) for h in range(6)]


def test_the_auditors_fixed_base_replay_equals_the_shufflers_own() -> None:
    """With the joint secret x known, r·(x·G) is computed as (r·x)·G: the same points as the shuffler's."""
    from adp2p.crypto.deck import _apply_shuffle_known_key
    from adp2p.crypto.group import scalar_add

    g = game()
    x = g.keys[0].secret
    for k in g.keys[1:]:
        x = scalar_add(x, k.secret)
    for (_, prev), w in zip([(0, g.start), *g.steps[:-1]], g.witnesses, strict=True):
        assert _apply_shuffle_known_key(prev, x, w) == apply_shuffle(prev, g.pk, w)
    wrong = scalar_add(x, g.keys[0].secret)  # a joint secret that is not the key's: other points
    assert _apply_shuffle_known_key(g.start, wrong, g.witnesses[0]) != apply_shuffle(g.start, g.pk, g.witnesses[0])


def test_a_shuffle_with_masks_made_ahead_is_the_shuffle_its_witness_says() -> None:
    from adp2p.crypto.deck import make_masks, shuffle_with

    g = game()
    masks = make_masks(g.pk, len(g.start))
    out, w = shuffle_with(g.start, masks)
    assert list(w.rs) == masks.rs and sorted(w.perm) == list(range(len(g.start)))
    assert out == apply_shuffle(g.start, g.pk, w)
    assert out != shuffle_with(g.start, make_masks(g.pk, len(g.start)))[0]  # fresh masks, fresh output
    with pytest.raises(ValueError):
        shuffle_with(g.start[:-1], masks)


def _audit(g: Game, steps: list, witnesses: list, secrets: list[bytes] | None = None) -> list[int]:
    return verify_shuffles(
        GAME_ID, g.publics, secrets or [k.secret for k in g.keys], g.start, steps, witnesses, g.table
    )


def _cheat(g: Game, step: int, out: list[Ciphertext], w: ShuffleWitness | None = None) -> tuple[list, list]:
    """Replace step `step` by `out` (later steps honestly re-shuffle it)."""
    steps, ws = list(g.steps[:step]), list(g.witnesses[:step])
    steps.append((step, out))
    ws.append(w if w is not None else g.witnesses[step])
    cur = out
    for s in range(step + 1, N):
        cur, w2 = shuffle(cur, g.pk)
        steps.append((s, cur))
        ws.append(w2)
    return steps, ws


def _remask(ct: Ciphertext, pk: bytes, r: bytes) -> Ciphertext:
    return Ciphertext(add(ct.c1, base_mul(r)), add(ct.c2, mul(r, pk)))


def test_shuffle_that_duplicates_a_card_is_caught() -> None:
    g = game()
    prev = g.steps[0][1]
    w = g.witnesses[1]
    out = list(g.steps[1][1])
    out[5] = _remask(prev[w.perm[0]], g.pk, random_scalar())  # card at out[0] twice, out[5]'s card dropped
    raw = receive_shuffle(prev, encode_deck(out), 1, 1)  # passes the on-line checks
    steps, ws = _cheat(g, 1, raw)
    with pytest.raises(ShuffleError, match="shuffler seat 1, step 1") as info:
        _audit(g, steps, ws)
    assert (info.value.seat, info.value.step) == (1, 1)
    # a witness that "explains" the duplicate is not a permutation
    bad_w = ShuffleWitness([*w.perm[:5], w.perm[0], *w.perm[6:]], w.rs)
    with pytest.raises(ShuffleError, match="not a permutation") as info:
        _audit(g, *_cheat(g, 1, raw, bad_w))
    assert (info.value.seat, info.value.step) == (1, 1)


def test_shuffle_that_substitutes_a_card_is_caught() -> None:
    g = game()
    prev = g.steps[1][1]
    w = g.witnesses[2]
    out = list(g.steps[2][1])
    delta = sub(g.table.point(0), g.table.point(1))  # shift the plaintext of out[7] to another card
    out[7] = Ciphertext(out[7].c1, add(out[7].c2, delta))
    steps, ws = _cheat(g, 2, receive_shuffle(prev, encode_deck(out), 2, 2))
    with pytest.raises(ShuffleError) as info:
        _audit(g, steps, ws)
    assert (info.value.seat, info.value.step) == (2, 2)
    assert "position 7" in str(info.value)
    assert w.rs[7].hex() not in str(info.value)  # no secret in the message


def test_shuffle_that_drops_a_card_is_caught() -> None:
    g = game()
    prev = g.steps[0][1]
    out = list(g.steps[1][1])[:-1]
    with pytest.raises(ShuffleError, match="seat 1"):
        receive_shuffle(prev, encode_deck(out), 1, 1)
    with pytest.raises(ShuffleError) as info:
        _audit(g, [g.steps[0], (1, out), *g.steps[2:]], g.witnesses)
    assert (info.value.seat, info.value.step) == (1, 1)


def test_online_shuffle_checks() -> None:
    g = game()
    prev = g.steps[0][1]
    out = list(g.steps[1][1])
    with pytest.raises(ShuffleError, match="repeats"):
        receive_shuffle(prev, encode_deck([*out[:-1], out[0]]), 1, 1)
    with pytest.raises(ShuffleError, match="un-masked"):
        receive_shuffle(prev, encode_deck([prev[3], *out[1:]]), 1, 1)
    bad = encode_deck(out)[:-32] + IDENTITY
    with pytest.raises(ShuffleError, match="malformed"):
        receive_shuffle(prev, bad, 1, 1)
    with pytest.raises(InvalidPoint):
        decode_deck(bad)
    with pytest.raises(MalformedEncoding):
        decode_deck(encode_deck(out)[:-1])
    assert decode_deck(encode_deck(out), 63) == out


def test_audit_rejects_wrong_revealed_key_and_bad_start() -> None:
    g = game()
    secrets = [k.secret for k in g.keys]
    secrets[1] = random_scalar()
    with pytest.raises(ShuffleError, match="secret key") as info:
        _audit(g, g.steps, g.witnesses, secrets)
    assert info.value.seat == 1
    # a starting pile with one card replaced: every step matches, the final pile does not
    start = list(g.start)
    start[0] = fresh_pile(GAME_ID, g.pk, [1], g.table, b"x")[0]
    cur, steps, ws = start, [], []
    for s in range(N):
        cur, w = shuffle(cur, g.pk)
        steps.append((s, cur))
        ws.append(w)
    with pytest.raises(ShuffleError, match="expected cards"):
        verify_shuffles(GAME_ID, g.publics, [k.secret for k in g.keys], start, steps, ws, g.table)


def test_witness_encoding() -> None:
    w = game().witnesses[0]
    assert ShuffleWitness.from_bytes(w.to_bytes()) == w
    assert w.rs[0].hex() not in repr(w)
    with pytest.raises(MalformedEncoding):
        ShuffleWitness.from_bytes(w.to_bytes() + b"\0")
    with pytest.raises(MalformedEncoding):
        ShuffleWitness([0, 0], [scalar_from_int(1)] * 2).validate(2)
    with pytest.raises(InvalidScalar):
        ShuffleWitness([0], [bytes(32)]).validate(1)


def test_discard_pile_reshuffle() -> None:
    g = game()
    faces = [5, 17, 42, 8]
    pile = fresh_pile(GAME_ID, g.pk, faces, g.table, b"discard/1")
    cur, steps, ws = pile, [], []
    for s in range(N):
        out, w = shuffle(cur, g.pk)
        assert apply_shuffle(cur, g.pk, w) == out
        cur = receive_shuffle(cur, encode_deck(out), s, s)
        steps.append((s, cur))
        ws.append(w)
    final = verify_shuffles(
        GAME_ID, g.publics, [k.secret for k in g.keys], pile, steps, ws, g.table, expected_faces=faces
    )
    assert sorted(final) == sorted(faces)
    opened = [
        open_card(
            GAME_ID,
            100 + h,
            cur[h],
            [make_share(GAME_ID, k, 100 + h, cur[h]) for k in g.keys],
            g.publics,
            g.table,
        )
        for h in range(4)
    ]
    assert opened == final


def test_six_player_deal() -> None:
    g = setup_game(6)
    faces = [_open(g, h) for h in range(12)]
    assert len(set(faces)) == 12


def test_witness_with_non_canonical_scalar_rejected_by_audit() -> None:
    g = game()
    w = g.witnesses[0]
    r0 = int.from_bytes(w.rs[0], "little")
    bad = ShuffleWitness(w.perm, [(r0 + L).to_bytes(32, "little"), *w.rs[1:]])  # same value mod L
    with pytest.raises(InvalidScalar, match="not reduced"):
        bad.validate(63)
    with pytest.raises(ShuffleError, match="invalid witness") as info:
        _audit(g, g.steps, [bad, *g.witnesses[1:]])
    assert (info.value.seat, info.value.step) == (0, 0)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 62), st.integers(0, N - 1))
def test_share_and_deck_encodings_roundtrip(handle: int, seat: int) -> None:
    g = game()
    s = make_share(GAME_ID, g.keys[seat], handle, g.deck[handle])
    assert Share.from_bytes(s.to_bytes()) == s
    assert decode_deck(encode_deck(g.deck[handle:])) == g.deck[handle:]


def test_a_share_made_here_needs_no_proof_check_but_any_other_bytes_in_its_name_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: a peer meets its own share again (in a controller's link); the very bytes it made, for that key,
    handle and card, need no DLEQ check. A share in its name with other bytes (another valid proof of the same
    share, a forged proof, another card) is checked like any other; forgotten, its own share is checked again."""
    from adp2p.crypto import deck as deck_mod
    from adp2p.crypto.deck import DeckKey, Share, forget_made_shares, initial_deck, joint_key, make_share, verify_share
    from adp2p.crypto.errors import InvalidProof
    from adp2p.crypto.group import CardTable
    from adp2p.crypto.proofs import dleq_prove

    gid = b"m" * 16
    keys = [DeckKey.generate(gid, s) for s in range(2)]
    pk = joint_key(gid, [(k.public, k.proof) for k in keys])
    pile = initial_deck(gid, pk, CardTable(gid))
    checks = []
    real = deck_mod.dleq_verify
    monkeypatch.setattr(deck_mod, "dleq_verify", lambda *a, **k: checks.append(a) or real(*a, **k))
    mine = make_share(gid, keys[0], 3, pile[3])
    verify_share(gid, keys[0].public, 3, pile[3], mine)
    assert checks == []  # our own bytes: no check
    ctx = deck_mod.share_context(gid, 0, 3)
    again = Share(0, mine.d, dleq_prove(keys[0].secret, keys[0].public, pile[3].c1, mine.d, ctx))
    assert again != mine
    verify_share(gid, keys[0].public, 3, pile[3], again)  # valid, but not the bytes we made: checked
    assert len(checks) == 1
    forged = Share(0, mine.d, mine.proof[:40] + bytes(24))
    with pytest.raises(InvalidProof):
        verify_share(gid, keys[0].public, 3, pile[3], forged)
    with pytest.raises(InvalidProof):
        verify_share(gid, keys[0].public, 4, pile[4], mine)  # our share of card 3 given for card 4
    forget_made_shares()
    verify_share(gid, keys[0].public, 3, pile[3], mine)
    assert len(checks) == 4
