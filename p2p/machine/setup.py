"""Setup entries: joins (deck keys with proof, beacon commitments), beacon links for CHANCE picks, the shuffle steps of
each pile.

An object the fold (`Machine`, p2p/machine/machine.py) holds, stateless: each method is called with the fold, whose log
state it reads and extends (the keys, the beacon tracker, the piles); the proof checks go through the fold's seams
(`_check_shuffle_proof`, `_new_pile`: the offline audit's pool replaces them, p2p/audit_pool.py)."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.beacon import BeaconTracker
from adp2p.crypto.deck import (
    check_own_shuffle,
    fresh_pile,
    initial_deck,
    joint_key,
    receive_shuffle,
    verify_deck_key,
)
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.shuffle_proof import ShuffleContext, verify_shuffle_proof
from adp2p.p2p.piles import Pile
from adp2p.p2p.protocol import ProtocolError, need

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Setup:
    """Setup entries: joins, beacon links, shuffle steps."""

    def join(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        pk = need(body, "deck_key", bytes, size=32)
        proof = need(body, "deck_proof", bytes, size=64)
        head = need(body, "beacon_head", bytes, size=32)
        try:
            verify_deck_key(fold.game_id, seat, pk, proof)
        except CryptoError as exc:
            raise ProtocolError(seat, f"deck key without a valid proof: {exc}") from None
        if any(k is not None and k[0] == pk for k in fold.keys):
            raise ProtocolError(seat, "deck key repeats another seat's key")
        fold.keys[seat] = (pk, proof)
        fold.heads[seat] = head
        if all(k is not None for k in fold.keys):
            keys = [k for k in fold.keys if k is not None]
            try:
                fold.joint_pk = joint_key(fold.game_id, keys)
            except CryptoError as exc:
                raise ProtocolError(None, f"joint key: {exc}") from None
            fold.tracker = BeaconTracker(fold.game_id, [h for h in fold.heads if h is not None], fold.g.chain_length)

    def link(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        assert fold.tracker is not None
        k = need(body, "k", int)
        link = need(body, "link", bytes, size=32)
        if k != fold.pick_no + 1:
            raise ProtocolError(seat, f"beacon link for pick {k}, expected pick {fold.pick_no + 1}")
        try:
            fold.tracker.reveal(seat, k, link)
        except CryptoError as exc:
            raise ProtocolError(seat, f"wrong beacon link: {exc}") from None
        if fold.tracker.ready(k):
            fold.pick_no = k
            d = fold.game.pending(fold.state)
            assert d is not None
            fold._engine(None, fold.game.chance_event(d, fold.tracker.pick(k, f"{d.kind}/{k}".encode()), fold.n))

    def new_pile(self, fold: Fold) -> Pile:
        first = fold.state.next_handle
        index = len(fold.hmap.piles)
        faces = fold.game.pile_faces(fold.state)  # public: every peer knows them
        if faces is None:
            return Pile(index, first, None, initial_deck(fold.game_id, fold.joint_pk, fold.table))
        pile = Pile(index, first, faces, [])
        pile.start = fresh_pile(fold.game_id, fold.joint_pk, faces, fold.table, pile.context())
        return pile

    def check_shuffle_proof(
        self, fold: Fold, seat: int, ctx: ShuffleContext, deck_in: list[Any], deck_out: list[Any], proof: bytes
    ) -> None:
        """The proof of shuffle of `seat`'s step (the offline audit checks it in a worker process meanwhile)."""
        try:  # the input is the pile's last validated step (or its public start), the key the proven joint key
            verify_shuffle_proof(ctx, fold.joint_pk, deck_in, deck_out, proof, trusted=True)
        except CryptoError as exc:
            raise ProtocolError(seat, str(exc)) from None

    def shuffle(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        raw = need(body, "deck", bytes)
        proof = need(body, "proof", bytes)
        pile = fold.pile or fold._new_pile()
        own, fold.own_shuffle = fold.own_shuffle, None
        step = len(pile.steps)
        mine = own is not None and seat == fold.seat and own[0] == raw
        try:
            if mine:
                assert own is not None
                out = check_own_shuffle(pile.final, own[1], seat, step)
            else:
                # checked in line, its proof multiplies (and so validates) every point: not checked twice
                out = receive_shuffle(pile.final, raw, seat, step, validate=not fold._proofs_in_line)
        except CryptoError as exc:
            raise ProtocolError(seat, f"shuffle output rejected: {exc}") from None
        if not mine:  # our own proof was made from our witness: not checked again
            ctx = ShuffleContext(fold.game_id, pile.context(), seat, step)
            fold._check_shuffle_proof(seat, ctx, pile.final, out, proof)
        pile.steps.append((seat, out))
        fold.shuffle_seqs.setdefault(pile.index, []).append(fold.entries)
        fold.pile = pile
        if len(pile.steps) == fold.n:
            fold.hmap.add_pile(pile)
            fold.pile = None
            fold._engine(None, fold.game.shuffle_event())
            if fold.state.next_handle != fold.hmap.next_handle:
                raise ProtocolError(None, "the engine's handles and the shuffled piles disagree")
