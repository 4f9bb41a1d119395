"""Authoring: this seat's next entry when the duty is ours: its decision, its shuffle (masks made ahead), its shares
(the random material of a shuffle step and a shares entry is the dealer's: p2p/machine/dealer.py).

An object the fold (`Machine`, p2p/machine/machine.py) holds, called with the fold; it keeps the one thing it owns, the
masks made ahead for this seat's next shuffle step (`masks`).

`Author` is the seam for what this seat sends (`Machine.author`, an object the fold holds, as its dealer and referee):
the honest one has the fold's `Authoring` build the entry; a test's cheater gives its own, which wraps the honest one
(tests/adversaries/)."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.deck import Masks, encode_deck, make_masks
from adp2p.crypto.shuffle_proof import ShuffleContext, prove_shuffle
from adp2p.p2p.machine.common import (
    Chooser,
)
from adp2p.p2p.protocol import Kind

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Author:
    """What this seat authors when the duty is ours: the honest author sends what the fold's `Authoring` builds. A
    cheater's author (a subclass) changes the body, sends nothing, or sends another (tests/adversaries/). Held by the
    class or the fold, shared by its snapshots and forks: it keeps no state of its own."""

    def author_next(self, fold: Fold, choose: Chooser | None = None) -> tuple[Kind, dict[str, Any]] | None:
        """The body of the next entry if it is this seat's to author (choose: picks an engine event)."""
        return fold.authoring.author_next(fold, choose)


class Authoring:
    """Authoring (the random material is the fold's dealer's, `fold.dealer`; reproducible proofs: `fold.proof_seed`)."""

    def __init__(self) -> None:
        self.masks: Masks | None = None  # re-masking made ahead for our next shuffle step (`prepare_shuffle`)

    def author_next(self, fold: Fold, choose: Chooser | None = None) -> tuple[Kind, dict[str, Any]] | None:
        """The body of the next entry if it is this seat's to author (choose: picks an engine event)."""
        duty = fold.duty()
        me = fold.me
        if duty is None or me is None or duty.seat != me.seat:
            return None
        assert fold.deck_key is not None and fold.chain is not None
        if duty.kind == Kind.JOIN:
            return duty.kind, {
                "deck_key": fold.deck_key.public,
                "deck_proof": fold.deck_key.proof,
                "beacon_head": fold.chain.head,
            }
        if duty.kind == Kind.LINK:
            k = fold.pick_no + 1
            return duty.kind, {"k": k, "link": fold.chain.link(k)}
        if duty.kind == Kind.SHUFFLE:
            pile = fold.pile or fold._new_pile()
            out, w = fold.dealer.shuffle(fold, pile.final)  # (p2p/machine/dealer.py)
            me.witnesses[pile.index] = w.to_bytes()
            ctx = ShuffleContext(fold.game_id, pile.context(), me.seat, len(pile.steps))
            proof = prove_shuffle(ctx, fold.joint_pk, pile.final, out, w.perm, w.rs, seed=fold.proof_seed)
            return duty.kind, {"deck": encode_deck(out), "proof": proof}
        if duty.kind == Kind.SHARES:
            return duty.kind, fold.dealer.shares(fold)
        if duty.kind == Kind.EVENT:
            if choose is None:
                return None
            seen = fold.game.view(fold.state, me.seat)
            ev = choose(seen, me.seat, fold.game.legal(seen, me.seat))
            body: dict[str, Any] = {"ev": ev}
            body.update(fold.part.event_body(fold, ev))  # the game's: commitments made with it, proofs
            return duty.kind, body
        if duty.kind == Kind.SECRETS:
            return duty.kind, {
                "deck_secret": me.deck_secret,
                "box_secret": bytes(me.identity.box_key),
                "witnesses": sorted([k, v] for k, v in me.witnesses.items()),
                **fold.part.author_secret_fields(fold),
            }
        return None

    def take_masks(self, fold: Fold) -> Masks | None:
        """The masks made ahead for our next shuffle step (`prepare_shuffle`), handed over once."""
        masks, self.masks = self.masks, None
        return masks

    def prepare_shuffle(self, fold: Fold) -> bool:
        """While another seat shuffles a pile that we shuffle later: make our masks for it now, so our own step is
        additions only once the deck comes (the multiplications leave the critical path). True if it made them."""
        if fold.me is None or fold.seat is None or self.masks is not None or not fold.joint_pk:
            return False
        d = fold.duty()
        if d is not None and d.kind == Kind.SHUFFLE and d.seat < fold.seat:
            pile = fold.pile or fold._new_pile()
            fold.pile = pile  # (what the first step's `_shuffle` would make)
            size = len(pile.start)
        elif d is not None and d.kind == Kind.LINK and not fold.hmap.piles and fold.pile is None:
            size = len(fold.table)  # the beacon picks before the deal: the full deck is shuffled next
        else:
            return False
        self.masks = make_masks(fold.joint_pk, size)
        return True
