"""The dealer: this seat's own random material at the table, made when the fold authors an entry of ours: its shuffle
steps (re-mask and permute) and its decryption shares (the shares entry's body, sealed to each learner).

An object the fold holds (`Machine.dealer`), called with the fold and returning what it made: the seam where a seeded
test table draws its shuffles and the secrets the game draws (a private roll's) from its seed, and where a test's
cheater supplies wrong shares (tests/adversaries/)."""

from __future__ import annotations

from typing import Any, Protocol

from adp2p.crypto.deck import DeckKey, Masks, Share, ShuffleWitness, encode_deck, make_share, shuffle, shuffle_with
from adp2p.crypto.encoding import pack
from adp2p.crypto.identity import PublicIdentity
from adp2p.crypto.private import seal_private
from adp2p.p2p.machine.common import Round
from adp2p.p2p.machine.game_part import TablePart
from adp2p.p2p.piles import HandleMap, bits
from adp2p.p2p.seat_secrets import SeatSecrets


class Dealing(Protocol):
    """What the dealer reads of the fold (`Machine`), and the one thing it leaves there (`own_shuffle`)."""

    n: int
    game_id: bytes
    ids: list[PublicIdentity]
    me: SeatSecrets | None
    deck_key: DeckKey | None
    joint_pk: bytes
    round: Round | None
    hmap: HandleMap
    shares: dict[int, dict[int, Share]]
    part: TablePart
    own_shuffle: tuple[bytes, list[Any]] | None

    def take_masks(self) -> Masks | None: ...

    def box_context(self, sender: int, recipient: int) -> bytes: ...


class Dealer:
    """This seat's shuffles and shares, from fresh randomness (a seeded test table's dealer draws its own)."""

    def shuffle(self, fold: Dealing, deck: list[Any]) -> tuple[list[Any], ShuffleWitness]:
        """This seat's shuffle step of `deck`: re-masked (with the masks made ahead, `Machine.prepare_shuffle`, if they
        fit) and permuted. The fold keeps its own output (`own_shuffle`): libsodium results from checked points are not
        checked again."""
        masks = fold.take_masks()
        if masks is not None and masks.joint_pk == fold.joint_pk and len(masks.rs) == len(deck):
            out, w = shuffle_with(deck, masks)  # the multiplications were done while others shuffled
        else:
            out, w = shuffle(deck, fold.joint_pk)
        fold.own_shuffle = (encode_deck(out), out)
        return out, w

    def shares(self, fold: Dealing) -> dict[str, Any]:
        """The body of this seat's shares entry for the reveal round on: each handle's shares (its own, or every seat's
        for a certificate), with the opening shown with the card when one is due; public ones in `pub`, the others
        sealed to each seat that learns them."""
        me, rnd = fold.me, fold.round
        assert me is not None and fold.deck_key is not None and rnd is not None
        seat = me.seat
        pub: list[list[Any]] = []
        per: dict[int, list[list[Any]]] = {}
        for h, new, mode in rnd.duties[seat]:
            ct = fold.hmap[h]
            if mode == "own":
                shares = [self.share(fold, h, ct, mode)]
            else:
                have = dict(fold.shares.get(h, {}))
                have[seat] = self.share(fold, h, ct, mode)
                shares = [have[s] for s in range(fold.n)]
            item: list[Any] = [h, [s.to_bytes() for s in shares]]
            if fold.part.opening_due(seat, h):
                item.append(list(me.openings[h]))
            if h in rnd.public:
                pub.append(item)
            else:
                for q in bits(new):
                    if q != seat:
                        per.setdefault(q, []).append(item)
        sealed = [
            [q, seal_private(me.identity, fold.ids[q], fold.box_context(seat, q), pack(items))]
            for q, items in sorted(per.items())
        ]
        return {"pub": pub, "sealed": sealed}

    def share(self, fold: Dealing, h: int, ct: Any, mode: str) -> Share:
        """This seat's decryption share of handle `h` (ciphertext `ct`), with its proof."""
        assert fold.deck_key is not None
        return make_share(fold.game_id, fold.deck_key, h, ct)

    def draw_secret(self, fold: Dealing, what: str, index: int) -> bytes | None:
        """A secret of this seat's the game draws (a private roll's): None, fresh from the OS (a seeded test table's
        dealer draws it from its seed, so that its games repeat)."""
        return None
