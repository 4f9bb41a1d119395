"""One player's peer at a table, on trio: gather in the lobby, agree on a genesis, then fold the signed log
through the game machine, authoring this seat's entries, persisting every entry before acting on it.

Everything a peer does is in `run()`:

1. **Lobby.** The mesh (signed handshake per connection) connects to peers given statically and/or found
   by mDNS. Peers swap `lobby` messages (identity bundle, listen address, addresses they know) until the
   table has `want` players; the roster is their bundles sorted by signing key.
2. **Genesis.** Roster seat 0 signs entry 0 (table, rules, roster, game id); every other peer checks the
   roster is the one it gathered.
3. **Play.** `Machine.duty()` says who authors next. Our duties are authored, appended (fsync) and
   broadcast; others' entries are checked (signature, chain, author, machine rules), appended, then acted
   on. Heads are exchanged on connect and after every entry; a missing range is fetched with `get`; two
   different entries for one seq by one author are kept as an equivocation proof.
4. **Evidence.** A signed entry that breaks a rule is never appended: the peer that rejects it posts an
   `evidence` entry in its place (the entry itself, plus what the others need to re-check it); proof from
   the machine's immediate checks (contradicting answers, a broken trade promise, a card in two places) is
   posted the same way, and two entries signed for one seq are posted as an equivocation proof at that seq.
   Every peer re-verifies it; valid evidence takes precedence over any other entry at its seq (between two,
   the lower accuser seat wins), so a peer holding another entry there sets its tail aside
   (`<log>.superseded`) and refolds: every log converges on the evidence, and the game stops with the
   verdict. See docs/protocol.md, "Precedence at one seq".
5. **End.** After the secrets entries every peer has run the audit; `run()` returns the outcome. A peer
   that stays silent past `abandon_after` seconds when it must author ends the game as abandoned, naming
   it.

Resume (`resume=True`): the log and this seat's secrets are reloaded from the game directory, the machine
refolds the log, and the peer reconnects and catches up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio
from adp2p.crypto.entries import encode_entry
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.address_book import load_book
from adp2p.p2p.machine import Chooser, Machine
from adp2p.p2p.notices import notice
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer import join_grace
from adp2p.p2p.peer.abandon import Abandoning
from adp2p.p2p.peer.abandonment import Abandonment
from adp2p.p2p.peer.agreeing import Agreeing
from adp2p.p2p.peer.catchup import CatchingUp
from adp2p.p2p.peer.common import (
    Outcome,
    PeerConfig,
    TableError,
    _fixed,
)
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.peer.evidence import Proofs
from adp2p.p2p.peer.evidence_book import EvidenceBook
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.peer.heads import Heads
from adp2p.p2p.peer.intake import Intake
from adp2p.p2p.peer.lobby import Lobby
from adp2p.p2p.peer.narrator import Narrator
from adp2p.p2p.peer.net import Net
from adp2p.p2p.peer.patience import Decision, Patience
from adp2p.p2p.peer.protest import Protest
from adp2p.p2p.peer.seat_log import SeatLog, held
from adp2p.p2p.peer.seating import Seating
from adp2p.p2p.peer.stalls import CatchUp
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.pipeline import frame
from adp2p.p2p.protocol import Kind, encode_body
from adp2p.p2p.table_word import word_key
from adp2p.p2p.transport import Mesh
from adp2p.p2p.transport.common import STRANGER_FRAME


def lobby_held(name: str, doc: str) -> property:
    """A peer's attribute that is its `Lobby`'s."""
    return property(lambda self: getattr(self.lobby, name), lambda self, v: setattr(self.lobby, name, v), doc=doc)


class TablePeer:
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
    addresses = lobby_held("addresses", "The addresses we know (and dial).")
    genesis_raw = lobby_held("genesis_raw", "The genesis we took.")
    playing = lobby_held("playing", "A peer at our table answered from inside a game.")
    # the net's (p2p/peer/net.py)
    progress = property(lambda self: self.net.progress, doc="News for the play loop (replaced once waited on).")
    outbox = property(lambda self: self.net.outbox, doc="Entries authored or re-sent outside the play loop, to send.")

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
        self.outcome = Outcome()
        self.narrator = Narrator(cfg.lang, say)  # what the player is told, and what it was told already
        self.ended: str | None = None
        self.heads = Heads()  # the others' heads, and ours as last sent
        self.proofs_to_share: list[tuple[bytes, bytes]] = []  # equivocations found, to show the others
        self._deciding = trio.CancelScope()  # our engine decision in progress (cancelled when the game moves on)
        self.patience = Patience(cfg.abandon_after)  # when each decision became due here (p2p/peer/patience.py)
        self.abandonment = Abandonment(self.patience)  # abandons held until due, the rulings on silence
        self.book = EvidenceBook()  # evidence judged, to post again, and the evidence file
        self.ended_words: str | None = None  # why the game ended for us, in the player's language
        self.proofs = Proofs(  # evidence posted, weighed, adopted (p2p/peer/evidence.py)
            self.log_state, self.book, self.narrator, self.proofs_to_share, me=lambda: self.identity,
            ended=lambda: self.ended, take_over=lambda e: self.intake.take_over(e),
            stop_deciding=lambda: self._deciding.cancel(),
            news=lambda: self.progress.set(), queue=lambda raw: self.outbox.append(raw), wire=lambda: self.wire,
            timing=self._timing, say_verdict=self._say_verdict, tell=self.tell, who=self._who, detail=self._detail,
        )
        self.catch_up = CatchUp()  # sign nothing until fresh heads show we hold all the table holds (catchup.py)
        self.catching_up = CatchingUp(
            self.log_state, self.catch_up, self.patience, self.abandonment, cfg=cfg,
            ended=lambda: bool(self.ended), ask=lambda msg: self.wire.broadcast(msg),  # type: ignore[union-attr]
            wait=lambda: self.net.wait_progress(), answer_held=lambda raw: self.abandoning.hold(raw, "a peer"),
            lose_contact=self._lost_contact,
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
            end=self._end, reopen=self._reopen, stop_deciding=lambda: self._deciding.cancel(),
            news=lambda: self.progress.set(), tell=self.tell, who=self._who,
        )
        self.protest = Protest(  # the table's branch past an entry we rejected (p2p/peer/protest.py)
            self.log_state, self.narrator, self.proofs, ended=lambda: self.ended,
            stop_deciding=lambda: self._deciding.cancel(), drain=lambda: self.intake.drain(),
            news=lambda: self.progress.set(), timing=self._timing,
        )
        self.intake = Intake(  # entries coming in (p2p/peer/intake.py)
            self.log_state, self.book, self.abandonment, self.narrator, self.proofs, self.abandoning, self.protest,
            cfg=cfg, to_share=self.proofs_to_share, keeps_own_entry=lambda raw: self.keeps_own_entry(raw),
            entry_taken=lambda raw, **k: self.entry_taken(raw, **k), ended=lambda: self.ended,
            end_verdict=self._end_verdict, stop_deciding=lambda: self._deciding.cancel(),
            news=lambda: self.progress.set(), queue=lambda raw: self.outbox.append(raw), timing=self._timing,
        )
        self._nursery: trio.Nursery | None = None
        self._reopened = False  # an abandonment was set aside by the silent seat's own entry: play on
        self.agreeing = Agreeing(self)  # the roster agreement before the genesis (p2p/peer/agreeing.py)
        self.seating = Seating(  # a game begun at its genesis or resumed (p2p/peer/seating.py)
            cfg, self.files, self.draws, self.log_state, self.book, self.narrator,
            me=lambda: (self.identity, self.bundle, self.fp), take_identity=self._take_identity, tell=self.tell,
            took_genesis=lambda raw: setattr(self, "genesis_raw", raw), outcome=lambda: self.outcome,
            catch_up=self.catching_up.begin, abandoned=lambda e: self.abandoning.abandoned(e),
        )
        self.lobby = Lobby(  # who is here, the genesis (p2p/peer/lobby.py)
            cfg, self.files, self.agreeing, self.log_state,
            me=lambda: (self.fp, self.bundle), mesh=lambda: self.mesh, wire=lambda: self.wire, tell=self.tell,
            detail=self._detail, news=lambda: self.progress.set(), wait=lambda: self.net.wait_progress(),
            start=self.seating.start, accepts=lambda raw, label: self.accepts_genesis(raw, label),
            heard_from=self.heads.heard_from, first_refusal=lambda what, peer: self.net.first_refusal(what, peer),
            send=lambda fp, msg: self.net.safe_send(fp, msg),
        )
        self.net = Net(  # what we send and receive, heads and tokens gossiped (p2p/peer/net.py)
            self.log_state, self.heads, self.catch_up, self.abandonment, self.lobby, self.agreeing, cfg=cfg,
            me=lambda: self.fp, mesh=lambda: self.mesh, wire=lambda: self.wire, outcome=lambda: self.outcome,
            ended=lambda: self.ended, reopened=lambda: self._reopened,
            handle=lambda fp, label, msg: self.handle(fp, label, msg),
            accepts_genesis=lambda raw, label: self.accepts_genesis(raw, label), accept=self.intake.accept,
            take=self.intake.take,
            drain_pending=self.intake.drain, post_pending_evidence=self.proofs.post_pending,
            share_proofs=self.proofs.share, fp_of=self.abandoning.fp_of, tell=self.tell, detail=self._detail,
        )

    async def run(self, *, resume: Path | None = None, on_listening: Callable[[int], Any] | None = None) -> Outcome:
        self._timing("start")
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
        async with Mesh(
            self.identity,
            self.cfg.name,
            self.cfg.table,
            host=self.cfg.host,
            port=self.cfg.port,
            peers=sorted(self.addresses),
            heartbeat=self.cfg.heartbeat,
            dead_after=self.cfg.dead_after,
            # redial a lost peer soon: a healed network rejoins well within the patience
            backoff_max=max(1.0, self.cfg.dead_after or 3 * self.cfg.heartbeat),
            stranger_frame=STRANGER_FRAME,  # until the game seats a peer, what it may make us hold is bounded
            word_key=key,
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
                    await self._play()
                    await self.net.send_head_now()  # the end: the others hear our last head now, not coalesced
                    # linger so the others get our last entries and can catch up from us, until every seat has
                    # the whole log: a peer resuming late still gets the end of the game, an abandoned one that
                    # returns just too late still learns it was abandoned (or its own entry, arriving now,
                    # beats the abandon and the game goes on: `_reopen`)
                    with trio.move_on_after(self.net.linger()):
                        await self.net.serve_until_heads_match()
                    if not self._reopened:
                        break
                    self._reopened = False
                nursery.cancel_scope.cancel()
            self._timing("sent", *(f"{k}={v}" for k, v in sorted(mesh.sent.items())))
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
            out.append(self.lobby.discover)
        return out

    def make_wire(self, mesh: Mesh) -> Wire:
        """The wire every message of ours goes out through (p2p/peer/wire.py): the plain one; a test's cheater
        returns its own."""
        return Wire(mesh)

    @property
    def port(self) -> int:
        assert self.mesh is not None
        return self.mesh.port

    async def _play(self) -> None:
        assert self.machine is not None and self.store is not None and self.mesh is not None
        # the game has begun: only its seated players may connect (outsiders cannot hold sockets or slots)
        self.mesh.restrict({i.fingerprint() for i in self.machine.ids} - {self.fp})
        while True:
            self.narrator.show(self.machine)
            self.intake.drain()
            self.proofs.post_pending()
            await self.net.flush()
            m = self.machine  # evidence may have replaced the fold: read it afresh every time
            if self.ended or m.complete or m.abandoned is not None:
                break
            seq, prev = len(self.store), self.store.head_id
            trial, toks = self.passes.chain(m, seq, prev) if self.passes is not None else (m, [])
            duty = trial.duty()  # who is due after the passes we hold tokens for
            assert duty is not None
            self.narrator.progress_line(m, duty)
            self.abandonment.at(seq, prev)  # abandons held for an earlier seq are moot now
            decision = (seq, prev, len(toks))
            self.patience.due(*decision)  # the duty on now became due here no earlier than now
            self.catching_up.note_stall()
            if self.catch_up.active and not await self.catching_up.gate():
                continue  # resumed or stalled: nothing is signed before we hold all the table holds
            if duty.seat == m.seat:
                chooser: Chooser | None = None
                if duty.kind == Kind.EVENT:
                    if trial.window_actor() == m.seat and (seq, prev, len(toks)) not in self.ahead:
                        await self.decide_window(m, trial, len(toks))  # a pass may go out as a token
                        continue
                    ev = self.ahead.get((seq, prev, len(toks)))
                    if ev is None:
                        with trio.CancelScope() as self._deciding:
                            ev = await self.decide(trial)
                        if self._deciding.cancelled_caught or self._moved(m, seq):
                            continue  # the game moved on while we decided (given up on us, or evidence came)
                        self.ahead[(seq, prev, len(toks))] = ev  # kept if we must catch up before signing it
                    chooser = _fixed(ev)  # decided above, off the trio thread
                out = trial.author_next(chooser)
                if out is None:  # nothing we can author (a machine that holds back): wait for news
                    await self.net.wait_progress()
                    continue
                kind, body = out
                if toks and kind == Kind.EVENT:  # (the chain only ever ends where an event is due)
                    body["passes"] = toks
                self.catching_up.note_stall()  # (no await from here to the signature: a stall shows in the next tick)
                if self.catch_up.active:
                    continue  # we did not run for a while: the table may have gone on without us
                self.seating.save_secrets()  # the witness, salts or keys this entry commits to: on disk before it is
                raw = encode_entry(
                    self.identity,
                    m.game_id,
                    len(self.store),
                    self.store.head_id,
                    m.seat,
                    int(kind),
                    encode_body(body),
                )
                try:
                    self.intake.accept(frame(raw), own=True)
                except OSError as exc:
                    raise TableError(
                        f"cannot append to {self.store.path} ({exc.strerror or exc}); nothing was sent — resume "
                        f"with: {resume_command(self.gdir, self.cfg.game)}"
                    ) from None
                await self.wire.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]  (it is our head)
                continue
            if m.prepare_shuffle():
                continue  # our masks for a shuffle step of ours to come, made while we wait for others
            if m.prepare_ahead():
                continue  # the game's work of ours to come (a proof we will owe), done while we wait for others
            if await self._look_ahead(m, trial, len(toks)):
                continue  # we decided a window of ours ahead of time: look again
            if await self._silence(decision, duty.seat, toks):
                continue
        await self.net.flush()
        self._finish()

    async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """One message that fits its schema (p2p/messages.py), handled by `Net.handle`. (Also the seam where a test's
        peer loses a message, or answers one as a cheater would: what it sends goes through its wire.)"""
        await self.net.handle(fp, label, msg)

    async def _wait_awake(self, seconds: float) -> bool:
        """`Net.wait_awake`: news, or `seconds` of time this process was running."""
        return await self.net.wait_awake(seconds)

    def _head_msg(self) -> dict[str, Any]:
        return self.net.head_msg()

    def _peer_down(self, fp: str, label: str, reason: str) -> None:
        self.net.peer_down(fp, label, reason)

    async def _safe_send(self, fp: str, msg: dict[str, Any]) -> None:
        await self.net.safe_send(fp, msg)

    def keeps_own_entry(self, raw: bytes) -> bool:
        """Whether an entry we just signed goes into our log (then out to the table): always. The seam where a test's
        cheater holds back a lie its own fold rejects (tests/adversaries/_net.py)."""
        return True

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        """After an entry came through intake (`appended`: our log grew): nothing. The seam where a test's cheater acts
        on what it saw (posts evidence late, crashes after a write)."""

    def gives_up(self, silent: int) -> bool:
        """Whether we may give up on the silent seat at all: always. The seam where a test's slow or withholding seat
        never does (tests/adversaries/_silence.py)."""
        return True

    def weighs_abandon(self, raw: bytes) -> bool:
        """Whether an abandon from another peer is weighed (`Abandoning.hold`): always. The seam where a test's
        cheater ignores one, or a stopped process learns it was given up on."""
        return True

    def _reopen(self) -> None:
        """An abandonment was set aside by the silent seat's own entry (`Abandoning.weigh`): the game goes on."""
        self.ended = self.ended_words = None
        self.outcome = Outcome(game_id=self.outcome.game_id, log_path=self.outcome.log_path)
        self._reopened = True

    def accepts_genesis(self, raw: bytes, label: str) -> bool:
        """Whether we take a genesis received from `label` (the lobby's `check_genesis`). (Also the seam where a
        test's seat refuses every genesis for a while, as one whose view of the lobby lags does.)"""
        return self.lobby.check_genesis(raw, label)

    def _take_identity(self, identity: SecretIdentity, bundle: bytes) -> None:
        """A resume: the seat's identity (and the bundle under the roster's name) is ours."""
        self.identity, self.bundle, self.fp = identity, bundle, identity.public.fingerprint()

    def _timing(self, *fields: object) -> None:
        self.files.timing(*fields)

    def _fold(self, at: int, *, fresh: bool = False) -> Machine:
        return self.log_state.fold(at, fresh=fresh)

    def _check_signed(self, e: Any) -> None:
        self.log_state.check_signed(e)

    def _stale(self, raw: bytes) -> bool:
        return self.log_state.stale(raw)

    @property
    def private_notes(self) -> list[str]:
        """What the player was shown privately, as told (a prompt shows them again by the next decision)."""
        return self.narrator.private_notes

    def tell(self, what: str, /, **args: Any) -> None:
        """Tell the player one notice (p2p/notices.py) in its language."""
        self.narrator.tell(what, **args)

    def _who(self, seat: int | None, lang: str | None = None) -> str:
        return self.narrator.who(self.machine, seat, lang)

    def _detail(self, why: object) -> str:
        return self.narrator.detail(why)

    def _say_verdict(self) -> None:
        self.narrator.say_verdict(self.machine, bool(self.ended))

    def _end(self, what: str, **args: Any) -> None:
        """The game ends here for us, and why: `ended` in English (the outcome), `ended_words` in the player's
        language (an argument may be a function of the language)."""
        def words(lang: str) -> str:
            return notice(what, lang, **{k: v(lang) if callable(v) else v for k, v in args.items()})

        self.ended, self.ended_words = words("en"), words(self.cfg.lang)

    def _end_verdict(self, text: str, said: str | None = None) -> None:
        """The game ends on a verdict: `text` in English (the outcome), `said` to the player in its language."""
        self.ended, self.ended_words = text, said or text
        self._deciding.cancel()
        self.outcome.verdict = text
        self.say(self.ended_words)
        self.progress.set()

    def _lost_contact(self) -> None:
        """The table did not answer us catching up within two periods: we leave naming nobody, writing nothing."""
        assert self.store is not None
        self.outcome.lost_contact = True
        self._end("lost_contact", seq=len(self.store), resume=resume_command(self.gdir, self.cfg.game))
        self.progress.set()

    def _finish(self) -> None:
        m, store = self.machine, self.store
        assert m is not None and store is not None
        self.outcome.entries = len(store)
        self.outcome.head = store.head_id
        self.narrator.finish(m, self.outcome, self.ended, self.ended_words)

    async def _silence(self, decision: Decision, seat: int, toks: list[bytes]) -> bool:
        """The seat on duty has not answered `decision`: wait for news or for its next period of patience (counted
        from when that decision became due here, not from when this seq began or the last message came: entries
        sent far ahead of the log, tokens on made-up branches and the like are no answer). At each period that
        passes, one last look at what waits in our buffers, then give up on it (`Abandoning.abandon`). True to look
        again."""
        period = self.cfg.abandon_after
        m = self.machine
        assert m is not None
        if join_grace.not_seated_yet(self, m, seat, decision):  # its patience starts once it holds the genesis
            await self.net.wait_awake(max(0.2, self.cfg.heartbeat))
            return True
        rounds = self.patience.rounds(*decision, m.n)
        acted = self.abandonment.acted(decision)
        if rounds <= acted:
            if period <= 0:  # no patience at all: every seat may give up at once, and has
                await self.net.wait_progress()
                return True
            left = self.patience.due(*decision) + (acted + 1) * period - self.patience.now()
            await self.net.wait_awake(max(0.0, left))
            return True
        # a last look before giving up on that seat: what it sent may still wait in our buffers (after this process
        # was suspended, every timer fires at once, before the buffered entries are read)
        self.abandonment.act(decision, rounds)
        with trio.move_on_after(max(0.2, self.cfg.heartbeat)):
            while self.store is not None and len(self.store) == decision[0] and self.machine is m:
                await self.net.wait_progress()
                if self._tokens_held(m, decision) != decision[2]:
                    break
        if self.store is None or len(self.store) != decision[0] or self.machine is not m or self.ended:
            return True
        if self._tokens_held(m, decision) != decision[2]:
            return True  # its answer (a token) came meanwhile: the next decision's clock starts
        await self.abandoning.abandon(seat, rounds, toks)
        return True

    def _tokens_held(self, m: Machine, decision: Decision) -> int:
        """How many decisions at that point our held tokens answer (the chain the next entry would carry)."""
        return len(self.passes.chain(m, decision[0], decision[1])[1]) if self.passes is not None else 0

    async def decide(self, m: Machine) -> dict[str, Any]:
        """Our engine decision: the chooser (a bot, or a person at a prompt) runs in a worker thread so the
        mesh keeps answering heartbeats; a short think delay hides how fast we decided (no tells). (Also the seam
        where a test's slow seat stops before it decides.)"""
        assert m.seat is not None
        seen = m.game.view(m.state, m.seat)
        options = m.game.legal(seen, m.seat)
        delay = self.cfg.think()
        if delay > 0:
            await trio.sleep(delay)
        return await trio.to_thread.run_sync(self.choose, seen, m.seat, options, abandon_on_cancel=True)

    def _moved(self, m: Machine, seq: int) -> bool:
        """The game moved on while we decided at `seq` on fold `m` (an entry came, evidence, the end)."""
        return bool(self.ended) or self.machine is not m or self.store is None or len(self.store) != seq

    async def decide_window(self, m: Machine, at: Machine, j: int) -> None:
        """Our decision j in a reaction window, on `at` (our fold with the passes before it applied, held or
        assumed): a pass followed by another decision goes out as a token (on disk first); anything else waits in
        `ahead` until the passes before it have come, and is then written as our entry. (Also the seam where a test's
        cheater withholds its token, or acts after it passed.)"""
        assert self.store is not None and self.passes is not None and m.seat is not None and self.mesh is not None
        seq, prev = len(self.store), self.store.head_id
        with trio.CancelScope() as self._deciding:
            ev = await self.decide(at)
        if self._deciding.cancelled_caught or self._moved(m, seq):
            return
        self.catching_up.note_stall()
        if self.catch_up.active:
            return  # we did not run for a while: decide again once caught up
        if m.game.is_pass(ev, m.seat) and not self.abandonment.names_me(seq, prev, j, m.seat):
            after = at.fork()
            after.pass_window()
            nxt = after.duty()
            if nxt is not None and nxt.kind == Kind.EVENT:  # someone's next entry can carry it
                token = self.passes.sign(self.identity, seq, prev, j)
                if nxt.seat != m.seat:
                    await self.wire.broadcast(
                        {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token}
                    )
                self.progress.set()
                return
        self.ahead[(seq, prev, j)] = ev

    async def _look_ahead(self, m: Machine, at: Machine, j: int) -> bool:
        """While a window waits for other seats, decide our own later decisions in it now, as if those before us
        pass (the only case in which the rules would ask us): every seat of a window decides at once. True if we
        decided one (the caller looks again)."""
        if self.passes is None or m.seat is None or self.store is None or at.window_actor() is None:
            return False
        seq, prev = len(self.store), self.store.head_id
        sim: Machine | None = None
        while (who := (sim or at).window_actor()) is not None:
            if who == m.seat and not self.passes.signed(seq, prev, j):
                if (seq, prev, j) in self.ahead:
                    return False  # decided: what follows depends on it
                await self.decide_window(m, sim or at, j)
                return True
            if sim is None:
                sim = at.fork()
            sim.pass_window()
            j += 1
        return False


def state_of(peer: TablePeer) -> Any | None:
    """The game state of `peer`'s fold (None before a game seats it)."""
    return peer.machine.state if peer.machine else None
