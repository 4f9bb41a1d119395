"""The table core: N peers play one game of Access Denied in lockstep, each with its own rules engine that
knows ONLY the faces it has opened from verified mental-poker decryption shares. Transport-free and
in-process; the networked table drives the same pieces over the log.

One game (:meth:`LockstepTable.run`):

1. Setup. Every peer publishes its deck key with a Schnorr proof; every peer checks every other key; the
   joint key is their sum. Every peer commits to the head of its beacon hash chain.
2. CHANCE (sectors, first player, random picks) comes from the joint beacon: pick k consumes link k of
   every peer; every peer checks every link with its own tracker and derives the value with
   ``permutation`` / ``uniform_int`` / ``sample``.
3. Shuffles. The first deck is ``initial_deck``; a reshuffle of the discard pile is ``fresh_pile`` of its
   public faces. Every peer in seat order re-masks and permutes the pile and every other peer checks the
   output with ``receive_shuffle``. Engine handle ``first + j`` is position j of the final pile
   (:class:`HandleMap`).
4. Reveals. After every applied event, every ``(h, mask)`` of ``st.reveals`` (identical on every peer) is
   served: each seat that must learn h receives a proven decryption share from every other seat (a share
   is posted once per seat and handle and reused by later reveals of the same handle), verifies each one,
   opens the face and ``learn``s it into its own engine state only.
5. Decisions. The deciding peer's bot chooses from ``legal`` on its own state; the event is applied to every
   peer's state (a rejection anywhere = lockstep broken). A face claimed by a ``play`` event is checked by
   every peer against the public reveal that follows.
6. Audit. Every peer reveals its deck secret key and shuffle witnesses; ``verify_shuffles`` checks every
   pile; every handle is decrypted with all keys; the event list is replayed in strict mode and must end
   in the same state as every peer.

Cheating is reported as :class:`DeckPlayError` naming the seat at fault (a bad share, a false face claim,
an event the others reject).

``deterministic=True`` (the default, for tests and benchmarks) derives every secret (deck keys, beacon
seeds, shuffle permutations and masks) from the table seed so a game is reproducible: never for real play.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import nacl.bindings as nb
from adp2p.crypto.beacon import BeaconChain, BeaconTracker, permutation, sample, uniform_int
from adp2p.crypto.deck import (
    SHARE_LEN,
    Ciphertext,
    DeckKey,
    Share,
    ShuffleWitness,
    apply_shuffle,
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
from adp2p.crypto.errors import CryptoError, DecryptionError
from adp2p.crypto.group import CardTable, add, mul, scalar_add, sub
from adp2p.crypto.hashing import u32
from adp2p.engine.api import Decision, apply, learn, legal, new_game, pending, replay, view
from adp2p.engine.catalog import card
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.profiles import Profile
from adp2p.engine.state import GameState

Event = dict[str, Any]
Chooser = Callable[[GameState, int, list[Event]], Event]


class DeckPlayError(Exception):
    """A check of the table failed. ``seat`` is the seat at fault (None: no single seat to blame)."""

    def __init__(self, seat: int | None, msg: str) -> None:
        super().__init__(f"seat {seat}: {msg}" if seat is not None else msg)
        self.seat = seat
        self.msg = msg


# ======================================================================================================
# piles and handles


@dataclass
class Pile:
    """One shuffled pile: the initial deck (faces None = the 63 cards) or a reshuffled discard pile."""

    index: int
    first: int  # engine handle of position 0
    faces: list[int] | None
    start: list[Ciphertext]
    steps: list[tuple[int, list[Ciphertext]]] = field(default_factory=list)  # (shuffler seat, output)

    @property
    def final(self) -> list[Ciphertext]:
        return self.steps[-1][1] if self.steps else self.start

    @property
    def handles(self) -> range:
        return range(self.first, self.first + len(self.start))

    def context(self) -> bytes:
        return b"initial" if self.index == 0 else b"reshuffle" + u32(self.index)


class HandleMap:
    """Engine handle -> ciphertext, extended by every shuffled pile (public: every peer computes the same)."""

    def __init__(self) -> None:
        self._ct: dict[int, Ciphertext] = {}
        self.piles: list[Pile] = []

    def add_pile(self, pile: Pile) -> range:
        if pile.first != len(self._ct):
            raise DeckPlayError(None, f"pile {pile.index} starts at handle {pile.first}, not {len(self._ct)}")
        for j, ct in enumerate(pile.final):
            self._ct[pile.first + j] = ct
        self.piles.append(pile)
        return pile.handles

    def __getitem__(self, h: int) -> Ciphertext:
        try:
            return self._ct[h]
        except KeyError:
            raise DeckPlayError(None, f"handle {h} has no ciphertext (no shuffled pile holds it)") from None

    def __contains__(self, h: object) -> bool:
        return h in self._ct

    def __len__(self) -> int:
        return len(self._ct)

    @property
    def next_handle(self) -> int:
        return len(self._ct)


# ======================================================================================================
# shares: the pieces the network layer reuses


@dataclass(frozen=True)
class ShareMsg:
    """One posted decryption share: ``sender``'s share for ``handle``, wanted by the seats in mask ``to``."""

    sender: int
    handle: int
    to: int
    share: Share

    def nbytes(self) -> int:
        return SHARE_LEN


def bits(mask: int) -> list[int]:
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def shares_for(reveals: Iterable[tuple[int, int]], hmap: HandleMap, key: DeckKey, game_id: bytes,
               posted: Mapping[int, Mapping[int, Share]] | None = None) -> list[ShareMsg]:
    """The shares seat ``key.seat`` must post for these reveals: one per handle that some OTHER seat must
    learn, unless this seat already posted its share for that handle (``posted[h][seat]``)."""
    out: list[ShareMsg] = []
    want: dict[int, int] = {}
    for h, mask in reveals:
        to = mask & ~(1 << key.seat)
        if to:
            want[h] = want.get(h, 0) | to
    for h, to in want.items():
        if posted is not None and key.seat in posted.get(h, {}):
            continue
        out.append(ShareMsg(key.seat, h, to, make_share(game_id, key, h, hmap[h])))
    return out


def open_with(game_id: bytes, handle: int, ct: Ciphertext, shares: Mapping[int, Share],
              public_keys: Sequence[bytes], table: CardTable, own: DeckKey,
              verified: Iterable[int] = ()) -> tuple[int, list[int]]:
    """Open handle ``handle`` for seat ``own.seat`` from the other seats' shares (sender seat -> share).

    Every share not in ``verified`` is checked (DLEQ against the sender's deck key); this seat's own share
    is computed locally. Returns (face, seats whose share was verified now). A bad or missing share raises
    :class:`DeckPlayError` naming its sender.
    """
    skip = set(verified)
    checked: list[int] = []
    ds: list[bytes] = []
    for seat in range(len(public_keys)):
        if seat == own.seat:
            ds.append(mul(own.secret, ct.c1))
            continue
        s = shares.get(seat)
        if s is None:
            raise DeckPlayError(seat, f"no decryption share for handle {handle}")
        if s.seat != seat:
            raise DeckPlayError(seat, f"share for handle {handle} is labelled as seat {s.seat}'s")
        if seat not in skip:
            try:
                verify_share(game_id, public_keys[seat], handle, ct, s)
            except CryptoError as exc:
                raise DeckPlayError(seat, f"invalid decryption share for handle {handle}: {exc}") from None
            checked.append(seat)
        ds.append(s.d)
    total = ds[0]
    for d in ds[1:]:
        total = add(total, d)
    try:
        face = table.face(sub(ct.c2, total))
    except (DecryptionError, CryptoError):
        raise DeckPlayError(None, f"handle {handle} does not open to a card (a bad shuffle: the audit "
                            "names the shuffler)") from None
    return face, checked


# ======================================================================================================
# peers


def _derived_scalar(seed: bytes, *labels: bytes) -> bytes:
    """A non-zero scalar derived from the seed (deterministic mode only)."""
    ctr = 0
    while True:
        h = hashlib.sha512(b"adp2p/test/deckplay\x00" + seed + b"\x00".join(labels) + u32(ctr)).digest()
        s = nb.crypto_core_ed25519_scalar_reduce(h)
        if s != bytes(32):
            return s
        ctr += 1  # pragma: no cover


def random_bot(seed: int) -> Chooser:
    """A seeded uniform choice among the legal events (the default: independent of engine.bots)."""
    rng = random.Random(seed)

    def choose(st: GameState, seat: int, options: list[Event]) -> Event:
        return rng.choice(options)

    return choose


def make_chooser(strategy: str | None, seed: int) -> Chooser:
    """``engine.bots.make_bot(strategy, seed)`` if the bots package provides it, else a seeded random pick."""
    try:
        from adp2p.engine.bots import make_bot  # type: ignore[attr-defined]
    except ImportError:
        return random_bot(seed)
    try:
        return make_bot(strategy or "random", seed)
    except (KeyError, ValueError):
        return random_bot(seed)


class Peer:
    """One seat: its own engine state (faces only from verified shares), deck key, beacon chain, witnesses."""

    def __init__(self, profile: Profile, n: int, seat: int, game_id: bytes, bot: Chooser, *,
                 chain_length: int, seed: bytes | None) -> None:
        self.seat = seat
        self.game_id = game_id
        self.bot = bot
        self.state = new_game(profile, n)
        self._seed = seed
        if seed is None:
            self.key = DeckKey.generate(game_id, seat)
            self.chain = BeaconChain.generate(game_id, seat, chain_length)
        else:
            self.key = DeckKey(game_id, seat, _derived_scalar(seed, b"key", u32(seat)))
            self.chain = BeaconChain(game_id, seat, hashlib.sha256(seed + b"beacon" + u32(seat)).digest(),
                                     chain_length)
        self.public_keys: list[bytes] = []
        self.joint_pk: bytes = b""
        self.tracker: BeaconTracker | None = None
        self.witnesses: dict[int, ShuffleWitness] = {}  # pile index -> this seat's witness
        self.opened: dict[int, int] = {}  # handle -> face, from verified shares only
        self.verified: dict[int, set[int]] = {}  # handle -> seats whose share this peer has verified

    def __repr__(self) -> str:
        return f"Peer(seat={self.seat})"

    # -- setup ------------------------------------------------------------------------------------------
    def accept_keys(self, keys: Sequence[tuple[bytes, bytes]]) -> None:
        for seat, (public, proof) in enumerate(keys):
            if seat == self.seat:
                continue
            try:
                verify_deck_key(self.game_id, seat, public, proof)
            except CryptoError as exc:
                raise DeckPlayError(seat, f"deck key rejected by seat {self.seat}: {exc}") from None
        try:
            self.joint_pk = joint_key(self.game_id, keys)
        except CryptoError as exc:
            raise DeckPlayError(None, f"joint key rejected by seat {self.seat}: {exc}") from None
        self.public_keys = [k for k, _ in keys]

    # -- shuffling --------------------------------------------------------------------------------------
    def shuffle_pile(self, pile: Pile, deck: Sequence[Ciphertext]) -> list[Ciphertext]:
        if self._seed is None:
            out, w = shuffle(deck, self.joint_pk)
        else:
            tag = b"perm" + u32(self.seat) + u32(pile.index)
            rng = random.Random(hashlib.sha256(self._seed + tag).digest())
            perm = list(range(len(deck)))
            rng.shuffle(perm)
            rs = [_derived_scalar(self._seed, b"mask", u32(self.seat), u32(pile.index), u32(j))
                  for j in range(len(deck))]
            w = ShuffleWitness(perm, rs)
            out = apply_shuffle(deck, self.joint_pk, w)
        self.witnesses[pile.index] = w
        return out


# ======================================================================================================
# the table


@dataclass
class Counts:
    events: int = 0
    entries: int = 0  # log entries a networked table would post (see LockstepTable docstring)
    shares_sent: int = 0  # shares posted (each once, whoever needs it)
    shares_delivered: int = 0  # (share, receiving seat) pairs
    shares_verified: int = 0  # DLEQ verifications
    share_bytes: int = 0
    shuffle_steps: int = 0
    piles: int = 0
    beacon_picks: int = 0
    reveals: int = 0  # (handle, seat) faces learned
    setup_seconds: float = 0.0  # keys, beacon heads, chance, first shuffle, deal, passwords
    seconds: float = 0.0  # the whole game, audit included
    audit_seconds: float = 0.0


@dataclass
class TableResult:
    events: list[Event]
    winners: list[int]
    reason: str
    states: list[GameState]  # per peer
    audit_state: GameState  # strict replay with every face
    faces: dict[int, int]  # the whole face map from the audit
    counts: Counts


class Tamper:
    """Test hooks for a cheating seat (honest by default)."""

    def share(self, table: LockstepTable, msg: ShareMsg) -> ShareMsg:
        return msg

    def event(self, table: LockstepTable, author: int, ev: Event) -> Event:
        return ev


PRIVATE_TURN_FIELDS: dict[str, Any] = {
    "harmful": None, "bug": False, "no_attempts": False, "no_draw": False,
}


def public_state(st: GameState) -> dict[str, Any]:
    """What every peer's engine must agree on (faces and per-instance unknowns left out).

    The engine derives four Turn fields from the active player's harmful cards at turn start (``harmful``
    and from it ``max_actions``, ``no_attempts``, ``no_draw``): only the active player's instance knows
    them, the others record an obligation for the audit. They are left out here; a divergence they cause
    in who decides what next is caught by the per-step decision check.
    """
    turn = None if st.turn is None else dataclasses.replace(st.turn, **PRIVATE_TURN_FIELDS)
    return {
        "seq": st.seq, "loc": st.loc, "deck": st.deck, "discard": st.discard, "hands": st.hands,
        "passwords": st.passwords, "upgrades": st.upgrades, "sector_cards": st.sector_cards,
        "card_owner": st.card_owner, "known": st.known, "next_handle": st.next_handle,
        "controller": st.controller, "access": st.access, "status": st.status, "first": st.first,
        "active": st.active, "turn_no": st.turn_no, "round_no": st.round_no, "turn": turn,
        "stack": st.stack, "ctx": st.ctx, "over": st.over, "winners": st.winners, "end_reason": st.end_reason,
    }


def _diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    return [k for k in a if a[k] != b[k]]


class LockstepTable:
    """One whole game between ``n`` in-process peers; :meth:`run` plays it and audits it.

    ``bots``: None = seeded uniform random choices (stable for tests), a strategy name for
    ``engine.bots.make_bot`` (falls back to random while that is missing), or one chooser per seat.
    ``check_every_event`` compares every peer's public state after every event (tests); the decisions and
    reveals are compared always.

    Entries counted (what a networked table would post to its log): one per deck key, beacon head, beacon
    link reveal, shuffle output and game event; one per seat and event for the shares it posts then; one
    per seat for the end-of-game reveal of its secrets.
    """

    def __init__(self, profile: Profile, n: int, seed: int, bots: str | Sequence[Chooser] | None = None, *,
                 game_id: bytes | None = None, deterministic: bool = True, max_events: int = 50_000,
                 chain_length: int = 4096, check_every_event: bool = True,
                 tamper: Tamper | None = None) -> None:
        self.profile, self.n, self.seed = profile, n, seed
        self.game_id = game_id or hashlib.sha256(b"adp2p deckplay game %d" % seed).digest()[:16]
        if bots is None:
            choosers = [random_bot(seed * 1_000_003 + 17 * i) for i in range(n)]
        elif isinstance(bots, str):
            choosers = [make_chooser(bots, seed * 1_000_003 + 17 * i) for i in range(n)]
        else:
            choosers = list(bots)
            if len(choosers) != n:
                raise ValueError(f"need one bot per seat ({n}), got {len(choosers)}")
        dseed = hashlib.sha256(self.game_id + b"%d" % seed).digest() if deterministic else None
        self.peers = [Peer(profile, n, i, self.game_id, choosers[i], chain_length=chain_length, seed=dseed)
                      for i in range(n)]
        self.table = CardTable(self.game_id)
        self.hmap = HandleMap()
        self.posted: dict[int, dict[int, Share]] = {}  # handle -> sender seat -> share (the public log)
        self.events: list[Event] = []
        self.counts = Counts()
        self.max_events = max_events
        self.check_every_event = check_every_event
        self.tamper = tamper or Tamper()
        self._picks = 0
        self._claims: dict[int, int] = {}  # handle -> seat that claimed its face, until revealed

    # -- setup ------------------------------------------------------------------------------------------
    def setup(self) -> None:
        keys = [(p.key.public, p.key.proof) for p in self.peers]
        self.counts.entries += self.n
        for p in self.peers:
            p.accept_keys(keys)
        heads = [p.chain.head for p in self.peers]
        self.counts.entries += self.n
        for p in self.peers:
            p.tracker = BeaconTracker(self.game_id, heads, p.chain.length)

    # -- chance -----------------------------------------------------------------------------------------
    def beacon(self, context: bytes) -> bytes:
        """The next joint beacon output: every seat reveals its next link, every peer checks them all."""
        self._picks += 1
        k = self._picks
        links = [p.chain.link(k) for p in self.peers]
        self.counts.entries += self.n
        self.counts.beacon_picks += 1
        outs = set()
        for p in self.peers:
            assert p.tracker is not None
            for seat, link in enumerate(links):
                try:
                    p.tracker.reveal(seat, k, link)
                except CryptoError as exc:
                    raise DeckPlayError(seat, f"beacon link {k} rejected by seat {p.seat}: {exc}") from None
            outs.add(p.tracker.pick(k, context))
        if len(outs) != 1:
            raise DeckPlayError(None, f"beacon pick {k} differs between peers")
        return outs.pop()

    def chance(self, d: Decision) -> Event:
        what = d.kind.split(":", 1)[1]
        ctx = f"{d.kind}/{self.peers[0].state.seq}".encode()
        if what == "sectors":
            return {"t": "sectors", "perm": permutation(self.beacon(ctx), 6)}
        if what == "first":
            return {"t": "first", "p": uniform_int(self.beacon(ctx), self.n)}
        if what == "pick":
            pool = list(d.info["from"])
            idx = sample(self.beacon(ctx), len(pool), d.info["k"])
            return {"t": "random", "picks": [pool[i] for i in idx]}
        raise DeckPlayError(None, f"unknown chance node {d.kind}")

    def shuffle_pile(self) -> Pile:
        """Build and shuffle the pile the pending shuffle event will create (before it is applied)."""
        first = self.peers[0].state.next_handle
        index = len(self.hmap.piles)
        if first == 0:
            faces = None
            pile = Pile(index, 0, None, [])
            start = initial_deck(self.game_id, self.peers[0].joint_pk, self.table)
        else:
            seen = []
            for p in self.peers:
                try:
                    seen.append([p.state.faces[h] for h in p.state.discard])
                except KeyError as exc:
                    raise DeckPlayError(p.seat, f"does not know the face of discarded handle {exc}") from None
            faces = seen[0]
            for p, f in zip(self.peers, seen, strict=True):
                if f != faces:
                    raise DeckPlayError(p.seat, "sees other faces on the discard pile")
            pile = Pile(index, first, faces, [])
            start = fresh_pile(self.game_id, self.peers[0].joint_pk, faces, self.table, pile.context())
        pile.start = start
        cur = start
        for step, p in enumerate(self.peers):
            out = p.shuffle_pile(pile, cur)
            raw = encode_deck(out)
            self.counts.entries += 1
            self.counts.shuffle_steps += 1
            got = out
            for q in self.peers:
                if q is p:
                    continue
                try:
                    got = receive_shuffle(cur, raw, p.seat, step)
                except CryptoError as exc:
                    raise DeckPlayError(p.seat, f"shuffle output rejected by seat {q.seat}: {exc}") from None
            pile.steps.append((p.seat, got))
            cur = got
        self.hmap.add_pile(pile)
        self.counts.piles += 1
        return pile

    # -- events and reveals -----------------------------------------------------------------------------
    def apply_all(self, author: int | None, ev: Event, own: Event | None = None) -> None:
        """Apply ev at every peer (``own``: what the author's own state applies, if it lied to the others)."""
        for p in self.peers:
            e = own if (own is not None and p.seat == author) else ev
            try:
                p.state = apply(p.state, e, inplace=True)
            except IllegalEvent as exc:
                raise DeckPlayError(author, f"event {ev!r} rejected by seat {p.seat}: {exc}") from None
        self.events.append(ev)
        self.counts.events += 1
        self.counts.entries += 1
        if ev.get("t") == "play":
            self._claims[ev["card"]] = ev["p"]
            if ev.get("backdoor") is not None:
                self._claims[ev["backdoor"]] = ev["p"]

    def deliver(self) -> None:
        """Serve the reveals of the last event: every seat posts the shares its own engine says others need;
        each receiver verifies them and opens the face. Claimed faces are opened and checked first, so a
        false claim is named even when it made the engines disagree; then the reveals must agree."""
        if not any(p.state.reveals for p in self.peers):
            return
        for p in self.peers:
            msgs = shares_for(p.state.reveals, self.hmap, p.key, self.game_id, self.posted)
            if msgs:
                self.counts.entries += 1
            for m in msgs:
                m = self.tamper.share(self, m)
                self.posted.setdefault(m.handle, {})[m.sender] = m.share
                self.counts.shares_sent += 1
                self.counts.share_bytes += m.nbytes()
        for p in self.peers:
            for h, mask in p.state.reveals:
                if h in self._claims and mask >> p.seat & 1:
                    self._open(p, h)
        reveals = list(self.peers[0].state.reveals)
        for p in self.peers[1:]:
            if list(p.state.reveals) != reveals:
                raise DeckPlayError(None, f"reveals differ between seat 0 and seat {p.seat}: lockstep broken")
        for h, mask in reveals:
            for q in bits(mask):
                self._open(self.peers[q], h)
            self._claims.pop(h, None)

    def _open(self, peer: Peer, h: int) -> None:
        if h in peer.opened:
            return
        done = peer.verified.setdefault(h, set())
        face, checked = open_with(self.game_id, h, self.hmap[h], self.posted.get(h, {}), peer.public_keys,
                                  self.table, peer.key, done)
        done.update(checked)
        self.counts.shares_verified += len(checked)
        self.counts.shares_delivered += self.n - 1
        self.counts.reveals += 1
        had = peer.state.faces.get(h)
        if had is not None and had != face:
            who = self._claims.get(h)
            raise DeckPlayError(who, f"claimed handle {h} is {card(had).title}, but its decryption shares "
                                f"open to {card(face).title} (seen by seat {peer.seat})")
        peer.opened[h] = face
        learn(peer.state, {h: face}, inplace=True)

    def check_lockstep(self) -> None:
        ref = public_state(self.peers[0].state)
        for p in self.peers[1:]:
            diff = _diff(ref, public_state(p.state))
            if diff:
                raise DeckPlayError(None, f"seat {p.seat}'s public state differs from seat 0's in {diff}")

    def step(self) -> bool:
        """Resolve the next decision (chance or a seat's). False when the game is over."""
        ds = [pending(p.state) for p in self.peers]
        d = ds[0]
        for p, other in zip(self.peers[1:], ds[1:], strict=True):
            if other != d:
                raise DeckPlayError(None, f"seat {p.seat} waits for {other}, seat 0 for {d}: lockstep broken")
        if d is None:
            return False
        if d.actor is None:
            if d.kind == "chance:shuffle":
                pile = self.shuffle_pile()
                self.apply_all(None, {"t": "shuffle"})
                for p in self.peers:
                    if p.state.next_handle != self.hmap.next_handle:
                        raise DeckPlayError(None, f"the engine made handles up to {p.state.next_handle}, the "
                                            f"shuffled pile {pile.index} ends at {self.hmap.next_handle}")
            else:
                self.apply_all(None, self.chance(d))
        else:
            peer = self.peers[d.actor]
            seen = view(peer.state, d.actor)
            options = legal(seen, d.actor)
            if not options:
                raise DeckPlayError(d.actor, f"has no legal event for {d.kind}")
            ev = peer.bot(seen, d.actor, options)
            sent = self.tamper.event(self, d.actor, ev)
            self.apply_all(d.actor, sent, ev if sent is not ev else None)
        self.deliver()
        if self.check_every_event:
            self.check_lockstep()
        return True

    # -- audit ------------------------------------------------------------------------------------------
    def audit(self) -> tuple[dict[int, int], GameState]:
        """Every seat reveals its secrets; check every shuffle, decrypt every handle, replay strictly."""
        self.counts.entries += self.n
        publics = self.peers[0].public_keys
        secrets_ = [p.key.secret for p in self.peers]
        full: dict[int, int] = {}
        for pile in self.hmap.piles:
            ws = [self.peers[seat].witnesses[pile.index] for seat, _ in pile.steps]
            ws = [ShuffleWitness.from_bytes(w.to_bytes()) for w in ws]  # as received over the wire
            try:
                faces = verify_shuffles(self.game_id, publics, secrets_, pile.start, pile.steps, ws,
                                        self.table, pile.faces)
            except CryptoError as exc:
                seat = getattr(exc, "seat", None)
                raise DeckPlayError(seat, f"shuffle audit of pile {pile.index}: {exc}") from None
            for j, f in enumerate(faces):
                full[pile.first + j] = f
        x = secrets_[0]
        for s in secrets_[1:]:
            x = scalar_add(x, s)
        for h in range(self.hmap.next_handle):
            c1, c2 = self.hmap[h]
            f = self.table.face(sub(c2, mul(x, c1)))
            if f != full[h]:
                raise DeckPlayError(None, f"handle {h}: decryption gives another card than the audit")
        for p in self.peers:
            for h, f in p.opened.items():
                if full[h] != f:
                    raise DeckPlayError(None, f"seat {p.seat} opened handle {h} as {f}, the audit: {full[h]}")
            for h, f in p.state.faces.items():
                if full.get(h) != f:
                    raise DeckPlayError(None, f"seat {p.seat}'s engine holds a wrong face for handle {h}")
        try:
            final = replay(self.profile, self.n, self.events, full, strict=True)
        except IllegalEvent as exc:
            raise DeckPlayError(None, f"strict audit replay rejects the game: {exc}") from None
        ref = public_state(final)
        for p in self.peers:
            diff = _diff(ref, public_state(p.state))
            if diff:
                raise DeckPlayError(None, f"seat {p.seat}'s final state differs from the audit in {diff}")
        return full, final

    def run(self) -> TableResult:
        t0 = time.perf_counter()
        self.setup()
        setup_done = False
        for _ in range(self.max_events):
            if not setup_done:
                d = pending(self.peers[0].state)
                if d is not None and d.actor is not None and d.kind not in ("password",):
                    self.counts.setup_seconds = time.perf_counter() - t0
                    setup_done = True
            if not self.step():
                break
        else:
            raise DeckPlayError(None, f"no end after {self.max_events} events")
        if not setup_done:
            self.counts.setup_seconds = time.perf_counter() - t0
        t1 = time.perf_counter()
        full, final = self.audit()
        t2 = time.perf_counter()
        self.counts.audit_seconds = t2 - t1
        self.counts.seconds = t2 - t0
        st = self.peers[0].state
        return TableResult(list(self.events), list(st.winners), st.end_reason, [p.state for p in self.peers],
                           final, full, self.counts)


def play_lockstep(profile: Profile, n: int, seed: int, bots: str | Sequence[Chooser] | None = None,
                  **kw: Any) -> TableResult:
    return LockstepTable(profile, n, seed, bots, **kw).run()
