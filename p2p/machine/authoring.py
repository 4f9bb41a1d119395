"""Authoring: this seat's next entry when the duty is ours: its decision, its shuffle (masks made ahead), its shares.

One part of `Machine` (p2p/machine/machine.py): its methods work on the machine's shared state."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.deck import (
    Share,
    ShuffleWitness,
    encode_deck,
    make_masks,
    make_share,
    shuffle,
    shuffle_with,
)
from adp2p.crypto.encoding import pack
from adp2p.crypto.private import seal_private
from adp2p.crypto.shuffle_proof import ShuffleContext, prove_shuffle
from adp2p.p2p.machine.common import (
    Chooser,
)
from adp2p.p2p.piles import bits
from adp2p.p2p.protocol import Kind


class AuthoringPart:
    """Authoring."""

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
            out, w = self._make_shuffle(pile.final)
            me.witnesses[pile.index] = w.to_bytes()
            ctx = ShuffleContext(self.game_id, pile.context(), me.seat, len(pile.steps))
            proof = prove_shuffle(ctx, self.joint_pk, pile.final, out, w.perm, w.rs, seed=self.proof_seed)
            return duty.kind, {"deck": encode_deck(out), "proof": proof}
        if duty.kind == Kind.SHARES:
            return duty.kind, self._author_shares()
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

    def _make_shuffle(self, deck: list[Any]) -> tuple[list[Any], ShuffleWitness]:
        """This seat's shuffle step: re-mask and permute with fresh randomness (a seeded test table overrides
        this to make its games reproducible)."""
        masks, self._masks = self._masks, None
        if masks is not None and masks.joint_pk == self.joint_pk and len(masks.rs) == len(deck):
            out, w = shuffle_with(deck, masks)  # the multiplications were done while others shuffled
        else:
            out, w = shuffle(deck, self.joint_pk)
        self._own_shuffle = (encode_deck(out), out)  # libsodium results from checked points: not checked again
        return out, w

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

    def _author_shares(self) -> dict[str, Any]:
        assert self.me is not None and self.deck_key is not None and self.round is not None
        rnd = self.round
        seat = self.me.seat
        pub: list[list[Any]] = []
        per: dict[int, list[list[Any]]] = {}
        for h, new, mode in rnd.duties[seat]:
            ct = self.hmap[h]
            if mode == "own":
                shares = [self._my_share(h, ct, mode)]
            else:
                have = dict(self.shares.get(h, {}))
                have[seat] = self._my_share(h, ct, mode)
                shares = [have[s] for s in range(self.n)]
            item: list[Any] = [h, [s.to_bytes() for s in shares]]
            if self.part.opening_due(seat, h):
                item.append(list(self.me.openings[h]))
            if h in rnd.public:
                pub.append(item)
            else:
                for q in bits(new):
                    if q != seat:
                        per.setdefault(q, []).append(item)
        sealed = [
            [q, seal_private(self.me.identity, self.ids[q], self._box_context(seat, q), pack(items))]
            for q, items in sorted(per.items())
        ]
        return {"pub": pub, "sealed": sealed}

    def _my_share(self, h: int, ct: Any, mode: str) -> Share:
        assert self.deck_key is not None
        return make_share(self.game_id, self.deck_key, h, ct)
