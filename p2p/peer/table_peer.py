"""One player's peer at a table, on trio: gather in the lobby, agree on a genesis, then fold the signed log
through the game machine, authoring this seat's entries, persisting every entry before acting on it
(docs/protocol.md: the lobby, the genesis, play, evidence and precedence at one seq, abandonment and resume, the end).

`TablePeer` makes the objects with one job each and wires them (docs/architecture-reference.md, "The peer"): the seat's
log state (`SeatLog`), the lobby (`Lobby`, `Agreeing`, `Seating`), the net (`Net`), entries coming in (`Intake`), our
part of the play (`Playing`), evidence (`Proofs`, `Protest`), a silent seat (`Abandoning`), catching up (`CatchingUp`),
the files (`GameFiles`), what the player is told (`Narrator`). It keeps what is the peer's own: our identity, the mesh
and the wire, the game's end for us (`ended`, `outcome`), and the seams where a test's cheater changes what one honest
peer does (`handle`, `make_wire`, `tasks`, `decide`, `decide_window`, `keeps_own_entry`, `entry_taken`, `gives_up`,
`weighs_abandon`, `accepts_genesis`).

Resume (`run(resume=...)`): the log and this seat's secrets are reloaded from the game directory, the machine
refolds the log, and the peer reconnects and catches up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.address_book import load_book
from adp2p.p2p.machine import Chooser, Machine
from adp2p.p2p.peer.abandon import Abandoning
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.agreeing import Agreeing
from adp2p.p2p.peer.catchup import CatchingUp
from adp2p.p2p.peer.common import (
    Outcome,
    PeerConfig,
)
from adp2p.p2p.peer.dialing import Dialing
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.peer.evidence import Proofs
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.game_end import GameEnd
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.intake import Intake
from adp2p.p2p.peer.lobby import Lobby
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.net import Net
from adp2p.p2p.peer.patience import Patience
from adp2p.p2p.peer.playing import Playing
from adp2p.p2p.peer.protest import Protest
from adp2p.p2p.peer.seat_log import SeatLog, held
from adp2p.p2p.peer.seating import Seating
from adp2p.p2p.peer.stalls import CatchUp
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.pipeline import frame
from adp2p.p2p.table_word import word_key
from adp2p.p2p.transport import Mesh
from adp2p.p2p.transport.common import STRANGER_FRAME


def lobby_held(name: str, doc: str) -> property:
    """A peer's attribute that is its `Lobby`'s."""
    return property(lambda self: getattr(self.lobby, name), lambda self, v: setattr(self.lobby, name, v), doc=doc)


class TablePeer:
    """One player at a table: the objects that do its jobs, wired; its identity, mesh and wire; its seams."""

    machine_class: type[Machine] = Machine  # the game machine this peer folds the log with
    files_class: type[GameFiles] = GameFiles  # its files on disk (a test's crashing disk)
    # the seat's log state is one object (p2p/peer/seat_log.py), handed to the parts; these read and set it
    store = held("store", "The signed log on disk.")
    machine = held("machine", "The fold over our log (replaced whole when a refold or evidence sets entries aside).")
    gdir = held("gdir", "The game's directory.")
    secrets = held("secrets", "This seat's secrets.")
    passes = held("passes", "Pass tokens for the next entry (docs/protocol.md, \"Implied passes\").")
    folds = held("folds", "Snapshots of our fold to start a refold from.")
    arrivals = held("arrivals", "Entries received ahead of our log (bounded).")
    superseded = held("superseded", "Ids of entries set aside by evidence (their followers are stale).")
    ahead = held("ahead", "(seq, prev, j) -> our window decision, made ahead.")
    # the lobby's (p2p/peer/lobby.py), read and set through it
    bundles = lobby_held("bundles", "Fingerprint -> bundle of a player here now.")
    met = lobby_held("met", "Every player who sat down in this lobby (bounded).")
    here = lobby_held("here", "Fingerprint -> the players it last told us it is connected to.")
    addresses = property(lambda self: self.dialing.known, lambda self, v: setattr(self.dialing, "known", v),
                         doc="The addresses we know (and dial: p2p/peer/dialing.py).")
    genesis_raw = lobby_held("genesis_raw", "The genesis we took.")
    # the net's (p2p/peer/net.py)
    progress = property(lambda self: self.net.progress, doc="News for the play loop (replaced once waited on).")
    outbox = property(lambda self: self.net.outbox, doc="Entries authored or re-sent outside the play loop, to send.")
    # the game's end for us (p2p/peer/game_end.py)
    ended = property(lambda self: self.end.ended, doc="Why the game ended for us, in English (None while it goes on).")
    ended_words = property(lambda self: self.end.ended_words, doc="Why the game ended for us, in the player's words.")
    outcome = property(lambda self: self.end.outcome, doc="The game's outcome as it stands (what `run()` returns).")

    def __init__(
        self,
        cfg: PeerConfig,
        choose: Chooser,
        *,
        say: Callable[[str], None] = print,
        identity: SecretIdentity | None = None,
        draws: Draws | None = None,
        machine_class: type[Machine] | None = None,
    ) -> None:
        """`draws`: where new secrets come from (the OS; a test's table seed); `machine_class`: the game machine
        that folds the log (a test's cheater), by default the class's."""
        self.cfg = cfg
        self.log_state = SeatLog(lambda g, secrets: self.machine_class(g, secrets))  # store, fold, passes, ...
        self.draws = draws or Draws()
        self.files = self.files_class(cfg.data_dir, cfg.timings)  # the seat key, secrets, damaged log, timings files
        if machine_class is not None:
            self.machine_class = machine_class
        self.choose = choose
        self.say = say
        self.identity = identity or SecretIdentity.generate()
        self.bundle = make_bundle(self.identity, cfg.name)
        self.fp = self.identity.public.fingerprint()
        self.mesh: Mesh | None = None
        self.wire: Wire | None = None  # what we send goes through it (`make_wire`)
        self.narrator = Narrator(cfg.lang, say)  # what the player is told, and what it was told already
        self.end = GameEnd(cfg, self.narrator, stop_deciding=lambda: self.play_loop.stop_deciding(),
                           news=lambda: self.progress.set())  # why the game ended for us, the outcome
        self.heads = Heads()  # the others' heads, and ours as last sent
        self.proofs_to_share: list[tuple[bytes, bytes]] = []  # equivocations found, to show the others

        def who(seat: int | None, lang: str | None = None) -> str:  # how the player is told of a seat
            return self.narrator.who(self.machine, seat, lang)

        self.patience = Patience(cfg.abandon_after)  # when each decision became due here (p2p/peer/patience.py)
        self.abandonment = Abandonment(self.patience)  # abandons held until due, the rulings on silence
        self.book = EvidenceBook()  # evidence judged, to post again, and the evidence file
        self.proofs = Proofs(  # evidence posted, weighed, adopted (p2p/peer/evidence.py)
            self.log_state, self.book, self.narrator, self.proofs_to_share, me=lambda: self.identity,
            ended=lambda: self.ended, take_over=lambda e: self.intake.take_over(e),
            stop_deciding=lambda: self.play_loop.stop_deciding(),
            news=lambda: self.progress.set(), queue=lambda raw: self.outbox.append(raw), wire=lambda: self.wire,
            timing=self.files.timing, say_verdict=lambda: self.narrator.say_verdict(self.machine, bool(self.ended)),
            tell=self.narrator.tell, who=who, detail=self.narrator.detail,
        )
        self.catch_up = CatchUp()  # sign nothing until fresh heads show we hold all the table holds (catchup.py)
        self.catching_up = CatchingUp(
            self.log_state, self.catch_up, self.patience, self.abandonment, cfg=cfg,
            ended=lambda: bool(self.ended), ask=lambda msg: self.wire.broadcast(msg),  # type: ignore[union-attr]
            wait=lambda: self.net.wait_progress(), answer_held=lambda raw: self.abandoning.hold(raw, "a peer"),
            lose_contact=lambda: self.end.lost_contact(len(self.store), self.gdir),  # type: ignore[arg-type]
        )
        self.abandoning = Abandoning(  # a silent seat, an abandon held or weighed (p2p/peer/abandon.py)
            self.log_state, self.abandonment, self.patience, self.heads, self.catching_up, cfg=cfg,
            me=lambda: self.identity, gives_up=lambda seat: self.gives_up(seat),
            weighs_abandon=lambda raw: self.weighs_abandon(raw),
            accept=lambda raw, **k: self.intake.accept(frame(raw), **k),
            take_over=lambda e: self.intake.take_over(e),
            send_head=lambda: self.net.send_head(), wire=lambda: self.wire, mesh=lambda: self.mesh,
            nursery=lambda: self._nursery,
            post=lambda raw: self.outbox.append(raw), outcome=lambda: self.outcome, ended=lambda: self.ended,
            end=self.end.end, reopen=self.end.reopen, stop_deciding=lambda: self.play_loop.stop_deciding(),
            news=lambda: self.progress.set(), tell=self.narrator.tell, who=who,
        )
        self.protest = Protest(  # the table's branch past an entry we rejected (p2p/peer/protest.py)
            self.log_state, self.narrator, self.proofs, ended=lambda: self.ended,
            stop_deciding=lambda: self.play_loop.stop_deciding(), drain=lambda: self.intake.drain(),
            news=lambda: self.progress.set(), timing=self.files.timing,
        )
        self.intake = Intake(  # entries coming in (p2p/peer/intake.py)
            self.log_state, self.book, self.abandonment, self.narrator, self.proofs, self.abandoning, self.protest,
            cfg=cfg, to_share=self.proofs_to_share, keeps_own_entry=lambda raw: self.keeps_own_entry(raw),
            entry_taken=lambda raw, **k: self.entry_taken(raw, **k), ended=lambda: self.ended,
            end_verdict=self.end.verdict, stop_deciding=lambda: self.play_loop.stop_deciding(),
            news=lambda: self.progress.set(), queue=lambda raw: self.outbox.append(raw), timing=self.files.timing,
        )
        self._nursery: trio.Nursery | None = None
        self.agreeing = Agreeing(  # the roster agreement before the genesis (p2p/peer/agreeing.py)
            cfg, self.log_state, me=lambda: self.identity, nonce=self.draws.game_id(), lobby=lambda: self.lobby,
            addresses=lambda: self.dialing.known, broadcast=lambda msg: self.wire.broadcast(msg),
            nursery=lambda: self._nursery, tell=self.narrator.tell, wake=lambda: self.progress.set(),
            ended=lambda: self.ended, void=self._void,
        )
        self.seating = Seating(  # a game begun at its genesis or resumed (p2p/peer/seating.py)
            cfg, self.files, self.draws, self.log_state, self.book, self.narrator,
            me=lambda: (self.identity, self.bundle, self.fp), take_identity=self._take_identity,
            tell=self.narrator.tell,
            took_genesis=lambda raw: setattr(self, "genesis_raw", raw), outcome=lambda: self.outcome,
            catch_up=self.catching_up.begin, abandoned=lambda e: self.abandoning.abandoned(e),
        )
        self.dialing = Dialing(cfg, self.log_state, me=lambda: self.fp, mesh=lambda: self.mesh)  # addresses, mDNS
        self.lobby = Lobby(  # who is here, the genesis (p2p/peer/lobby.py)
            cfg, self.files, self.agreeing, self.log_state, self.dialing,
            me=lambda: (self.fp, self.bundle), mesh=lambda: self.mesh, wire=lambda: self.wire, tell=self.narrator.tell,
            detail=self.narrator.detail, news=lambda: self.progress.set(), wait=lambda: self.net.wait_progress(),
            start=self.seating.start, accepts=lambda raw, label: self.accepts_genesis(raw, label),
            heard_from=self.heads.heard_from, first_refusal=lambda what, peer: self.net.first_refusal(what, peer),
            send=lambda fp, msg: self.net.safe_send(fp, msg),
        )
        self.net = Net(  # what we send and receive, heads and tokens gossiped (p2p/peer/net.py)
            self.log_state, self.heads, self.catch_up, self.abandonment, self.lobby, self.agreeing, cfg=cfg,
            me=lambda: self.fp, mesh=lambda: self.mesh, wire=lambda: self.wire,
            ended=lambda: self.ended, reopened=lambda: self.end.reopened,
            handle=lambda fp, label, msg: self.handle(fp, label, msg),
            accepts_genesis=lambda raw, label: self.accepts_genesis(raw, label), accept=self.intake.accept,
            take=self.intake.take,
            drain_pending=self.intake.drain, post_pending_evidence=self.proofs.post_pending,
            share_proofs=self.proofs.share, fp_of=self.abandoning.fp_of, tell=self.narrator.tell,
            detail=self.narrator.detail,
        )
        self.play_loop = Playing(  # our part of the play: the loop, our decisions, a silent seat (p2p/peer/playing.py)
            self.log_state, self.narrator, self.patience, self.abandonment, self.catch_up, self.catching_up,
            self.seating, self.net, self.intake, self.proofs, self.abandoning, self.heads, cfg=cfg, choose=choose,
            me=lambda: self.identity, mesh=lambda: self.mesh, wire=lambda: self.wire, ended=lambda: self.ended,
            decide=lambda m: self.decide(m), decide_window=lambda m, at, j: self.decide_window(m, at, j),
            finish=lambda: self.end.finish(self.machine, self.store),
        )

    async def run(self, *, resume: Path | None = None, on_listening: Callable[[int], Any] | None = None) -> Outcome:
        self.files.timing("start")
        if resume is not None:
            self.seating.load(resume)
            self.addresses |= load_book(resume)  # every address learned for this game, not only the one given
        else:
            self.files.save_seat_key(self.identity)
        try:
            return await self._run(on_listening)
        finally:
            if self.gdir is None or self.files.secrets_saved:  # no game seated us, or its secrets file holds our key
                self.files.drop_seat_key(self.fp)

    async def _run(self, on_listening: Callable[[int], Any] | None) -> Outcome:
        key = await trio.to_thread.run_sync(word_key, self.cfg.word, self.cfg.table) if self.cfg.word else None
        cfg = self.cfg
        async with Mesh(
            self.identity, cfg.name, cfg.table, host=cfg.host, port=cfg.port, peers=sorted(self.addresses),
            heartbeat=cfg.heartbeat, dead_after=cfg.dead_after, word_key=key,
            backoff_max=max(1.0, cfg.dead_after or 3 * cfg.heartbeat),  # a healed network rejoins within the patience
            stranger_frame=STRANGER_FRAME,  # until the game seats a peer, what it may make us hold is bounded
        ) as mesh:
            self.mesh = mesh
            self.wire = self.make_wire(mesh)
            if on_listening is not None:
                on_listening(mesh.port)
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                for task in self.tasks():
                    nursery.start_soon(task)
                if self.machine is None:
                    await self.lobby.gather()
                while True:
                    await self.play_loop.play()
                    await self.net.send_head_now()  # the end: the others hear our last head now, not coalesced
                    # linger so the others get our last entries and can catch up from us, until every seat has
                    # the whole log: a peer resuming late still gets the end of the game, an abandoned one that
                    # returns just too late still learns it was abandoned (or its own entry, arriving now,
                    # beats the abandon and the game goes on: `GameEnd.reopen`)
                    with trio.move_on_after(self.end.linger(self.machine)):
                        await self.net.serve_until_heads_match()
                    if not self.end.reopened:
                        break
                    self.end.reopened = False
                nursery.cancel_scope.cancel()
            self.files.timing("sent", *(f"{k}={v}" for k, v in sorted(mesh.sent.items())))
        if self.store is not None:
            self.store.close()
        return self.outcome

    def tasks(self) -> list[Callable[[], Awaitable[Any]]]:
        """What runs beside the play loop while the mesh is up: reading messages and mesh events, gossiping heads
        and pass tokens, the awake clock, the stall watcher, mDNS discovery (a test's cheater adds its own)."""
        net = self.net
        out = [net.receive, net.events, net.gossip_heads, net.repeat_passes, self.patience.tick]
        out.append(self.catching_up.watch_stalls)
        if self.cfg.mdns:
            out.append(self.dialing.discover)
        return out

    def make_wire(self, mesh: Mesh) -> Wire:
        """The wire every message of ours goes out through (p2p/peer/wire.py): the plain one; a test's cheater
        returns its own."""
        return Wire(mesh)

    @property
    def port(self) -> int:
        assert self.mesh is not None
        return self.mesh.port

    async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """One message that fits its schema (p2p/messages.py), handled by `Net.handle`. (Also the seam where a test's
        peer loses a message, or answers one as a cheater would: what it sends goes through its wire.)"""
        await self.net.handle(fp, label, msg)

    def keeps_own_entry(self, raw: bytes) -> bool:
        """Whether an entry we just signed goes into our log (then out to the table): always. The seam where a test's
        cheater holds back a lie its own fold rejects (tests/adversaries/_net.py)."""
        return True

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        """After an entry came through intake (`appended`: our log grew): nothing. The seam where a test's cheater acts
        on what it saw (posts evidence late, crashes after a write)."""

    async def decide(self, m: Machine) -> dict[str, Any]:
        """Our engine decision (`Playing.decide`). The seam where a test's slow seat stops before it decides."""
        return await self.play_loop.decide(m)

    async def decide_window(self, m: Machine, at: Machine, j: int) -> None:
        """Our decision j in a reaction window (`Playing.decide_window`). The seam where a test's cheater withholds its
        token, or acts after it passed."""
        await self.play_loop.decide_window(m, at, j)

    def gives_up(self, silent: int) -> bool:
        """Whether we may give up on the silent seat at all: always. The seam where a test's slow or withholding seat
        never does (tests/adversaries/_silence.py)."""
        return True

    def weighs_abandon(self, raw: bytes) -> bool:
        """Whether an abandon from another peer is weighed (`Abandoning.hold`): always. The seam where a test's
        cheater ignores one, or a stopped process learns it was given up on."""
        return True

    def accepts_genesis(self, raw: bytes, label: str) -> bool:
        """Whether we take a genesis received from `label` (the lobby's `check_genesis`). (Also the seam where a
        test's seat refuses every genesis for a while, as one whose view of the lobby lags does.)"""
        return self.lobby.check_genesis(raw, label)

    def _void(self, label: str) -> None:
        """The game is void: seat `label` left before its genesis reached it (p2p/peer/agreeing.py); nobody named."""
        self.outcome.void = True
        self.end.end("game_void", who=label)
        self.play_loop.stop_deciding()

    def _take_identity(self, identity: SecretIdentity, bundle: bytes) -> None:
        """A resume: the seat's identity (and the bundle under the roster's name) is ours."""
        self.identity, self.bundle, self.fp = identity, bundle, identity.public.fingerprint()

    @property
    def private_notes(self) -> list[str]:
        """What the player was shown privately, as told (a prompt shows them again by the next decision)."""
        return self.narrator.private_notes


def state_of(peer: TablePeer) -> Any | None:
    """The game state of `peer`'s fold (None before a game seats it)."""
    return peer.machine.state if peer.machine else None
