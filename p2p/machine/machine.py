"""The replicated game machine of one peer: folds the signed log into the game, and authors this peer's
entries. Pure and deterministic given the log and this seat's secrets: no I/O, no clock.

At every point `duty()` names the one seat that must author the next entry and its kind (setup joins,
beacon links for CHANCE picks, shuffle steps, reveal rounds of decryption shares, engine events, the
end-of-game secrets). `apply(author, kind, body)` validates an entry completely before changing anything
(`ProtocolError` names the seat at fault) and then applies it. `author_next(choose)` builds this seat's
entry body when the duty is ours. See docs/protocol.md, "The table".

Evidence: an `evidence` entry (Kind.EVIDENCE) may be authored by any seat at any point before the game is
complete; it carries proof of another seat's cheating that every peer re-verifies (a signed entry that
breaks a rule, two entries signed for one seq, a card seen in two places, and the game's own kinds through its
machine parts, p2p/machine/game_part.py: Access Denied's contradicting controller answers with card certificates,
a broken trade promise, a false password opening). Valid evidence stops the game with a verdict naming the guilty
seat; false evidence is itself a violation of its author. `pending_evidence()` is the body this peer should post
(from its immediate checks), `evidence_for_entry(raw, exc)` turns an entry this peer rejected into such a body.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from adp2p.crypto.beacon import BeaconChain, BeaconTracker
from adp2p.crypto.deck import (
    DeckKey,
    Masks,
    Share,
)
from adp2p.crypto.entries import Entry
from adp2p.crypto.group import CardTable
from adp2p.crypto.identity import PublicIdentity
from adp2p.crypto.shuffle_proof import ShuffleContext
from adp2p.p2p.game import Game, NotForPlayers, UnknownGame, get_game
from adp2p.p2p.machine.authoring import Author, Authoring
from adp2p.p2p.machine.common import (
    BODY_FIELDS,
    MAX_PASSES,
    AuditReport,
    Chooser,
    Duty,
    Event,
    Round,
    Verdict,
    _kind_name,
)
from adp2p.p2p.machine.dealer import Dealer
from adp2p.p2p.machine.departure import abandon
from adp2p.p2p.machine.ending import Ending
from adp2p.p2p.machine.evidence import Evidence
from adp2p.p2p.machine.finality import Finality
from adp2p.p2p.machine.game_part import TablePart
from adp2p.p2p.machine.passes import Passes
from adp2p.p2p.machine.referee import Referee
from adp2p.p2p.machine.reveals import Reveals
from adp2p.p2p.machine.setup import Setup
from adp2p.p2p.machine.steps import Steps
from adp2p.p2p.piles import HandleMap, Pile
from adp2p.p2p.pipeline import Arrival, schema
from adp2p.p2p.protocol import BodyError, Genesis, Kind, ProtocolError, need
from adp2p.p2p.seat_secrets import SeatSecrets


def game_of(genesis: Genesis) -> Game:
    """The game a genesis names (ProtocolError if this peer does not have it)."""
    try:
        return get_game(genesis.game)
    except UnknownGame as exc:
        raise ProtocolError(None, str(exc)) from None


def configuration(game: Game, genesis: Genesis) -> Any:
    """The game's configuration from the genesis (Access Denied: its rules profile); ProtocolError if it has none."""
    settings = {
        "profile": genesis.profile,
        "goal": genesis.goal,
        "round_limit": genesis.round_limit,
        "stalemate": genesis.stalemate,
        "version": genesis.version,  # the log's protocol version (Classified: a version-6 log has no hand mix)
    }
    try:
        return game.configure(settings, genesis.n)
    except NotForPlayers as exc:
        raise ProtocolError(0, str(exc)) from None
    except ValueError as exc:  # settings this peer's game does not know (a profile of another version): nobody's
        raise ProtocolError(None, str(exc)) from None


def body_fields(game: Game) -> dict[int, set[str]]:
    """The fields an entry body of each kind may carry: the core's and the game's."""
    fields = {k: set(v) for k, v in BODY_FIELDS.items()}
    fields[Kind.EVENT] |= game.event_fields
    fields[Kind.SECRETS] |= game.secret_fields
    fields[Kind.EVIDENCE] |= game.evidence_fields
    return fields


def card_table(game: Game, genesis: Genesis) -> CardTable:
    """The faces' points: version 5's linear card points (constant-size link proofs), an old log's otherwise."""
    if genesis.version >= 5:
        return CardTable.linear(genesis.game_id, game.card_attributes())
    return CardTable(genesis.game_id, game.deck_size)


class Machine:
    """One peer's fold of the game log (see module docstring): it owns the log's state (the attributes set in
    `__init__`) and wires the parts that fold each kind of entry, each an object called with the fold (setup, steps,
    reveals, passes, ending, authoring, finality, evidence); the game's own committed secrets are its table part
    (`self.part`, a `TablePart` the game supplies: p2p/machine/game_part.py), called through its hooks. The methods
    below the core (duty, snapshot, fork, apply) are the fold's public interface and the Fold hooks, delegated."""

    # the seam for a part other than the game's (a test's cheater replaces the part): called with the game, it makes
    # the part of each new fold; None: the game's own (`Game.table_part()`)
    part_factory: Callable[[Game], TablePart] | None = None
    referee: Referee = Referee()  # runs each event through the rules (a test's cheater: its own)
    dealer: Dealer = Dealer()  # this seat's shuffles and shares (a seeded table's or a test's cheater's: its own)
    author: Author = Author()  # what this seat sends: the honest one builds it (a test's cheater: its own, wrapping it)
    proof_seed: bytes | None = None  # fixed only by seeded test tables (reproducible proofs); None: fresh randomness
    _proofs_in_line = True  # proofs of shuffle checked at once, in line (the audit's pool: later, in a worker)

    def __init__(self, genesis: Genesis, me: SeatSecrets | None) -> None:
        self.game: Game = game_of(genesis)
        factory = type(self).part_factory
        self.part: TablePart = (factory(self.game) if factory is not None else self.game.table_part()) or TablePart()
        self.g = genesis
        self.n = genesis.n
        self.ids: list[PublicIdentity] = genesis.identities()
        self.names = genesis.names()
        self.game_id = genesis.game_id
        self.profile = configuration(self.game, genesis)  # the game's configuration (AD: its rules profile)
        self.setup = Setup()  # joins, beacon links, shuffle steps (p2p/machine/setup.py)
        self.ending = Ending()  # the secrets entries and the audit (p2p/machine/ending.py)
        self.reveals = Reveals(self.ending)  # reveal rounds, card certificates (p2p/machine/reveals.py)
        self.steps = Steps(self.reveals)  # one event through the rules (p2p/machine/steps.py)
        self.passes = Passes()  # reaction windows and pass tokens (p2p/machine/passes.py)
        self.authoring = Authoring()  # this seat's next entry (p2p/machine/authoring.py)
        self.body_fields = body_fields(self.game)
        self.me = me
        self.seat = me.seat if me else None
        if me is not None and self.ids[me.seat] != me.identity.public:
            raise ProtocolError(None, "these secrets are not for this seat of the roster")
        self.state: Any = self.game.new_game(self.profile, self.n)
        self.events: list[Event] = []  # every engine event, derived chance events included (the audit folds them)
        self.version = genesis.version  # 5: linear card points, constant-size link proofs; 4: an old log's audit
        self.table = card_table(self.game, genesis)
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
        self.revealed: dict[int, dict[str, Any]] = {}  # seat -> its end-of-game secrets
        self.verdict: Verdict | None = None
        self.abandoned: int | None = None  # the seat an abandon entry named: the game ends there
        self.audit_report: AuditReport | None = None
        self.entries = 1  # the genesis
        # for the audit and the immediate checks
        self.sources: list[tuple[int, int | None]] = []  # per engine event: (entry seq, author; None derived)
        self.sealed_log: list[tuple[int, int, int, bytes, dict[int, str]]] = []  # seq, sender, to, box, due
        self.sealed_openings: dict[tuple[int, int, int], dict[int, Any]] = {}  # (seq, sender, to) -> h -> opening due
        self._opener: tuple[int, bytes] | None = None  # verifying evidence: open this seat's boxes
        self._depth = 0  # verifying evidence: how many evidence entries this fold is nested in (at most one)
        self.shuffle_seqs: dict[int, list[int]] = {}  # pile index -> seq of each shuffle step
        self.openings_shown: dict[int, tuple[int, bytes]] = {}  # handle -> [value, salt] opening shown with the card
        self.prev: bytes | None = None  # the id of the entry before the one being applied (pass tokens name it)
        self.own_shuffle: tuple[bytes, list[Any]] | None = None  # the shuffle output we just authored
        self._tokens_now = 0  # the seats whose pass tokens the entry being applied carries
        self.finality = Finality()  # who signed what on which entry, where the game ended (p2p/machine/finality.py)
        self.evidence = Evidence(self.reveals, self.finality)  # found, held, posted, judged (p2p/machine/evidence.py)

    def duty(self) -> Duty | None:
        """Who authors the next entry, and what (docs/protocol.md, "Who authors the next entry"): `next_duty`."""
        return next_duty(self)

    def snapshot(self) -> Machine:
        """An independent copy of this fold (to try an entry on, or to go back to); the immutable parts
        (card table, secrets, genesis, identities) are shared."""
        shared = (self.table, self.me, self.chain, self.deck_key, self.g, self.ids, self.game)
        keep = {id(o): o for o in (*shared, self.dealer, self.referee, self.author)}  # (and the seams, however set)
        return copy.deepcopy(self, keep)

    def fork(self) -> Machine:
        """A cheap copy to apply passes on and look ahead (`forked`)."""
        return forked(self)

    @property
    def finished(self) -> bool:
        return self.state.over or self.verdict is not None

    @property
    def complete(self) -> bool:
        return self.finished and self.duty() is None

    def fold(self, a: Arrival) -> None:
        """The last step of the pipeline (p2p/pipeline.py): an entry framed, its body decoded, its signature and its
        place in the chain checked, applied with the id of the entry it builds on (its body's `BodyError` if the body
        did not read)."""
        if a.body is None:
            raise a.error or BodyError("an entry body is a map")
        self.apply(a.entry.author, a.entry.kind, a.body, prev=a.entry.prev_hash)

    # ------------------------------------------------------------------ what the game's part sees (`Fold`)

    def cert(self, h: int) -> list[Any] | None:
        """A transferable certificate of handle h's face: every seat's proven share (None if not held)."""
        return self.reveals.cert(self, h)

    def box_viewer(self) -> int | None:
        return self.reveals.box_viewer(self)

    def open_box(self, sender: int, viewer: int, ctx: bytes, box: bytes) -> bytes:
        return self.reveals.open_box(self, sender, viewer, ctx, box)

    def check_shares(self, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:
        self._check_shares(seat, h, ct, todo)

    def _check_shares(self, seat: int, h: int, ct: Any, todo: list[tuple[bytes, Share]]) -> None:  # a seam (pool)
        self.reveals.check_shares(self, seat, h, ct, todo)

    def proof_check(self, fn: Callable[..., None], *args: Any) -> None:
        self._proof_check(fn, *args)

    @staticmethod
    def _proof_check(fn: Callable[..., None], *args: Any) -> None:  # a seam: the audit's pool hands it to a worker
        fn(*args)

    def draw_secret(self, what: str, index: int) -> bytes | None:
        """A secret of this seat's the game draws (a private roll's): the dealer's (p2p/machine/dealer.py)."""
        return self.dealer.draw_secret(self, what, index)

    def _engine(self, seat: int | None, ev: Event) -> None:
        self.steps.engine(self, seat, ev)

    # ------------------------------------------------------------------ evidence (p2p/machine/evidence.py)

    @property
    def evidence_seen(self) -> list[tuple[int, int, Verdict]]:  # (seq, accuser, verdict) of each evidence entry
        return self.evidence.seen

    def pending_evidence(self) -> dict[str, Any] | None:  # the evidence body this peer should post now (once)
        return self.evidence.pending_evidence(self)

    def evidence_for_entry(self, raw: bytes, exc: ProtocolError | None = None) -> dict[str, Any]:
        return self.evidence.evidence_for_entry(self, raw, exc)

    def holds_evidence(self) -> bool:
        return self.evidence.held is not None

    def hold_evidence(self, body: dict[str, Any]) -> None:
        """Proof this peer found (a reveal round's, the game's part's), to post unless it holds some already."""
        if self.evidence.held is None:
            self.evidence.held = body

    def immediate_checks(self, new: set[int]) -> None:
        self.evidence.immediate_checks(self, new)

    # ------------------------------------------------------------------ results are final (p2p/machine/finality.py)

    @property
    def ended_at(self) -> int | None:  # the seq of the entry that ended the game (goal, round limit, stalemate)
        return self.finality.ended_at

    @property
    def left_at(self) -> int | None:  # the abandoned seat had left after its abandon at this seq stood: unnamed
        return self.finality.left_at

    @property
    def refused_ids(self) -> set[bytes]:
        return self.finality.refused_ids

    def prev_at(self, seq: int) -> bytes | None:
        return self.finality.prev_at(self, seq)

    def id_at(self, seq: int) -> bytes | None:
        return self.finality.id_at(self, seq)

    def signed_after(self, seat: int, seq: int) -> int | None:
        return self.finality.signed_after(self, seat, seq)

    def own_fault(self, e: Entry) -> tuple[str, str] | None:
        return self.finality.own_fault(self, e)

    def displaces(self, e: Entry, verdict: Verdict) -> str | None:
        return self.finality.displaces(self, e, verdict)

    def named(self) -> set[int]:
        return self.finality.named(self)

    def standing_winners(self, extra: set[int] | None = None) -> list[int]:
        return self.finality.standing_winners(self, extra)

    # ------------------------------------------------------------------ authoring (p2p/machine/authoring.py)

    def author_next(self, choose: Chooser | None = None) -> tuple[Kind, dict[str, Any]] | None:
        """The body of our next entry, or None: what the author sends (`author`, p2p/machine/authoring.py)."""
        return self.author.author_next(self, choose)

    def take_masks(self) -> Masks | None:
        return self.authoring.take_masks(self)

    def prepare_shuffle(self) -> bool:
        return self.authoring.prepare_shuffle(self)

    def audit(self) -> AuditReport:
        return self.ending.audit(self)

    def result_line(self) -> str:
        return self.ending.result_line(self)

    def box_context(self, sender: int, recipient: int) -> bytes:
        return self.ending.box_context(self, sender, recipient)

    def _new_pile(self) -> Pile:  # the pile shuffled next, at its public start (a seam: the audit's pool notes it)
        return self.setup.new_pile(self)

    def _check_shuffle_proof(  # a seam: the offline audit checks it in a worker process meanwhile
        self, seat: int, ctx: ShuffleContext, deck_in: list[Any], deck_out: list[Any], proof: bytes
    ) -> None:
        self.setup.check_shuffle_proof(self, seat, ctx, deck_in, deck_out, proof)

    def prepare_ahead(self) -> bool:
        """Work of this seat's done ahead while another seat is on duty (the game's part: a proof it will owe); the
        peer calls it when it waits. True if it did some (then it is called again)."""
        return self.part.prepare_ahead(self)

    def apply_entry(self, e: Entry) -> None:
        """Apply a decoded (and signature-checked) entry: its body through the pipeline's schema step, then `fold`."""
        self.fold(schema(e))

    def apply(self, author: int, kind: int, body: dict[str, Any], *, prev: bytes | None = None) -> None:
        """Apply one entry body by `author`; `prev` is the id of the entry it builds on (pass tokens and pass
        evidence are checked against it; an entry that carries them cannot be applied without it)."""
        duty = self.duty()
        if duty is None:
            raise ProtocolError(author, "the game is complete: no more entries")
        if not 0 <= author < self.n:
            raise ProtocolError(None, f"an entry by unknown seat {author + 1}")
        self.prev = prev
        self._tokens_now = 0
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
        self.finality.record(self, author, prev, self._tokens_now)
        self._tokens_now = 0

    def window_actor(self) -> int | None:
        """The seat whose reaction-window decision is due now, or None (p2p/machine/passes.py)."""
        return self.passes.window_actor(self)

    def pass_window(self) -> int:
        """Apply a pass by the seat whose window decision is due, with no token: a look-ahead on a fork only."""
        return self.passes.pass_window(self)

    def apply_passes(self, carrier: int, tokens: list[Any], *, trusted: bool = False, start: int = 0) -> None:
        """Apply the pass tokens `carrier`'s entry at this seq carries (p2p/machine/passes.py)."""
        self.passes.apply_passes(self, carrier, tokens, trusted=trusted, start=start)

    def _apply(self, duty: Duty, author: int, kind: int, body: dict[str, Any]) -> None:
        if not isinstance(body, dict):
            raise BodyError("an entry body is a map")
        extra = set(body) - self.body_fields.get(kind, set())
        if extra:
            raise BodyError(f"unknown field(s) {sorted(map(str, extra))[:4]}")
        if kind == Kind.EVIDENCE:
            self.evidence.evidence_entry(self, author, body)
            return
        if kind == Kind.ABANDON:
            self.abandoned, left_at = abandon(self, duty, author, body)  # (p2p/machine/departure.py)
            if left_at is not None:
                self.finality.left_at = left_at
            return
        if author != duty.seat or kind != duty.kind:
            raise ProtocolError(
                author,
                f"out of turn: the next entry is {duty.kind.name.lower()} by seat "
                f"{duty.seat + 1}, not {Kind(kind).name.lower() if kind in Kind._value2member_map_ else kind}"
                f" by seat {author + 1}",
            )
        {
            Kind.JOIN: self.setup.join,
            Kind.LINK: self.setup.link,
            Kind.SHUFFLE: self.setup.shuffle,
            Kind.SHARES: self.reveals.shares,
            Kind.EVENT: self.steps.event_entry,
            Kind.SECRETS: self.ending.secrets,
        }[duty.kind](self, author, body)


def forked(m: Machine) -> Machine:
    """A cheap copy of fold `m` to apply passes on and look ahead (`pass_window`, `apply_passes`, `duty`, and authoring
    an event): a pass replaces the engine state (the engine never changes a state in place) and the reveal round, and
    appends to the event lists, which are copied; everything else is shared, so a fork must not fold anything but
    passes."""
    c = copy.copy(m)
    c.state = copy.copy(m.state)  # its own state object: nothing done on the fork reaches ours
    c.events = list(m.events)
    c.sources = list(m.sources)
    return c


def next_duty(m: Machine) -> Duty | None:
    """Who authors the next entry of fold `m`, and of what kind: nobody once an abandon ended the game; the seats'
    joins in seat order; after the end, each seat's secrets; a reveal round's next share; the game's decision; a
    shuffle step; the beacon's next missing link."""
    if m.abandoned is not None:
        return None
    joined = sum(1 for k in m.keys if k is not None)
    if joined < m.n:
        return Duty(joined, Kind.JOIN)
    if m.finished:
        left = [s for s in range(m.n) if s not in m.revealed]
        return Duty(left[0], Kind.SECRETS) if left else None
    if m.round is not None:
        return Duty(m.round.order[0], Kind.SHARES)
    d = m.game.pending(m.state)
    assert d is not None
    if d.actor is not None:
        return Duty(d.actor, Kind.EVENT, d.kind)
    if d.kind == "chance:shuffle":
        step = len(m.pile.steps) if m.pile is not None else 0
        return Duty(step, Kind.SHUFFLE)
    assert m.tracker is not None
    return Duty(m.tracker.missing(m.pick_no + 1)[0], Kind.LINK, d.kind)
