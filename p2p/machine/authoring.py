"""Authoring: this seat's next entry when the duty is ours: its decision, its shuffle (masks made ahead), its shares
(the random material of a shuffle step and a shares entry is the dealer's: p2p/machine/dealer.py).

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.deck import Masks, encode_deck, make_masks
from adp2p.crypto.shuffle_proof import ShuffleContext, prove_shuffle
from adp2p.p2p.machine.common import (
    Chooser,
)
from adp2p.p2p.machine.dealer import Dealer
from adp2p.p2p.protocol import Kind


class AuthoringPart:
    """Authoring."""

    dealer: Dealer = Dealer()  # this seat's shuffles and shares (a seeded table's or a test's cheater's: its own)

    proof_seed: bytes | None = None  # fixed only by seeded test tables (reproducible proofs); None: fresh randomness

    def author_next(self, choose: Chooser | None = None) -> tuple[Kind, dict[str, Any]] | None:
        """The body of the next entry if it is this seat's to author (choose: picks an engine event)."""
        duty = self.duty()
        me = self.me
        if duty is None or me is None or duty.seat != me.seat:
            return None
        assert self.deck_key is not None and self.chain is not None
        if duty.kind == Kind.JOIN:
            return duty.kind, {
                "deck_key": self.deck_key.public,
                "deck_proof": self.deck_key.proof,
                "beacon_head": self.chain.head,
            }
        if duty.kind == Kind.LINK:
            k = self.pick_no + 1
            return duty.kind, {"k": k, "link": self.chain.link(k)}
        if duty.kind == Kind.SHUFFLE:
            pile = self.pile or self._new_pile()
            out, w = self.dealer.shuffle(self, pile.final)  # (p2p/machine/dealer.py)
            me.witnesses[pile.index] = w.to_bytes()
            ctx = ShuffleContext(self.game_id, pile.context(), me.seat, len(pile.steps))
            proof = prove_shuffle(ctx, self.joint_pk, pile.final, out, w.perm, w.rs, seed=self.proof_seed)
            return duty.kind, {"deck": encode_deck(out), "proof": proof}
        if duty.kind == Kind.SHARES:
            return duty.kind, self.dealer.shares(self)
        if duty.kind == Kind.EVENT:
            if choose is None:
                return None
            seen = self.game.view(self.state, me.seat)
            ev = choose(seen, me.seat, self.game.legal(seen, me.seat))
            body: dict[str, Any] = {"ev": ev}
            body.update(self.part.event_body(self, ev))  # the game's: commitments made with it, proofs
            return duty.kind, body
        if duty.kind == Kind.SECRETS:
            return duty.kind, {
                "deck_secret": me.deck_secret,
                "box_secret": bytes(me.identity.box_key),
                "witnesses": sorted([k, v] for k, v in me.witnesses.items()),
                **self.part.author_secret_fields(self),
            }
        return None

    def take_masks(self) -> Masks | None:
        """The masks made ahead for our next shuffle step (`prepare_shuffle`), handed over once."""
        masks, self._masks = self._masks, None
        return masks

    def prepare_shuffle(self) -> bool:
        """While another seat shuffles a pile that we shuffle later: make our masks for it now, so our own step is
        additions only once the deck comes (the multiplications leave the critical path). True if it made them."""
        if self.me is None or self.seat is None or self._masks is not None or not self.joint_pk:
            return False
        d = self.duty()
        if d is not None and d.kind == Kind.SHUFFLE and d.seat < self.seat:
            pile = self.pile or self._new_pile()
            self.pile = pile  # (what the first step's `_shuffle` would make)
            size = len(pile.start)
        elif d is not None and d.kind == Kind.LINK and not self.hmap.piles and self.pile is None:
            size = len(self.table)  # the beacon picks before the deal: the full deck is shuffled next
        else:
            return False
        self._masks = make_masks(self.joint_pk, size)
        return True
