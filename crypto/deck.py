"""Mental-poker deck without a dealer: ElGamal over Ed25519 with verifiable decryption shares.

Keys: player i draws ``x_i`` and publishes ``X_i = x_i·G`` with a Schnorr proof in context
``frame("deck-key", game_id, u8(i))``; the joint key ``PK = Σ X_i`` is built only from proven keys.

Ciphertext of card point ``M``: ``(c1, c2) = (r·G, M + r·PK)``, 64 bytes ``c1 ‖ c2``.
A fresh pile (initial deck, or a re-shuffled discard pile of known faces) puts face ``f_j`` at
position j with the PUBLIC scalar ``r0_j = H2S(INITIAL_MASK, game_id, context, u32(j))`` (never the
identity point, so libsodium's multiplication never sees it). Every player in turn re-masks every
ciphertext with a fresh secret ``r`` and permutes: ``out[j] = in[perm[j]] + (r_j·G, r_j·PK)``,
keeping ``(perm, r)`` as its shuffle witness, revealed only at game end.

Decryption share of seat i for the card at ``handle`` with ciphertext ``ct``: ``d_i = x_i·c1`` with
a DLEQ proof (log_G X_i = log_c1 d_i) in context ``frame("share", game_id, u8(i), u64(handle))``.
The face is ``c2 − Σ d_i`` looked up in the :class:`~adp2p.crypto.group.CardTable`. A full set of
proven shares is a transferable certificate of the face.

Audit: :func:`verify_shuffles` replays every shuffle step from the revealed keys and witnesses.

A share this process made (:func:`make_share`) is remembered, bytes and statement (bounded): :func:`verify_share` of
those very bytes, for that key, handle and ``c1``, needs no DLEQ check (the share is this process's own computation,
``d = x·c1`` and its proof, not anyone's claim); a share in our name with any other bytes is checked like any other
(issue 29: at a first answer each peer met its own share of every linked card again in the controller's link).
"""

from __future__ import annotations

import hmac
import itertools
import secrets
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from . import domains
from .encoding import expect_array, expect_bytes, expect_int, pack, unpack_canonical
from .errors import (
    DecryptionError,
    InvalidPoint,
    InvalidScalar,
    MalformedEncoding,
    ShuffleError,
)
from .group import (
    CardTable,
    add,
    base_mul,
    check_nonzero_scalar,
    check_point,
    hash_to_scalar,
    mul,
    random_scalar,
    scalar_add,
    scalar_mul,
    sub,
)
from .hashing import frame, u8, u32, u64
from .proofs import dleq_prove, dleq_verify, schnorr_prove, schnorr_verify

CT_LEN = 64
SHARE_LEN = 1 + 32 + 64
MAX_SEATS = 255
MAX_PILE = 1024
MAX_MADE = 4096  # shares made here and remembered (the oldest forgotten first)
_made: dict[tuple[bytes, bytes, int, bytes], tuple[int, bytes, bytes]] = {}  # (game, key, handle, c1) -> share made
WITNESS_VERSION = 1


class Ciphertext(NamedTuple):
    c1: bytes
    c2: bytes

    def to_bytes(self) -> bytes:
        return self.c1 + self.c2


def key_context(game_id: bytes, seat: int) -> bytes:
    return frame(domains.CTX_DECK_KEY, game_id, u8(seat))


def share_context(game_id: bytes, seat: int, handle: int) -> bytes:
    return frame(domains.CTX_SHARE, game_id, u8(seat), u64(handle))


class DeckKey:
    """A player's secret deck key with its public key and Schnorr proof. ``repr`` hides the secret."""

    __slots__ = ("game_id", "proof", "public", "seat", "secret")

    def __init__(self, game_id: bytes, seat: int, secret: bytes, proof: bytes | None = None) -> None:
        self.game_id, self.seat = game_id, seat
        self.secret = check_nonzero_scalar(secret, "deck secret key")
        self.public = base_mul(secret)
        self.proof = (
            proof if proof is not None else schnorr_prove(secret, self.public, key_context(game_id, seat))
        )

    @classmethod
    def generate(cls, game_id: bytes, seat: int) -> DeckKey:
        return cls(game_id, seat, random_scalar())

    def __repr__(self) -> str:
        return f"DeckKey(seat={self.seat}, public={self.public.hex()[:16]}..., <secret>)"


def verify_deck_key(game_id: bytes, seat: int, public: bytes, proof: bytes) -> None:
    """Raise InvalidPoint / InvalidProof unless ``public`` comes with a valid proof for this seat."""
    schnorr_verify(public, proof, key_context(game_id, seat))


def joint_key(game_id: bytes, keys: Sequence[tuple[bytes, bytes]]) -> bytes:
    """Joint public key from every seat's (public key, proof), seat = index; each proof is checked."""
    if not keys:
        raise ValueError("joint key needs at least one key")
    seen: set[bytes] = set()
    total: bytes | None = None
    for seat, (public, proof) in enumerate(keys):
        verify_deck_key(game_id, seat, public, proof)
        if public in seen:
            raise InvalidPoint(f"deck key of seat {seat} duplicates another seat's key")
        seen.add(public)
        total = public if total is None else add(total, public)
    assert total is not None
    return check_point(total, "joint deck key")


def fresh_pile(
    game_id: bytes, joint_pk: bytes, faces: Sequence[int], table: CardTable, context: bytes = b"initial"
) -> list[Ciphertext]:
    """Publicly known ciphertexts of ``faces`` (position j masked with the public scalar r0_j)."""
    out = []
    for j, face in enumerate(faces):
        r0 = hash_to_scalar(domains.INITIAL_MASK, game_id, context, u32(j))
        out.append(Ciphertext(base_mul(r0), add(table.point(face), mul(r0, joint_pk))))
    return out


def initial_deck(game_id: bytes, joint_pk: bytes, table: CardTable) -> list[Ciphertext]:
    """The 63 cards in index order, publicly masked (context ``b"initial"``)."""
    return fresh_pile(game_id, joint_pk, range(len(table)), table, b"initial")


class ShuffleWitness:
    """A shuffler's secret: ``out[j] = in[perm[j]]`` re-masked with ``rs[j]``.

    Wire (revealed at game end): msgpack ``[1, perm: [uint...], rs: bin(32·n)]``.
    """

    __slots__ = ("perm", "rs")

    def __init__(self, perm: Sequence[int], rs: Sequence[bytes]) -> None:
        self.perm = tuple(perm)
        self.rs = tuple(rs)

    def validate(self, n: int) -> None:
        """MalformedEncoding / InvalidScalar unless perm is a permutation of range(n) and rs canonical."""
        if len(self.perm) != n or len(self.rs) != n:
            raise MalformedEncoding(f"shuffle witness: expected {n} positions")
        if any(type(p) is not int for p in self.perm) or sorted(self.perm) != list(range(n)):
            raise MalformedEncoding("shuffle witness: perm is not a permutation")
        for r in self.rs:
            check_nonzero_scalar(r, "shuffle witness masking scalar")

    def to_bytes(self) -> bytes:
        return pack([WITNESS_VERSION, list(self.perm), b"".join(self.rs)])

    @classmethod
    def from_bytes(cls, data: bytes) -> ShuffleWitness:
        f = expect_array(unpack_canonical(data, "shuffle witness"), 3, "shuffle witness")
        expect_int(f[0], WITNESS_VERSION, WITNESS_VERSION, "shuffle witness version")
        if type(f[1]) is not list or len(f[1]) > MAX_PILE:
            raise MalformedEncoding("shuffle witness perm: expected an array")
        perm = [expect_int(p, 0, MAX_PILE - 1, "shuffle witness perm entry") for p in f[1]]
        rs_raw = expect_bytes(f[2], "shuffle witness rs", lengths=(32 * len(perm),))
        w = cls(perm, [rs_raw[i : i + 32] for i in range(0, len(rs_raw), 32)])
        w.validate(len(perm))
        return w

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShuffleWitness) and (self.perm, self.rs) == (other.perm, other.rs)

    def __hash__(self) -> int:
        return hash((self.perm, self.rs))

    def __repr__(self) -> str:
        return f"ShuffleWitness(n={len(self.perm)}, <secret>)"


def apply_shuffle(deck: Sequence[Ciphertext], joint_pk: bytes, witness: ShuffleWitness) -> list[Ciphertext]:
    """Deterministically apply a witness (used to shuffle, and to audit)."""
    out = []
    for src, r in zip(witness.perm, witness.rs, strict=True):
        c1, c2 = deck[src]
        out.append(Ciphertext(add(c1, base_mul(r)), add(c2, mul(r, joint_pk))))
    return out


def _apply_shuffle_known_key(deck: Sequence[Ciphertext], x_total: bytes, witness: ShuffleWitness) -> list[Ciphertext]:
    """`apply_shuffle` for an auditor who knows the joint secret key x (every seat's revealed and checked against
    its public key, so the joint key is x·G): r·(x·G) = (r·x)·G, a fixed-base multiplication, several times
    cheaper than the variable-base one an honest shuffler must do."""
    out = []
    for src, r in zip(witness.perm, witness.rs, strict=True):
        c1, c2 = deck[src]
        out.append(Ciphertext(add(c1, base_mul(r)), add(c2, base_mul(scalar_mul(r, x_total)))))
    return out


class Masks(NamedTuple):
    """Re-masking material made ahead of a shuffle (it does not depend on the deck, only on the joint key):
    secret scalars r and the points r·G and r·Y. Once the deck arrives, a shuffle is additions only."""

    joint_pk: bytes
    rs: list[bytes]
    points: list[tuple[bytes, bytes]]


def make_masks(joint_pk: bytes, n: int) -> Masks:
    """n fresh secret masking scalars and their points (the variable-base multiplications of a shuffle)."""
    rs = [random_scalar() for _ in range(n)]
    return Masks(joint_pk, rs, [(base_mul(r), mul(r, joint_pk)) for r in rs])


def shuffle_with(deck: Sequence[Ciphertext], masks: Masks) -> tuple[list[Ciphertext], ShuffleWitness]:
    """`shuffle` with masks made ahead: a fresh secret permutation, then two additions per card. The output is
    exactly `apply_shuffle(deck, masks.joint_pk, witness)`."""
    if len(masks.rs) != len(deck):
        raise ValueError("masks for another pile size")
    w = ShuffleWitness(_secret_permutation(len(deck)), masks.rs)
    out = []
    for src, (rg, ry) in zip(w.perm, masks.points, strict=True):
        c1, c2 = deck[src]
        out.append(Ciphertext(add(c1, rg), add(c2, ry)))
    return out, w


def _secret_permutation(n: int) -> list[int]:
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def shuffle(deck: Sequence[Ciphertext], joint_pk: bytes) -> tuple[list[Ciphertext], ShuffleWitness]:
    """Re-mask every ciphertext with fresh randomness and apply a secret permutation."""
    w = ShuffleWitness(_secret_permutation(len(deck)), [random_scalar() for _ in deck])
    return apply_shuffle(deck, joint_pk, w), w


def encode_deck(deck: Sequence[Ciphertext]) -> bytes:
    """Concatenation of 64-byte ciphertexts ``c1 ‖ c2``."""
    return b"".join(c1 + c2 for c1, c2 in deck)


def decode_deck(raw: bytes, n: int | None = None, *, validate: bool = True) -> list[Ciphertext]:
    """Decode and validate every point (MalformedEncoding / InvalidPoint); `validate` False: see `receive_shuffle`."""
    if type(raw) is not bytes or len(raw) % CT_LEN or len(raw) > CT_LEN * MAX_PILE:
        raise MalformedEncoding("deck: length is not a multiple of 64 bytes")
    if n is not None and len(raw) != CT_LEN * n:
        raise MalformedEncoding(f"deck: expected {n} ciphertexts, got {len(raw) // CT_LEN}")
    out = []
    for i in range(0, len(raw), CT_LEN):
        c1, c2 = raw[i : i + 32], raw[i + 32 : i + 64]
        if validate:
            check_point(c1, f"ciphertext {i // CT_LEN} c1")
            check_point(c2, f"ciphertext {i // CT_LEN} c2")
        out.append(Ciphertext(c1, c2))
    return out


def check_own_shuffle(prev: Sequence[Ciphertext], out: Sequence[Ciphertext], seat: int, step: int) -> list[Ciphertext]:
    """`receive_shuffle` for the shuffler's own output, made by :func:`shuffle` from checked points: every point is
    a libsodium result, so only the size and the distinctness checks run (they cost nothing)."""
    _check_masked(prev, out, seat, step)
    return list(out)


def _check_masked(prev: Sequence[Ciphertext], out: Sequence[Ciphertext], seat: int, step: int) -> None:
    if len(out) != len(prev):
        raise ShuffleError("shuffle output has the wrong number of cards", seat=seat, step=step)
    c1s = {c.c1 for c in out}
    if len(c1s) != len(out):
        raise ShuffleError("shuffle output repeats a ciphertext", seat=seat, step=step)
    if c1s & {c.c1 for c in prev}:
        raise ShuffleError("shuffle output leaves a ciphertext un-masked", seat=seat, step=step)


def receive_shuffle(
    prev: Sequence[Ciphertext], raw: bytes, seat: int, step: int, *, validate: bool = True
) -> list[Ciphertext]:
    """Decode a published shuffle output and run the checks possible before the audit.

    Every point valid, same size as the input, all c1 distinct, no ciphertext left un-masked.
    Failures raise :class:`ShuffleError` naming the shuffler and the step.

    `validate` False leaves the points' validity to the step's proof of shuffle, which the caller must check at
    once, before the output is used: its verification multiplies every point of the output (equations t4a, t4b),
    and libsodium's multiplication refuses a non-canonical, small-order or non-subgroup point, so the proof fails,
    naming the same shuffler, exactly where this check would have (the check is as dear as the multiplication
    that repeats it: 2n of them per step).
    """
    try:
        out = decode_deck(raw, len(prev), validate=validate)
    except (MalformedEncoding, InvalidPoint) as exc:
        raise ShuffleError(f"malformed shuffle output: {exc}", seat=seat, step=step) from None
    _check_masked(prev, out, seat, step)
    return out


class Share(NamedTuple):
    """Decryption share ``d = x_seat·c1`` with its DLEQ proof. Wire: u8 seat ‖ d(32) ‖ proof(64)."""

    seat: int
    d: bytes
    proof: bytes

    def to_bytes(self) -> bytes:
        return u8(self.seat) + self.d + self.proof

    @classmethod
    def from_bytes(cls, data: bytes) -> Share:
        if type(data) is not bytes or len(data) != SHARE_LEN:
            raise MalformedEncoding(f"share: expected {SHARE_LEN} bytes")
        return cls(data[0], data[1:33], data[33:])


def make_share(game_id: bytes, key: DeckKey, handle: int, ct: Ciphertext) -> Share:
    """This player's proven decryption share for the card at ``handle``."""
    d = mul(key.secret, ct.c1)
    share = Share(
        key.seat, d, dleq_prove(key.secret, key.public, ct.c1, d, share_context(game_id, key.seat, handle))
    )
    if len(_made) >= MAX_MADE:
        del _made[next(iter(_made))]
    _made[(game_id, key.public, handle, ct.c1)] = (share.seat, share.d, share.proof)
    return share


def forget_made_shares() -> None:
    """Forget the shares this process made (benchmarks measure the checks themselves)."""
    _made.clear()


def check_share_with_secret(secret: bytes, ct: Ciphertext, share: Share) -> None:
    """Check a share once its seat's deck secret is known (revealed, and checked against the seat's key): it is
    right exactly when ``d = x·c1``. One multiplication, where the proof takes four: the audit's check."""
    if not hmac.compare_digest(mul(secret, ct.c1), share.d):
        raise DecryptionError(f"decryption share of seat {share.seat} is not its key times the card")


def verify_share(game_id: bytes, public: bytes, handle: int, ct: Ciphertext, share: Share) -> None:
    """Check a share against the seat's (proven) deck key and a (validated) ciphertext.

    ``public`` must come from :func:`joint_key` checks and ``ct`` from :func:`decode_deck` /
    :func:`receive_shuffle` / local computation: they are not re-validated here; ``share.d`` is.
    Raises InvalidPoint / InvalidProof.
    """
    if _made.get((game_id, public, handle, ct.c1)) == tuple(share):
        return  # the very share this process made for that key, handle and card
    check_point(share.d, f"decryption share of seat {share.seat}")
    dleq_verify(public, ct.c1, share.d, share.proof, share_context(game_id, share.seat, handle), trusted=True)


def combine(ct: Ciphertext, ds: Iterable[bytes]) -> bytes:
    """``c2 − Σ d``: the card point once every seat's share is included (in any order)."""
    total: bytes | None = None
    for d in ds:
        total = d if total is None else add(total, d)
    if total is None:
        raise DecryptionError("no shares to combine")
    return sub(ct.c2, total)


def open_card(
    game_id: bytes,
    handle: int,
    ct: Ciphertext,
    shares: Iterable[Share],
    public_keys: Sequence[bytes],
    table: CardTable,
    *,
    verified: Iterable[int] = (),
) -> int:
    """Verify one share per seat (except seats in ``verified``) and return the card index."""
    by_seat: dict[int, Share] = {}
    for s in shares:
        if not 0 <= s.seat < len(public_keys):
            raise DecryptionError(f"share from unknown seat {s.seat}")
        if s.seat in by_seat and by_seat[s.seat] != s:
            raise DecryptionError(f"two different shares from seat {s.seat}")
        by_seat[s.seat] = s
    missing = [i for i in range(len(public_keys)) if i not in by_seat]
    if missing:
        raise DecryptionError(f"missing decryption shares from seats {missing}")
    skip = set(verified)
    for seat, s in by_seat.items():
        if seat not in skip:
            verify_share(game_id, public_keys[seat], handle, ct, s)
    return table.face(combine(ct, (by_seat[i].d for i in range(len(public_keys)))))


def encode_shares(shares: Iterable[Share]) -> bytes:
    """A card certificate: shares sorted by seat, concatenated (97 bytes each)."""
    return b"".join(s.to_bytes() for s in sorted(shares, key=lambda s: s.seat))


def decode_shares(data: bytes) -> list[Share]:
    if type(data) is not bytes or len(data) % SHARE_LEN or len(data) > SHARE_LEN * MAX_SEATS:
        raise MalformedEncoding(f"shares: length is not a multiple of {SHARE_LEN}")
    out = [Share.from_bytes(data[i : i + SHARE_LEN]) for i in range(0, len(data), SHARE_LEN)]
    if any(a.seat >= b.seat for a, b in itertools.pairwise(out)):
        raise MalformedEncoding("shares: not strictly sorted by seat")
    return out


def verify_shuffles(
    game_id: bytes,
    public_keys: Sequence[bytes],
    secret_keys: Sequence[bytes],
    start: Sequence[Ciphertext],
    steps: Sequence[tuple[int, Sequence[Ciphertext]]],
    witnesses: Sequence[ShuffleWitness],
    table: CardTable,
    expected_faces: Sequence[int] | None = None,
) -> list[int]:
    """End-of-game audit of one pile's shuffle history; return the face at every final position.

    ``steps[t] = (seat, published output)`` and ``witnesses[t]`` is that shuffler's revealed witness.
    Checks every revealed secret key against its public key, recomputes every step from its
    witness and compares with what was published, then decrypts the final pile with the summed
    secret keys and checks it holds exactly ``expected_faces`` (default: every card once).
    Raises :class:`ShuffleError` naming the seat and the step at fault.
    """
    if len(secret_keys) != len(public_keys):
        raise ShuffleError("need every seat's revealed deck secret key")
    if len(steps) != len(witnesses):
        raise ShuffleError("need one revealed witness per shuffle step")
    x_total: bytes | None = None
    pk: bytes | None = None
    for seat, (x, public) in enumerate(zip(secret_keys, public_keys, strict=True)):
        try:
            ok = base_mul(check_nonzero_scalar(x, "revealed deck key")) == public
        except (InvalidScalar, InvalidPoint):
            ok = False
        if not ok:
            raise ShuffleError("revealed deck secret key does not match the public key", seat=seat)
        x_total = x if x_total is None else scalar_add(x_total, x)
        pk = public if pk is None else add(pk, public)
    assert x_total is not None and pk is not None
    cur = list(start)
    for step, ((seat, published), w) in enumerate(zip(steps, witnesses, strict=True)):
        try:
            w.validate(len(cur))
        except (MalformedEncoding, InvalidScalar) as exc:
            raise ShuffleError(f"invalid witness: {exc}", seat=seat, step=step) from None
        if len(published) != len(cur):
            raise ShuffleError("shuffle output has the wrong number of cards", seat=seat, step=step)
        expected = _apply_shuffle_known_key(cur, x_total, w)
        for j, (a, b) in enumerate(zip(expected, published, strict=True)):
            if a != b:
                raise ShuffleError(
                    f"output position {j} does not match the revealed witness", seat=seat, step=step
                )
        cur = list(published)
    try:
        faces = [table.face(sub(c2, mul(x_total, c1))) for c1, c2 in cur]
    except (DecryptionError, InvalidPoint):
        raise ShuffleError("final pile holds a ciphertext that is not a card (bad starting pile)") from None
    want = list(range(len(table))) if expected_faces is None else list(expected_faces)
    if sorted(faces) != sorted(want):
        raise ShuffleError("final pile does not hold exactly the expected cards (bad starting pile)")
    return faces
