"""Setup entries: joins (deck keys with proof, beacon commitments), beacon links for CHANCE picks, the shuffle steps of
each pile.

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

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


class SetupPart:
    """Setup entries."""

    _proofs_in_line = True  # proofs of shuffle checked at once, in line (the audit's pool: later, in a worker)

    def _join(self, seat: int, body: dict[str, Any]) -> None:
        pk = need(body, "deck_key", bytes, size=32)
        proof = need(body, "deck_proof", bytes, size=64)
        head = need(body, "beacon_head", bytes, size=32)
        try:
            verify_deck_key(self.game_id, seat, pk, proof)
        except CryptoError as exc:
            raise ProtocolError(seat, f"deck key without a valid proof: {exc}") from None
        if any(k is not None and k[0] == pk for k in self.keys):
            raise ProtocolError(seat, "deck key repeats another seat's key")
        self.keys[seat] = (pk, proof)
        self.heads[seat] = head
        if all(k is not None for k in self.keys):
            keys = [k for k in self.keys if k is not None]
            try:
                self.joint_pk = joint_key(self.game_id, keys)
            except CryptoError as exc:
                raise ProtocolError(None, f"joint key: {exc}") from None
            self.tracker = BeaconTracker(self.game_id, [h for h in self.heads if h is not None], self.g.chain_length)

    def _link(self, seat: int, body: dict[str, Any]) -> None:
        assert self.tracker is not None
        k = need(body, "k", int)
        link = need(body, "link", bytes, size=32)
        if k != self.pick_no + 1:
            raise ProtocolError(seat, f"beacon link for pick {k}, expected pick {self.pick_no + 1}")
        try:
            self.tracker.reveal(seat, k, link)
        except CryptoError as exc:
            raise ProtocolError(seat, f"wrong beacon link: {exc}") from None
        if self.tracker.ready(k):
            self.pick_no = k
            d = self.game.pending(self.state)
            assert d is not None
            self._engine(None, self.game.chance_event(d, self.tracker.pick(k, f"{d.kind}/{k}".encode()), self.n))

    def _new_pile(self) -> Pile:
        first = self.state.next_handle
        index = len(self.hmap.piles)
        faces = self.game.pile_faces(self.state)  # public: every peer knows them
        if faces is None:
            return Pile(index, first, None, initial_deck(self.game_id, self.joint_pk, self.table))
        pile = Pile(index, first, faces, [])
        pile.start = fresh_pile(self.game_id, self.joint_pk, faces, self.table, pile.context())
        return pile

    def _check_shuffle_proof(
        self, seat: int, ctx: ShuffleContext, deck_in: list[Any], deck_out: list[Any], proof: bytes
    ) -> None:
        """The proof of shuffle of `seat`'s step (the offline audit checks it in a worker process meanwhile)."""
        try:  # the input is the pile's last validated step (or its public start), the key the proven joint key
            verify_shuffle_proof(ctx, self.joint_pk, deck_in, deck_out, proof, trusted=True)
        except CryptoError as exc:
            raise ProtocolError(seat, str(exc)) from None

    def _shuffle(self, seat: int, body: dict[str, Any]) -> None:
        raw = need(body, "deck", bytes)
        proof = need(body, "proof", bytes)
        pile = self.pile or self._new_pile()
        own, self.own_shuffle = self.own_shuffle, None
        step = len(pile.steps)
        mine = own is not None and seat == self.seat and own[0] == raw
        try:
            if mine:
                assert own is not None
                out = check_own_shuffle(pile.final, own[1], seat, step)
            else:
                # checked in line, its proof multiplies (and so validates) every point: not checked twice
                out = receive_shuffle(pile.final, raw, seat, step, validate=not self._proofs_in_line)
        except CryptoError as exc:
            raise ProtocolError(seat, f"shuffle output rejected: {exc}") from None
        if not mine:  # our own proof was made from our witness: not checked again
            ctx = ShuffleContext(self.game_id, pile.context(), seat, step)
            self._check_shuffle_proof(seat, ctx, pile.final, out, proof)
        pile.steps.append((seat, out))
        self.shuffle_seqs.setdefault(pile.index, []).append(self.entries)
        self.pile = pile
        if len(pile.steps) == self.n:
            self.hmap.add_pile(pile)
            self.pile = None
            self._engine(None, self.game.shuffle_event())
            if self.state.next_handle != self.hmap.next_handle:
                raise ProtocolError(None, "the engine's handles and the shuffled piles disagree")
