"""The replicated game machine of one peer: folds the signed log into the game, and authors this peer's
entries. Pure and deterministic given the log and this seat's secrets: no I/O, no clock.

At every point `duty()` names the one seat that must author the next entry and its kind (setup joins,
beacon links for CHANCE picks, shuffle steps, reveal rounds of decryption shares, engine events, the
end-of-game secrets). `apply(author, kind, body)` validates an entry completely before changing anything
(`ProtocolError` names the seat at fault) and then applies it. `author_next(choose)` builds this seat's
entry body when the duty is ours. See docs/protocol.md, "The table".

Evidence: an `evidence` entry (Kind.EVIDENCE) may be authored by any seat at any point before the game is
complete; it carries proof of another seat's cheating that every peer re-verifies (a signed entry that
breaks a rule, two entries signed for one seq, contradicting controller answers with card certificates, a
broken trade promise, a card seen in two places). Valid evidence stops the game with a verdict naming the
guilty seat; false evidence is itself a violation of its author. `pending_evidence()` is the body this
peer should post (from its immediate checks), `evidence_for_entry(raw, exc)` turns an entry this peer
rejected into such a body.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adp2p.crypto.beacon import BeaconChain, BeaconTracker, permutation, sample, uniform_int
from adp2p.crypto.commitments import commit_code
from adp2p.crypto.deck import (
    DeckKey,
    Masks,
    Share,
    ShuffleWitness,
    check_own_shuffle,
    check_share_with_secret,
    combine,
    encode_deck,
    fresh_pile,
    initial_deck,
    joint_key,
    make_masks,
    make_share,
    receive_shuffle,
    shuffle,
    shuffle_with,
    verify_deck_key,
    verify_share,
    verify_shuffles,
)
from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.entries import Entry, EquivocationProof, decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError, ShuffleError
from adp2p.crypto.group import CardTable, mul, scalar_add, sub
from adp2p.crypto.hashing import u64
from adp2p.crypto.identity import PublicIdentity
from adp2p.crypto.passes import verify_pass
from adp2p.crypto.private import audit_open_private, open_private, seal_private
from adp2p.engine.api import Decision, apply, learn, legal, new_game, pending, result, view
from adp2p.engine.catalog import card
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.narration import text as narrate
from adp2p.engine.profiles import get_profile
from adp2p.engine.state import GameState
from adp2p.p2p import published
from adp2p.p2p.piles import HandleMap, Pile, bits
from adp2p.p2p.protocol import BodyError, Genesis, Kind, ProtocolError, decode_body, need
from adp2p.p2p.seat_secrets import SeatSecrets

Event = dict[str, Any]
Chooser = Callable[[GameState, int, list[Event]], Event]


@dataclass(frozen=True)
class Duty:
    seat: int
    kind: Kind
    what: str = ""


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
    seq: int | None = None  # the entry that shows it (None: no single entry)


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
        self.events: list[Event] = []  # every engine event, derived chance events included (the audit folds them)
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
        self.shares: dict[int, dict[int, Share]] = {}  # handle -> seat -> verified share (what this peer holds)
        self.claims: dict[int, tuple[int, int]] = {}  # handle -> (claimed face, claimant) until revealed
        self.commitments: dict[int, bytes] = {}  # password handle -> code commitment
        self.revealed: dict[int, dict[str, Any]] = {}  # seat -> its end-of-game secrets
        self.verdict: Verdict | None = None
        self.abandoned: int | None = None  # the seat an abandon entry named: the game ends there
        self.audit_report: AuditReport | None = None
        self.entries = 1  # the genesis
        # for the audit and the immediate checks
        self.sources: list[tuple[int, int | None]] = []  # per engine event: (entry seq, author; None derived)
        self.sealed_log: list[tuple[int, int, int, bytes, dict[int, str]]] = []  # seq, sender, to, box, due
        self.answers: dict[int, tuple[int, int, tuple[int, ...], list[int], list[bool]]] = {}
        self.promises: list[tuple[int, int, int, int]] = []  # (seq, handle, promised code, promiser)
        self.evidence_seen: list[tuple[int, int, Verdict]] = []  # (seq, accuser, verdict)
        self._evidence: dict[str, Any] | None = None  # proof this peer holds and should post
        self._evidence_posted = False
        self._opener: tuple[int, bytes] | None = None  # verifying evidence: open this seat's boxes
        self._depth = 0  # verifying evidence: how many evidence entries this fold is nested in (at most one)
        self.shuffle_seqs: dict[int, list[int]] = {}  # pile index -> seq of each shuffle step
        self.committed: dict[int, tuple[int, int]] = {}  # password handle -> (seat, seq of the commitment)
        self.openings_shown: dict[int, tuple[int, bytes]] = {}  # password handle -> opening shown with the card
        self.prev: bytes | None = None  # the id of the entry before the one being applied (pass tokens name it)
        self._own_shuffle: tuple[bytes, list[Any]] | None = None  # the shuffle output we just authored
        self._masks: Masks | None = None  # re-masking made ahead for our next shuffle step (`prepare_shuffle`)

    # ==================================================================================================
    # who authors next

    def duty(self) -> Duty | None:
        if self.abandoned is not None:
            return None
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

    def snapshot(self) -> Machine:
        """An independent copy of this fold (to try an entry on, or to go back to); the immutable parts
        (card table, secrets, genesis, identities) are shared."""
        keep = {id(o): o for o in (self.table, self.me, self.chain, self.deck_key, self.g, self.ids)}
        return copy.deepcopy(self, keep)

    def fork(self) -> Machine:
        """A cheap copy to apply passes on and look ahead (`pass_window`, `apply_passes`, `duty`, and authoring an
        event): a pass replaces the engine state (the engine never changes a state in place) and the reveal round,
        and appends to the event lists, which are copied; everything else is shared, so a fork must not fold
        anything but passes."""
        c = copy.copy(self)
        c.state = copy.copy(self.state)  # its own state object: nothing done on the fork reaches ours
        c.events = list(self.events)
        c.sources = list(self.sources)
        return c

    @property
    def finished(self) -> bool:
        return self.state.over or self.verdict is not None

    @property
    def complete(self) -> bool:
        return self.finished and self.duty() is None

    # ==================================================================================================
    # applying entries

    def apply_entry(self, e: Entry) -> None:
        """Apply a decoded (and signature-checked) entry: `apply` with the id of the entry it builds on."""
        self.apply(e.author, e.kind, decode_body(e.body), prev=e.prev_hash)

    def apply(self, author: int, kind: int, body: dict[str, Any], *, prev: bytes | None = None) -> None:
        """Apply one entry body by `author`; `prev` is the id of the entry it builds on (pass tokens and pass
        evidence are checked against it; an entry that carries them cannot be applied without it)."""
        duty = self.duty()
        if duty is None:
            raise ProtocolError(author, "the game is complete: no more entries")
        if not 0 <= author < self.n:
            raise ProtocolError(None, f"an entry by unknown seat {author + 1}")
        self.prev = prev
        try:
            if kind in (Kind.EVENT, Kind.ABANDON) and isinstance(body, dict) and "passes" in body:
                self.apply_passes(author, need(body, "passes", list, max_len=MAX_PASSES))
                duty = self.duty()
                assert duty is not None
            self._apply(duty, author, kind, body)
        except ProtocolError:
            raise
        except BodyError as exc:
            raise ProtocolError(author, f"malformed {_kind_name(kind)} entry: {exc}") from None
        except RecursionError:
            raise ProtocolError(author, f"{_kind_name(kind)} entry nested too deep") from None
        except Exception as exc:  # any other failure on an author's body is that author's protocol error
            raise ProtocolError(author, f"{_kind_name(kind)} entry cannot be applied ({type(exc).__name__})") from None
        self.entries += 1

    # -- implied passes (docs/protocol.md, "Implied passes") ---------------------------------------------------
    def window_actor(self) -> int | None:
        """The seat whose reaction-window decision is due now, or None if what is due is anything else."""
        if self.abandoned is not None or self.finished or self.round is not None or any(k is None for k in self.keys):
            return None
        d = pending(self.state)
        return d.actor if d is not None and d.kind == "window" else None

    def pass_window(self) -> int:
        """Apply a pass by the seat whose window decision is due, with no token: a peer's look-ahead on a copy of
        its fold (what the rules would ask next if that seat passed), never its fold itself."""
        who = self.window_actor()
        if who is None:
            raise ProtocolError(None, "no reaction window is due")
        self._engine(who, {"t": "pass", "p": who})
        return who

    def apply_passes(self, carrier: int, tokens: list[Any], *, trusted: bool = False, start: int = 0) -> None:
        """Apply pass tokens 0..k-1 carried by `carrier`'s entry at this seq: each one must be due (a window
        decision) and signed by the seat it is due from. A token that is not is the carrier's fault: it supplied
        it. `trusted`: tokens this peer checked on receipt (only the position is checked again). `start`: the
        position of the first of `tokens` (a peer extends a chain it holds one token at a time)."""
        if self.prev is None:
            raise ProtocolError(carrier, "pass tokens without the entry they build on")
        for j, tok in enumerate(tokens, start):
            who = self.window_actor()
            if who is None:
                raise ProtocolError(carrier, f"pass token {j} where no reaction window is due")
            if not trusted:
                try:
                    verify_pass(self.ids[who], tok, self.game_id, self.entries, self.prev, j)
                except CryptoError:
                    raise ProtocolError(carrier, f"pass token {j} is not seat {who + 1}'s pass there") from None
            self._engine(who, {"t": "pass", "p": who})

    def _apply(self, duty: Duty, author: int, kind: int, body: dict[str, Any]) -> None:
        if not isinstance(body, dict):
            raise BodyError("an entry body is a map")
        extra = set(body) - BODY_FIELDS.get(kind, set())
        if extra:
            raise BodyError(f"unknown field(s) {sorted(map(str, extra))[:4]}")
        if kind == Kind.EVIDENCE:
            self._evidence_entry(author, body)
            return
        if kind == Kind.ABANDON:
            self._abandon(duty, author, body)
            return
        if author != duty.seat or kind != duty.kind:
            raise ProtocolError(
                author,
                f"out of turn: the next entry is {duty.kind.name.lower()} by seat "
                f"{duty.seat}, not {Kind(kind).name.lower() if kind in Kind._value2member_map_ else kind}"
                f" by seat {author + 1}",
            )
        {
            Kind.JOIN: self._join,
            Kind.LINK: self._link,
            Kind.SHUFFLE: self._shuffle,
            Kind.SHARES: self._shares,
            Kind.EVENT: self._event,
            Kind.SECRETS: self._secrets,
        }[duty.kind](author, body)

    # -- abandonment -----------------------------------------------------------------------------------
    def _abandon(self, duty: Duty, author: int, body: dict[str, Any]) -> None:
        """An abandon entry: `{"silent": seat, "seq": this seq}` by another seat than the silent one, naming the
        seat on duty. Whether its author waited long enough is for each peer to judge before it applies it (see
        p2p/peer.py and docs/protocol.md, "Abandonment"): the machine checks what the log alone shows."""
        if set(body) - {"passes"} != {"silent", "seq"}:
            raise BodyError("an abandon body is {silent, seq} and perhaps passes")
        silent, seq = need(body, "silent", int), need(body, "seq", int)
        if seq != self.entries:
            raise ProtocolError(author, f"an abandon for seq {seq} at seq {self.entries}")
        if silent != duty.seat:
            raise ProtocolError(author, f"an abandon naming seat {silent + 1}, but seat {duty.seat + 1} is on duty")
        if author == silent:
            raise ProtocolError(author, "an abandon naming its own author")
        self.abandoned = silent

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
            self.tracker = BeaconTracker(self.game_id, [h for h in self.heads if h is not None], self.g.chain_length)

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
        own, self._own_shuffle = self._own_shuffle, None
        try:
            if own is not None and seat == self.seat and own[0] == raw:
                out = check_own_shuffle(pile.final, own[1], seat, len(pile.steps))
            else:
                out = receive_shuffle(pile.final, raw, seat, len(pile.steps))
        except CryptoError as exc:
            raise ProtocolError(seat, f"shuffle output rejected: {exc}") from None
        pile.steps.append((seat, out))
        self.shuffle_seqs.setdefault(pile.index, []).append(self.entries)
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
        _check_event_shape(ev)
        if ev.get("t") in ("sectors", "shuffle", "first", "random"):
            raise ProtocolError(seat, "chance events are derived, never authored")
        commit = body.get("commit")
        new_pw = self._new_password_handles(ev)
        if commit is not None and not new_pw:
            raise ProtocolError(seat, "a commitment on an entry that sets no password")
        if new_pw and (
            not isinstance(commit, list)
            or len(commit) != 3
            or any(not isinstance(c, bytes) or len(c) != 32 for c in commit)
        ):
            raise ProtocolError(seat, "a password entry carries one 32-byte commitment per code")
        self._engine(seat, ev)
        for h, c in zip(new_pw, commit or [], strict=False):
            self.commitments[h] = c
            self.committed[h] = (seat, self.sources[-1][0])

    @staticmethod
    def _new_password_handles(ev: Event) -> list[int]:
        if ev.get("t") == "password" and isinstance(ev.get("cards"), list):
            return list(ev["cards"])
        if ev.get("t") == "play" and isinstance(ev.get("new"), list):
            return list(ev["new"])  # Scramble Password (checked by the engine to be that card)
        return []

    def _engine(self, seat: int | None, ev: Event) -> None:
        before = self.state
        task = before.stack[-1] if before.stack else {}
        try:
            new = apply(self.state, ev)
        except IllegalEvent as exc:
            raise ProtocolError(seat, f"illegal move: {exc}") from None
        self.state = new
        self.events.append(ev)
        self.sources.append((self.entries, seat))
        self._note(before, task, ev)
        if ev.get("t") == "play":
            self.claims[ev["card"]] = (ev["face"], ev["p"])
            if ev.get("backdoor") is not None:
                self.claims[ev["backdoor"]] = (ev["backdoor_face"], ev["p"])
        self._start_round(new.reveals)

    def _note(self, before: GameState, task: dict[str, Any], ev: Event) -> None:
        """Remember what the immediate checks need: controller answers and trade promises."""
        seq = self.entries
        op = task.get("op")
        if op == "answer" and ev.get("t") == "answer":
            ctx = before.ctx[task["ctx"]]
            s = ctx["s"]
            ctrl = before.controller[s]
            pw = tuple(before.passwords.get(s, []))
            self.answers[seq] = (ctrl, s, pw, list(ctx["cards"]), [bool(m) for m in ev["match"]])
        elif op == "trade_reply" and ev.get("accept"):
            ctx = before.ctx[task["ctx"]]
            if ctx.get("promise") is not None:
                self.promises.append((seq, ctx["card"], ctx["promise"], ctx["p"]))
            for h, c in zip(ev.get("cards") or [], ev.get("promise") or [], strict=False):
                self.promises.append((seq, h, c, task["p"]))

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
        opened: dict[int, tuple[int, bytes] | None] = {}  # password handle -> its committer's opening
        for item in pub:
            h, shares, opened[h] = self._decode_item(seat, item)
            got[h] = shares
        if set(got) != want_pub:
            raise ProtocolError(seat, f"public shares for handles {sorted(got)}, due {sorted(want_pub)}")
        boxes: dict[int, bytes] = {}
        for item in sealed:
            if not (
                isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], bytes)
            ):
                raise ProtocolError(seat, "a sealed item is [recipient seat, box]")
            boxes[item[0]] = item[1]
        if set(boxes) != want_to or len(sealed) != len(boxes):
            raise ProtocolError(seat, f"sealed shares for seats {sorted(boxes)}, due {sorted(want_to)}")
        modes = {h: m for h, _, m in due}
        for h, shares in got.items():
            self._check_item(seat, h, shares, modes[h])
            self._check_opening(seat, h, opened[h])
        for q, box in sorted(boxes.items()):
            due_q = {h: m for h, new, m in due if h not in rnd.public and new >> q & 1}
            self.sealed_log.append((self.entries, seat, q, box, due_q))
        mine: dict[int, dict[int, Share]] = {}
        viewer = self._opener[0] if self._opener is not None else self.seat
        if (self.me is not None or self._opener is not None) and viewer in boxes:
            assert viewer is not None
            ctx = self._box_context(seat, viewer)
            try:
                if self._opener is not None:
                    payload = audit_open_private(self._opener[1], self.ids[seat], self.ids[viewer], ctx, boxes[viewer])
                else:
                    assert self.me is not None
                    payload = open_private(self.me.identity, self.ids[seat], ctx, boxes[viewer])
            except CryptoError as exc:
                del self.sealed_log[-len(boxes) :]
                raise ProtocolError(seat, f"sealed shares for me do not open: {exc}") from None
            try:
                items = unpack_canonical(payload, "sealed shares")
                if not isinstance(items, list):
                    raise ProtocolError(seat, "sealed shares are a list")
                for item in items:
                    h, shares, opened[h] = self._decode_item(seat, item)
                    mine[h] = shares
                want_mine = {h for h, new, _ in due if h not in rnd.public and new >> viewer & 1}
                if set(mine) != want_mine:
                    raise ProtocolError(seat, f"sealed shares for handles {sorted(mine)}, due {sorted(want_mine)}")
                for h, shares in mine.items():
                    self._check_item(seat, h, shares, modes[h])
                    self._check_opening(seat, h, opened[h])
            except (ProtocolError, CryptoError) as exc:
                del self.sealed_log[-len(boxes) :]
                if isinstance(exc, ProtocolError):
                    raise
                raise ProtocolError(seat, f"sealed shares for me: {exc}") from None
        # all checks passed: keep what we received
        for src in (got, mine):
            for h, shares in src.items():
                self.shares.setdefault(h, {}).update(shares)
        for h, op in opened.items():
            if op is not None:
                self.openings_shown[h] = op
        del rnd.duties[seat]
        rnd.order.remove(seat)
        if not rnd.order:
            self.round = None
            self._finish_round(rnd)

    def _decode_item(self, seat: int, item: Any) -> tuple[int, dict[int, Share], tuple[int, bytes] | None]:
        """[handle, [share...]] or, for a password card shown by the seat that committed it, [handle, [share...],
        [code, salt]]: the commitment's opening travels with the card."""
        if not (
            isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], int) and isinstance(item[1], list)
        ):
            raise ProtocolError(seat, "a share item is [handle, [share...]] or [handle, [share...], [code, salt]]")
        out: dict[int, Share] = {}
        for raw in item[1]:
            try:
                s = Share.from_bytes(raw)
            except (CryptoError, TypeError, ValueError) as exc:
                raise ProtocolError(seat, f"malformed share: {exc}") from None
            out[s.seat] = s
        opening = None
        if len(item) == 3:
            op = item[2]
            if not (isinstance(op, list) and len(op) == 2 and isinstance(op[0], int) and isinstance(op[1], bytes)):
                raise ProtocolError(seat, "a commitment opening is [code, salt]")
            opening = (op[0], op[1])
        return item[0], out, opening

    def _opening_due(self, seat: int, h: int) -> bool:
        """Whether `seat`, showing handle h, must open h's code commitment: h is a password card it committed."""
        return h in self.commitments and self.committed.get(h, (None,))[0] == seat

    def _check_opening(self, seat: int, h: int, opening: tuple[int, bytes] | None) -> None:
        if not self._opening_due(seat, h):
            if opening is not None:
                raise ProtocolError(seat, f"handle {h}: a commitment opening that is not due")
            return
        if opening is None:
            raise ProtocolError(seat, f"password card {h} shown without opening its code commitment")
        published.code_opening(self.game_id, h, self.commitments[h], opening[0], opening[1], seat)

    def _check_item(self, seat: int, h: int, shares: dict[int, Share], mode: str) -> None:
        want = set(range(self.n)) if mode == "cert" else {seat}
        if set(shares) != want:
            raise ProtocolError(seat, f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
        ct = self.hmap[h]
        for s, share in shares.items():
            if self.shares.get(h, {}).get(s) == share:
                continue  # the very share (proof included) we verified before
            key = self.keys[s]
            assert key is not None
            published.share(self.game_id, key[0], h, ct, share, seat)  # our own share too: its proof counts

    def _finish_round(self, rnd: Round) -> None:
        """Every share of the round is in: open what this seat must learn; check claimed faces."""
        faces: dict[int, int] = {}
        for h, mask in sorted(rnd.learners.items()):
            if h in rnd.public or (self.seat is not None and mask >> self.seat & 1):
                try:
                    faces[h] = self._open(h)
                except ProtocolError:  # every share checked out, the card is no card: a corrupt shuffle
                    if self._opener is not None:
                        return
                    if h in rnd.public:  # every peer sees it at once: stop, reveal, audit
                        self.verdict = _no_card(h, self.sources[-1][0] if self.sources else None)
                    elif self._evidence is None and self._cert(h):  # only the learners: post the proof
                        self._evidence = {"what": "nocard", "certs": [self._cert(h)]}
                    return
        if self._opener is not None:
            return  # a copy verifying evidence: it only needed the checks of the shares entry
        for h, f in faces.items():
            claim = self.claims.pop(h, None)
            if claim is not None and claim[0] != f:
                self.verdict = Verdict(
                    claim[1],
                    "face_claim",
                    f"seat {claim[1] + 1} played handle {h} as "
                    f"{card(claim[0]).title}, but its shares open to {card(f).title}",
                    self.sources[-1][0] if self.sources else None,
                )
                return
        for h, f in sorted(faces.items()):
            op = self.openings_shown.get(h)
            if op is None or card(f).code == op[0]:
                continue
            v = self._false_commitment(h, op[0], f, self.sources[-1][0])
            if h in rnd.public:  # every peer sees it at once
                self.verdict = v
                return
            if self._evidence is None and self._cert(h):  # only the learners: post the proof
                self._evidence = {"what": "opening", "h": h, "code": op[0], "salt": op[1], "certs": [self._cert(h)]}
        known = {h: f for h, f in faces.items() if self.state.faces.get(h) is None}
        if known:
            self.state = learn(self.state, known)
        if self.seat is not None and self._evidence is None:
            self._immediate_checks(set(faces))

    # -- immediate checks and evidence ------------------------------------------------------------------
    def _immediate_checks(self, new: set[int]) -> None:
        """What this peer can prove at once from the faces it knows (sets the evidence to post)."""
        faces = self.state.faces
        # a card in two places: two live handles that open to the same face
        by_face: dict[int, int] = {}
        for h, f in faces.items():
            if self.state.loc.get(h, ("gone",))[0] == "gone" or h not in self.hmap:
                continue
            if f in by_face and (h in new or by_face[f] in new) and self._cert(h) and self._cert(by_face[f]):
                a, b = sorted((h, by_face[f]))
                self._evidence = {"what": "duplicate", "certs": [self._cert(a), self._cert(b)]}
                return
            by_face[f] = h
        # a broken trade promise: the recipient knows the face
        for seq, h, code, promiser in self.promises:
            f = faces.get(h)
            if f is not None and card(f).code != code and promiser != self.seat and self._cert(h):
                self._evidence = {"what": "promise", "seq": seq, "h": h, "certs": [self._cert(h)]}
                return
        # a controller answer against codes this peer knows: one answer, or two that contradict
        for seq, (ctrl, _s, pw, hs, match) in self.answers.items():
            if ctrl == self.seat:
                continue
            pw_codes = {card(faces[x]).code: x for x in pw if x in faces}
            for h, m in zip(hs, match, strict=True):
                f = faces.get(h)
                if f is None:
                    continue
                code = card(f).code
                if not m and code in pw_codes:
                    used = [h, pw_codes[code]]
                elif m and len(pw_codes) == len(pw) and code not in pw_codes:
                    used = [h, *pw]
                else:
                    continue
                certs = [self._cert(x) for x in used]
                if all(certs):
                    self._evidence = {"what": "answer", "seq": seq, "h": h, "certs": certs}
                    return
        # two answers to one password (same controller, sector, cards) that contradict: one card's code answered
        # "matches" and another card of the same code "does not" (linear: each answer's cards by code)
        seen: dict[tuple[Any, ...], list[tuple[int, int]]] = {}  # (ctrl, sector, pw, code, match) -> (seq, h)
        for sb, (ctrl, sec, pw, hs, match) in sorted(self.answers.items()):
            if ctrl == self.seat:
                continue
            key = (ctrl, sec, tuple(pw))
            for hb, mb in zip(hs, match, strict=True):
                fb = faces.get(hb)
                if fb is None:
                    continue
                code = card(fb).code
                for sa, ha in seen.get((*key, code, not mb), []):
                    if sa == sb:
                        continue  # one answer is judged on its own (above)
                    ca, cb = self._cert(ha), self._cert(hb)
                    if ca and cb:
                        self._evidence = {"what": "answers", "a": sa, "b": sb, "ha": ha, "hb": hb}
                        self._evidence["certs"] = [ca, cb]
                        return
                seen.setdefault((*key, code, mb), []).append((sb, hb))

    def _cert(self, h: int) -> list[Any] | None:
        """A transferable certificate of handle h's face: every seat's proven share (None if not held)."""
        have = dict(self.shares.get(h, {}))
        if self.deck_key is not None and self.seat is not None and h in self.hmap:
            have[self.seat] = make_share(self.game_id, self.deck_key, h, self.hmap[h])
        if set(have) != set(range(self.n)):
            return None
        return [h, [have[s].to_bytes() for s in range(self.n)]]

    def _check_cert(self, accuser: int, item: Any) -> tuple[int, int | None]:
        """Verify a certificate [handle, [one proven share per seat]]; return (handle, face), the face None when
        the verified shares combine to no card (a corrupt shuffle)."""
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], list)):
            raise ProtocolError(accuser, "a certificate is [handle, [share...]]")
        h = item[0]
        if h not in self.hmap:
            raise ProtocolError(accuser, f"certificate for unknown handle {h}")
        ct = self.hmap[h]
        try:
            shares = {sh.seat: sh for sh in (Share.from_bytes(b) for b in item[1])}
            if len(item[1]) != self.n or set(shares) != set(range(self.n)):
                raise CryptoError("not one share per seat")
            for sh in shares.values():
                verify_share(self.game_id, self.keys[sh.seat][0], h, ct, sh)  # type: ignore[index]
        except (CryptoError, TypeError, ValueError) as exc:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} does not verify: {exc}") from None
        try:
            return h, self.table.face(combine(ct, (shares[s].d for s in range(self.n))))
        except CryptoError:
            return h, None

    def _cert_face(self, accuser: int, item: Any) -> tuple[int, int]:
        """A certificate of a card: (handle, face)."""
        h, face = self._check_cert(accuser, item)
        if face is None:
            raise ProtocolError(accuser, f"false evidence: certificate of handle {h} opens to no card")
        return h, face

    def _false_commitment(self, h: int, code: int, face: int, seq: int | None) -> Verdict:
        """The verdict on an opening that matches password card h's commitment but not the card."""
        guilty, at = self.committed[h]
        return Verdict(
            guilty,
            "commitment",
            f"seat {guilty + 1} committed code {'ABCDEF'[code]} for password card {h} (entry {at}), but the card "
            f"is {card(face).title}",
            seq,
        )

    def pending_evidence(self) -> dict[str, Any] | None:
        """The evidence body this peer should post now (once), or None."""
        if self._evidence is None or self._evidence_posted or self.complete:
            return None
        return self._evidence

    def evidence_for_entry(self, raw: bytes, exc: ProtocolError | None = None) -> dict[str, Any]:
        """Evidence of an entry this peer rejected (the raw signed entry, plus this seat's box secret when
        the fault is in shares sealed to it, so that the others can open them)."""
        body: dict[str, Any] = {"what": "entry", "raw": raw, "reason": str(exc or "")[:500]}
        e = decode_entry(raw)
        if self.seat is not None:  # certificates of the hidden faces this peer judged the entry with
            public = self.state.all_mask
            certs = [self._cert(h) for h in sorted(self.state.faces) if self.state.known.get(h, 0) != public]
            body["certs"] = [c for c in certs if c]
        if self.me is not None and e.kind == Kind.SHARES:
            sealed = decode_body(e.body).get("sealed")
            if isinstance(sealed, list) and any(isinstance(x, list) and x[:1] == [self.seat] for x in sealed):
                body["box_secret"] = bytes(self.me.identity.box_key)  # the others can then open my box
        return body

    def _evidence_entry(self, accuser: int, body: dict[str, Any]) -> None:
        what = need(body, "what", str, max_len=16)
        if "reason" in body:
            need(body, "reason", str, max_len=600)
        seq = self.entries
        if what == "equivocation":
            proof = EquivocationProof(need(body, "a", bytes), need(body, "b", bytes))
            try:
                guilty = proof.verify(self.ids)
                if decode_entry(proof.raw_a).game_id != self.game_id:
                    raise CryptoError("the entries are of another game")
            except CryptoError as exc:
                raise ProtocolError(accuser, f"false evidence: {exc}") from None
            v = Verdict(guilty, "equivocation", f"seat {guilty + 1} signed two different entries for one seq", seq)
        elif what == "entry":
            v = self._verify_bad_entry(accuser, body, seq)
        elif what == "pass":
            v = self._verify_pass_equivocation(accuser, body, seq)
        elif what == "nocard":
            certs = need(body, "certs", list)
            if len(certs) != 1:
                raise ProtocolError(accuser, "false evidence (nocard): one certificate")
            h, face = self._check_cert(accuser, certs[0])
            if face is not None:
                raise ProtocolError(accuser, f"false evidence (nocard): handle {h} opens to {card(face).title}")
            v = _no_card(h, seq)
        elif what in ("duplicate", "promise", "answer", "answers", "opening"):
            certs = need(body, "certs", list)
            faces = dict(self._cert_face(accuser, c) for c in certs)
            v = self._verify_face_evidence(accuser, what, body, faces, seq)
        else:
            raise ProtocolError(accuser, f"unknown evidence {what!r}")
        if accuser == self.seat:
            self._evidence_posted = True
        self.evidence_seen.append((seq, accuser, v))
        if self.verdict is None:
            self.verdict = v

    def _verify_pass_equivocation(self, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        """`raw`: an entry signed by its author (at this seq or before) that carries k pass tokens, i.e. its author
        acts at decision k after its prev; `token`: the same author's pass token for decision k at that very point.
        Both signed by one seat, so the proof stands on its own, like an equivocation: it passed and acted at one
        decision (docs/protocol.md, "Implied passes")."""
        raw = need(body, "raw", bytes)
        token = need(body, "token", bytes, size=64)
        try:
            e = decode_entry(raw)
            verify_entry(e, self.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != self.game_id or e.seq > seq:
            raise ProtocolError(accuser, f"false evidence: the entry is not of this game before seq {seq}")
        if e.kind not in (Kind.EVENT, Kind.ABANDON):
            raise ProtocolError(accuser, "false evidence: that entry is no decision")
        try:
            act = decode_body(e.body)
        except BodyError:
            act = {}
        passes, ev = act.get("passes", []), act.get("ev")
        if not isinstance(passes, list):
            raise ProtocolError(accuser, "false evidence: that entry's passes are unreadable")
        if e.kind == Kind.EVENT and isinstance(ev, dict) and ev.get("t") == "pass" and ev.get("p") == e.author:
            raise ProtocolError(accuser, "false evidence: that entry is the same pass the token says")
        try:
            verify_pass(self.ids[e.author], token, self.game_id, e.seq, e.prev_hash, len(passes))
        except CryptoError:
            raise ProtocolError(accuser, "false evidence: the token is not that seat's pass there") from None
        why = f"seat {e.author + 1} passed at decision {len(passes)} of entry {e.seq} and also acted there"
        return Verdict(e.author, "equivocation", why, seq)

    def _verify_bad_entry(self, accuser: int, body: dict[str, Any], seq: int) -> Verdict:
        raw = need(body, "raw", bytes)
        try:
            e = decode_entry(raw)
            verify_entry(e, self.ids[e.author])
        except (CryptoError, IndexError) as exc:
            raise ProtocolError(accuser, f"false evidence: the entry does not verify: {exc}") from None
        if e.game_id != self.game_id or e.seq != seq:
            raise ProtocolError(accuser, f"false evidence: the entry is not for seq {seq} of this game")
        if e.kind == Kind.EVIDENCE and self._depth >= 1:
            raise ProtocolError(accuser, "false evidence: evidence about evidence about evidence (nested too deep)")
        trial = self.snapshot()
        trial._evidence = None
        trial._depth = self._depth + 1
        if "box_secret" in body:  # checked against the accuser's published key before it can open anything
            secret = published.box_secret(self.ids, accuser, need(body, "box_secret", bytes, size=32), accuser)
            trial._opener = (accuser, secret)
        shown = dict(self._cert_face(accuser, c) for c in body.get("certs") or [])
        if shown:  # refold the game with the shown faces: rules judged earlier (turn start) see them too
            st = new_game(self.profile, self.n)
            st.faces = {**self.state.faces, **shown}
            for i, ev in enumerate(self.events):
                try:
                    st = apply(st, ev)
                except IllegalEvent as exc:
                    at, author = self.sources[i]
                    if author is None:
                        raise ProtocolError(
                            accuser, f"false evidence: the faces shown break a derived event: {exc}"
                        ) from None
                    why = f"seat {author + 1}'s entry {at} breaks the rules: {exc.message}"
                    return Verdict(author, exc.rule, why, seq)
            trial.state = st
        try:
            trial.apply(e.author, e.kind, decode_body(e.body), prev=e.prev_hash)
        except ProtocolError as exc:
            if exc.seat != e.author:
                raise ProtocolError(
                    accuser, f"false evidence: the entry is rejected but not its author's fault: {exc}"
                ) from None
            why = f"seat {e.author + 1} signed an entry that breaks the rules: {exc.msg}"
            return Verdict(e.author, "entry", why, seq)
        except BodyError as exc:
            return Verdict(e.author, "entry", f"seat {e.author + 1} signed a malformed entry: {exc}", seq)
        raise ProtocolError(accuser, "false evidence: the entry is valid")

    def _verify_face_evidence(
        self, accuser: int, what: str, body: dict[str, Any], faces: dict[int, int], seq: int
    ) -> Verdict:
        def false(why: str) -> ProtocolError:
            return ProtocolError(accuser, f"false evidence ({what}): {why}")

        code = {h: card(f).code for h, f in faces.items()}
        if what == "opening":
            h, c, salt = need(body, "h", int), need(body, "code", int), need(body, "salt", bytes)
            if h not in code or h not in self.commitments:
                raise false("no committed password card shown")
            try:
                published.code_opening(self.game_id, h, self.commitments[h], c, salt, accuser)
            except ProtocolError as exc:
                raise false(exc.msg) from None
            if code[h] == c:
                raise false("the opening agrees with the card")
            return self._false_commitment(h, c, faces[h], seq)
        if what == "duplicate":
            if len(faces) != 2 or len(set(faces.values())) != 1:
                raise false("the certificates do not show one card twice")
            if any(self.state.loc.get(h, ("gone",))[0] == "gone" for h in faces):
                raise false("a handle is no longer in play")
            f = next(iter(faces.values()))
            return Verdict(
                None,
                "duplicate",
                f"{card(f).title} is in two places (handles {sorted(faces)}): "
                "a shuffle is corrupt (the audit names the shuffler)",
                seq,
            )
        if what == "promise":
            ref, h = need(body, "seq", int), need(body, "h", int)
            for s, ph, c, promiser in self.promises:
                if (s, ph) == (ref, h) and h in code and code[h] != c:
                    return Verdict(
                        promiser,
                        "trade_promise",
                        f"seat {promiser + 1} promised code {'ABCDEF'[c]} in entry {s} and gave {card(faces[h]).title}",
                        seq,
                    )
            raise false("no broken promise shown")
        if what == "answer":
            ref, h = need(body, "seq", int), need(body, "h", int)
            if ref not in self.answers or h not in code:
                raise false("no such answer")
            ctrl, _s, pw, hs, match = self.answers[ref]
            if h not in hs:
                raise false("the card was not in that attempt")
            m = match[hs.index(h)]
            pw_codes = {code[x] for x in pw if x in code}
            if (not m and code[h] in pw_codes) or (m and set(pw) <= set(code) and code[h] not in pw_codes):
                return Verdict(
                    ctrl,
                    "controller_answer",
                    f"seat {ctrl + 1} answered {'match' if m else 'no match'} "
                    f"for {card(faces[h]).title} in entry {ref} against its password",
                    seq,
                )
            raise false("the answer agrees with the certificates")
        a, b, ha, hb = need(body, "a", int), need(body, "b", int), need(body, "ha", int), need(body, "hb", int)
        if a not in self.answers or b not in self.answers or ha not in code or hb not in code:
            raise false("no such answers")
        x, y = self.answers[a], self.answers[b]
        if (x[0], x[1], x[2]) != (y[0], y[1], y[2]) or ha not in x[3] or hb not in y[3]:
            raise false("not two answers of one controller to one password")
        if code[ha] != code[hb] or x[4][x[3].index(ha)] == y[4][y[3].index(hb)]:
            raise false("the answers do not contradict")
        return Verdict(
            x[0],
            "controller_answer",
            f"seat {x[0] + 1} answered the same code {'ABCDEF'[code[ha]]} "
            f"differently in entries {a} and {b} against one password",
            seq,
        )

    def _open(self, h: int) -> int:
        ct = self.hmap[h]
        got = self.shares.get(h, {})
        ds = []
        for s in range(self.n):
            if s == self.seat and self.deck_key is not None:
                ds.append(mul(self.deck_key.secret, ct.c1))
            elif s in got:
                ds.append(got[s].d)
            else:
                raise ProtocolError(None, f"handle {h}: no share of seat {s + 1} to open it")
        try:
            return self.table.face(combine(ct, ds))
        except CryptoError:
            raise ProtocolError(None, f"handle {h} does not open to a card (the audit names the shuffler)") from None

    def _box_context(self, sender: int, recipient: int) -> bytes:
        return b"adp2p/shares" + self.game_id + u64(self.entries) + bytes([sender, recipient])

    # -- end of game -----------------------------------------------------------------------------------
    def _secrets(self, seat: int, body: dict[str, Any]) -> None:
        """A seat's end-of-game secrets: every one checked against what the seat published before the audit
        may use it against anyone (a mismatch, or a malformed shape, names the revealer)."""
        key = self.keys[seat]
        assert key is not None
        deck_secret = published.deck_secret(self.game_id, seat, need(body, "deck_secret", bytes, size=32), key, seat)
        box_secret = published.box_secret(self.ids, seat, need(body, "box_secret", bytes, size=32), seat)
        witnesses: dict[int, bytes] = {}
        piles = len(self.hmap.piles) + 1  # the piles shuffled so far, and one a verdict may have cut short
        for item in need(body, "witnesses", list, max_len=piles):
            if not (_is_int(item, 2) and isinstance(item[1], bytes) and len(item[1]) <= MAX_WITNESS_BYTES):
                raise BodyError("a witness is [pile index, witness bytes]")
            if item[0] in witnesses or not 0 <= item[0] < piles:
                raise BodyError(f"witness for pile {item[0]}: no such pile, or twice")
            witnesses[item[0]] = item[1]
        openings: list[tuple[int, int, bytes]] = []
        # (an honest seat may hold openings of a password entry that evidence set aside: they are ignored)
        for item in need(body, "openings", list, max_len=MAX_OPENINGS):
            if not (_is_int(item, 3, ints=2) and isinstance(item[2], bytes) and len(item[2]) <= 64):
                raise BodyError("an opening is [handle, code, salt]")
            if item[0] in {h for h, _, _ in openings}:
                raise BodyError(f"two openings for handle {item[0]}")
            openings.append((item[0], item[1], item[2]))
        self.revealed[seat] = {
            "deck_secret": deck_secret,
            "witnesses": witnesses,
            "openings": openings,
            "box_secret": box_secret,
        }
        if len(self.revealed) == self.n:
            try:
                self.audit_report = self.audit()
            except Exception as exc:  # never a silently skipped audit: say that it could not run, and why
                rep = AuditReport()
                rep.violation(None, "audit", f"the audit could not run to its end ({type(exc).__name__})")
                self.audit_report = rep

    def audit(self) -> AuditReport:
        """The end-of-game check from the log alone plus the revealed secrets: every shuffle (and that the
        deck held each card once), every decryption share (the sealed ones too, opened with the revealed box
        secrets), every password commitment, a strict replay of every move with every face known (answers,
        passwords, cards played, obligations, promises), the winners. Each violation names a seat and the
        entry (seq) that shows it."""
        rep = AuditReport()
        missing = [s for s in range(self.n) if s not in self.revealed]
        for seat in missing:
            rep.violation(
                seat,
                "secrets_missing",
                "did not reveal its secrets at the end of the game: the hidden "
                "cards, shuffles and commitments cannot be checked",
            )
        if missing:
            return rep
        publics = [k[0] for k in self.keys if k is not None]
        secrets_ = [self.revealed[s]["deck_secret"] for s in range(self.n)]
        full: dict[int, int] = {}
        for pile in self.hmap.piles:
            seqs = self.shuffle_seqs.get(pile.index, [])
            try:
                ws = []
                for step, (seat, _) in enumerate(pile.steps):
                    try:
                        ws.append(ShuffleWitness.from_bytes(self.revealed[seat]["witnesses"][pile.index]))
                    except (CryptoError, KeyError, TypeError, ValueError) as exc:
                        raise ShuffleError(f"no valid witness revealed: {exc}", seat=seat, step=step) from None
                faces = verify_shuffles(
                    self.game_id, publics, secrets_, pile.start, pile.steps, ws, self.table, pile.faces
                )
            except CryptoError as exc:
                step = getattr(exc, "step", None)
                seq = seqs[step] if step is not None and step < len(seqs) else None
                rep.violation(getattr(exc, "seat", None), "shuffle", f"pile {pile.index}: {exc}", seq)
                return rep
            want = list(range(63)) if pile.faces is None else sorted(pile.faces)
            if sorted(faces) != want:
                rep.violation(None, "deck", f"pile {pile.index} does not hold the cards it should, once each")
                return rep
            for j, f in enumerate(faces):
                full[pile.first + j] = f
        x = secrets_[0]
        for sec in secrets_[1:]:
            x = scalar_add(x, sec)
        for h in range(self.hmap.next_handle):
            c1, c2 = self.hmap[h]
            if self.table.face(sub(c2, mul(x, c1))) != full[h]:
                rep.violation(None, "decrypt", f"handle {h} decrypts to another card than its shuffle says")
        self._audit_sealed(rep)
        for seat in range(self.n):
            for h, code, salt in self.revealed[seat]["openings"]:
                c = self.commitments.get(h)
                if c is None or self.committed.get(h, (seat,))[0] != seat:
                    continue
                at = self.committed[h][1]
                try:
                    published.code_opening(self.game_id, h, c, code, salt, seat)
                except ProtocolError:
                    rep.violation(seat, "commitment", f"password handle {h}: the opening does not match", at)
                    continue
                if card(full[h]).code != code:
                    rep.violation(
                        seat,
                        "commitment",
                        f"password handle {h} committed code {'ABCDEF'[code]}, the card is {card(full[h]).title}",
                        at,
                    )
        opened = {h for seat in range(self.n) for h, _, _ in self.revealed[seat]["openings"]}
        for h, (seat, at) in sorted(self.committed.items()):
            if h not in opened:
                rep.violation(seat, "commitment", f"password handle {h}: the commitment was never opened", at)
        rep.faces = full
        self._audit_replay(rep, full)
        return rep

    def _audit_sealed(self, rep: AuditReport) -> None:
        """Open every sealed box with the revealed box secrets and check every share inside."""
        for seq, sender, to, box, due in self.sealed_log:
            secret = self.revealed[to]["box_secret"]
            ctx = b"adp2p/shares" + self.game_id + u64(seq) + bytes([sender, to])
            try:
                payload = audit_open_private(secret, self.ids[sender], self.ids[to], ctx, box)
                items = unpack_canonical(payload, "sealed shares")
                got: dict[int, list[Any]] = {}
                for item in items:
                    got[item[0]] = item[1]
                if set(got) != set(due):
                    raise ValueError(f"shares for handles {sorted(got)}, due {sorted(due)}")
                for h, raws in got.items():
                    shares = {sh.seat: sh for sh in (Share.from_bytes(r) for r in raws)}
                    want = set(range(self.n)) if due[h] == "cert" else {sender}
                    if set(shares) != want:
                        raise ValueError(f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}")
                    for sh in shares.values():  # every deck secret is revealed and checked: recompute the share
                        check_share_with_secret(self.revealed[sh.seat]["deck_secret"], self.hmap[h], sh)
            except (CryptoError, TypeError, ValueError, IndexError, KeyError) as exc:
                rep.violation(sender, "sealed_shares", f"shares sealed to seat {to + 1} do not check out: {exc}", seq)

    def _audit_replay(self, rep: AuditReport, full: dict[int, int]) -> None:
        """Strict replay, event by event, so that the first rule broken names its entry and seat."""
        st = new_game(self.profile, self.n, strict=True)
        st.faces = dict(full)
        for i, ev in enumerate(self.events):
            try:
                st = apply(st, ev)
            except IllegalEvent as exc:
                seq, author = self.sources[i] if i < len(self.sources) else (None, None)
                guilty = author
                if exc.rule == "trade_promise" and st.stack and st.stack[-1].get("op") == "trade_reply":
                    ctx = st.ctx[st.stack[-1]["ctx"]]
                    if ctx.get("promise") is not None and card(full[ctx["card"]]).code != ctx["promise"]:
                        guilty = ctx["p"]
                rep.violation(guilty, exc.rule, f"strict replay: {exc.message}", seq)
                return
        rep.winners = list(st.winners)
        if st.winners != self.state.winners or st.access != self.state.access:
            rep.violation(None, "replay", "the strict replay ends in another state than the game")

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
            out, w = self._make_shuffle(pile.final)
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
            if self._opening_due(seat, h):
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

    # ==================================================================================================
    # for people

    def result_line(self) -> str:
        if self.verdict is not None:
            return f"stopped: {self.verdict.msg}"
        res = result(self.state)
        why = "" if res.reason is None else narrate(res.reason, names=self.names)
        return f"winner(s): {', '.join(self.names[w] for w in res.winners)} — {why}"


BODY_FIELDS: dict[int, set[str]] = {  # every field an entry body of each kind may hold (docs/protocol.md)
    Kind.JOIN: {"deck_key", "deck_proof", "beacon_head"},
    Kind.LINK: {"k", "link"},
    Kind.SHUFFLE: {"deck"},
    Kind.SHARES: {"pub", "sealed"},
    Kind.EVENT: {"ev", "commit", "passes"},
    Kind.SECRETS: {"deck_secret", "box_secret", "witnesses", "openings"},
    Kind.ABANDON: {"silent", "seq", "passes"},
    Kind.EVIDENCE: {
        "what", "raw", "reason", "certs", "box_secret", "a", "b", "seq", "h", "ha", "hb", "code", "salt", "token",
    },
}
BOOL_FIELDS = {"accept": False, "bank": False, "match": True}  # event fields that hold a bool (True: a list of bools)


def _check_event_shape(ev: dict[str, Any]) -> None:
    """An engine event's shape, before the engine sees it: string keys, values that are ints (never bools, except
    the bool fields), short strings, or flat lists of ints; a bool field holds bools only."""
    if len(ev) > 16:
        raise BodyError("an event has at most 16 fields")
    for k, v in ev.items():
        if not isinstance(k, str) or len(k) > 32:
            raise BodyError("event field names are short strings")
        if k in BOOL_FIELDS:
            vals = v if BOOL_FIELDS[k] and isinstance(v, list) else [v]
            if BOOL_FIELDS[k] != isinstance(v, list) or len(vals) > 8 or any(type(x) is not bool for x in vals):
                raise BodyError(f"event field {k!r} has the wrong type")
        elif isinstance(v, list):
            if len(v) > 64 or any(type(x) is not int for x in v):
                raise BodyError(f"event field {k!r} is a list of ints")
        elif not (type(v) is int or v is None or (isinstance(v, str) and len(v) <= 32)):
            raise BodyError(f"event field {k!r} has the wrong type")


def _kind_name(kind: int) -> str:
    return Kind(kind).name.lower() if kind in Kind._value2member_map_ else f"kind-{kind}"


MAX_PASSES = 48  # pass tokens one entry may carry (a turn's windows hold far fewer decisions)
MAX_WITNESS_BYTES = 64 * 1024  # a shuffle witness of 63 cards is ~4 KB
MAX_OPENINGS = 1024  # password code openings one seat reveals (one per password card it ever committed)


def _is_int(item: Any, size: int, *, ints: int = 1) -> bool:
    """`item` is a list of `size` values whose first `ints` are ints (never bools)."""
    return (
        isinstance(item, list)
        and len(item) == size
        and all(type(x) is int for x in item[:ints])
    )


def _no_card(h: int, seq: int | None) -> Verdict:
    """The verdict on a card whose proven shares open to no card: nobody named until the audit."""
    return Verdict(
        None,
        "deck",
        f"handle {h} opens to no card with every seat's proven share: a shuffle is corrupt (the audit names the "
        "shuffler)",
        seq,
    )


@dataclass
class AuditReport:
    violations: list[Verdict] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    faces: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def violation(self, seat: int | None, rule: str, msg: str, seq: int | None = None) -> None:
        self.violations.append(Verdict(seat, rule, msg, seq))
