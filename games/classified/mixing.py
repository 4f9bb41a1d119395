"""The hand mix at the table (ruling C-MIX; docs/protocol.md "Hands are mixed after a show"): the `mix` field of the
event entry `{"t": "mix", "p": seat}` the rules ask of a seat whose hand was shown (engine/classified/mixing.py).

`mix: [deck: bin(64·n), proof: bin]` is a one-step shuffle of the hand's ciphertexts (the hand's handles in hand
order, `n` of them) under the joint key, with its proof of shuffle (crypto/shuffle_proof.py) in the context
`ShuffleContext(game_id, "mix/" ‖ u64(seq), seat, 1)`; output position `j` is the new handle `first + j` (the
rules' fresh handles, in order). Every peer checks it on arrival, before the rules apply the event
(`check`: the shape, the output re-masked, the proof); a mix that is missing, out of place or false is its author's
protocol error, rule `hand_mix`. The witness is the author's alone and is never revealed: the proof binds the
output to the hand, and the deck secrets revealed at the end open every new handle (the audit's strict replay).
A zoo cheater replaces `Mixer.output` (tests/adversaries/_zoo_classified.py, `MixesIn`)."""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.deck import Ciphertext, ShuffleWitness, apply_shuffle, encode_deck, receive_shuffle, shuffle
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.group import add, hash_to_scalar
from adp2p.crypto.hashing import u8, u64
from adp2p.crypto.shuffle_proof import ShuffleContext, prove_shuffle, verify_shuffle_proof
from adp2p.p2p.protocol import ProtocolError

RULE_MIX = "hand_mix"  # a hand mix that is missing, out of place, or whose proof of shuffle fails
STEP = 1  # the step of a mix's shuffle context (one step, by the hand's owner)
ENTROPY = b"adp2p/v1/classified/mix\0"  # a seeded test table's mix randomness (reproducible logs)


def context(game_id: bytes, seq: int, seat: int) -> ShuffleContext:
    """The proof of shuffle's context of the mix at entry `seq` by `seat`."""
    return ShuffleContext(game_id, b"mix/" + u64(seq), seat, STEP)


def joint_pk(keys: list[tuple[bytes, bytes] | None]) -> bytes:
    """The joint deck key from the two announced keys (each proved at join: p2p/machine/setup.py)."""
    publics = [k[0] for k in keys if k is not None]
    if len(publics) != 2:
        raise ProtocolError(None, "a hand mix before both deck keys are known")  # the core's order prevents it
    return add(publics[0], publics[1])


def hand_cts(fold: Any, seat: int) -> list[Ciphertext]:
    """The ciphertexts of `seat`'s hand, in hand order (the mix's input)."""
    return [fold.hmap[h] for h in fold.state.eng.hands[seat]]


def due(fold: Any, seat: int) -> bool:
    d = fold.game.pending(fold.state)
    return d is not None and d.kind == "mix" and d.actor == seat


def check(fold: Any, seat: int, body: dict[str, Any], ev: dict[str, Any]) -> list[Ciphertext] | None:
    """Every peer, before the rules: the mix an entry carries (None: none, and none is due from this event). A mix
    on an event that is no mix, a mix event without one, a malformed or false one: `seat`'s ProtocolError."""
    is_mix = ev.get("t") == "mix"
    if "mix" not in body:
        if is_mix:
            raise ProtocolError(seat, "a hand mix without its shuffle and proof", rule=RULE_MIX)
        return None
    if not is_mix:
        raise ProtocolError(seat, "a hand shuffle on an entry that mixes no hand", rule=RULE_MIX)
    if not due(fold, seat):
        return None  # the rules refuse the event itself (not_now / not_your_turn), naming the same seat
    item = body["mix"]
    if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is bytes and type(item[1]) is bytes):
        raise ProtocolError(seat, "`mix` is [deck, proof]", rule=RULE_MIX)
    raw, proof = item
    hand = hand_cts(fold, seat)
    try:
        out = receive_shuffle(hand, raw, seat, STEP)  # same size, every point valid, every card re-masked
    except CryptoError as exc:
        raise ProtocolError(seat, f"hand mix rejected: {_why(exc)}", rule=RULE_MIX) from None
    try:
        fold.proof_check(verify_mix, context(fold.game_id, fold.entries, seat), joint_pk(fold.keys), hand, out, proof)
    except CryptoError as exc:
        raise ProtocolError(seat, f"hand mix: {_why(exc)}", rule=RULE_MIX) from None
    return out


def _why(exc: CryptoError) -> str:
    """A shuffle check's words without its "(shuffler seat i, step k)": the verdict names the seat (from 1) already."""
    return re.sub(r" \((shuffler seat \d+, )?step \d+\)$", "", str(exc))


def verify_mix(ctx: ShuffleContext, pk: bytes, hand: list[Ciphertext], out: list[Ciphertext], proof: bytes) -> None:
    """The proof of shuffle of a mix (ShuffleError if it fails): the hand from the handle map, the output decoded and
    every point validated, the key the sum of two proved keys (a module-level function: the audit's workers run it)."""
    verify_shuffle_proof(ctx, pk, hand, out, proof, trusted=True)


def record(fold: Any, seat: int, out: list[Ciphertext]) -> None:
    """After the rules applied the mix: its output takes the rules' new handles, in order."""
    first = fold.state.eng.next_handle - len(out)
    fold.hmap.add_mixed(first, out)
    if fold.state.eng.next_handle != fold.hmap.next_handle:
        raise ProtocolError(None, "the engine's handles and the mixed hand disagree")


class Mixer:
    """This seat's mix of its hand: a fresh secret permutation and re-masking (a seeded test table derives them from
    its proof seed), and its proof."""

    def witness(self, fold: Any, n: int) -> ShuffleWitness | None:
        """A seeded table's witness (None: fresh from the OS)."""
        if fold.proof_seed is None:
            return None
        key = hashlib.blake2b(ENTROPY + fold.proof_seed + u64(fold.entries) + u8(fold.seat), digest_size=32).digest()
        rng = random.Random(key)
        perm = list(range(n))
        rng.shuffle(perm)
        rs = [hash_to_scalar(domains.SHUFFLE_NONCE, key, b"mix", u8(j)) for j in range(n)]
        return ShuffleWitness(perm, rs)

    def output(self, fold: Any, hand: list[Ciphertext], pk: bytes) -> tuple[list[Ciphertext], ShuffleWitness]:
        w = self.witness(fold, len(hand))
        if w is None:
            return shuffle(hand, pk)
        return apply_shuffle(hand, pk, w), w

    def body(self, fold: Any) -> dict[str, Any]:
        """The `mix` field of this seat's mix entry."""
        seat = fold.seat
        hand = hand_cts(fold, seat)
        pk = joint_pk(fold.keys)
        out, w = self.output(fold, hand, pk)
        proof = prove_shuffle(context(fold.game_id, fold.entries, seat), pk, hand, out, w.perm, w.rs,
                              seed=fold.proof_seed)
        return {"mix": [encode_deck(out), proof]}
