"""The replicated game machine of one peer: folds the signed log into the game, and authors this peer's
entries. Pure and deterministic given the log and this seat's secrets: no I/O, no clock.

At every point `duty()` names the one seat that must author the next entry and its kind (setup joins,
beacon links for CHANCE picks, shuffle steps, reveal rounds of decryption shares, engine events, the
end-of-game secrets). `apply(author, kind, body)` validates an entry completely before changing anything
(`ProtocolError` names the seat at fault) and then applies it. `author_next(choose)` builds this seat's
entry body when the duty is ours. See docs/protocol.md, "The table".
"""

from __future__ import annotations

import secrets as pysecrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adp2p.crypto.beacon import BeaconChain, BeaconTracker, permutation, sample, uniform_int
from adp2p.crypto.commitments import commit_code, verify_code_opening
from adp2p.crypto.deck import (
    DeckKey,
    Share,
    ShuffleWitness,
    encode_deck,
    fresh_pile,
    initial_deck,
    joint_key,
    make_share,
    receive_shuffle,
    shuffle,
    verify_deck_key,
    verify_share,
    verify_shuffles,
)
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.group import CardTable, mul, scalar_add, sub
from adp2p.crypto.hashing import u64
from adp2p.crypto.identity import PublicIdentity, SecretIdentity
from adp2p.crypto.private import open_private, seal_private
from adp2p.engine.api import Decision, apply, learn, legal, new_game, pending, replay, result, view
from adp2p.engine.catalog import card
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.profiles import get_profile
from adp2p.engine.state import GameState
from adp2p.p2p.deckplay import HandleMap, Pile, bits
from adp2p.p2p.protocol import BodyError, Genesis, Kind, need

Event = dict[str, Any]
Chooser = Callable[[GameState, int, list[Event]], Event]


class ProtocolError(Exception):
    """An entry breaks the protocol or the rules; `seat` is at fault (None: no single seat)."""

    def __init__(self, seat: int | None, msg: str) -> None:
        super().__init__(f"seat {seat}: {msg}" if seat is not None else msg)
        self.seat = seat
        self.msg = msg


@dataclass(frozen=True)
class Duty:
    seat: int
    kind: Kind
    what: str = ""


@dataclass
class SeatSecrets:
    """Everything secret of one seat in one game (kept in a 0600 file; revealed at game end)."""

    seat: int
    identity: SecretIdentity
    deck_secret: bytes
    beacon_seed: bytes
    witnesses: dict[int, bytes] = field(default_factory=dict)  # pile index -> ShuffleWitness bytes
    openings: dict[int, tuple[int, bytes]] = field(default_factory=dict)  # password handle -> (code, salt)

    @classmethod
    def generate(cls, seat: int, identity: SecretIdentity, game_id: bytes) -> SeatSecrets:
        return cls(seat, identity, DeckKey.generate(game_id, seat).secret, pysecrets.token_bytes(32))

    def to_bytes(self) -> bytes:
        return pack(
            [
                1,
                self.seat,
                self.identity.to_bytes(),
                self.deck_secret,
                self.beacon_seed,
                sorted(self.witnesses.items()),
                sorted([h, c, s] for h, (c, s) in self.openings.items()),
            ]
        )

    @classmethod
    def from_bytes(cls, raw: bytes) -> SeatSecrets:
        f = unpack_canonical(raw, "seat secrets")
        if not isinstance(f, list) or len(f) != 7 or f[0] != 1:
            raise ValueError("not a seat secrets file of version 1")
        return cls(
            f[1],
            SecretIdentity.from_bytes(f[2]),
            f[3],
            f[4],
            {int(k): v for k, v in f[5]},
            {h: (c, s) for h, c, s in f[6]},
        )


@dataclass
class Round:
    """A reveal round: the shares due after one engine step, supplier by supplier (in seat order)."""

    duties: dict[int, list[tuple[int, int, str]]]  # supplier -> [(handle, learners mask, "own"|"cert")]
    public: set[int]  # handles revealed to everyone: their shares travel in clear
    learners: dict[int, int]  # handle -> learners mask
    order: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = sorted(self.duties)


@dataclass
class Verdict:
    seat: int | None
    rule: str
    msg: str


class Machine:
    """One peer's fold of the game log (see module docstring)."""

    def __init__(self, genesis: Genesis, me: SeatSecrets | None) -> None:
        self.g = genesis
        self.n = genesis.n
        self.ids: list[PublicIdentity] = genesis.identities()
        self.names = genesis.names()
        self.game_id = genesis.game_id
        self.profile = get_profile(genesis.profile, goal=genesis.goal, round_limit=genesis.round_limit)
        if not self.profile.min_players <= self.n <= self.profile.max_players:
            raise ProtocolError(0, f"{self.profile.name} is not for {self.n} players")
        self.me = me
        self.seat = me.seat if me else None
        if me is not None and self.ids[me.seat] != me.identity.public:
            raise ProtocolError(None, "these secrets are not for this seat of the roster")
        self.state: GameState = new_game(self.profile, self.n)
        self.events: list[
            Event
        ] = []  # every engine event, derived chance events included (the audit folds them)
        self.table = CardTable(self.game_id)
        self.hmap = HandleMap()
        self.keys: list[tuple[bytes, bytes] | None] = [None] * self.n
        self.heads: list[bytes | None] = [None] * self.n
        self.joint_pk = b""
        self.tracker: BeaconTracker | None = None
        self.chain = BeaconChain(self.game_id, me.seat, me.beacon_seed, genesis.chain_length) if me else None
        self.deck_key = DeckKey(self.game_id, me.seat, me.deck_secret) if me else None
        self.pick_no = 0
        self.pile: Pile | None = None  # the pile being shuffled
        self.round: Round | None = None
        self.shares: dict[
            int, dict[int, Share]
        ] = {}  # handle -> seat -> verified share (what this peer holds)
        self.claims: dict[int, tuple[int, int]] = {}  # handle -> (claimed face, claimant) until revealed
        self.commitments: dict[int, bytes] = {}  # password handle -> code commitment
        self.revealed: dict[int, dict[str, Any]] = {}  # seat -> its end-of-game secrets
        self.verdict: Verdict | None = None
        self.audit_report: AuditReport | None = None
        self.entries = 1  # the genesis

    # ==================================================================================================
    # who authors next

    def duty(self) -> Duty | None:
        joined = sum(1 for k in self.keys if k is not None)
        if joined < self.n:
            return Duty(joined, Kind.JOIN)
        if self.finished:
            left = [s for s in range(self.n) if s not in self.revealed]
            return Duty(left[0], Kind.SECRETS) if left else None
        if self.round is not None:
            return Duty(self.round.order[0], Kind.SHARES)
        d = pending(self.state)
        assert d is not None
        if d.actor is not None:
            return Duty(d.actor, Kind.EVENT, d.kind)
        if d.kind == "chance:shuffle":
            step = len(self.pile.steps) if self.pile is not None else 0
            return Duty(step, Kind.SHUFFLE)
        assert self.tracker is not None
        return Duty(self.tracker.missing(self.pick_no + 1)[0], Kind.LINK, d.kind)

    @property
    def finished(self) -> bool:
        return self.state.over or self.verdict is not None

    @property
    def complete(self) -> bool:
        return self.finished and self.duty() is None

    # ==================================================================================================
    # applying entries

    def apply(self, author: int, kind: int, body: dict[str, Any]) -> None:
        duty = self.duty()
        if duty is None:
            raise ProtocolError(author, "the game is complete: no more entries")
        if author != duty.seat or kind != duty.kind:
            raise ProtocolError(
                author,
                f"out of turn: the next entry is {duty.kind.name.lower()} by seat "
                f"{duty.seat}, not {Kind(kind).name.lower() if kind in Kind._value2member_map_ else kind}"
                f" by seat {author}",
            )
        try:
            {
                Kind.JOIN: self._join,
                Kind.LINK: self._link,
                Kind.SHUFFLE: self._shuffle,
                Kind.SHARES: self._shares,
                Kind.EVENT: self._event,
                Kind.SECRETS: self._secrets,
            }[duty.kind](author, body)
        except BodyError as exc:
            raise ProtocolError(author, f"malformed {duty.kind.name.lower()} entry: {exc}") from None
        self.entries += 1

    # -- setup ---------------------------------------------------------------------------------------
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
            self.tracker = BeaconTracker(
                self.game_id, [h for h in self.heads if h is not None], self.g.chain_length
            )

    # -- chance ----------------------------------------------------------------------------------------
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
            d = pending(self.state)
            assert d is not None
            self._engine(None, self._chance_event(d, self.tracker.pick(k, f"{d.kind}/{k}".encode())))

    def _chance_event(self, d: Decision, seed: bytes) -> Event:
        what = d.kind.split(":", 1)[1]
        if what == "sectors":
            return {"t": "sectors", "perm": permutation(seed, 6)}
        if what == "first":
            return {"t": "first", "p": uniform_int(seed, self.n)}
        pool = list(d.info["from"])
        return {"t": "random", "picks": [pool[i] for i in sample(seed, len(pool), d.info["k"])]}

    # -- shuffles --------------------------------------------------------------------------------------
    def _new_pile(self) -> Pile:
        first = self.state.next_handle
        index = len(self.hmap.piles)
        if first == 0:
            return Pile(index, 0, None, initial_deck(self.game_id, self.joint_pk, self.table))
        faces = [self.state.faces[h] for h in self.state.discard]  # public: every peer knows them
        pile = Pile(index, first, faces, [])
        pile.start = fresh_pile(self.game_id, self.joint_pk, faces, self.table, pile.context())
        return pile

    def _shuffle(self, seat: int, body: dict[str, Any]) -> None:
        raw = need(body, "deck", bytes)
        pile = self.pile or self._new_pile()
        try:
            out = receive_shuffle(pile.final, raw, seat, len(pile.steps))
        except CryptoError as exc:
            raise ProtocolError(seat, f"shuffle output rejected: {exc}") from None
        pile.steps.append((seat, out))
        self.pile = pile
        if len(pile.steps) == self.n:
            self.hmap.add_pile(pile)
            self.pile = None
            self._engine(None, {"t": "shuffle"})
            if self.state.next_handle != self.hmap.next_handle:
                raise ProtocolError(None, "the engine's handles and the shuffled piles disagree")

    # -- engine events ---------------------------------------------------------------------------------
    def _event(self, seat: int, body: dict[str, Any]) -> None:
        ev = need(body, "ev", dict)
        if ev.get("t") in ("sectors", "shuffle", "first", "random"):
            raise ProtocolError(seat, "chance events are derived, never authored")
        commit = body.get("commit")
        new_pw = self._new_password_handles(ev)
        if new_pw and (
            not isinstance(commit, list)
            or len(commit) != 3
            or any(not isinstance(c, bytes) or len(c) != 32 for c in commit)
        ):
            raise ProtocolError(seat, "a password entry carries one 32-byte commitment per code")
        self._engine(seat, ev)
        for h, c in zip(new_pw, commit or [], strict=False):
            self.commitments[h] = c

    @staticmethod
    def _new_password_handles(ev: Event) -> list[int]:
        if ev.get("t") == "password" and isinstance(ev.get("cards"), list):
            return list(ev["cards"])
        if ev.get("t") == "play" and isinstance(ev.get("new"), list):
            return list(ev["new"])  # Scramble Password (checked by the engine to be that card)
        return []

    def _engine(self, seat: int | None, ev: Event) -> None:
        try:
            new = apply(self.state, ev)
        except IllegalEvent as exc:
            raise ProtocolError(seat, f"illegal move: {exc}") from None
        self.state = new
        self.events.append(ev)
        if ev.get("t") == "play":
            self.claims[ev["card"]] = (ev["face"], ev["p"])
            if ev.get("backdoor") is not None:
                self.claims[ev["backdoor"]] = (ev["backdoor_face"], ev["p"])
        self._start_round(new.reveals)

    # -- reveal rounds ---------------------------------------------------------------------------------
    def _start_round(self, reveals: list[tuple[int, int]]) -> None:
        learners: dict[int, int] = {}
        for h, mask in reveals:
            learners[h] = learners.get(h, 0) | mask
        if not learners:
            self.round = None
            return
        duties: dict[int, list[tuple[int, int, str]]] = {}
        public = set()
        for h, new in sorted(learners.items()):
            old = self.state.known.get(h, 0) & ~new
            if old | new == self.state.all_mask:
                public.add(h)
            if old:
                supplier = bits(old)[0]
                duties.setdefault(supplier, []).append((h, new, "cert"))
            else:
                for s in range(self.n):
                    if new & ~(1 << s):
                        duties.setdefault(s, []).append((h, new, "own"))
        self.round = Round(duties, public, learners)

    def _shares(self, seat: int, body: dict[str, Any]) -> None:
        rnd = self.round
        assert rnd is not None
        due = rnd.duties[seat]
        pub = need(body, "pub", list)
        sealed = need(body, "sealed", list)
        # what must travel in clear, and to whom sealed items must go: public facts, checked by everyone
        want_pub = {h for h, _, _ in due if h in rnd.public}
        want_to: set[int] = set()
        for h, new, _ in due:
            if h not in rnd.public:
                want_to |= {q for q in bits(new) if q != seat}
        got: dict[int, dict[int, Share]] = {}
        for item in pub:
            h, shares = self._decode_item(seat, item)
            got[h] = shares
        if set(got) != want_pub:
            raise ProtocolError(seat, f"public shares for handles {sorted(got)}, due {sorted(want_pub)}")
        boxes: dict[int, bytes] = {}
        for item in sealed:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and isinstance(item[1], bytes)
            ):
                raise ProtocolError(seat, "a sealed item is [recipient seat, box]")
            boxes[item[0]] = item[1]
        if set(boxes) != want_to or len(sealed) != len(boxes):
            raise ProtocolError(seat, f"sealed shares for seats {sorted(boxes)}, due {sorted(want_to)}")
        modes = {h: m for h, _, m in due}
        for h, shares in got.items():
            self._check_item(seat, h, shares, modes[h])
        mine: dict[int, dict[int, Share]] = {}
        if self.me is not None and self.seat in boxes:
            ctx = self._box_context(seat, self.seat)
            try:
                payload = open_private(self.me.identity, self.ids[seat], ctx, boxes[self.seat])
            except CryptoError as exc:
                raise ProtocolError(seat, f"sealed shares for me do not open: {exc}") from None
            items = unpack_canonical(payload, "sealed shares")
            if not isinstance(items, list):
                raise ProtocolError(seat, "sealed shares are a list")
            for item in items:
                h, shares = self._decode_item(seat, item)
                mine[h] = shares
            want_mine = {h for h, new, _ in due if h not in rnd.public and new >> self.seat & 1}
            if set(mine) != want_mine:
                raise ProtocolError(
                    seat, f"sealed shares for handles {sorted(mine)}, due {sorted(want_mine)}"
                )
            for h, shares in mine.items():
                self._check_item(seat, h, shares, modes[h])
        # all checks passed: keep what we received
        for src in (got, mine):
            for h, shares in src.items():
                self.shares.setdefault(h, {}).update(shares)
        del rnd.duties[seat]
        rnd.order.remove(seat)
        if not rnd.order:
            self.round = None
            self._finish_round(rnd)

    def _decode_item(self, seat: int, item: Any) -> tuple[int, dict[int, Share]]:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], int)
            and isinstance(item[1], list)
        ):
            raise ProtocolError(seat, "a share item is [handle, [share...]]")
        out: dict[int, Share] = {}
        for raw in item[1]:
            try:
                s = Share.from_bytes(raw)
            except (CryptoError, TypeError, ValueError) as exc:
                raise ProtocolError(seat, f"malformed share: {exc}") from None
            out[s.seat] = s
        return item[0], out

    def _check_item(self, seat: int, h: int, shares: dict[int, Share], mode: str) -> None:
        want = set(range(self.n)) if mode == "cert" else {seat}
        if set(shares) != want:
            raise ProtocolError(seat, f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
        ct = self.hmap[h]
        for s, share in shares.items():
            if s == self.seat and self.deck_key is not None:
                if share.d != mul(self.deck_key.secret, ct.c1):
                    raise ProtocolError(seat, f"handle {h}: a forged share in my name")
                continue
            if self.shares.get(h, {}).get(s) == share:
                continue
            key = self.keys[s]
            assert key is not None
            try:
                verify_share(self.game_id, key[0], h, ct, share)
            except CryptoError as exc:
                raise ProtocolError(
                    seat, f"handle {h}: invalid decryption share of seat {s}: {exc}"
                ) from None

    def _finish_round(self, rnd: Round) -> None:
        """Every share of the round is in: open what this seat must learn; check claimed faces."""
        faces: dict[int, int] = {}
        for h, mask in rnd.learners.items():
            if h in rnd.public or (self.seat is not None and mask >> self.seat & 1):
                faces[h] = self._open(h)
        for h, f in faces.items():
            claim = self.claims.pop(h, None)
            if claim is not None and claim[0] != f:
                self.verdict = Verdict(
                    claim[1],
                    "face_claim",
                    f"seat {claim[1]} played handle {h} as "
                    f"{card(claim[0]).title}, but its shares open to {card(f).title}",
                )
                return
        known = {h: f for h, f in faces.items() if self.state.faces.get(h) is None}
        if known:
            self.state = learn(self.state, known)

    def _open(self, h: int) -> int:
        ct = self.hmap[h]
        got = self.shares.get(h, {})
        total = None
        for s in range(self.n):
            if s == self.seat and self.deck_key is not None:
                d = mul(self.deck_key.secret, ct.c1)
            else:
                share = got.get(s)
                if share is None:
                    raise ProtocolError(None, f"handle {h}: no share of seat {s} to open it")
                d = share.d
            total = d if total is None else _add(total, d)
        try:
            return self.table.face(sub(ct.c2, total))
        except CryptoError:
            raise ProtocolError(
                None, f"handle {h} does not open to a card (the audit names the shuffler)"
            ) from None

    def _box_context(self, sender: int, recipient: int) -> bytes:
        return b"adp2p/shares" + self.game_id + u64(self.entries) + bytes([sender, recipient])

    # -- end of game -----------------------------------------------------------------------------------
    def _secrets(self, seat: int, body: dict[str, Any]) -> None:
        deck_secret = need(body, "deck_secret", bytes, size=32)
        need(body, "box_secret", bytes, size=32)
        witnesses = need(body, "witnesses", list)
        openings = need(body, "openings", list)
        key = self.keys[seat]
        assert key is not None
        try:
            if DeckKey(self.game_id, seat, deck_secret, key[1]).public != key[0]:
                raise ProtocolError(seat, "revealed deck key does not match the published one")
        except CryptoError as exc:
            raise ProtocolError(seat, f"revealed deck key: {exc}") from None
        self.revealed[seat] = {
            "deck_secret": deck_secret,
            "witnesses": dict(witnesses),
            "openings": openings,
            "box_secret": body["box_secret"],
        }
        if len(self.revealed) == self.n:
            self.audit_report = self.audit()

    def audit(self) -> AuditReport:
        """The end-of-game check: every shuffle, every face, the commitments, a strict replay of the game."""
        rep = AuditReport()
        publics = [k[0] for k in self.keys if k is not None]
        secrets_ = [self.revealed[s]["deck_secret"] for s in range(self.n)]
        full: dict[int, int] = {}
        for pile in self.hmap.piles:
            try:
                ws = [
                    ShuffleWitness.from_bytes(self.revealed[seat]["witnesses"][pile.index])
                    for seat, _ in pile.steps
                ]
                faces = verify_shuffles(
                    self.game_id, publics, secrets_, pile.start, pile.steps, ws, self.table, pile.faces
                )
            except (CryptoError, KeyError) as exc:
                rep.violation(getattr(exc, "seat", None), "shuffle", f"pile {pile.index}: {exc}")
                return rep
            for j, f in enumerate(faces):
                full[pile.first + j] = f
        x = secrets_[0]
        for s in secrets_[1:]:
            x = scalar_add(x, s)
        for h in range(self.hmap.next_handle):
            c1, c2 = self.hmap[h]
            if self.table.face(sub(c2, mul(x, c1))) != full[h]:
                rep.violation(None, "decrypt", f"handle {h} decrypts to another card than its shuffle says")
        for seat in range(self.n):
            for h, code, salt in self.revealed[seat]["openings"]:
                c = self.commitments.get(h)
                if c is None:
                    continue
                try:
                    verify_code_opening(self.game_id, h, c, code, salt)
                except CryptoError:
                    rep.violation(seat, "commitment", f"password handle {h}: the opening does not match")
                    continue
                if card(full[h]).code != code:
                    rep.violation(
                        seat,
                        "commitment",
                        f"password handle {h} committed code {code}, the card is {card(full[h]).title}",
                    )
        rep.faces = full
        try:
            final = replay(self.profile, self.n, self.events, full, strict=True)
        except IllegalEvent as exc:
            rep.violation(None, "replay", f"strict replay rejects the game: {exc}")
            return rep
        rep.winners = list(final.winners)
        if final.winners != self.state.winners or final.access != self.state.access:
            rep.violation(None, "replay", "the strict replay ends in another state than the game")
        return rep

    # ==================================================================================================
    # authoring (this seat's duties)

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
            out, w = shuffle(pile.final, self.joint_pk)
            me.witnesses[pile.index] = w.to_bytes()
            return duty.kind, {"deck": encode_deck(out)}
        if duty.kind == Kind.SHARES:
            return duty.kind, self._author_shares()
        if duty.kind == Kind.EVENT:
            if choose is None:
                return None
            seen = view(self.state, me.seat)
            ev = choose(seen, me.seat, legal(seen, me.seat))
            body: dict[str, Any] = {"ev": ev}
            handles = self._new_password_handles(ev)
            if handles:
                commits = []
                for h in handles:
                    c, opening = commit_code(self.game_id, h, card(self.state.faces[h]).code)
                    me.openings[h] = (opening.code, opening.salt)
                    commits.append(c)
                body["commit"] = commits
            return duty.kind, body
        if duty.kind == Kind.SECRETS:
            return duty.kind, {
                "deck_secret": me.deck_secret,
                "box_secret": bytes(me.identity.box_key),
                "witnesses": sorted([k, v] for k, v in me.witnesses.items()),
                "openings": sorted([h, c, s] for h, (c, s) in me.openings.items()),
            }
        return None

    def _author_shares(self) -> dict[str, Any]:
        assert self.me is not None and self.deck_key is not None and self.round is not None
        rnd = self.round
        seat = self.me.seat
        pub: list[list[Any]] = []
        per: dict[int, list[list[Any]]] = {}
        for h, new, mode in rnd.duties[seat]:
            ct = self.hmap[h]
            if mode == "own":
                shares = [make_share(self.game_id, self.deck_key, h, ct)]
            else:
                have = dict(self.shares.get(h, {}))
                have[seat] = make_share(self.game_id, self.deck_key, h, ct)
                shares = [have[s] for s in range(self.n)]
            item = [h, [s.to_bytes() for s in shares]]
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

    # ==================================================================================================
    # for people

    def result_line(self) -> str:
        if self.verdict is not None:
            return f"stopped: {self.verdict.msg}"
        res = result(self.state)
        return f"winner(s): {', '.join(self.names[w] for w in res.winners)} — {res.reason}"


def _add(a: bytes, b: bytes) -> bytes:
    from adp2p.crypto.group import add

    return add(a, b)


@dataclass
class AuditReport:
    violations: list[Verdict] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def violation(self, seat: int | None, rule: str, msg: str) -> None:
        self.violations.append(Verdict(seat, rule, msg))
