"""The end: the secrets entries (deck key, box secret, witnesses, and the game's own: its openings) and the audit that
replays the whole log with every face through the same rules.

An object the fold (`Machine`, p2p/machine/machine.py) holds, stateless: called with the fold, whose log state it reads
(the revealed secrets and the audit's report are the fold's: `duty` and the game's part read them)."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.deck import (
    Share,
    ShuffleWitness,
    check_share_with_secret,
    combine,
    verify_shuffles,
)
from adp2p.crypto.encoding import unpack_canonical
from adp2p.crypto.errors import CryptoError, ShuffleError
from adp2p.crypto.group import mul, scalar_add, sub
from adp2p.crypto.hashing import u64
from adp2p.crypto.private import audit_open_private
from adp2p.p2p import published
from adp2p.p2p.machine.common import (
    MAX_WITNESS_BYTES,
    AuditReport,
    _is_int,
)
from adp2p.p2p.notices import result_words
from adp2p.p2p.protocol import BodyError, ProtocolError, encode_body, need
from adp2p.p2p.secrets_size import secrets_bound

Fold = Any  # the `Machine` these methods work on (p2p/machine/machine.py imports this module: no import back)


class Ending:
    """The end."""

    def open(self, fold: Fold, h: int) -> int:
        ct = fold.hmap[h]
        got = fold.shares.get(h, {})
        ds = []
        for s in range(fold.n):
            if s == fold.seat and fold.deck_key is not None:
                ds.append(mul(fold.deck_key.secret, ct.c1))
            elif s in got:
                ds.append(got[s].d)
            else:
                raise ProtocolError(None, f"handle {h}: no share of seat {s + 1} to open it")
        try:
            return fold.table.face(combine(ct, ds))
        except CryptoError:
            raise ProtocolError(None, f"handle {h} does not open to a card (the audit names the shuffler)") from None

    def witnesses(self, fold: Fold, seat: int, items: list[Any]) -> dict[int, bytes]:
        """A seat's shuffle witnesses, each for a pile it shuffled: every pile of the log (each holds a step of every
        seat), and the one after them only where a verdict may have cut its shuffle short (the seat wrote its witness
        before it signed its step, which the verdict may have set aside); that one must be a witness of the size of
        the pile in progress, if one is. Anything else is the revealer's malformed entry: nothing is taken unchecked
        (docs/protocol.md, "Entry bodies")."""
        witnesses: dict[int, bytes] = {}
        done = len(fold.hmap.piles)
        for item in items:
            if not (_is_int(item, 2) and isinstance(item[1], bytes) and len(item[1]) <= MAX_WITNESS_BYTES):
                raise BodyError("a witness is [pile index, witness bytes]")
            i = item[0]
            if i in witnesses or not 0 <= i <= done or (i == done and fold.verdict is None):
                raise BodyError(f"a witness for pile {i}: no pile of the log that seat {seat + 1} shuffled, or twice")
            if i == done:
                try:
                    w = ShuffleWitness.from_bytes(item[1])
                except (CryptoError, TypeError, ValueError) as exc:
                    raise BodyError(f"the witness for the pile cut short is no witness: {exc}") from None
                if fold.pile is not None and len(w.perm) != len(fold.pile.final):
                    raise BodyError(f"the witness for the pile cut short is for {len(w.perm)} cards, not its own")
            witnesses[i] = item[1]
        return witnesses

    def box_context(self, fold: Fold, sender: int, recipient: int) -> bytes:
        return b"adp2p/shares" + fold.game_id + u64(fold.entries) + bytes([sender, recipient])

    def secrets(self, fold: Fold, seat: int, body: dict[str, Any]) -> None:
        """A seat's end-of-game secrets: every one checked against what the seat published before the audit
        may use it against anyone (a mismatch, or a malformed shape, names the revealer)."""
        key = fold.keys[seat]
        assert key is not None
        size, bound = len(encode_body(body)), self.secrets_bound(fold)
        if size > bound:
            raise BodyError(f"a secrets body of {size} bytes: an honest seat's is at most {bound} here")
        deck_secret = published.deck_secret(fold.game_id, seat, need(body, "deck_secret", bytes, size=32), key, seat)
        box_secret = published.box_secret(fold.ids, seat, need(body, "box_secret", bytes, size=32), seat)
        witnesses = self.witnesses(fold, seat, need(body, "witnesses", list, max_len=len(fold.hmap.piles) + 1))
        game_fields = fold.part.secret_fields(fold, seat, body)  # checked by the game's part; judged by the audit
        fold.revealed[seat] = {
            "deck_secret": deck_secret,
            "witnesses": witnesses,
            "box_secret": box_secret,
            **game_fields,
        }
        if len(fold.revealed) == fold.n:
            try:
                fold.audit_report = fold.audit()
            except Exception as exc:  # never a silently skipped audit: say that it could not run, and why
                rep = AuditReport()
                rep.violation(None, "audit", f"the audit could not run to its end ({type(exc).__name__})")
                fold.audit_report = rep

    def secrets_bound(self, fold: Fold) -> int:
        """The largest secrets body an honest seat sends at this point of the log (p2p/secrets_size.py)."""
        return secrets_bound(len(fold.hmap.piles), fold.game.deck_size, fold.part.secrets_game_bytes())

    def audit(self, fold: Fold) -> AuditReport:
        """The end-of-game check from the log alone plus the revealed secrets: every shuffle (and that the
        deck held each card once), every decryption share (the sealed ones too, opened with the revealed box
        secrets), the game's own commitments (its part's `audit_secrets`; Access Denied: every password commitment),
        a strict replay of every move with every face known (the game's obligations: Access Denied's answers, passwords,
        cards played, promises), the winners. Each violation names a seat and the
        entry (seq) that shows it."""
        rep = AuditReport()
        missing = [s for s in range(fold.n) if s not in fold.revealed]
        for seat in missing:
            rep.violation(
                seat,
                "secrets_missing",
                "did not reveal its secrets at the end of the game: the hidden "
                "cards, shuffles and commitments cannot be checked",
            )
        if missing:
            return rep
        publics = [k[0] for k in fold.keys if k is not None]
        secrets_ = [fold.revealed[s]["deck_secret"] for s in range(fold.n)]
        full: dict[int, int] = {}
        for pile in fold.hmap.piles:
            seqs = fold.shuffle_seqs.get(pile.index, [])
            try:
                ws = []
                for step, (seat, _) in enumerate(pile.steps):
                    try:
                        ws.append(ShuffleWitness.from_bytes(fold.revealed[seat]["witnesses"][pile.index]))
                    except (CryptoError, KeyError, TypeError, ValueError) as exc:
                        raise ShuffleError(f"no valid witness revealed: {exc}", seat=seat, step=step) from None
                faces = verify_shuffles(
                    fold.game_id, publics, secrets_, pile.start, pile.steps, ws, fold.table, pile.faces
                )
            except CryptoError as exc:
                step = getattr(exc, "step", None)
                seq = seqs[step] if step is not None and step < len(seqs) else None
                rep.violation(getattr(exc, "seat", None), "shuffle", f"pile {pile.index}: {exc}", seq)
                return rep
            want = list(range(len(fold.table))) if pile.faces is None else sorted(pile.faces)
            if sorted(faces) != want:
                rep.violation(None, "deck", f"pile {pile.index} does not hold the cards it should, once each")
                return rep
            for j, f in enumerate(faces):
                full[pile.first + j] = f
        x = secrets_[0]
        for sec in secrets_[1:]:
            x = scalar_add(x, sec)
        finals = {pile.first + j: ct for pile in fold.hmap.piles for j, ct in enumerate(pile.final)}
        for h in range(fold.hmap.next_handle):
            c1, c2 = fold.hmap[h]
            if finals.get(h) == (c1, c2):
                continue  # the very ciphertext `verify_shuffles` just decrypted to full[h]: not decrypted twice
            if h not in full:  # a game's re-shuffle of cards in play (Classified's hand mix, its proof checked)
                try:
                    full[h] = fold.table.face(sub(c2, mul(x, c1)))
                except CryptoError:
                    rep.violation(None, "decrypt", f"handle {h} decrypts to no card")
                continue
            if fold.table.face(sub(c2, mul(x, c1))) != full[h]:
                rep.violation(None, "decrypt", f"handle {h} decrypts to another card than its shuffle says")
        self.audit_sealed(fold, rep)
        rep.violations.extend(fold.part.audit_secrets(fold, full))
        rep.faces = full
        self.audit_replay(fold, rep, full)
        if fold.state.over:  # results are final: a violation voids its own seat's share of the result, never another's
            named = fold.named() | {v.seat for v in rep.violations if v.seat is not None}
            rep.winners = [w for w in fold.state.winners if w not in named]
        return rep

    def audit_sealed(self, fold: Fold, rep: AuditReport) -> None:
        """Open every sealed box with the revealed box secrets and check every share inside (a share whose bytes this
        machine verified before, on arrival or in an earlier box, is not recomputed: a certificate handed on repeats
        the shares it was made of)."""
        checked = {(h, s, sh.d) for h, by in fold.shares.items() for s, sh in by.items()}
        for seq, sender, to, box, due in fold.sealed_log:
            secret = fold.revealed[to]["box_secret"]
            ctx = b"adp2p/shares" + fold.game_id + u64(seq) + bytes([sender, to])
            try:
                payload = audit_open_private(secret, fold.ids[sender], fold.ids[to], ctx, box)
                items = unpack_canonical(payload, "sealed shares")
                got: dict[int, list[Any]] = {}
                for item in items:
                    got[item[0]] = item[1]
                if set(got) != set(due):
                    raise ValueError(f"shares for handles {sorted(got)}, due {sorted(due)}")
                for h, raws in got.items():
                    shares = {sh.seat: sh for sh in (Share.from_bytes(r) for r in raws)}
                    want = set(range(fold.n)) if due[h] == "cert" else {sender}
                    if set(shares) != want:
                        raise ValueError(f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
                    for sh in shares.values():  # every deck secret is revealed and checked: recompute the share
                        if (h, sh.seat, sh.d) not in checked:
                            check_share_with_secret(fold.revealed[sh.seat]["deck_secret"], fold.hmap[h], sh)
                            checked.add((h, sh.seat, sh.d))
            except (CryptoError, TypeError, ValueError, IndexError, KeyError) as exc:
                rep.violation(sender, "sealed_shares", f"shares sealed to seat {to + 1} do not check out: {exc}", seq)

    def audit_replay(self, fold: Fold, rep: AuditReport, full: dict[int, int]) -> None:
        """Strict replay, event by event, so that the first rule broken names its entry and seat. The state is changed
        in place (`Game.apply_in_place`: no state before an event is needed, but for the one that breaks a rule, which
        a second replay up to it rebuilds for the blame)."""
        game = fold.game
        st = self._strict_start(fold, full)
        for i, ev in enumerate(fold.events):
            try:
                st = game.apply_in_place(st, ev)
            except game.illegal as exc:
                seq, author = fold.sources[i] if i < len(fold.sources) else (None, None)
                before = self._strict_start(fold, full)
                for earlier in fold.events[:i]:
                    before = game.apply_in_place(before, earlier)
                guilty = game.blame(before, exc, full, author)
                rep.violation(guilty, exc.rule, f"strict replay: {exc.message}", seq)  # type: ignore[attr-defined]
                return
        rep.winners = list(st.winners)
        if not game.same_end(st, fold.state):
            rep.violation(None, "replay", "the strict replay ends in another state than the game")

    @staticmethod
    def _strict_start(fold: Fold, full: dict[int, int]) -> Any:
        st = fold.game.new_game(fold.profile, fold.n, strict=True)
        st.faces = dict(full)
        return st

    def result_line(self, fold: Fold) -> str:
        if fold.verdict is not None and not fold.state.over:
            return f"stopped: {fold.verdict.msg}"
        res = fold.game.result(fold.state)
        why = "" if res.reason is None else fold.game.narrate(res.reason, names=fold.names)
        standing = fold.standing_winners()
        line = result_words([fold.names[w] for w in standing], len(fold.names), why)
        void = [w for w in res.winners if w not in standing]
        if void:  # results are final but for a seat named for cheating: its own share is void
            line += f" (void: the result of {', '.join(fold.names[w] for w in void)}, named for cheating)"
        if fold.verdict is not None:  # results stand: the game was over before this verdict (on a secrets entry)
            return f"{line}; then stopped: {fold.verdict.msg}"
        return line
