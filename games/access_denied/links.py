"""Link proofs at the table: a password's Pedersen commitments are the codes of the very cards it is made of.

The answer proofs (answers.py, beside this part) show that each answer agrees with the controller's commitments; a
link proof shows that the commitments agree with the cards. Without it, a controller who commits false codes and
answers by them (a consistent liar) is caught only when the cards are opened. With it, it is caught at its first
answer about that password, before that answer counts.

When: the controller's FIRST proved answer about a password (the three handles of a `password` event or of
Scramble Password's `new`) carries `code_link`, one item per password card in the password's order:
``[[share of every other seat, in seat order], proof]``. The shares are the proven decryption shares the controller
received when the card came to its hand (each bound by its DLEQ proof to its seat's deck key and the handle, not
to a recipient). Without the controller's own share they leave the card an ElGamal encryption under the
controller's deck key alone, ``c2' = c2 − Σ d_others`` (crypto/code_link.py), which the proof is about: the card
is one of the game's faces and the commitment holds that face's code. Later answers about the same password carry
no `code_link`. Every peer checks it on arrival (a public check, the same at every peer): a share that does not verify,
a missing or surplus `code_link`, or a proof that does not verify is the controller's fault, rule `password_link`.

The proof: from protocol version 5 the constant-size card link proof (crypto/card_link.py: a card's point is
``code·G + id·J``, so the proof is a representation proof of six scalar multiplications to check, 128 bytes); a log
of version 4 carries, and its audit checks, the 63-branch OR proof of crypto/code_link.py (6048 bytes, ~45 ms).
Only a password that is attacked is linked; the controller makes its proofs ahead while others are on duty
(`prepare_ahead`), off the critical path (docs/security.md, figures).

A piece of Access Denied's table part (part.py): it reads the fold through `Fold` (p2p/machine/game_part.py); it
keeps which passwords are linked, and the links of this seat's made ahead."""

from __future__ import annotations

from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.card_link import PROOF_LEN as CARD_LINK_LEN
from adp2p.crypto.card_link import prove_card_link, verify_card_link
from adp2p.crypto.code_link import Faces, prove_link, verify_link_once
from adp2p.crypto.code_proofs import ProofContext, code_blinding
from adp2p.crypto.deck import Share, combine
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.hashing import hash32, u64
from adp2p.engine.access_denied.catalog import card
from adp2p.games.access_denied.records import Records
from adp2p.p2p.machine.game_part import Fold
from adp2p.p2p.protocol import ProtocolError, need

PURPOSE_LINK = b"link"  # a link proof's purpose; its handle is the password card's
RULE = "password_link"  # the rule a verdict on a password whose commitments are not its cards names
MAX_LINK_PROOF = 64 * 96  # at most 64 faces of 96 bytes (version 4; a version-5 proof is 128 bytes)


class Links:
    """Link proofs (a cheater of the zoo replaces this piece, tests/adversaries/)."""

    def __init__(self, records: Records) -> None:
        self.records = records
        self.linked: set[int] = set()  # password handles whose link proof every peer has checked
        self._faces: list[tuple[bytes, int]] | None = None  # every face as (card point, code), once needed
        self.ready: dict[tuple[int, int, int], list[Any] | None] = {}  # our links made ahead (`prepare_ahead`)

    def faces(self, fold: Fold) -> Faces:
        """Every face of the game as (card point, code), in table order: the candidates of every link proof."""
        if self._faces is None:
            self._faces = [(fold.table.point(i), card(i).code) for i in range(len(fold.table))]
        return self._faces

    def link_due(self, pw: tuple[int, int, int]) -> bool:
        """Whether the next proved answer about password `pw` must carry its link proof (its first one)."""
        return not all(h in self.linked for h in pw)

    # ---------------------------------------------------------------- authoring (the controller)

    def link_fields(self, fold: Fold, pw: tuple[int, int, int]) -> dict[str, Any]:
        """The `code_link` of this seat's password `pw`: per card, every other seat's share and the proof (made
        ahead by `prepare_ahead` while we waited, or now)."""
        items = self.ready.get(pw)
        if items is None:
            items = self.make_link(fold, pw)
        return {"code_link": items}

    def prepare_ahead(self, fold: Fold) -> bool:
        """While another seat is on duty: make the link of one password of ours that has none yet, so that our first
        answer about it only sends it (the proving leaves the critical path). True if it made one."""
        if fold.me is None or fold.seat is None or fold.round is not None or fold.finished:
            return False
        d = fold.duty()
        if d is None or d.seat == fold.seat:
            return False
        st = fold.state
        for s, hs in sorted(st.passwords.items()):
            pw = (hs[0], hs[1], hs[2]) if len(hs) == 3 else None
            if pw is None or st.controller[s] != fold.seat or pw in self.ready or not self.link_due(pw):
                continue
            try:
                self.ready[pw] = self.make_link(fold, pw)
            except Exception:  # made again when due, where a failure is reported as any authoring's
                self.ready[pw] = None
            else:
                self.check_ahead(fold, pw, self.ready[pw])
            return True
        return False

    def check_ahead(self, fold: Fold, pw: tuple[int, int, int], items: list[list[Any]] | None) -> None:
        """Our links made ahead, checked now as every peer checks them (`check_link_proof`'s statement, bytes for
        bytes): a proof that holds is remembered (crypto/card_link.py), so the fold of our own answer entry, on the
        critical path, does not check it a second time (issue 29). One that does not hold is not remembered: that
        fold checks it again and refuses it, as before."""
        if items is None or fold.version < 5 or fold.seat is None or fold.table.id_base is None:
            return
        key = fold.keys[fold.seat]
        if key is None:
            return
        for h, (raws, proof) in zip(pw, items, strict=False):
            try:
                c2p = combine(fold.hmap[h], (Share.from_bytes(raw).d for raw in raws))
                ctx = ProofContext(fold.game_id, fold.seat, pw, PURPOSE_LINK, h)
                commitment = self.records.pedersen[h]
                verify_card_link(fold.table.id_base, fold.hmap[h].c1, c2p, key[0], commitment, proof, ctx, True)
            except (CryptoError, KeyError, TypeError, ValueError):
                continue

    def make_link(self, fold: Fold, pw: tuple[int, int, int]) -> list[list[Any]]:
        me, key = fold.me, fold.deck_key
        assert me is not None and key is not None
        items: list[list[Any]] = []
        for h in pw:
            ct = fold.hmap[h]
            others = [fold.shares[h][s] for s in range(fold.n) if s != me.seat]
            c2p = combine(ct, (sh.d for sh in others))
            code, salt = me.openings[h]
            ctx = ProofContext(fold.game_id, me.seat, pw, PURPOSE_LINK, h)
            blind = code_blinding(fold.game_id, h, salt)
            commitment = self.records.pedersen[h]
            proof = self.prove_link(fold, ct.c1, c2p, key.secret, commitment, code, blind, fold.state.faces[h], ctx)
            items.append([[sh.to_bytes() for sh in others], proof])
        return items

    def prove_link(
        self,
        fold: Fold,
        c1: bytes,
        c2p: bytes,
        secret: bytes,
        commitment: bytes,
        code: int,
        blind: bytes,
        face: int,
        ctx: ProofContext,
    ) -> bytes:
        """The proof that `commitment` holds the code of the card: an honest prover refuses a false one. At a seeded
        test table its randomness is fixed by the seed and the password entry's seq, whenever it is made."""
        entropy = None
        if fold.proof_seed is not None:
            at = self.records.committed[ctx.handle][1]
            entropy = hash32(domains.NONCE, fold.proof_seed, b"link", u64(at), u64(ctx.handle))
        if fold.version >= 5:
            j = fold.table.id_base
            assert j is not None
            return prove_card_link(j, c1, c2p, secret, commitment, code, blind, face, ctx, entropy=entropy)
        return prove_link(c1, c2p, secret, commitment, code, blind, face, self.faces(fold), ctx, entropy=entropy)

    # ---------------------------------------------------------------- checking (every peer)

    def link_check(self, fold: Fold, seat: int, body: dict[str, Any], pw: tuple[int, int, int]) -> None:
        """Every peer, on a controller's proved answer: its password's link proof if this is the first answer about
        it (else none may be there)."""
        if not self.link_due(pw):
            if "code_link" in body:
                raise ProtocolError(seat, "a link proof for a password already linked", rule=RULE)
            return
        if "code_link" not in body:
            raise ProtocolError(seat, "its first answer about its password carries no link proof", rule=RULE)
        items = need(body, "code_link", list, max_len=3)
        if len(items) != 3:
            raise ProtocolError(seat, "its first answer about its password carries no link proof per card", rule=RULE)
        key = fold.keys[seat]
        assert key is not None
        for h, item in zip(pw, items, strict=True):
            self.link_item(fold, seat, h, item, key[0], pw)
        self.linked.update(pw)

    def link_item(self, fold: Fold, seat: int, h: int, item: Any, public: bytes, pw: tuple[int, int, int]) -> None:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list) and type(item[1]) is bytes):
            raise ProtocolError(seat, "a link item is [[share...], proof]", rule=RULE)
        raws, proof = item
        if len(raws) != fold.n - 1:
            raise ProtocolError(
                seat, f"password card {h}: a link with {len(raws)} share(s), due {fold.n - 1}", rule=RULE
            )
        most = CARD_LINK_LEN if fold.version >= 5 else MAX_LINK_PROOF
        if len(proof) > most:
            raise ProtocolError(
                seat, f"password card {h}: a link proof of {len(proof)} bytes (at most {most})", rule=RULE
            )
        ct = fold.hmap[h]
        others = [s for s in range(fold.n) if s != seat]
        ds, todo = [], []
        for want, raw in zip(others, raws, strict=True):
            try:
                sh = Share.from_bytes(raw)
            except (CryptoError, TypeError, ValueError) as exc:
                raise ProtocolError(
                    seat, f"password card {h}: a malformed share in its link: {exc}", rule=RULE
                ) from None
            if sh.seat != want:
                raise ProtocolError(seat, f"password card {h}: its link's shares are not one per other seat", rule=RULE)
            if fold.shares.get(h, {}).get(want) != sh:  # the very share we verified before needs no second check
                k = fold.keys[want]
                assert k is not None
                todo.append((k[0], sh))
            ds.append(sh.d)
        fold.check_shares(seat, h, ct, todo)  # a share that does not verify is the controller's: it supplied it
        ctx = ProofContext(fold.game_id, seat, pw, PURPOSE_LINK, h)
        try:  # (an invalid share point reaches here only in the audit's pooled fold, whose worker then rejects it)
            c2p = combine(ct, ds)
        except CryptoError:
            raise ProtocolError(seat, f"password card {h}: a share in its link is no point", rule=RULE) from None
        self.check_link_proof(fold, seat, h, (ct.c1, c2p, public, self.records.pedersen[h]), proof, ctx)

    def check_link_proof(
        self,
        fold: Fold,
        seat: int,
        h: int,
        statement: tuple[bytes, bytes, bytes, bytes],
        proof: bytes,
        ctx: ProofContext,
    ) -> None:
        """The one place a link proof is checked (`statement` = c1, c2', the holder's deck key, the commitment); the
        offline audit hands it to a worker process (`Fold.proof_check`, p2p/audit_pool.py)."""
        try:
            if fold.version >= 5:  # every point but the commitment is a libsodium result or one checked before
                c1, c2p, public, commitment = statement
                fold.proof_check(verify_card_link, fold.table.id_base, c1, c2p, public, commitment, proof, ctx, True)
            else:
                fold.proof_check(verify_link_once, *statement, self.faces(fold), proof, ctx)
        except CryptoError:
            raise ProtocolError(
                seat,
                f"its proof that its commitment of password card {h} is that card's code does not verify",
                rule=RULE,
            ) from None
